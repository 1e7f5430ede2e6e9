import { newStock, type StoreStock } from "../../src/game/store.js";
import { INVENTORY_SIZE, MAX_STACK, type Inventory } from "../../src/game/types.js";
import type { ItemDef, StoreDef, StoreItem } from "../../src/manifests/gameData.js";
import { inv, item } from "./fixtures.js";

/** The store rules tests' items, stores and packs. */

export const items = new Map<string, ItemDef>([
  ["coins", item("coins", { stackable: true, value: 1 })],
  ["feathers", item("feathers", { stackable: true, value: 2 })],
  ["runes", item("runes", { stackable: true, value: 10 })],
  ["hatchet", item("hatchet", { value: 30 })],
  ["iron_hatchet", item("iron_hatchet", { value: 90 })],
  ["map", item("map", { value: 5 })],
  ["rope", item("rope", { value: 12 })],
  ["sword", item("sword", { value: 100 })],
  ["junk", item("junk", { value: 0 })],
  ["bones", item("bones", { value: 4 })],
  ["letter", item("letter", { value: 50, tradeable: false })],
]);
export const BAD_QUANTITIES = [0, -1, 1.5, Number.NaN, Infinity, MAX_STACK + 1];
export const RESTOCK = 500;

export const listing = (itemId: string, price: number, stockQuantity: number, restockTicks = RESTOCK): StoreItem => ({
  itemId,
  price,
  stockQuantity,
  restockTime: restockTicks * 0.6,
  restockTicks,
});
export const storeDef = (id: string, list: StoreItem[], extra: Partial<StoreDef> = {}): StoreDef => ({
  id,
  name: id,
  buyback: true,
  buybackRate: 0.4,
  items: list,
  raw: {},
  ...extra,
});

/** A general store: hatchet unlimited, iron_hatchet 5 restocking, feathers 1000, a free map, rope 3 that never restocks. */
export const general = () =>
  newStock(
    storeDef("general_store", [
      listing("hatchet", 32, -1),
      listing("iron_hatchet", 100, 5),
      listing("feathers", 3, 1000),
      listing("map", 0, -1),
      listing("rope", 20, 3, 0),
    ]),
  );
/** A specialist: lists hatchet and iron_hatchet only. */
export const axeShop = () => newStock(storeDef("axe_shop", [listing("hatchet", 40, -1), listing("iron_hatchet", 110, 2)], { buybackRate: 0.5 }));
/** Sells, never buys. */
export const giftShop = () => newStock(storeDef("gift_shop", [listing("hatchet", 32, -1)], { buyback: false }));

/** A pack with every slot filled with bones except those given. */
export function fullPack(entries: Record<number, [string, number]> = {}): Inventory {
  const out = inv(entries);
  for (let i = 0; i < INVENTORY_SIZE; i++) out[i] ??= { itemId: "bones", quantity: 1 };
  return out;
}

/** Freeze an inventory all the way down: a plan that writes into it throws. */
export function frozen(i: Inventory): Inventory {
  for (const s of i) if (s) Object.freeze(s);
  return Object.freeze(i) as Inventory;
}

export const entry = (stock: StoreStock, itemId: string) => stock.entries.get(itemId);
