import { addItemAll } from "../game/inventory.js";
import { COINS } from "../game/types.js";
import { GameError, INVENTORY_SIZE, type Inventory } from "../game/types.js";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import type { SelfState } from "./view.js";

/** What the agent carries, as the game rules see it. Pure. */

/** The inventory as the game rules see it (28 slots). */
export function inventoryOf(self: SelfState): Inventory {
  const inv: Inventory = new Array(INVENTORY_SIZE).fill(null);
  for (const s of self.inventory) inv[s.slot] = { itemId: s.itemId, quantity: s.quantity };
  return inv;
}

/** The pack with `quantity` of an item added, or null when it does not fit. */
export function withItem(k: WorldKnowledge, inv: Inventory, itemId: string, quantity: number): Inventory | null {
  try {
    return addItemAll(inv, itemId, quantity, k.data.items).inventory;
  } catch (err) {
    if (err instanceof GameError) return null;
    throw err;
  }
}

export const equippedOf = (self: SelfState) => Object.values(self.equipment).flatMap((s) => (s ? [s.itemId] : []));

/** How many of an item it may spend, use or hand over: the pack's, slots offered in a trade left out (as the server counts them). */
export const unlockedCountOf = (self: SelfState, itemId: string) =>
  self.inventory.filter((s) => s.itemId === itemId && !s.locked).reduce((n, s) => n + s.quantity, 0);

/** Coins it may spend (not offered in a trade). */
export const coinsOf = (self: SelfState) => unlockedCountOf(self, COINS);

/** A tool (what gathering and firemaking need). */
export function isTool(k: WorldKnowledge, itemId: string): boolean {
  const def = k.data.items.get(itemId);
  return Boolean(def && (def.toolSkill || def.type === "tool" || k.data.tools.has(itemId)));
}

/** Supplies a fighter keeps when it banks: arrows, runes of any spell, food. */
function isFightSupply(k: WorldKnowledge, itemId: string): boolean {
  if (k.data.ammunition.has(itemId) || k.data.items.get(itemId)?.healAmount) return true;
  for (const spell of k.data.spells.values()) if (spell.runes.some((r) => r.runeId === itemId)) return true;
  return false;
}

/** Items the agent keeps when it banks: its tools, its coins (to buy with), what cannot be traded (quest items), and its fighting supplies (arrows, runes, food). */
export function isKept(k: WorldKnowledge, itemId: string): boolean {
  return itemId === COINS || isTool(k, itemId) || k.data.items.get(itemId)?.tradeable === false || isFightSupply(k, itemId);
}

export const hasBankable = (k: WorldKnowledge, self: SelfState) => self.inventory.some((s) => !s.locked && !isKept(k, s.itemId));
