import type { StoreItemView, StoreView } from "../../protocol/index.js";
import {
  addToStock,
  isGeneralStore,
  planPurchase,
  planSale,
  restockDue,
  sellPrice,
  shelfChange,
  takeFromStock,
  type PurchasePlan,
  type SalePlan,
  type StockEntry,
  type StoreStock,
} from "../store.js";
import { COINS, GameError, type Inventory } from "../types.js";
import { itemHolderOf, TALK_RANGE, withinTalk } from "./commands.js";
import type { NpcEntity, PlayerEntity } from "./entities.js";
import type { World } from "./World.js";

/**
 * A world's stores: opening one at its keeper, buying and selling while next to them, and the
 * shelves moving back toward their listed stock. A purchase or sale changes the pack and the
 * shelves at once and freezes the pack until the room has written it (rooms/storeDesk.ts):
 * `settleDeal` then keeps it, or puts everything back when the write failed.
 */

/** A purchase or sale applied in the world and waiting for its database commit. */
export interface StoreDeal {
  id: string;
  playerId: string;
  storeId: string;
  kind: "buy" | "sell";
  itemId: string;
  quantity: number;
  coins: number;
  /** How the shelf moves in the database (unlimited stock: delta 0). */
  shelf: { base: number; delta: number };
  /** The pack before the deal, put back when the commit fails. */
  before: Inventory;
}

export function storeOfNpc(world: World, npc: NpcEntity): StoreStock {
  const stock = npc.storeId ? world.stores.get(npc.storeId) : undefined;
  if (!stock) throw new GameError("NO_STORE", `${npc.name} has nothing to sell`);
  return stock;
}

/** Open the npc's store for the player (next to it: the tick walks there first). */
export function openStore(world: World, p: PlayerEntity, npc: NpcEntity) {
  const stock = storeOfNpc(world, npc);
  p.store = { storeId: stock.def.id, npcInstanceId: npc.id };
  world.events.push({ kind: "storeOpened", playerId: p.id });
}

export function closeStore(world: World, p: PlayerEntity, reason: "closed" | "walked_away" | "npc_gone" | "content_changed") {
  if (!p.store) return;
  world.events.push({ kind: "storeClosed", playerId: p.id, storeId: p.store.storeId, reason });
  p.store = null;
}

/** The store the player has open, with its keeper still within reach. */
function openStoreOf(world: World, p: PlayerEntity): StoreStock {
  if (!p.store) throw new GameError("STORE_NOT_OPEN", "Open a store first: talk to its keeper");
  const npc = world.npcs.get(p.store.npcInstanceId);
  if (!npc || npc.deadUntilTick != null || !withinTalk(p.tile, npc.position)) {
    throw new GameError("TOO_FAR", `You need to be within ${TALK_RANGE} tiles of the shopkeeper`);
  }
  return world.stores.get(p.store.storeId)!;
}

/** Buy from the open store: all of it or nothing; the pack is frozen until the deal is written. */
export function buyFromStore(world: World, id: string, itemId: string, quantity: number): StoreDeal {
  const p = itemHolderOf(world, id);
  const stock = openStoreOf(world, p);
  const plan = planPurchase(stock, p.inventory, itemId, quantity, world.data.items, p.lockedSlots);
  return apply(world, p, stock, "buy", plan);
}

/** Sell from a slot to the open store (what the pack holds when that is fewer than asked). */
export function sellToStore(world: World, id: string, slot: number, quantity: number, forNothing = false): StoreDeal {
  const p = itemHolderOf(world, id);
  const stock = openStoreOf(world, p);
  const plan = planSale(stock, p.inventory, slot, quantity, world.data.items, p.lockedSlots, forNothing);
  return apply(world, p, stock, "sell", plan);
}

