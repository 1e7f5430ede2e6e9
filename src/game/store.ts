/**
 * Stores (stores.json), pure: a store's stock, its prices, and the plans of a purchase and of a
 * sale. A plan says what the player's inventory becomes and how the stock moves; the world applies
 * it and the database commits it (src/db/storeRepo.ts), all or nothing.
 *
 * - Prices are fixed: a listed item costs its `price`; an item the store bought in and does not
 *   list costs its item `value` (at least 1). The store pays `floor(price × buybackRate)` for what
 *   it lists and `floor(value × buybackRate)` for anything else it buys.
 * - `stockQuantity` -1 is unlimited. Finite stock falls as players buy and comes back one at a
 *   time, one every `restockTime` seconds, up to the listed quantity. What players sold the store
 *   is resold; stock above the listed quantity (and stock of items the store does not list) goes
 *   one at a time, one every STOCK_DECAY_TICKS.
 * - A general store (its id contains "general") buys anything tradeable; a specialist buys only
 *   what it lists; a store with `buyback: false` buys nothing. Coins are never bought.
 */
import type { StoreDef } from "../manifests/gameData.js";
import { addItemAll, assertQuantity, assertSlot, copyInventory, countItem, itemDef, takeUnlocked, unlockedView, type ItemIndex } from "./inventory.js";
import { COINS, GameError, MAX_STACK, type Inventory } from "./types.js";

/** Stock above the listed quantity, and bought-in items, go one at a time at this pace (1 minute). */
export const STOCK_DECAY_TICKS = 100;

export interface StockEntry {
  itemId: string;
  /** On the shelf now; -1 unlimited. */
  quantity: number;
  /** The listed quantity the stock returns to (-1 unlimited, 0 for an item the store bought in). */
  base: number;
  /** Listed by the store's data (a specialist buys only these). */
  listed: boolean;
  /** What one costs. */
  price: number;
  /** Ticks between two restocks of a listed item (0: it never restocks). */
  restockTicks: number;
  /** The tick the quantity next moves toward `base` (null: it is at base). */
  nextChangeTick: number | null;
}

/** One store's shelves, in the order the store lists them (bought-in items after). */
export interface StoreStock {
  def: StoreDef;
  entries: Map<string, StockEntry>;
}

export function isGeneralStore(store: StoreDef): boolean {
  return /general/i.test(store.id);
}

/** A store's shelves as its data lists them. */
export function newStock(store: StoreDef): StoreStock {
  const entries = new Map<string, StockEntry>();
  for (const i of store.items) {
    if (entries.has(i.itemId)) continue;
    entries.set(i.itemId, {
      itemId: i.itemId,
      quantity: i.stockQuantity,
      base: i.stockQuantity,
      listed: true,
      price: Math.max(0, Math.floor(i.price)),
      restockTicks: i.restockTicks,
      nextChangeTick: null,
    });
  }
  return { def: store, entries };
}

/** The price of an item the store does not list: its value, at least 1 coin. */
const unlistedPrice = (itemId: string, items: ItemIndex) => Math.max(1, Math.floor(items.get(itemId)?.value ?? 0));

/** What the store pays for one of `itemId`, or a refusal saying why it will not buy it. */
export function sellPrice(stock: StoreStock, itemId: string, items: ItemIndex): number {
  const def = itemDef(itemId, items);
  if (itemId === COINS) throw new GameError("STORE_WONT_BUY", "Shops don't buy coins");
  if (!def.tradeable) throw new GameError("UNTRADEABLE", `The ${def.name} can't be sold`);
  if (!stock.def.buyback) throw new GameError("STORE_WONT_BUY", `${stock.def.name} doesn't buy anything`);
  const entry = stock.entries.get(itemId);
  if (!entry?.listed && !isGeneralStore(stock.def)) throw new GameError("STORE_WONT_BUY", `${stock.def.name} doesn't buy ${def.name}`);
  const price = entry?.listed ? entry.price : unlistedPrice(itemId, items);
  return Math.floor(price * stock.def.buybackRate);
}

