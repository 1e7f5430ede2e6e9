import { INVENTORY_SIZE, SKILLS } from "../../../src/protocol/vocabulary.js";
import type { InventorySlotView } from "../../../src/protocol/index.js";
import { askQuantity, h } from "../dom.js";
import type { Game, MenuOption } from "../game.js";
import { iconUrl } from "../icons.js";
import type { Panel } from "./panel.js";

/** A stack's size as the pack shows it: 25, 12.5K, 3M. */
export function quantityText(n: number): string {
  if (n >= 10_000_000) return `${Math.floor(n / 1_000_000)}M`;
  if (n >= 100_000) return `${Math.floor(n / 1000)}K`;
  return String(n);
}

/** The pack: 28 slots; a click lists what the item can do here and now. */
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
      if (s) cell.onclick = (ev) => game.menu(ev.pageX, ev.pageY, game.itemName(s.itemId), slotOptions(game, s));
      grid.append(cell);
    }
    return h("div", {}, h("h3", {}, `Pack (${bySlot.size}/${INVENTORY_SIZE})`), grid);
  },
};

/** Hooks the trade, duel and store windows add to a slot's menu while they are open. */
export const slotHooks: Array<(game: Game, s: InventorySlotView) => MenuOption[]> = [];

/** The slot chosen with "Use with…", waiting for the second one. */
let using: InventorySlotView | null = null;

function slotOptions(game: Game, s: InventorySlotView): MenuOption[] {
  const net = game.net;
  const item = game.item(s.itemId);
  const name = game.itemName(s.itemId);
  const options: MenuOption[] = slotHooks.flatMap((hook) => hook(game, s));
  if (using && using.slot !== s.slot) {
    const first = using;
    options.push({ label: `Use ${game.itemName(first.itemId)} with ${name}`, run: () => net.send("inventory:use", { slot: first.slot, targetSlot: s.slot }) });
  }
  using = null;
  if (item?.healAmount) options.push({ label: `Eat ${name}`, run: () => net.send("inventory:use", { slot: s.slot, action: "eat" }) });
  if (item?.equipSlot) {
    // Weapons are wielded, the rest worn: the word the newcomer's hint uses.
    const verb = item.equipSlot === "weapon" || item.equipSlot === "2h" ? "Wield" : "Wear";
    options.push({ label: `${verb} ${name}`, run: () => net.send("inventory:use", { slot: s.slot, action: "equip" }) });
  }
  if (item?.prayerXp) options.push({ label: `Bury ${name}`, run: () => net.send("inventory:use", { slot: s.slot, action: "bury" }) });
  if (item?.lampXp) {
    options.push({
      label: `Rub ${name}`,
      run: () => {
        const skill = prompt(`Which skill? (${SKILLS.join(", ")})`, "woodcutting")
          ?.trim()
          .toLowerCase();
        const known = SKILLS.find((k) => k === skill);
        if (known) net.send("inventory:use", { slot: s.slot, action: "rub", skill: known });
        else if (skill) game.log(`There is no skill called ${skill}`, "error");
      },
    });
  }
  const fire = nearestCookingPlace(game);
  if (fire)
    options.push({ label: `Cook ${name} on the ${fire.label}`, run: () => net.send("inventory:use", { slot: s.slot, action: "cook", targetId: fire.id }) });
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
      run: () => {
        const quantity = askQuantity(`Drop how many ${name}?`, s.quantity);
        if (quantity) net.send("inventory:use", { slot: s.slot, action: "drop", quantity });
      },
    });
  }
  return options;
}

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
