import { outputsAt } from "../game/production.js";
import type { ProductionKind } from "../protocol/index.js";
import { chebyshev } from "../game/movement.js";
import { drop, fight, finish, gatherAt, skipOf } from "./behaviours.js";
import { PRODUCTION_VERB, type Goal } from "./goals.js";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import { errand, expect, waitingFor, type Mind, type Order } from "./mind.js";
import { approach, walkToward } from "./moves.js";
import { hasBankable } from "./pack.js";
import { bestRecipe, productionStep, type ProductionStep } from "./productionPlan.js";
import { nearest, type AgentView } from "./view.js";

/**
 * Making things as a player does (productionPlan.ts says what comes next): tools and inputs are
 * bought (`store:buy`, as an errand), taken from the bank (`bank:withdraw`) or gathered; then
 * `production:make` with the station's id (the server walks it there) and count "all" (or what is
 * left to make), again until the goal's count is made or nothing more can be had.
 */

/** How near it walks on its own before asking the server to walk it to the station (the server finds that path). */
const STATION_APPROACH = 12;
/** Ticks a station that could not be reached, or a bank item that was not there, is skipped. */
const SKIP_TICKS = 100;
/** Ticks it waits for a make or a withdrawal to show before asking again. */
const ANSWER_TICKS = 3;
/** How far from it a drop it hunted for is picked up. */
const LOOT_RANGE = 12;
/** Refused makes in a row before the goal is given up. */
const MAX_REFUSALS = 3;

/** Refusals that say the station cannot be used from here: another one, or none. */
const STATION_REFUSED = new Set(["NO_PATH", "TOO_FAR", "WRONG_STATION", "NOT_AT_STATION", "UNKNOWN_TARGET"]);

function stepKey(s: ProductionStep): string {
  switch (s.kind) {
    case "make":
      return `make:${s.recipe.id}:${s.place?.id ?? ""}`;
    case "gather":
      return `gather:${s.itemId}:${s.resource.id}`;
    case "buy":
    case "withdraw":
    case "hunt":
      return `${s.kind}:${s.itemId}`;
    default:
      return s.kind;
  }
}

