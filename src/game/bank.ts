/**
 * The bank: one stack per item id (up to MAX_STACK), at most BANK_MAX_ITEMS distinct items
 * (placeholders included), each in one of BANK_TABS tabs (0, the main tab, and 1 to 9).
 * Deposits and withdrawals move items between inventory and bank and never create or destroy
 * any: for every item id, inventory + bank holds the same total before and after each call.
 * A placeholder is a stack of 0 left where the last of an item was withdrawn (when the player's
 * `bankPlaceholders` setting is on): the item's next deposit returns to its place and tab.
 */
import type { Tile } from "./types.js";
import { GameError, MAX_STACK, type Bank, type BankStack, type Inventory, type ItemStack } from "./types.js";
import { BANK_TABS } from "../protocol/vocabulary.js";
import { addItem, assertQuantity, assertSlot, countItem, itemDef, removeItem, type ItemIndex } from "./inventory.js";

export const BANK_MAX_ITEMS = 400;
export { BANK_TABS };
/** How far (in tiles, Chebyshev) a player may stand from a bank to use it. */
export const BANK_REACH_TILES = 3;

export interface BankTransfer {
  inventory: Inventory;
  bank: Bank;
  /** What actually moved. */
  moved: ItemStack;
}

function copyBank(bank: Bank): Bank {
  return bank.map((s) => ({ ...s }));
}

function assertTab(tab: number) {
  if (!Number.isInteger(tab) || tab < 0 || tab >= BANK_TABS) throw new GameError("INVALID_TAB", `A bank tab is a whole number from 0 to ${BANK_TABS - 1}`);
}

/** How many of `itemId` the bank holds. */
export function bankCount(bank: Bank, itemId: string): number {
  return bank.find((s) => s.itemId === itemId)?.quantity ?? 0;
}

/**
 * Deposit up to `quantity` of the item in `slot`. A stackable item moves from that stack only;
 * an item that does not stack is taken from that slot first, then from any other slot holding
 * the same id (deposit 5 logs takes 5 slots of logs). Capped by what the inventory holds.
 * Refuses with BANK_FULL (a new id beyond BANK_MAX_ITEMS) or BANK_STACK_FULL (over MAX_STACK).
 */
export function deposit(inv: Inventory, bank: Bank, slot: number, quantity: number, items: ItemIndex, tab = 0): BankTransfer {
  assertSlot(slot);
  assertQuantity(quantity);
  assertTab(tab);
  const stack = inv[slot];
  if (!stack) throw new GameError("EMPTY_SLOT", `slot ${slot} is empty`);
  const def = itemDef(stack.itemId, items);
  const available = def.stackable ? stack.quantity : countItem(inv, stack.itemId);
  const amount = Math.min(quantity, available);

  const out = copyBank(bank);
  const entry = out.find((s) => s.itemId === stack.itemId);
  if (entry) {
    if (entry.quantity + amount > MAX_STACK) {
      throw new GameError("BANK_STACK_FULL", `the bank cannot hold more ${stack.itemId}`);
    }
    entry.quantity += amount;
  } else {
    if (out.length >= BANK_MAX_ITEMS) throw new GameError("BANK_FULL", `the bank holds ${BANK_MAX_ITEMS} different items already`);
    out.push({ itemId: stack.itemId, quantity: amount, ...(tab ? { tab } : {}) });
  }
  const { inventory } = removeItem(inv, stack.itemId, amount, slot);
  return { inventory, bank: out, moved: { itemId: stack.itemId, quantity: amount } };
}

/**
 * Withdraw up to `quantity` of an item (capped by what the bank holds): stackable items as one
 * stack, others one per free slot. When only some fit, only those move (see `moved`);
 * when none fit, INVENTORY_FULL and nothing changes. NOT_IN_BANK when the bank has none (a
 * placeholder holds none). The last of an item taken leaves a placeholder when `placeholders`.
 */
export function withdraw(inv: Inventory, bank: Bank, itemId: string, quantity: number, items: ItemIndex, placeholders = false): BankTransfer {
  assertQuantity(quantity);
  const index = typeof itemId === "string" ? bank.findIndex((s) => s.itemId === itemId && s.quantity > 0) : -1;
  if (index < 0) throw new GameError("NOT_IN_BANK", `the bank holds no ${String(itemId)}`);
  itemDef(itemId, items);
  const held = bank[index]!.quantity;
  const { inventory, added } = addItem(inv, itemId, Math.min(quantity, held), items);
  if (added === 0) throw new GameError("INVENTORY_FULL", `no inventory space for ${itemId}`);
  const out = copyBank(bank);
  if (added === held && !placeholders) out.splice(index, 1);
  else out[index] = { ...out[index]!, quantity: held - added };
  return { inventory, bank: out, moved: { itemId, quantity: added } };
}

/** Move an item's stack (or placeholder) to a tab, at the end of that tab's order. */
export function moveToTab(bank: Bank, itemId: string, tab: number): Bank {
  assertTab(tab);
  const index = bank.findIndex((s) => s.itemId === itemId);
  if (index < 0) throw new GameError("NOT_IN_BANK", `the bank holds no ${String(itemId)}`);
  const out = copyBank(bank);
  const [entry] = out.splice(index, 1);
  const moved: BankStack = { itemId: entry!.itemId, quantity: entry!.quantity, ...(tab ? { tab } : {}) };
  out.push(moved);
  return out;
}

/** Take a placeholder away (NOT_A_PLACEHOLDER for a stack that still holds some). */
export function releasePlaceholder(bank: Bank, itemId: string): Bank {
  const index = bank.findIndex((s) => s.itemId === itemId);
  if (index < 0) throw new GameError("NOT_IN_BANK", `the bank holds no ${String(itemId)}`);
  if (bank[index]!.quantity > 0) throw new GameError("NOT_A_PLACEHOLDER", `${itemId} is in the bank, not a placeholder: withdraw it first`);
  const out = copyBank(bank);
  out.splice(index, 1);
  return out;
}

/** Every placeholder taken away. */
export const releaseAllPlaceholders = (bank: Bank): Bank => bank.filter((s) => s.quantity > 0).map((s) => ({ ...s }));

/** Whether `position` is within `maxDistance` tiles (Chebyshev) of any bank. */
export function isNearBank(position: Tile, banks: readonly Tile[], maxDistance = BANK_REACH_TILES): boolean {
  if (!Number.isFinite(position?.x) || !Number.isFinite(position?.z) || !(maxDistance >= 0)) return false;
  return banks.some((b) => Math.max(Math.abs(b.x - position.x), Math.abs(b.z - position.z)) <= maxDistance);
}
