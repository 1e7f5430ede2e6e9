import { cancelAmount } from "./amount.js";
import { byId } from "./dom.js";
import type { Game, MenuOption } from "./game.js";
import { KeysHelp } from "./keysHelp.js";
import { closeMenu, menuOpen } from "./menus.js";
import { settings } from "./settings.js";
import type { WorldView } from "./view.js";
import { closeBankWindow } from "./windows/bank.js";
import { closeQuestComplete } from "./windows/questComplete.js";

/** The walking keys (KeyboardEvent.code, so they sit in the same place on any layout): north is up. */
const WALK: Record<string, readonly [number, number]> = {
  ArrowUp: [0, 1],
  KeyW: [0, 1],
  ArrowDown: [0, -1],
  KeyS: [0, -1],
  ArrowLeft: [-1, 0],
  KeyA: [-1, 0],
  ArrowRight: [1, 0],
  KeyD: [1, 0],
};
/** A held key repeats: the same step is sent again only after this long (a move the server did not take). */
const RESEND_MS = 1500;
/** The overlays Escape closes, and the button that closes each. */
const CLOSES: Record<string, RegExp> = { dialogue: /^(Walk away|Continue)$/, store: /^Close$/, tanner: /^Close$/, report: /^Close$/, hiscores: /^Close$/ };

/** Something on the map the act key can act on. */
type Thing = { kind: "npc" | "resource" | "item" | "station"; id: string; x: number; z: number };

/** Typing in a field: keys are the field's own (the chat box, the bank's search). */
const typing = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.isContentEditable || t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement);
/** A focused control whose Enter and Space are its own (a button, a link). */
const pressable = (t: EventTarget | null) => t instanceof HTMLElement && t.closest("button, a[href], summary") !== null;

/** The start form: Enter in the name (or token) field plays, as the Play button does. */
export function installLoginKeys() {
  const play = byId<HTMLButtonElement>("play");
  for (const id of ["name", "idp-token"]) {
    byId<HTMLInputElement>(id).addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter" || ev.isComposing) return;
      ev.preventDefault();
      if (!play.disabled) play.click();
    });
  }
}

/** The start form's first field shown (else Play) takes the focus. */
export function focusLogin() {
  const first = ["name-row", "idp-row"].map((row) => byId(row)).find((row) => !row.hidden);
  (first?.querySelector("input") ?? byId("play")).focus();
}

/**
 * Keyboard play (the keys: keysHelp.ts): walking a tile a press, acting on the quest's target or
 * the nearest thing, answering the conversation, the side tabs, Escape, the pack's slots and the
 * menus. Installed by the play path only (main.ts), never in watch mode. Nothing fires while the
 * player types in a field, except Escape there (back to the map).
 */