export function produce(mind: Mind, goal: Goal, view: AgentView, k: WorldKnowledge, orders: Order[]) {
  const self = view.self!;
  const kind = goal.type as ProductionKind;
  const skip = skipOf(mind, view.tick);
  // No target: the best it can make here, chosen once.
  if (!goal.target) {
    const best = bestRecipe(view, k, kind, skip);
    if (!best) return drop(mind, goal, `there is nothing I can ${PRODUCTION_VERB[kind].toLowerCase()} here`);
    goal.target = best.id;
  }
  const recipe = k.data.recipes[kind]?.find((r) => r.id === goal.target);
  if (!recipe) return drop(mind, goal, `I don't know how to ${PRODUCTION_VERB[kind].toLowerCase()} ${goal.target}`);
  const name = k.data.items.get(recipe.id)?.name ?? recipe.id;
  const memo = (goal.memo ??= {});

  // The last make or withdrawal (the order it waits on) was refused.
  const code = mind.lastError;
  const asked = code !== null && goal.step !== undefined && mind.pending?.key === goal.step;
  if (asked && goal.step!.startsWith("make:")) {
    const stationId = goal.step!.split(":").slice(2).join(":");
    if (code === "LEVEL_TOO_LOW" || code === "UNKNOWN_RECIPE") return drop(mind, goal, `I can't make ${name} (${code})`);
    if (code === "INVENTORY_FULL") {
      if (!hasBankable(k, self)) return drop(mind, goal, "my pack is full");
      mind.goal = errand("bank", null, view, goal);
      return;
    }
    if (STATION_REFUSED.has(code) && stationId) mind.avoid.set(`station:${stationId}`, view.tick + SKIP_TICKS);
    memo.refused = (memo.refused ?? 0) + 1;
    if (memo.refused > MAX_REFUSALS) return drop(mind, goal, `I keep being refused making ${name} (${code})`);
    goal.step = undefined;
    mind.pending = null;
  } else if (asked && goal.step!.startsWith("withdraw:")) {
    // Not in the bank after all (or no room): not from there for a while.
    mind.avoid.set(`bank:${goal.step!.slice("withdraw:".length)}`, view.tick + SKIP_TICKS);
    goal.step = undefined;
    mind.pending = null;
  }

  const left = goal.amount === undefined ? Infinity : goal.amount - goal.progress.made;
  if (left <= 0) {
    if (self.doing === recipe.skill) orders.push({ type: "player:action", data: { action: "stop" } });
    if (goal.source !== "auto") mind.say.push(`Done: I made ${goal.progress.made} ${name}.`);
    return finish(mind, goal);
  }
  const perAttempt = outputsAt(recipe, self.skills[recipe.skill]?.level ?? 1).find((o) => o.itemId === recipe.id)?.quantity ?? 1;
  const step = productionStep(view, k, recipe, Math.ceil(left / perAttempt), memo.making === 1, skip);
  memo.making = step.kind === "make" ? 1 : 0;
  const key = stepKey(step);
  const fresh = goal.step !== key;
  goal.step = key;

  switch (step.kind) {
    case "done":
      return finish(mind, goal);
    case "stuck":
      return drop(mind, goal, /^I\b/.test(step.reason) ? step.reason : step.reason.charAt(0).toLowerCase() + step.reason.slice(1));
    case "bank":
      mind.goal = errand("bank", null, view, goal);
      return;
    case "buy":
      mind.goal = { ...errand("buy", step.itemId, view, goal), amount: step.quantity };
      return;
    case "gather":
      return gatherAt(mind, goal, step.resource, view, k, orders, fresh);
    case "hunt": {
      // What the kill dropped is picked up; otherwise the next one is fought.
      const loot = nearest(
        self.tile,
        [...view.groundItems.values()].filter((g) => g.itemId === step.itemId && chebyshev(self.tile, g) <= LOOT_RANGE && !skip(`loot:${g.id}`)),
      );
      if (!loot) {
        memo.looting = 0;
        return fight(mind, step.npcId, view, k, orders);
      }
      if (!fresh && !code && self.doing === "pickup") return;
      if (code && self.doing !== "pickup" && memo.looting === 1) {
        // Refused (gone, someone else's): not that one.
        mind.avoid.set(`loot:${loot.id}`, view.tick + SKIP_TICKS);
        memo.looting = 0;
        return;
      }
      orders.push({ type: "player:action", data: { action: "pickup", targetId: loot.id } });
      memo.looting = 1;
      return;
    }
    case "withdraw": {
      if (self.bank === null) {
        const booth = nearest(self.tile, k.banks);
        if (!booth) return drop(mind, goal, "I can't find the bank");
        return walkToward(mind, view, k, booth, orders);
      }
      if (waitingFor(mind, key, view.tick, ANSWER_TICKS)) return;
      orders.push({ type: "bank:withdraw", data: { itemId: step.itemId, quantity: step.quantity } });
      expect(mind, key, view.tick);
      return;
    }
    case "make": {
      // At it (walking to the station or making): nothing new.
      if (!fresh && !code && self.doing === step.recipe.skill) {
        memo.refused = 0;
        return;
      }
      if (waitingFor(mind, key, view.tick, ANSWER_TICKS)) return;
      if (step.place && !approach(mind, view, k, step.place.tile, STATION_APPROACH, orders)) return;
      orders.push({
        type: "production:make",
        data: { kind: step.recipe.kind as ProductionKind, recipeId: step.recipe.id, count: step.count, ...(step.place ? { stationId: step.place.id } : {}) },
      });
      expect(mind, key, view.tick);
      return;
    }
  }
}
