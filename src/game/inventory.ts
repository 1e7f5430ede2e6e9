/**
 * The 28-slot inventory. Every operation validates its input, returns new arrays and never
 * changes the objects it was given; a refusal throws a GameError and leaves everything as it was.
 */
import type { ItemDef } from "../manifests/gameData.js";
import { GameError, INVENTORY_SIZE, MAX_STACK, type Inventory, type ItemStack } from "./types.js";

export type ItemIndex = ReadonlyMap<string, ItemDef>;

/** Throws INVALID_SLOT unless `slot` is a whole number in 0..27. */
export function assertSlot(slot: number): void {
  if (!Number.isInteger(slot) || slot < 0 || slot >= INVENTORY_SIZE) {
    throw new GameError("INVALID_SLOT", `slot must be a whole number from 0 to ${INVENTORY_SIZE - 1} (got ${slot})`);
  }
}

/** Throws INVALID_QUANTITY unless `quantity` is a whole number in 1..MAX_STACK. */
export function assertQuantity(quantity: number): void {
  if (!Number.isSafeInteger(quantity) || quantity < 1 || quantity > MAX_STACK) {
    throw new GameError("INVALID_QUANTITY", `quantity must be a whole number from 1 to ${MAX_STACK} (got ${quantity})`);
  }
}

/** The item's definition, or UNKNOWN_ITEM. */
export function itemDef(itemId: string, items: ItemIndex): ItemDef {
  const def = typeof itemId === "string" ? items.get(itemId) : undefined;
  if (!def) throw new GameError("UNKNOWN_ITEM", `unknown item: ${String(itemId)}`);
  return def;
}

export function emptyInventory(): Inventory {
  return new Array<ItemStack | null>(INVENTORY_SIZE).fill(null);
}

/** A deep copy, always exactly 28 slots long. */
export function copyInventory(inv: Inventory): Inventory {
  const out = emptyInventory();
  for (let i = 0; i < INVENTORY_SIZE; i++) {
    const s = inv[i];
    out[i] = s ? { itemId: s.itemId, quantity: s.quantity } : null;
  }
  return out;
}

/** Unknown ids count as not stackable. */
export function isStackable(itemId: string, items: ItemIndex): boolean {
  return items.get(itemId)?.stackable === true;
}

export function countItem(inv: Inventory, itemId: string): number {
  let total = 0;
  for (const s of inv) if (s && s.itemId === itemId) total += s.quantity;
  return total;
}

export function freeSlots(inv: Inventory): number {
  let free = 0;
  for (let i = 0; i < INVENTORY_SIZE; i++) if (!inv[i]) free++;
  return free;
}

/** The first slot holding `itemId`, or -1. */
export function findSlot(inv: Inventory, itemId: string): number {
  for (let i = 0; i < INVENTORY_SIZE; i++) if (inv[i]?.itemId === itemId) return i;
  return -1;
}

function firstFree(inv: Inventory): number {
  for (let i = 0; i < INVENTORY_SIZE; i++) if (!inv[i]) return i;
  return -1;
}

export interface AddResult {
  inventory: Inventory;
  /** How many were added (may be less than asked when the inventory fills up). */
  added: number;
  /** The slots that received items. */
  slots: number[];
}

/**
 * Add as many as fit. Stackable: merge into the existing stack of that id (up to MAX_STACK),
 * otherwise one new stack in the first free slot. Not stackable: one per free slot.
 */
export function addItem(inv: Inventory, itemId: string, quantity: number, items: ItemIndex): AddResult {
  assertQuantity(quantity);
  const def = itemDef(itemId, items);
  const out = copyInventory(inv);
  const slots: number[] = [];
  let added = 0;
  if (def.stackable) {
    const at = findSlot(out, itemId);
    if (at >= 0) {
      const stack = out[at]!;
      added = Math.min(quantity, MAX_STACK - stack.quantity);
      if (added > 0) {
        out[at] = { itemId, quantity: stack.quantity + added };
        slots.push(at);
      }
    } else {
      const free = firstFree(out);
      if (free >= 0) {
        out[free] = { itemId, quantity };
        added = quantity;
        slots.push(free);
      }
    }
  } else {
    for (let i = 0; i < INVENTORY_SIZE && added < quantity; i++) {
      if (out[i]) continue;
      out[i] = { itemId, quantity: 1 };
      slots.push(i);
      added++;
    }
  }
  return { inventory: out, added, slots };
}

