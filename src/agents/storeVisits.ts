import type { Goal } from "./goals.js";
import type { Townsperson, WorldKnowledge } from "../game/world/knowledge.js";
import { expect, waitingFor, type Mind, type Order } from "./mind.js";
import { approach } from "./moves.js";
import { coinsOf } from "./pack.js";
import { offerKey, offersOf, saleKey, salePlan } from "./storePlans.js";
import { drop, finish, skipOf } from "./behaviours.js";
import type { AgentView } from "./view.js";

/**
 * Buying and selling as any player does: walk up to the keeper, `player:action store` with the
 * npc instance id, then `store:buy` / `store:sell` one deal at a time (the pack is frozen while a
 * deal is written), and `store:close` when done.
 */

/** How near it walks on its own before asking the server to walk it to an npc (the server finds that path). */
export const NPC_APPROACH = 12;
/** Ticks it waits for an answer before asking again (the wait goes on while it walks). */
const ANSWER_TICKS = 10;
/** Ticks an offer or a sale the store refused is skipped. */
const SKIP_TICKS = 200;

/** Refusals of `player:action store` that asking again will not mend. */
const NO_WAY = new Set(["NO_PATH", "UNKNOWN_TARGET", "NO_STORE"]);

/**
 * Have the keeper's store open: walk near, then ask the server to walk it there and open it.
 * "open" once open, "refused" when the server will not take it there (another store, then).
 */
export function atStore(mind: Mind, view: AgentView, k: WorldKnowledge, keeper: Townsperson, orders: Order[]): "open" | "going" | "refused" {
  if (view.store?.npcId === keeper.id) return "open";
  if (!approach(mind, view, k, keeper.tile, NPC_APPROACH, orders)) return "going";
  const key = `store:${keeper.id}`;
  const asked = mind.pending?.key === key;
  if (waitingFor(mind, key, view.tick, view.self!.moving ? Infinity : ANSWER_TICKS)) return "going";
  if (asked && mind.lastError && NO_WAY.has(mind.lastError)) return "refused";
  orders.push({ type: "player:action", data: { action: "store", targetId: keeper.id } });
  expect(mind, key, view.tick);
  return "going";
}

/** Close the store it has open, if any. */
export function leaveStore(view: AgentView, orders: Order[]) {
  if (view.store) orders.push({ type: "store:close", data: {} });
}

/** Buy `goal.amount` (1) of `goal.target` at the cheapest store selling it, then back to the goal it serves. */
export function buy(mind: Mind, goal: Goal, view: AgentView, k: WorldKnowledge, orders: Order[]) {
  const self = view.self!;
  const itemId = goal.target ?? "";
  const wanted = goal.amount ?? 1;
  if (goal.progress.bought >= wanted) {
    leaveStore(view, orders);
    return finish(mind, goal);
  }
  const skip = skipOf(mind, view.tick);
  const offer = offersOf(k, itemId, self.tile, skip)[0];
  if (!offer) {
    leaveStore(view, orders);
    return drop(mind, goal, `no store here has ${k.data.items.get(itemId)?.name ?? itemId} for me`);
  }
  const at = atStore(mind, view, k, offer.keeper, orders);
  if (at === "refused") mind.avoid.set(offerKey(offer.keeper.id, itemId), view.tick + SKIP_TICKS);
  if (at !== "open" || waitingFor(mind, "deal", view.tick, ANSWER_TICKS)) return;
  switch (mind.lastError) {
    case "NOT_IN_STOCK":
    case "OUT_OF_STOCK":
      // Try another store (or give up) at the next step.
      mind.avoid.set(offerKey(offer.keeper.id, itemId), view.tick + SKIP_TICKS);
      return;
    case "NOT_ENOUGH_COINS":
    case "INVENTORY_FULL":
    case "UNKNOWN_ITEM":
      leaveStore(view, orders);
      mind.avoid.set(offerKey(offer.keeper.id, itemId), view.tick + SKIP_TICKS);
      return drop(
        mind,
        goal,
        mind.lastError === "INVENTORY_FULL" ? "my pack is full" : `I can't buy ${k.data.items.get(itemId)?.name ?? itemId} (${mind.lastError})`,
      );
  }
  // The live shelf and the coins say how many it can have.
  const shelf = view.store?.items.find((i) => i.itemId === itemId);
  const price = shelf?.price ?? offer.price;
  let quantity = Math.min(wanted - goal.progress.bought, Math.floor(coinsOf(self) / Math.max(1, price)));
  if (shelf && shelf.quantity !== -1) quantity = Math.min(quantity, shelf.quantity);
  if (quantity < 1) {
    mind.avoid.set(offerKey(offer.keeper.id, itemId), view.tick + SKIP_TICKS);
    return;
  }
  orders.push({ type: "store:buy", data: { itemId, quantity } });
  expect(mind, "deal", view.tick);
}

/** Sell what it gathered at the store buying the most of it, then back to the goal it interrupted (or idle). */
export function sell(mind: Mind, goal: Goal, view: AgentView, k: WorldKnowledge, orders: Order[]) {
  const plan = salePlan(view, k, skipOf(mind, view.tick));
  if (!plan.ok) {
    leaveStore(view, orders);
    if (goal.progress.sold === 0 && goal.source !== "auto") mind.say.push(`Nothing sold: ${plan.reason}.`);
    return finish(mind, goal);
  }
  const item = plan.items[0];
  const at = atStore(mind, view, k, plan.keeper, orders);
  if (at === "refused") for (const i of plan.items) mind.avoid.set(saleKey(plan.keeper.storeId!, i.itemId), view.tick + SKIP_TICKS);
  if (at !== "open" || waitingFor(mind, "deal", view.tick, ANSWER_TICKS)) return;
  switch (mind.lastError) {
    case "STORE_WONT_BUY":
    case "WORTHLESS_SALE":
    case "UNTRADEABLE":
    case "STORE_FULL":
    case "ITEM_LOCKED":
    case "EMPTY_SLOT":
      // Not this one here: the next step plans without it.
      if (mind.lastError !== "EMPTY_SLOT") mind.avoid.set(saleKey(plan.keeper.storeId!, item.itemId), view.tick + SKIP_TICKS);
      return;
    case "INVENTORY_FULL":
      leaveStore(view, orders);
      return drop(mind, goal, "my pack has no room for the coins");
  }
  orders.push({ type: "store:sell", data: { slot: item.slot, quantity: item.quantity } });
  expect(mind, "deal", view.tick);
}
