import { INVENTORY_SIZE, SKILLS, type SkillName } from "../../../src/protocol/vocabulary.js";
import type { InventorySlotView } from "../../../src/protocol/index.js";
import { withAmount } from "../amount.js";
import { h } from "../dom.js";
import type { Game, MenuOption } from "../game.js";
import { closeMenu } from "../menus.js";
import { iconUrl } from "../icons.js";
import type { Panel } from "./panel.js";

/** A stack's size as the pack shows it: 25, 12.5K, 3M. */
export function quantityText(n: number): string {
  if (n >= 10_000_000) return `${Math.floor(n / 1_000_000)}M`;
  if (n >= 100_000) return `${Math.floor(n / 1000)}K`;
  return String(n);
}

/**
 * The pack: 28 slots. A left click (a tap) does the item's first thing (`primary`): deposit it while
 * the bank is open, offer it in a trade, use the item chosen with "Use with…" on it, light logs
 * with a tinderbox in the pack, eat, wield or wear, bury, rub; an item with none opens its menu. A
 * right click (a long press, Enter on the slot) lists everything it can do here and now.
 */
export const inventoryPanel: Panel = {
  name: "Pack",
  render(game) {
    const bySlot = new Map(game.me.inventory.map((s) => [s.slot, s]));
    const grid = h("div", { className: "grid" });
    for (let slot = 0; slot < INVENTORY_SIZE; slot++) {
      const s = bySlot.get(slot);
      const item = s ? game.item(s.itemId) : undefined;
      const cell = h(
        "div",
        {
          className: `slot${s?.locked ? " locked" : ""}`,
          // A slot with an item takes the focus (Tab); Enter or Space opens its menu (keyboard.ts).
          tabIndex: s ? 0 : -1,
          dataset: { slot: String(slot), item: s?.itemId ?? "" },
          title: s ? `${game.itemName(s.itemId)}${item?.examine ? `\n${item.examine}` : ""}` : "",
        },
        item ? h("img", { src: iconUrl(item), alt: "", width: 32, height: 32, draggable: false }) : null,
        s ? h("span", { className: "name" }, game.itemName(s.itemId)) : "",
        s && s.quantity > 1 ? h("div", { className: "qty" }, quantityText(s.quantity)) : null,
      );
      if (s) {
        cell.onclick = (ev) => {
          const options = slotOptions(game, s);
          const primary = options.find((o) => o.primary);
          if (!primary) return game.menu(ev.pageX, ev.pageY, game.itemName(s.itemId), options);
          closeMenu();
          primary.run();
        };
        cell.oncontextmenu = (ev) => {
          ev.preventDefault();
          game.menu(ev.pageX, ev.pageY, game.itemName(s.itemId), slotOptions(game, s));
        };
      }
      grid.append(cell);
    }
    return h("div", {}, h("h3", {}, `Pack (${bySlot.size}/${INVENTORY_SIZE})`), grid);
  },
};

/** A choice in a slot's menu; the first `primary` one is what a left click on the slot does. */
export interface SlotOption extends MenuOption {
  primary?: boolean;
}

/** Hooks the trade, duel, store and bank windows add to a slot's menu while they are open (their choices first). */
export const slotHooks: Array<(game: Game, s: InventorySlotView) => SlotOption[]> = [];

/** The slot chosen with "Use with…", waiting for the second one. */
let using: InventorySlotView | null = null;

/** Everything the item in a slot can do here and now, the window's choices first. */
function slotOptions(game: Game, s: InventorySlotView): SlotOption[] {
  const net = game.net;
  const item = game.item(s.itemId);
  const name = game.itemName(s.itemId);
  const options: SlotOption[] = slotHooks.flatMap((hook) => hook(game, s));
  if (using && using.slot !== s.slot) {
    const first = using;
    options.push({
      label: `Use ${game.itemName(first.itemId)} with ${name}`,
      primary: true,
      run: () => net.send("inventory:use", { slot: first.slot, targetSlot: s.slot }),
    });
  }
  using = null;
  const tinderbox = recipeInput(game, "firemaking", s.itemId) ? game.me.inventory.find((t) => t.itemId === TINDERBOX && !t.locked) : undefined;
  if (tinderbox) options.push({ label: `Light ${name}`, primary: true, run: () => net.send("inventory:use", { slot: tinderbox.slot, targetSlot: s.slot }) });
  if (item?.healAmount) options.push({ label: `Eat ${name}`, primary: true, run: () => net.send("inventory:use", { slot: s.slot, action: "eat" }) });
  if (item?.equipSlot) {
    // Weapons are wielded, the rest worn: the word the newcomer's hint uses.
    const verb = item.equipSlot === "weapon" || item.equipSlot === "2h" ? "Wield" : "Wear";
    options.push({ label: `${verb} ${name}`, primary: true, run: () => net.send("inventory:use", { slot: s.slot, action: "equip" }) });
  }
  if (item?.prayerXp) options.push({ label: `Bury ${name}`, primary: true, run: () => net.send("inventory:use", { slot: s.slot, action: "bury" }) });
  if (item?.lampXp) {
    const rub = (skill: SkillName) => net.send("inventory:use", { slot: s.slot, action: "rub", skill });
    options.push({
      label: `Rub ${name}`,
      primary: true,
      run: () =>
        game.menuAgain(
          `Rub ${name}: which skill?`,
          SKILLS.map((skill) => ({ label: skillName(skill), run: () => rub(skill) })),
        ),
    });
  }
  const fire = nearestCookingPlace(game);
  if (fire) {
    options.push({
      label: `Cook ${name} on the ${fire.label}`,
      primary: recipeInput(game, "cooking", s.itemId),
      run: () => net.send("inventory:use", { slot: s.slot, action: "cook", targetId: fire.id }),
    });
  }
  options.push({
    label: `Use ${name} with…`,
    run: () => {
      using = s;
      game.log(`Choose what to use the ${name} with`, "system");
    },
  });
  options.push({ label: `Drop ${name}`, run: () => net.send("inventory:use", { slot: s.slot, action: "drop" }) });
  if (s.quantity > 1) {
    options.push({
      label: `Drop some ${name}…`,
      run: () => withAmount(`Drop how many ${name}?`, s.quantity, (quantity) => net.send("inventory:use", { slot: s.slot, action: "drop", quantity })),
    });
  }
  return options;
}

/** The item that lights logs (src/game/firemaking.ts). */
const TINDERBOX = "tinderbox";

/** Is the item what a recipe of the kind takes (raw food cooked, logs burnt)? */
function recipeInput(game: Game, kind: string, itemId: string): boolean {
  return (game.catalogue.recipes[kind] ?? []).some((r) => r.inputs.some((i) => i.itemId === itemId));
}

const skillName = (skill: string) => skill[0]!.toUpperCase() + skill.slice(1);

/** A fire or a range within a step of the player, to cook on. */
function nearestCookingPlace(game: Game): { id: string; label: string } | null {
  const { x, z } = game.me.position;
  const near = (e: { x: number; z: number }) => Math.max(Math.abs(e.x - x), Math.abs(e.z - z)) <= 1;
  let found: { id: string; label: string } | null = null;
  game.net.state.resources.forEach((r) => {
    if (!found && r.skill === "firemaking" && near(r)) found = { id: r.id, label: "fire" };
  });
  game.net.state.stations.forEach((s) => {
    if (!found && s.type === "range" && near(s)) found = { id: "range", label: "range" };
  });
  return found;
}
