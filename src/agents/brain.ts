import { bank, fight, gatherAt, pickUp, skipOf } from "./behaviours.js";
import { itemsByName, npcByName, questByName, recipesByName, type Command } from "./commands.js";
import { availableGoals, chooseGoal, PRODUCTION_VERB, type Goal, type GoalOption } from "./goals.js";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import { goalFrom, measure, type Deal, type Mind, type Order } from "./mind.js";
import { coinsOf } from "./pack.js";
import { produce } from "./producing.js";
import { doQuest } from "./questing.js";
import { offersOf } from "./storePlans.js";
import { buy, sell } from "./storeVisits.js";
import type { AgentView } from "./view.js";
import { PRODUCTION_KINDS, type ProductionKind } from "../protocol/index.js";
import { isProductionKind } from "../game/production.js";

/**
 * An agent's decisions, one step per world tick: pure apart from the mind it updates. Each step
 * returns the room messages the agent sends, the same messages a game client would send.
 */

export { newMind, goalFrom, measure, type Mind, type Order } from "./mind.js";

/** Goals run as an errand: when set over another goal, the agent goes back to that one afterwards. */
const ERRANDS: ReadonlySet<string> = new Set(["bank", "buy", "sell"]);

/** `goal`, set while `previous` was under way: an errand comes back to the goal it interrupted. */
export function withResume(goal: Goal, previous: Goal | null): Goal {
  if (!ERRANDS.has(goal.type) || !previous) return goal;
  const back = ERRANDS.has(previous.type) ? previous.resume : previous;
  return back && back.type !== "idle" ? { ...goal, resume: back } : goal;
}

/** A deal the server wrote counts toward the goal under way. */
function credit(goal: Goal, d: Deal) {
  if (d.kind === "buy") {
    goal.progress.bought += d.quantity;
    goal.progress.coins -= d.coins;
  } else {
    goal.progress.sold += d.quantity;
    goal.progress.coins += d.coins;
  }
}

export function step(mind: Mind, view: AgentView, k: WorldKnowledge): Order[] {
  const self = view.self;
  if (!self) return [];
  const orders: Order[] = [];
  for (const text of mind.say.splice(0)) orders.push({ type: "player:chat", data: { message: text, channel: "world" } });
  for (const cmd of mind.queue.splice(0)) runCommand(mind, cmd, view, k, orders);
  for (const d of mind.deals.splice(0)) if (mind.goal) credit(mind.goal, d);
  if (!mind.goal && !mind.paused) mind.goal = goalFrom(chooseGoal(view, k, mind.rng, skipOf(mind, view.tick)), view, "auto");
  const goal = mind.goal;
  if (goal) act(mind, goal, view, k, orders);
  // What was said while deciding is said now.
  for (const text of mind.say.splice(0)) orders.push({ type: "player:chat", data: { message: text, channel: "world" } });
  mind.lastError = null;
  return orders;
}

/** One step toward the goal. */
function act(mind: Mind, goal: Goal, view: AgentView, k: WorldKnowledge, orders: Order[]) {
  const self = view.self!;
  measure(goal, view);

  // Eat when hurt, whatever the goal.
  if (self.health < self.maxHealth * 0.4) {
    const food = self.inventory.find((s) => !s.locked && k.data.items.get(s.itemId)?.healAmount);
    if (food) orders.push({ type: "inventory:use", data: { slot: food.slot, action: "eat" } });
  }

  // Every kind of production the same way.
  if (isProductionKind(goal.type)) return void produce(mind, goal, view, k, orders);
  switch (goal.type) {
    case "woodcutting":
    case "mining":
    case "fishing": {
      const def = k.data.gathering[goal.type].get(goal.target ?? "");
      if (def) gatherAt(mind, goal, def, view, k, orders);
      else mind.goal = null;
      break;
    }
    case "combat":
      fight(mind, goal.target ?? "", view, k, orders);
      break;
    case "bank":
      bank(mind, goal, view, k, orders);
      break;
    case "pickup":
      pickUp(mind, goal, view, orders);
      break;
    case "buy":
      buy(mind, goal, view, k, orders);
      break;
    case "sell":
      sell(mind, goal, view, k, orders);
      break;
    case "quest":
      doQuest(mind, goal, view, k, orders);
      break;
    case "idle":
      break;
  }
}