/** A planned deal applied: the pack and the shelf change, and the pack is frozen until it is written. */
function apply(world: World, p: PlayerEntity, stock: StoreStock, kind: "buy" | "sell", plan: PurchasePlan | SalePlan): StoreDeal {
  const moved = kind === "buy" ? -plan.quantity : plan.quantity;
  const deal: StoreDeal = {
    id: world.newId(),
    playerId: p.id,
    storeId: stock.def.id,
    kind,
    itemId: plan.itemId,
    quantity: plan.quantity,
    coins: plan.coins,
    shelf: shelfChange(stock, plan.itemId, moved),
    before: p.inventory,
  };
  if (kind === "buy") takeFromStock(stock, plan.itemId, plan.quantity, world.tick);
  else addToStock(stock, plan.itemId, plan.quantity, world.data.items, world.tick);
  p.inventory = plan.inventory;
  // The item ledger: what the deal moved, by its id (taken back if the deal is not written).
  const cause = kind === "buy" ? "bought" : "sold";
  const sign = kind === "buy" ? 1 : -1;
  p.ledgerEvents.push(
    { itemId: plan.itemId, delta: sign * plan.quantity, cause, ref: deal.id },
    ...(plan.coins > 0 ? [{ itemId: COINS, delta: -sign * plan.coins, cause, ref: deal.id } as const] : []),
  );
  p.inventoryFrozen = "store";
  world.touchPlayer(p);
  world.events.push({ kind: "storeChanged", storeId: deal.storeId, itemIds: [deal.itemId] });
  return deal;
}

/**
 * The deal's commit is over: the pack is free again. When the commit failed, the pack is what it
 * was before and the shelf gets back what moved.
 */
export function settleDeal(world: World, deal: StoreDeal, written: boolean) {
  const p = world.players.get(deal.playerId);
  if (p) {
    p.inventoryFrozen = false;
    if (!written) {
      p.inventory = deal.before;
      p.ledgerEvents = p.ledgerEvents.filter((e) => e.ref !== deal.id);
    }
    world.touchPlayer(p);
  }
  if (written) return;
  const stock = world.stores.get(deal.storeId)!;
  if (deal.kind === "buy") addToStock(stock, deal.itemId, deal.quantity, world.data.items, world.tick);
  else takeFromStock(stock, deal.itemId, deal.quantity, world.tick);
  world.events.push({ kind: "storeChanged", storeId: deal.storeId, itemIds: [deal.itemId] });
}

/** The shelves that are due move one step toward their listed stock; the change is kept for the next save. */
export function tickStores(world: World) {
  for (const stock of world.stores.values()) {
    const moved = restockDue(stock, world.tick);
    if (moved.size === 0) continue;
    let drift = world.stockDrift.get(stock.def.id);
    if (!drift) world.stockDrift.set(stock.def.id, (drift = new Map()));
    for (const [itemId, step] of moved) drift.set(itemId, (drift.get(itemId) ?? 0) + step);
    world.events.push({ kind: "storeChanged", storeId: stock.def.id, itemIds: [...moved.keys()] });
  }
}

function shelfView(world: World, stock: StoreStock, entry: StockEntry): StoreItemView {
  let pays: number | null = null;
  try {
    pays = sellPrice(stock, entry.itemId, world.data.items);
  } catch {
    pays = null;
  }
  return { itemId: entry.itemId, name: world.data.items.get(entry.itemId)?.name ?? entry.itemId, price: entry.price, quantity: entry.quantity, sellPrice: pays };
}

export function storeView(world: World, storeId: string, npcId: string): StoreView {
  const stock = world.stores.get(storeId)!;
  const buys = !stock.def.buyback ? "none" : isGeneralStore(stock.def) ? "all" : "listed";
  return {
    storeId,
    name: stock.def.name,
    npcId,
    buys,
    buybackRate: stock.def.buybackRate,
    items: [...stock.entries.values()].map((e) => shelfView(world, stock, e)),
  };
}

/** The shelves named, as `store:update` lists them: those still there, and those gone. */
export function shelvesView(world: World, storeId: string, itemIds: string[]): { items: StoreItemView[]; removed: string[] } {
  const stock = world.stores.get(storeId)!;
  const items: StoreItemView[] = [];
  const removed: string[] = [];
  for (const id of new Set(itemIds)) {
    const entry = stock.entries.get(id);
    if (entry) items.push(shelfView(world, stock, entry));
    else removed.push(id);
  }
  return { items, removed };
}
