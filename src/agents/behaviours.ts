import { chebyshev } from "../game/movement.js";
import type { GatheringResource } from "../manifests/index.js";
import type { Goal } from "./goals.js";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import { prepareToFight } from "./fighting.js";
import { errand, type Mind, type Order } from "./mind.js";
import { goTo, walkToward } from "./moves.js";
import { hasBankable, isKept } from "./pack.js";
import { gatherNeeds, type Skip } from "./storePlans.js";
import { nearest, type AgentView } from "./view.js";

/** The agent's ways of working toward a goal, one step at a time: gathering, fighting, banking, picking up. */

/** Offers and sales that failed lately (kept in `mind.avoid`) are skipped until their tick. */
export const skipOf =
  (mind: Mind, tick: number): Skip =>
  (key) =>
    (mind.avoid.get(key) ?? -1) >= tick;

/** Give the goal up: the owner hears why (an automatic goal gives up quietly). */
export function drop(mind: Mind, goal: Goal, reason: string) {
  if (goal.source !== "auto") mind.say.push(`I can't go on: ${reason}`);
  mind.goal = null;
}

/**
 * Gather from the resource `def` for `goal` (a gathering goal, a quest's gather stage, a production
 * goal's input). `fresh`: a new resource, even if it is gathering already (another one, then).
 */
export function gatherAt(mind: Mind, goal: Goal, def: GatheringResource, view: AgentView, k: WorldKnowledge, orders: Order[], fresh = false) {
  const self = view.self!;
  // A full pack goes to the bank first; the goal resumes afterwards.
  if (view.freeSlots() === 0) {
    mind.goal = hasBankable(k, self) ? errand("bank", null, view, goal) : null;
    return;
  }
  // Already at it (or on the way to it): a new order would start the cycle over.
  if (!fresh && !mind.lastError && self.doing === def.skill) return;
  // A missing tool (or bait) a store sells is bought first; the goal resumes afterwards.
  const needs = gatherNeeds(view, k, def, skipOf(mind, view.tick));
  if (!needs.ok) return drop(mind, goal, needs.reason);
  if (needs.buy.length) {
    mind.goal = { ...errand("buy", needs.buy[0].itemId, view, goal), amount: needs.buy[0].quantity };
    return;
  }
  const nodes = [...view.resources.values()].filter((r) => r.resourceId === def.id && !r.depleted && (mind.avoid.get(r.id) ?? -1) < view.tick);
  if (mind.lastError && nodes.length) {
    // The last order was refused (unreachable, depleted): try another node for a while.
    const closest = nearest(self.tile, nodes);
    if (closest) mind.avoid.set(closest.id, view.tick + 20);
  }
  const node = nearest(
    self.tile,
    nodes.filter((r) => (mind.avoid.get(r.id) ?? -1) < view.tick),
  );
  if (node) {
    mind.destination = null;
    orders.push({ type: "player:action", data: { action: "gather", targetId: node.id } });
    return;
  }
  // None to work in view: head for one spot of this resource (kept until reached) and wait there for
  // a respawn a while before trying another.
  goTo(mind, view, k, `res:${def.id}`, k.resourceSpots.get(def.id)?.tiles ?? [], Math.min(60, def.respawnTicks + 5), orders);
}

/**
 * Fight npcs of the definition `npcId`: the nearest in view, else walk to where they spawn. Ready
 * first (prepareToFight: arrows on, a spell to cast, a prayer while it has points); the drops it
 * sees nearby are picked up between fights, and a full pack is banked.
 */
export function fight(mind: Mind, npcId: string, view: AgentView, k: WorldKnowledge, orders: Order[]) {
  const self = view.self!;
  if (view.freeSlots() === 0 && mind.goal && hasBankable(k, self)) {
    mind.goal = errand("bank", null, view, mind.goal);
    return;
  }
  const plan = prepareToFight(k, self);
  if (plan.orders.length && !mind.lastError) {
    orders.push(...plan.orders);
    return;
  }
  if (!mind.lastError && (self.doing === "combat" || self.doing === "pickup")) return;
  const loot = nearest(
    self.tile,
    [...view.groundItems.values()].filter((g) => chebyshev(self.tile, g) <= 6 && (mind.avoid.get(g.id) ?? -1) < view.tick),
  );
  if (loot && view.freeSlots() > 0) {
    if (mind.lastError) mind.avoid.set(loot.id, view.tick + 50);
    else return void orders.push({ type: "player:action", data: { action: "pickup", targetId: loot.id } });
  }
  const foes = [...view.npcs.values()].filter((n) => n.npcId === npcId && n.state !== "dead" && n.health > 0 && (mind.avoid.get(n.id) ?? -1) < view.tick);
  const foe = nearest(self.tile, foes);
  if (foe) {
    mind.destination = null;
    if (mind.lastError) mind.avoid.set(foe.id, view.tick + 20);
    else if (plan.castSpell) orders.push({ type: "combat:cast", data: { spellId: plan.castSpell, targetId: foe.id } });
    else orders.push({ type: "player:action", data: { action: "attack", targetId: foe.id } });
    return;
  }
  goTo(mind, view, k, `npc:${npcId}`, k.npcSpawns.get(npcId)?.tiles ?? [], 30, orders);
}

/** The errand is over: back to the goal it interrupted (or to choosing anew). */
export function finish(mind: Mind, goal: Goal) {
  goal.completed = true;
  const resume = goal.resume;
  if (resume) for (const key of ["banked", "bought", "sold", "coins"] as const) resume.progress[key] += goal.progress[key];
  mind.goal = resume ?? null;
}

export function bank(mind: Mind, goal: Goal, view: AgentView, k: WorldKnowledge, orders: Order[]) {
  const self = view.self!;
  if (self.bank === null) {
    const booth = nearest(self.tile, k.banks);
    if (!booth) {
      mind.goal = goal.resume ?? null;
      return;
    }
    walkToward(mind, view, k, booth, orders);
    return;
  }
  const deposit = new Map<string, { slot: number; quantity: number }>();
  for (const s of self.inventory) {
    if (s.locked || isKept(k, s.itemId)) continue;
    const d = deposit.get(s.itemId);
    if (d) d.quantity += s.quantity;
    else deposit.set(s.itemId, { slot: s.slot, quantity: s.quantity });
  }
  // Done: back to what it was doing.
  if (deposit.size === 0) return finish(mind, goal);
  for (const d of deposit.values()) {
    orders.push({ type: "bank:deposit", data: { slot: d.slot, quantity: d.quantity } });
    goal.progress.banked += d.quantity;
  }
}

export function pickUp(mind: Mind, goal: Goal, view: AgentView, orders: Order[]) {
  const self = view.self!;
  if (!mind.lastError && self.doing === "pickup") return;
  const item = nearest(
    self.tile,
    [...view.groundItems.values()].filter((g) => (mind.avoid.get(g.id) ?? -1) < view.tick && chebyshev(self.tile, g) <= 16),
  );
  if (!item) {
    goal.completed = true;
    mind.goal = null;
    return;
  }
  if (mind.lastError) {
    mind.avoid.set(item.id, view.tick + 50);
    return;
  }
  orders.push({ type: "player:action", data: { action: "pickup", targetId: item.id } });
  goal.progress.pickedUp++;
}