function runCommand(mind: Mind, cmd: Command, view: AgentView, k: WorldKnowledge, orders: Order[]) {
  const options = availableGoals(view, k, skipOf(mind, view.tick));
  const set = (o: Pick<GoalOption, "type" | "target">, count?: number | null) => {
    mind.goal = withResume(goalFrom(o, view, "command", count), mind.goal);
  };
  /** Take the option if available, else say why not. */
  const take = (o: GoalOption | undefined, none: string) => {
    if (o?.available) return set(o);
    mind.say.push(`I can't do that: ${o?.reason ?? none}`);
  };
  switch (cmd.kind) {
    case "stop":
      mind.goal = null;
      orders.push({ type: "player:action", data: { action: "stop" } });
      return;
    case "idle":
      set({ type: "idle", target: null });
      orders.push({ type: "player:action", data: { action: "stop" } });
      return;
    case "bank":
      return set({ type: "bank", target: null });
    case "pickup":
      return set({ type: "pickup", target: null });
    case "sell":
      return take(
        options.find((o) => o.type === "sell"),
        "there is nothing to sell",
      );
    case "buy": {
      // The cheapest item of that name a store sells.
      const self = view.self!;
      const offer = itemsByName(k, cmd.item)
        .flatMap((id) => offersOf(k, id, self.tile, skipOf(mind, view.tick)))
        .sort((a, b) => a.price - b.price)[0];
      if (!offer) return void mind.say.push(`I can't do that: no store here sells ${cmd.item}`);
      if (offer.price > coinsOf(self)) return void mind.say.push(`I can't do that: ${offer.storeName} wants ${offer.price} coins and I have ${coinsOf(self)}`);
      return set({ type: "buy", target: offer.itemId });
    }
    case "quest": {
      const quests = options.filter((o) => o.type === "quest");
      if (cmd.quest === null) return take(quests.find((o) => o.available) ?? quests[0], "there is no quest here");
      const id = questByName(k, cmd.quest);
      return take(
        quests.find((o) => o.target === id),
        `I don't know of a quest called ${cmd.quest}`,
      );
    }
    case "gather": {
      const fit = options
        .filter((o) => o.type === cmd.skill && o.available)
        .sort((a, b) => (k.data.gathering[cmd.skill].get(b.target!)?.levelRequired ?? 0) - (k.data.gathering[cmd.skill].get(a.target!)?.levelRequired ?? 0));
      if (fit.length) return set(fit[0]);
      const why = options.find((o) => o.type === cmd.skill)?.reason ?? `there is nowhere to go ${cmd.skill}`;
      mind.say.push(`I can't do that: ${why}`);
      return;
    }
    case "make":
      return make(mind, cmd, options, k, (o) => set(o, cmd.count));
    case "attack": {
      const npc = cmd.npc
        ? npcByName(k, cmd.npc)
        : (options.filter((o) => o.type === "combat" && o.available).sort((a, b) => k.npcSpawns.get(a.target!)!.level - k.npcSpawns.get(b.target!)!.level)[0]
            ?.target ?? null);
      if (!npc) {
        mind.say.push(cmd.npc ? `I don't know of any ${cmd.npc} around here.` : "There is nothing here I can fight.");
        return;
      }
      return set({ type: "combat", target: npc });
    }
  }
}

/** "smith a bronze dagger": the best recipe of that name it can make (or the best of the kind), else why not. */
function make(mind: Mind, cmd: Extract<Command, { kind: "make" }>, options: GoalOption[], k: WorldKnowledge, set: (o: GoalOption) => void) {
  const kinds: readonly ProductionKind[] = cmd.skill ? [cmd.skill] : PRODUCTION_KINDS;
  if (!cmd.item) {
    const any = options.filter((o) => kinds.includes(o.type as ProductionKind) && o.target === null);
    const pick = any.find((o) => o.available) ?? any[0];
    if (pick?.available) return set(pick);
    return void mind.say.push(`I can't do that: ${pick?.reason ?? "there is nothing I can make here"}`);
  }
  // "craft" also names runecrafting ("craft runes"), tanning and fletching.
  let named = recipesByName(k, cmd.item, kinds);
  if (named.length === 0 && cmd.skill === "crafting") named = recipesByName(k, cmd.item);
  const fit = options.filter((o) => o.target !== null && named.some((n) => n.kind === o.type && n.id === o.target));
  if (fit.length === 0)
    return void mind.say.push(`I can't do that: I don't know how to ${cmd.skill ? PRODUCTION_VERB[cmd.skill].toLowerCase() : "make"} ${cmd.item}`);
  const recipe = (o: GoalOption) => k.data.recipes[o.type]?.find((r) => r.id === o.target);
  const best = fit
    .filter((o) => o.available)
    .sort((a, b) => (recipe(b)?.level ?? 0) - (recipe(a)?.level ?? 0) || (recipe(b)?.xp ?? 0) - (recipe(a)?.xp ?? 0))[0];
  if (best) return set(best);
  mind.say.push(`I can't do that: ${fit[0].reason ?? "not now"}`);
}