export interface PurchasePlan {
  itemId: string;
  quantity: number;
  /** Coins paid. */
  coins: number;
  inventory: Inventory;
}

/**
 * Buy `quantity` of `itemId`: all of it or nothing. Refused when the store does not sell it
 * (NOT_IN_STOCK), has fewer on the shelf (OUT_OF_STOCK), the coins are short (NOT_ENOUGH_COINS) or
 * the pack has no room once the coins are paid (INVENTORY_FULL). `lockedSlots` (offered in a trade)
 * are never spent from.
 */
export function planPurchase(
  stock: StoreStock,
  inventory: Inventory,
  itemId: string,
  quantity: number,
  items: ItemIndex,
  lockedSlots: ReadonlySet<number> = new Set(),
): PurchasePlan {
  assertQuantity(quantity);
  const def = itemDef(itemId, items);
  const entry = stock.entries.get(itemId);
  if (!entry || entry.quantity === 0) {
    throw new GameError(
      entry ? "OUT_OF_STOCK" : "NOT_IN_STOCK",
      entry ? `${stock.def.name} is out of ${def.name}` : `${stock.def.name} doesn't sell ${def.name}`,
    );
  }
  if (entry.quantity !== -1 && entry.quantity < quantity) throw new GameError("OUT_OF_STOCK", `${stock.def.name} has only ${entry.quantity} ${def.name} left`);
  const coins = entry.price * quantity;
  if (!Number.isSafeInteger(coins) || coins > MAX_STACK) throw new GameError("INVALID_QUANTITY", "That costs more coins than a stack can hold");
  const spendable = countItem(unlockedView(inventory, lockedSlots), COINS);
  if (spendable < coins) throw new GameError("NOT_ENOUGH_COINS", `${quantity} x ${def.name} costs ${coins} coins; you have ${spendable}`);
  let inv = copyInventory(inventory);
  if (coins > 0) inv = takeUnlocked(inv, COINS, coins, undefined, lockedSlots);
  inv = addItemAll(inv, itemId, quantity, items).inventory;
  return { itemId, quantity, coins, inventory: inv };
}

export interface SalePlan {
  itemId: string;
  /** How many were sold: what was asked, or what the pack holds when that is less. */
  quantity: number;
  /** Coins received. */
  coins: number;
  inventory: Inventory;
}

/**
 * Sell the item in `slot`: `quantity` of it, or all the pack holds of it when that is less (a
 * non-stackable item is taken from every unlocked slot holding it, that slot first). The coins go
 * to the pack's coin stack (INVENTORY_FULL when there is no room for them).
 */
export function planSale(
  stock: StoreStock,
  inventory: Inventory,
  slot: number,
  quantity: number,
  items: ItemIndex,
  lockedSlots: ReadonlySet<number> = new Set(),
  /** Give it away when the store pays nothing for it (else WORTHLESS_SALE). */
  forNothing = false,
): SalePlan {
  assertSlot(slot);
  assertQuantity(quantity);
  const held = inventory[slot];
  if (!held) throw new GameError("EMPTY_SLOT", "That slot is empty");
  if (lockedSlots.has(slot)) throw new GameError("ITEM_LOCKED", "That item is offered in a trade");
  const each = sellPrice(stock, held.itemId, items);
  const available = countItem(unlockedView(inventory, lockedSlots), held.itemId);
  const sold = Math.min(quantity, available);
  const entry = stock.entries.get(held.itemId);
  if (entry && entry.quantity !== -1 && entry.quantity + sold > MAX_STACK) throw new GameError("STORE_FULL", `${stock.def.name} can't hold any more of those`);
  const coins = each * sold;
  if (coins === 0 && !forNothing) {
    const name = items.get(held.itemId)?.name ?? held.itemId;
    throw new GameError("WORTHLESS_SALE", `${stock.def.name} would pay nothing for ${sold} ${name}: sell with forNothing to give it away`);
  }
  if (coins > MAX_STACK) throw new GameError("INVENTORY_FULL", "That is more coins than a stack can hold");
  let inv = takeUnlocked(inventory, held.itemId, sold, slot, lockedSlots);
  if (coins > 0) inv = addItemAll(inv, COINS, coins, items).inventory;
  return { itemId: held.itemId, quantity: sold, coins, inventory: inv };
}