export function installKeyboard(game: Game, view: WorldView) {
  const canvas = byId<HTMLCanvasElement>("world");
  const menu = byId("menu");
  const dialog = byId("dialog");
  const help = new KeysHelp();
  const held = new Set<string>();
  let lastStep: { x: number; z: number; at: number } | null = null;
  /** What had the focus when a menu was opened from the keyboard: it has it again when the menu closes. */
  let menuOpener: HTMLElement | null = null;

  const here = () => {
    const me = game.net.state.players?.get(game.net.playerId);
    return me ? { x: me.x, z: me.z } : game.me.position;
  };

  /** One step the way the held keys point (sliding along a wall when straight on is blocked). */
  const step = () => {
    let dx = 0;
    let dz = 0;
    for (const code of held) {
      const d = WALK[code];
      if (d) {
        dx += d[0];
        dz += d[1];
      }
    }
    dx = Math.sign(dx);
    dz = Math.sign(dz);
    if (!dx && !dz) return;
    const from = here();
    const tries: Array<[number, number]> =
      dx && dz
        ? [
            [dx, dz],
            [dx, 0],
            [0, dz],
          ]
        : dx
          ? [
              [dx, 0],
              [dx, 1],
              [dx, -1],
            ]
          : [
              [0, dz],
              [1, dz],
              [-1, dz],
            ];
    const to = tries.map(([ax, az]) => ({ x: from.x + ax, z: from.z + az })).find((t) => !game.isBlocked(t.x, t.z));
    if (!to) return;
    const now = performance.now();
    if (lastStep && lastStep.x === to.x && lastStep.z === to.z && now - lastStep.at < RESEND_MS) return;
    lastStep = { ...to, at: now };
    closeMenu();
    game.net.send("player:move", { x: to.x, z: to.z, run: settings.run });
  };

  /** What can be done with a thing, the default first (as a click on it lists them); null when only walking. */
  const optionsFor = (t: Thing): MenuOption[] | null => {
    const options = view.options(t.x, t.z, [{ kind: t.kind, id: t.id }]);
    return options[0] && options[0].label !== "Walk here" ? options : null;
  };

  /** The quest's target if it is drawn on the map, else the nearest thing in view there is something to do with. */
  const target = (): { thing: Thing; options: MenuOption[] } | null => {
    const state = game.net.state;
    for (const m of view.drawnMarkers) {
      if (m.where !== "map" || m.edge || !m.entityId) continue;
      const npc = state.npcs.get(m.entityId);
      const res = state.resources.get(m.entityId);
      const thing: Thing | null = npc ? { kind: "npc", id: npc.id, x: npc.x, z: npc.z } : res ? { kind: "resource", id: res.id, x: res.x, z: res.z } : null;
      const options = thing && optionsFor(thing);
      if (thing && options) return { thing, options };
    }
    const me = here();
    const halfX = canvas.width / 2 / view.tile;
    const halfZ = canvas.height / 2 / view.tile;
    const things: Thing[] = [];
    const add = (kind: Thing["kind"], e: { id: string; x: number; z: number }) => {
      if (Math.abs(e.x - me.x) <= halfX && Math.abs(e.z - me.z) <= halfZ) things.push({ kind, id: e.id, x: e.x, z: e.z });
    };
    state.npcs.forEach((n) => n.state !== "dead" && add("npc", n));
    state.resources.forEach((r) => add("resource", r));
    state.groundItems.forEach((g) => add("item", g));
    state.stations.forEach((s) => add("station", s));
    const far = (t: Thing) => Math.max(Math.abs(t.x - me.x), Math.abs(t.z - me.z)) + Math.hypot(t.x - me.x, t.z - me.z) / 1000;
    things.sort((a, b) => far(a) - far(b));
    for (const thing of things) {
      const options = optionsFor(thing);
      if (options) return { thing, options };
    }
    return null;
  };

  const act = () => {
    const t = target();
    if (!t) return game.log("There is nothing to do here: walk with the arrow keys or W A S D.", "system");
    closeMenu();
    t.options[0]!.run();
  };

  /** Open a menu from the keyboard, its first entry focused. */
  const openMenu = (open: () => void) => {
    menuOpener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : canvas;
    open();
    menu.querySelector("button")?.focus();
  };

  const targetMenu = () => {
    const t = target();
    if (!t) return game.log("There is nothing here to list: walk with the arrow keys or W A S D.", "system");
    const at = view.tileToPage(t.thing.x, t.thing.z);
    const title = view.describe(t.thing)?.name ?? `Tile ${t.thing.x}, ${t.thing.z}`;
    openMenu(() => game.menu(at.x, at.y, title, t.options));
  };

  /** A pack slot's menu, as its click opens it (at the slot). */
  const slotMenu = (slot: HTMLElement) => {
    const r = slot.getBoundingClientRect();
    openMenu(() =>
      slot.dispatchEvent(new MouseEvent("contextmenu", { bubbles: true, cancelable: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 })),
    );
  };

  // Focus goes back to where it was once a menu opened from the keyboard closes.
  new MutationObserver(() => {
    if (!menu.hidden || !menuOpener) return;
    const back = menuOpener;
    menuOpener = null;
    const lost = document.activeElement === document.body || document.activeElement === null || menu.contains(document.activeElement);
    if (!lost) return;
    const slot = back.dataset.slot !== undefined ? document.querySelector<HTMLElement>(`#panel .slot[data-slot="${back.dataset.slot}"]`) : null;
    (back.isConnected ? back : (slot ?? canvas)).focus();
  }).observe(menu, { attributes: true, attributeFilter: ["hidden"] });

  // The side panel is drawn anew as the game changes: a focused slot keeps the focus in its new drawing.
  let focusedSlot: string | null = null;
  const panel = byId("panel");
  document.addEventListener("focusin", (ev) => {
    const slot = ev.target instanceof HTMLElement && panel.contains(ev.target) ? ev.target.closest<HTMLElement>(".slot") : null;
    focusedSlot = slot?.dataset.slot ?? null;
  });
  document.addEventListener("focusout", (ev) => {
    if (ev.target instanceof Node && ev.target.isConnected && ev.relatedTarget === null) focusedSlot = null;
  });
  new MutationObserver(() => {
    if (focusedSlot === null || (document.activeElement !== document.body && document.activeElement !== null)) return;
    panel.querySelector<HTMLElement>(`.slot[data-slot="${focusedSlot}"]`)?.focus();
  }).observe(panel, { childList: true, subtree: true });

  const activeTab = () => document.querySelector("#tabs button.active")?.textContent ?? "";

  const dialogueButtons = (): { answers: HTMLButtonElement[]; closer: HTMLButtonElement | null } | null => {
    if (!game.overlayIs("dialogue")) return null;
    const buttons = [...dialog.querySelectorAll<HTMLButtonElement>(".actions button")];
    return { answers: buttons.slice(0, -1), closer: buttons.at(-1) ?? null };
  };

  /** Continue a conversation with one answer (or none: its Continue); true when there was one to continue. */
  const continueDialogue = (): boolean => {
    const d = dialogueButtons();
    if (!d) return false;
    if (d.answers.length === 1) d.answers[0]!.click();
    else if (d.answers.length === 0) d.closer?.click();
    else game.log("Answer with the number keys (1 is the first answer).", "system");
    return true;
  };

  /** Close the topmost thing open; false when nothing was. */
  const escape = (): boolean => {
    if (closeMenu()) return true;
    if (cancelAmount()) return true;
    if (help.close()) return true;
    if (closeQuestComplete()) return true;
    const owner = game.overlayIs(dialog.dataset.owner ?? "") && !dialog.hidden ? dialog.dataset.owner! : null;
    const closes = owner ? CLOSES[owner] : undefined;
    if (closes) {
      const button = [...dialog.querySelectorAll<HTMLButtonElement>("button")].reverse().find((b) => closes.test(b.textContent ?? ""));
      if (button) {
        button.click();
        return true;
      }
    }
    return closeBankWindow();
  };

  /** The side tab before (-1) or after (1) the one shown. */
  const cycleTab = (by: 1 | -1) => {
    const names = [...document.querySelectorAll("#tabs button")].map((b) => b.textContent ?? "");
    const at = names.indexOf(activeTab());
    const next = names[(at + by + names.length) % names.length];
    if (next) game.showTab(next);
  };

  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.altKey || ev.metaKey || ev.isComposing || byId("game").hidden) return;
    const t = ev.target;
    if (typing(t)) {
      // In a field only Escape is the game's: a menu closes, else back to the map.
      if (ev.key === "Escape" && !closeMenu()) {
        (t as HTMLElement).blur();
        canvas.focus();
      }
      return;
    }
    const handled = () => ev.preventDefault();
    // In a menu: the arrows choose, Enter or Space picks (the button's own), Escape closes.
    if (t instanceof Node && menu.contains(t)) {
      if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
        const buttons = [...menu.querySelectorAll<HTMLButtonElement>("button")];
        const i = buttons.indexOf(t as HTMLButtonElement);
        buttons[(i + (ev.key === "ArrowDown" ? 1 : -1) + buttons.length) % buttons.length]?.focus();
        handled();
      } else if (ev.key === "Escape") {
        closeMenu();
        handled();
      }
      return;
    }
    if (ev.key === "Escape") {
      if (escape()) handled();
      return;
    }
    if (ev.key === "?") {
      help.toggle();
      return handled();
    }
    const dir = WALK[ev.code];
    if (dir) {
      held.add(ev.code);
      step();
      return handled();
    }
    if (ev.repeat) return;
    const enterOrSpace = ev.key === "Enter" || ev.code === "Space";
    // A focused button presses itself; a focused slot opens its menu.
    if (enterOrSpace && pressable(t)) return;
    if (enterOrSpace && t instanceof HTMLElement && t.matches("#panel .slot")) {
      slotMenu(t);
      return handled();
    }
    const digit = /^(Digit|Numpad)([1-9])$/.exec(ev.code);
    if (digit) {
      const d = dialogueButtons();
      const answer = d?.answers[Number(digit[2]) - 1];
      if (answer) {
        answer.click();
        handled();
      }
      return;
    }
    if (enterOrSpace && continueDialogue()) return handled();
    if (ev.code === "KeyE" || ev.code === "Space") {
      act();
      return handled();
    }
    if (ev.code === "KeyM") {
      targetMenu();
      return handled();
    }
    if (ev.code === "BracketRight" || ev.code === "BracketLeft") {
      cycleTab(ev.code === "BracketRight" ? 1 : -1);
      return handled();
    }
  });
  document.addEventListener("keyup", (ev) => held.delete(ev.code));
  window.addEventListener("blur", () => held.clear());

  canvas.focus();
  game.log("Keys: arrows or W A S D walk, E acts, 1–9 answer, Escape closes; ? lists them all.", "system");
}
