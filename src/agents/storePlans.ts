import { canGather } from "../game/gathering.js";
import { itemName } from "../manifests/gameData.js";
import { chebyshev } from "../game/movement.js";
import { sellPrice } from "../game/store.js";
import { COINS } from "../game/types.js";
import type { GatheringResource } from "../manifests/index.js";
import type { Townsperson, WorldKnowledge } from "../game/world/knowledge.js";
import { coinsOf, equippedOf, inventoryOf, isKept, withItem } from "./pack.js";
import type { AgentView, SelfState } from "./view.js";

/**
 * What the stores of the world mean to an agent, from the game data (prices as listed, what each
 * store buys): where to buy a tool or bait it lacks, and where to sell what it gathered. Live stock
 * is only told once a store is open; a refusal then makes the agent skip that offer for a while.
 * Pure.
 */

/** A store's offer of an item: who keeps the store, and the listed price. */
export interface Offer {
  keeper: Townsperson;
  storeId: string;
  storeName: string;
  itemId: string;
  price: number;
}

/** Something to buy before a goal can go on. */
export interface Purchase extends Offer {
  quantity: number;
}

/** Offers (by keeper and item id, or store and item id for sales) the agent skips for now. */
export type Skip = (key: string) => boolean;
export const offerKey = (keeperId: string, itemId: string) => `offer:${keeperId}:${itemId}`;
export const saleKey = (storeId: string, itemId: string) => `sale:${storeId}:${itemId}`;
const never: Skip = () => false;

/** How much bait it buys at once (at most: what the coins pay for). */
export const BAIT_TO_BUY = 50;

const article = (name: string) => `${/^[aeiou]/i.test(name) ? "an" : "a"} ${name}`;

/** Every store's offer of an item (listed, not listed as sold out), cheapest first, then nearest to `from`. */
export function offersOf(k: WorldKnowledge, itemId: string, from: { x: number; z: number }, skip: Skip = never): Offer[] {
  const out: Offer[] = [];
  for (const keeper of k.keepers) {
    const stock = k.stores.get(keeper.storeId!);
    const entry = stock?.entries.get(itemId);
    if (!stock || !entry?.listed || entry.quantity === 0 || skip(offerKey(keeper.id, itemId))) continue;
    out.push({ keeper, storeId: stock.def.id, storeName: stock.def.name, itemId, price: entry.price });
  }
  return out.sort((a, b) => a.price - b.price || chebyshev(from, a.keeper.tile) - chebyshev(from, b.keeper.tile));
}

export type Needs = { ok: true; buy: Purchase[] } | { ok: false; code: string; reason: string };

/**
 * May the agent gather from `def`, once it has bought what it lacks? With no tool (or no bait) it
 * buys the cheapest suitable one a store sells, when its coins pay for it; otherwise the reason.
 */
export function gatherNeeds(view: AgentView, k: WorldKnowledge, def: GatheringResource, skip: Skip = never): Needs {
  const self = view.self!;
  const level = self.skills[def.skill]?.level ?? 1;
  const opts = { tools: k.data.tools, equipped: equippedOf(self) };
  let inv = inventoryOf(self);
  let coins = coinsOf(self);
  const buy: Purchase[] = [];
  let check = canGather(def, level, inv, k.data.items, opts);
  if (!check.ok && check.code === "NO_TOOL") {
    const usable = def.toolItemIds.filter((id) => {
      const tried = withItem(k, inv, id, 1);
      const c = tried && canGather(def, level, tried, k.data.items, opts);
      return c && (c.ok || c.code !== "NO_TOOL");
    });
    const offer = usable.flatMap((id) => offersOf(k, id, self.tile, skip)).sort((a, b) => a.price - b.price)[0];
    if (!offer) return { ok: false, code: check.code, reason: `${check.message} No store here sells one.` };
    if (offer.price > coins) {
      return {
        ok: false,
        code: "NOT_ENOUGH_COINS",
        reason: `${check.message} ${offer.storeName} sells ${article(itemName(k.data, offer.itemId))} for ${offer.price} coins; I have ${coins}.`,
      };
    }
    buy.push({ ...offer, quantity: 1 });
    coins -= offer.price;
    inv = withItem(k, inv, offer.itemId, 1)!;
    check = canGather(def, level, inv, k.data.items, opts);
  }
  if (!check.ok && check.code === "NO_BAIT" && def.secondaryRequired) {
    const offer = offersOf(k, def.secondaryRequired, self.tile, skip)[0];
    if (!offer) return { ok: false, code: check.code, reason: `${check.message} No store here sells it.` };
    const quantity = Math.min(BAIT_TO_BUY, Math.floor(coins / Math.max(1, offer.price)));
    if (quantity < 1) {
      return { ok: false, code: "NOT_ENOUGH_COINS", reason: `${check.message} ${offer.storeName} sells it for ${offer.price} coins each; I have ${coins}.` };
    }
    buy.push({ ...offer, quantity });
    inv = withItem(k, inv, offer.itemId, quantity) ?? inv;
    check = canGather(def, level, inv, k.data.items, opts);
  }
  if (!check.ok) return { ok: false, code: check.code, reason: check.message };
  return { ok: true, buy };
}

/** What the store pays for one, or null when it does not buy it (coins, untradeable, not its trade). */
export function storePays(k: WorldKnowledge, storeId: string, itemId: string): number | null {
  const stock = k.stores.get(storeId);
  if (!stock || itemId === COINS) return null;
  try {
    return sellPrice(stock, itemId, k.data.items);
  } catch {
    return null;
  }
}

/** What it gathered and may sell: items a gathering resource yields, not its tools, coins or untradeable items; by item, first slot. */
export function sellables(view: AgentView, k: WorldKnowledge): Array<{ itemId: string; slot: number; quantity: number }> {
  const out = new Map<string, { itemId: string; slot: number; quantity: number }>();
  for (const s of (view.self as SelfState | null)?.inventory ?? []) {
    if (s.locked || isKept(k, s.itemId) || !k.yieldsOf.has(s.itemId)) continue;
    const got = out.get(s.itemId);
    if (got) got.quantity += s.quantity;
    else out.set(s.itemId, { itemId: s.itemId, slot: s.slot, quantity: s.quantity });
  }
  return [...out.values()];
}

export type SalePlan =
  | { ok: true; keeper: Townsperson; storeName: string; items: Array<{ itemId: string; slot: number; quantity: number; price: number }> }
  | { ok: false; reason: string };

/** Where to sell what it gathered: the store buying the most of its kinds of items (then the nearest), and what it sells there. */
export function salePlan(view: AgentView, k: WorldKnowledge, skip: Skip = never): SalePlan {
  const self = view.self;
  const goods = sellables(view, k);
  if (!self || goods.length === 0) return { ok: false, reason: "I have nothing gathered to sell" };
  let best: Extract<SalePlan, { ok: true }> | null = null;
  for (const keeper of k.keepers) {
    const storeId = keeper.storeId!;
    const items = goods.flatMap((g) => {
      const price = skip(saleKey(storeId, g.itemId)) ? null : storePays(k, storeId, g.itemId);
      return price === null ? [] : [{ ...g, price }];
    });
    if (items.length === 0) continue;
    const better =
      !best ||
      items.length > best.items.length ||
      (items.length === best.items.length && chebyshev(self.tile, keeper.tile) < chebyshev(self.tile, best.keeper.tile));
    if (better) best = { ok: true, keeper, storeName: k.stores.get(storeId)!.def.name, items };
  }
  return best ?? { ok: false, reason: `No store here buys ${goods.map((g) => itemName(k.data, g.itemId).toLowerCase()).join(", ")}` };
}
