import type { Catalogue, ItemInfo, NpcInfo, WorldMap } from "./api.js";
import type { QuestTargetView, QuestView, StationView } from "../../src/protocol/index.js";
import type { WorldConnection } from "./connection.js";
import { byId, h } from "./dom.js";
import { setSignsBackIn } from "./session.js";

/** What the panels ask of the page's guidance (client/src/guidance.ts). */
export interface QuestGuide {
  tracked(): { quest: QuestView; target: QuestTargetView; doing: string } | null;
  describe(quest: QuestView, target: QuestTargetView): string;
  notStarted(): QuestView[];
  onChange(fn: () => void): void;
}

/** A chat line's kind: what is said (local, world, private), what the game says (system, and xp for skills' xp), staff broadcasts, errors. */
export type LogKind = "local" | "world" | "private" | "system" | "xp" | "broadcast" | "error";

/** A choice in a right-click (or slot) menu. */
export interface MenuOption {
  label: string;
  run: () => void;
}

/**
 * What every part of the client shares: the connection, the game data it names things from, the
 * chat log, the menu and the overlay window (trade, duel, dialogue, store, bank).
 */
export class Game {
  private items!: Map<string, ItemInfo>;
  private npcs!: Map<string, NpcInfo>;
  private readonly changeListeners: Array<() => void> = [];
  /** Where log lines go (the chat panel sets it). */
  logTo: (text: string, kind: LogKind) => void = () => {};
  /** Which overlay owns the window now (so a late event of another does not close it). */
  private overlayOwner: string | null = null;
  private blocked!: Uint8Array;
  /** A spell chosen in the combat panel, cast at the next target clicked. */
  pendingSpell: { id: string; name: string } | null = null;
  /** The opponent of the duel fight under way. */
  duelOpponent: string | null = null;
  /** The station chosen last (the production panel makes things there). */
  station: StationView | null = null;
  /** Bring a side panel to the front (the tabs set it). */
  showTab: (name: string) => void = () => {};
  /** Where to go next (set once the page has it). */
  guidance: QuestGuide | null = null;
  /** Write a private message to a player (the chat box sets it). */
  whisper: (name: string) => void = () => {};
  /** Open the report window, for the player named (the report window sets it). */
  report: (name: string) => void = () => {};
  /** Open the bank window (client/src/windows/bank.ts sets it): it shows once the bank is in reach. */
  openBank: () => void = () => {};
  /** Open the hiscores window, on a board (the hiscores window sets it: "overall", a skill, "duels"). */
  hiscores: (board?: "duels") => void = () => {};

  constructor(
    readonly net: WorldConnection,
    public catalogue: Catalogue,
    public map: WorldMap,
  ) {
    this.setData(catalogue, map);
    net.on("player:sync", () => this.changed());
    net.on("error", (e) => this.log(`${e.message} (${e.code})`, "error"));
    net.on("notice", (n) => this.log(n.message, "system"));
  }

  /** Take the game data (again, after the server's content was reloaded). */
  setData(catalogue: Catalogue, map: WorldMap) {
    this.catalogue = catalogue;
    this.map = map;
    this.items = new Map(catalogue.items.map((i) => [i.id, i]));
    this.npcs = new Map(catalogue.npcs.map((n) => [n.id, n]));
    this.blocked = Uint8Array.from(atob(map.blocked), (c) => c.charCodeAt(0));
  }

  get me() {
    return this.net.me;
  }

  /** The account's staff role and mute, as the server last said. */
  get standing() {
    return this.net.standing;
  }

  item(id: string): ItemInfo | undefined {
    return this.items.get(id);
  }

  itemName(id: string): string {
    return this.items.get(id)?.name ?? id;
  }

  npc(npcId: string): NpcInfo | undefined {
    return this.npcs.get(npcId);
  }

  /** Whether a tile is blocked (or off the map), from the ground plan. */
  isBlocked(x: number, z: number): boolean {
    const b = this.map.bounds;
    if (x < b.minX || x > b.maxX || z < b.minZ || z > b.maxZ) return true;
    const i = (z - b.minZ) * this.map.width + (x - b.minX);
    return (this.blocked[i >> 3]! & (1 << (i & 7))) !== 0;
  }