/** Add all of them or nothing (INVENTORY_FULL). */
export function addItemAll(inv: Inventory, itemId: string, quantity: number, items: ItemIndex): AddResult {
  const result = addItem(inv, itemId, quantity, items);
  if (result.added < quantity) {
    throw new GameError("INVENTORY_FULL", `not enough inventory space for ${quantity} x ${itemId}`);
  }
  return result;
}

/** Whether every stack fits at once. Throws on invalid stacks (bad quantity, unknown item). */
export function canAdd(inv: Inventory, stacks: readonly ItemStack[], items: ItemIndex): boolean {
  let current = inv;
  for (const s of stacks) {
    const r = addItem(current, s.itemId, s.quantity, items);
    if (r.added < s.quantity) return false;
    current = r.inventory;
  }
  return true;
}

export interface RemoveResult {
  inventory: Inventory;
  removed: ItemStack;
}

/** Take `quantity` from one slot. EMPTY_SLOT when there is nothing; NOT_ENOUGH_ITEMS when it holds fewer. */
export function removeFromSlot(inv: Inventory, slot: number, quantity: number): RemoveResult {
  assertSlot(slot);
  assertQuantity(quantity);
  const stack = inv[slot];
  if (!stack) throw new GameError("EMPTY_SLOT", `slot ${slot} is empty`);
  if (quantity > stack.quantity) {
    throw new GameError("NOT_ENOUGH_ITEMS", `slot ${slot} holds ${stack.quantity}, not ${quantity}`);
  }
  const out = copyInventory(inv);
  out[slot] = quantity === stack.quantity ? null : { itemId: stack.itemId, quantity: stack.quantity - quantity };
  return { inventory: out, removed: { itemId: stack.itemId, quantity } };
}

/**
 * Take `quantity` of an item from wherever it is (first slots first), all or nothing
 * (NOT_ENOUGH_ITEMS). `preferSlot` is emptied first when it holds the item.
 */
export function removeItem(inv: Inventory, itemId: string, quantity: number, preferSlot?: number): RemoveResult {
  assertQuantity(quantity);
  if (preferSlot !== undefined) assertSlot(preferSlot);
  if (countItem(inv, itemId) < quantity) {
    throw new GameError("NOT_ENOUGH_ITEMS", `the inventory holds fewer than ${quantity} x ${itemId}`);
  }
  const out = copyInventory(inv);
  const order = [...Array(INVENTORY_SIZE).keys()];
  if (preferSlot !== undefined) order.unshift(...order.splice(preferSlot, 1));
  let left = quantity;
  for (const i of order) {
    const s = out[i];
    if (!s || s.itemId !== itemId) continue;
    const take = Math.min(left, s.quantity);
    out[i] = take === s.quantity ? null : { itemId, quantity: s.quantity - take };
    left -= take;
    if (left === 0) break;
  }
  return { inventory: out, removed: { itemId, quantity } };
}

/** The inventory without its locked slots (offered in a trade): what may be spent, sold or used. */
export function unlockedView(inv: Inventory, locked: ReadonlySet<number>): Inventory {
  return inv.map((s, i) => (locked.has(i) ? null : s));
}

/** removeItem from the unlocked slots only (`first` first); the locked slots stay as they are. */
export function takeUnlocked(inv: Inventory, itemId: string, quantity: number, first: number | undefined, locked: ReadonlySet<number>): Inventory {
  if (locked.size === 0) return removeItem(inv, itemId, quantity, first).inventory;
  const taken = removeItem(unlockedView(inv, locked), itemId, quantity, first).inventory;
  return taken.map((s, i) => (locked.has(i) ? inv[i] : s));
}

/** Swap two slots (either may be empty). */
/**
 * A new character's inventory from a starter kit: each entry added by the usual rules (a stack of
 * 5 non-stackable shrimp takes 5 slots); what does not fit, or names an unknown item, is left out.
 */
export function startingInventory(kit: readonly ItemStack[], items: ItemIndex): Inventory {
  let inv = emptyInventory();
  for (const s of kit) {
    if (!items.has(s.itemId) || !(s.quantity > 0)) continue;
    inv = addItem(inv, s.itemId, s.quantity, items).inventory;
  }
  return inv;
}

export function moveSlot(inv: Inventory, from: number, to: number): Inventory {
  assertSlot(from);
  assertSlot(to);
  const out = copyInventory(inv);
  const a = out[from] ?? null;
  out[from] = out[to] ?? null;
  out[to] = a;
  return out;
}