/** Apply a purchase to the shelves (after planPurchase on the same stock). */
export function takeFromStock(stock: StoreStock, itemId: string, quantity: number, tick: number) {
  const entry = stock.entries.get(itemId);
  if (!entry || entry.quantity === -1) return;
  moveShelf(entry, -quantity, tick);
  if (!entry.listed && entry.quantity <= 0) stock.entries.delete(itemId);
}

/** Apply a sale to the shelves: a bought-in item gets a shelf of its own, resold at its value. */
export function addToStock(stock: StoreStock, itemId: string, quantity: number, items: ItemIndex, tick: number) {
  let entry = stock.entries.get(itemId);
  if (!entry) {
    entry = { itemId, quantity: 0, base: 0, listed: false, price: unlistedPrice(itemId, items), restockTicks: 0, nextChangeTick: null };
    stock.entries.set(itemId, entry);
  }
  if (entry.quantity === -1) return;
  moveShelf(entry, quantity, tick);
}

/** Put a shelf back as the database remembers it (start-up); an unlimited shelf stays unlimited. */
export function restoreShelf(stock: StoreStock, itemId: string, quantity: number, items: ItemIndex, tick: number) {
  const entry = stock.entries.get(itemId);
  if (entry?.quantity === -1 || !items.has(itemId)) return;
  if (!entry) return quantity > 0 ? addToStock(stock, itemId, quantity, items, tick) : undefined;
  entry.quantity = quantity;
  entry.nextChangeTick = null;
  scheduleChange(entry, tick);
}

/** How a deal moves a shelf in the database: by `delta`, from `base` when it has no row yet (unlimited: 0). */
export function shelfChange(stock: StoreStock, itemId: string, delta: number): { base: number; delta: number } {
  const entry = stock.entries.get(itemId);
  if (entry?.quantity === -1) return { base: -1, delta: 0 };
  return { base: entry?.base ?? 0, delta };
}

/**
 * Move every shelf whose time has come one step toward its listed quantity. Returns the change of
 * each item that moved (+1 restocked, -1 decayed), for the database and the store's viewers. An
 * emptied bought-in shelf is taken away.
 */
export function restockDue(stock: StoreStock, tick: number): Map<string, number> {
  const moved = new Map<string, number>();
  for (const entry of [...stock.entries.values()]) {
    if (entry.nextChangeTick === null || tick < entry.nextChangeTick) continue;
    const step = entry.quantity < entry.base ? 1 : -1;
    entry.quantity += step;
    moved.set(entry.itemId, step);
    entry.nextChangeTick = null;
    scheduleChange(entry, tick);
    if (!entry.listed && entry.quantity <= 0) stock.entries.delete(entry.itemId);
  }
  return moved;
}

/** A deal moves a shelf; one that crosses its base is rescheduled at the pace of its new side. */
function moveShelf(entry: StockEntry, delta: number, tick: number) {
  const side = Math.sign(entry.quantity - entry.base);
  entry.quantity += delta;
  if (Math.sign(entry.quantity - entry.base) !== side) entry.nextChangeTick = null;
  scheduleChange(entry, tick);
}

/** When a shelf next moves toward its base (below: restockTicks, above: STOCK_DECAY_TICKS). */
function scheduleChange(entry: StockEntry, tick: number) {
  if (entry.quantity === -1 || entry.quantity === entry.base || (entry.quantity < entry.base && entry.restockTicks <= 0)) {
    entry.nextChangeTick = null;
    return;
  }
  if (entry.nextChangeTick !== null) return;
  entry.nextChangeTick = tick + (entry.quantity < entry.base ? entry.restockTicks : STOCK_DECAY_TICKS);
}