  /** Leave the world (the character is saved) and go back to the start; Play comes back as the same character. */
  async logout() {
    this.log("Logging out…");
    // The page comes back to its start, not straight into the world; Play goes back as the same character.
    setSignsBackIn(false);
    try {
      await this.net.room.leave(true);
    } finally {
      location.reload();
    }
  }

  /** Cast the chosen spell at a target. */
  cast(targetId: string) {
    if (!this.pendingSpell) return;
    this.net.send("combat:cast", { spellId: this.pendingSpell.id, targetId });
    this.pendingSpell = null;
  }

  /** Walk up to a station: a bank opens the bank window (once in reach), anything else the production panel. */
  useStation(s: StationView) {
    this.station = s;
    const from = this.me.position;
    let best: { x: number; z: number } | null = null;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dz = -1; dz <= 1; dz++) {
        const t = { x: s.x + dx, z: s.z + dz };
        if ((dx || dz) && !this.isBlocked(t.x, t.z) && (!best || Math.hypot(t.x - from.x, t.z - from.z) < Math.hypot(best.x - from.x, best.z - from.z)))
          best = t;
      }
    }
    if (best) this.net.send("player:move", best);
    if (s.type === "bank") this.openBank();
    else this.showTab("Make");
  }

  log(text: string, kind: LogKind = "system") {
    this.logTo(text, kind);
  }

  /** Call `fn` whenever the player's own state changed (and the panels should redraw). */
  onChange(fn: () => void) {
    this.changeListeners.push(fn);
  }

  changed() {
    for (const fn of this.changeListeners) fn();
  }

  /** Where the last menu was opened (page coordinates): a choice that asks again opens its menu there. */
  private menuAt = { x: 0, y: 0 };

  /** Show a menu where the last one was (a choice that asks which: a lamp's skill). */
  menuAgain(title: string, options: MenuOption[]) {
    this.menu(this.menuAt.x, this.menuAt.y, title, options);
  }

  /** Show a menu at page coordinates; a click anywhere else closes it. */
  menu(pageX: number, pageY: number, title: string, options: MenuOption[]) {
    this.menuAt = { x: pageX, y: pageY };
    const menu = byId("menu");
    const stage = menu.parentElement!.getBoundingClientRect();
    menu.replaceChildren(
      h("div", { className: "menu-title" }, title),
      ...options.map((o) =>
        h("button", {
          onclick: (ev: MouseEvent) => {
            ev.stopPropagation();
            menu.hidden = true;
            o.run();
          },
          textContent: o.label,
        }),
      ),
      h("button", { onclick: () => (menu.hidden = true), textContent: "Cancel" }),
    );
    menu.style.left = `${Math.max(0, pageX - stage.left - window.scrollX)}px`;
    menu.style.top = `${Math.max(0, pageY - stage.top - window.scrollY)}px`;
    menu.hidden = false;
  }

  /** Put `content` in the overlay window, owned by `owner` (e.g. "trade"). */
  overlay(owner: string, title: string, ...content: Array<Node | string>) {
    const dialog = byId("dialog");
    dialog.replaceChildren(h("h3", {}, title), ...content);
    dialog.dataset.owner = owner;
    dialog.hidden = false;
    this.overlayOwner = owner;
  }

  /** Ask a yes-or-no question in the overlay (a trade request, a duel challenge): Decline also closes it. */
  ask(owner: string, title: string, answer: (accept: boolean) => void) {
    this.overlay(
      owner,
      title,
      h(
        "div",
        { className: "actions" },
        h("button", { textContent: "Accept", onclick: () => answer(true) }),
        h("button", {
          textContent: "Decline",
          onclick: () => {
            answer(false);
            this.closeOverlay(owner);
          },
        }),
      ),
    );
  }

  /** Close the overlay if `owner` still owns it. */
  closeOverlay(owner: string) {
    if (this.overlayOwner !== owner) return;
    const dialog = byId("dialog");
    dialog.hidden = true;
    dialog.replaceChildren();
    this.overlayOwner = null;
  }

  overlayIs(owner: string): boolean {
    return this.overlayOwner === owner;
  }
}
