import { firemakingRecipe, isTinderbox, TINDERBOX_ITEM_ID } from "../game/firemaking.js";
import { chebyshev } from "../game/movement.js";
import type { GatheringResource, QuestDef } from "../manifests/index.js";
import { drop, fight, finish, gatherAt, skipOf } from "./behaviours.js";
import type { Goal } from "./goals.js";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import { errand, expect, waitingFor, type Mind, type Order } from "./mind.js";
import { approach } from "./moves.js";
import { coinsOf, unlockedCountOf } from "./pack.js";
import { questStep, responseToward, type QuestStep } from "./questPlan.js";
import { gatherNeeds, offersOf } from "./storePlans.js";
import { NPC_APPROACH } from "./storeVisits.js";
import type { AgentView } from "./view.js";

/**
 * Doing a quest: each step, the stage in force (from the journal `player:sync` carries) says what
 * to do next (questPlan.ts); talking is `player:action talk` and `dialogue:respond` with the index
 * of the answer leading to the effect wanted, the other stages reuse fighting and gathering, and
 * fires are lit with `inventory:use light`.
 */

/** Talks tried for one stage before the agent gives the quest up (the npc had nothing for it). */
const MAX_TALKS = 4;

export function doQuest(mind: Mind, goal: Goal, view: AgentView, k: WorldKnowledge, orders: Order[]) {
  const self = view.self!;
  const quest = k.data.quests.get(goal.target ?? "");
  if (!quest) return drop(mind, goal, `there is no quest called ${goal.target}`);
  const standing = self.quests.find((q) => q.questId === quest.id);
  const memo = (goal.memo ??= { completions: standing?.completions ?? 0 });
  const step = questStep(quest, standing, quest.replayable && (standing?.completions ?? 0) === memo.completions, (itemId) => unlockedCountOf(self, itemId));
  // A conversation left open is closed once talking is not what the quest needs.
  if (step.kind !== "talk" && view.dialogue && !waitingFor(mind, "close", view.tick, 4)) {
    orders.push({ type: "dialogue:close", data: {} });
    expect(mind, "close", view.tick);
  }
  switch (step.kind) {
    case "done":
      mind.say.push(`${quest.name}: done.`);
      return finish(mind, goal);
    case "stuck":
      return drop(mind, goal, step.reason);
    case "talk":
      return talkTo(mind, goal, quest, `${standing?.status ?? "not_started"}:${standing?.stage ?? 0}`, step, view, k, orders);
    case "kill":
      return fight(mind, step.npcId, view, k, orders);
    case "gather":
      return gatherFor(mind, goal, [step.itemId], view, k, orders);
    case "fire":
      return lightFires(mind, goal, step.remaining, view, k, orders);
  }
}

/** Talk to the npc the step names and answer toward the effect it wants (or close the conversation once talking is enough). */
function talkTo(
  mind: Mind,
  goal: Goal,
  quest: QuestDef,
  stageKey: string,
  step: Extract<QuestStep, { kind: "talk" }>,
  view: AgentView,
  k: WorldKnowledge,
  orders: Order[],
) {
  const self = view.self!;
  const folk = k.townsfolk.get(step.npcId) ?? [];
  const node = view.dialogue;
  if (node) {
    const key = `answer:${node.npcId}:${node.nodeId}`;
    if (waitingFor(mind, key, view.tick, 4)) return;
    const dialogue = k.data.npcs.get(step.npcId)?.dialogue;
    const withThem = folk.some((f) => f.id === node.npcId);
    const index = withThem && step.want && dialogue ? responseToward(dialogue, node.nodeId, step.want) : null;
    // The server takes only an index the node offered.
    const offered = index === null ? undefined : node.responses.find((r) => r.index === index);
    orders.push(offered ? { type: "dialogue:respond", data: { index: offered.index } } : { type: "dialogue:close", data: {} });
    expect(mind, key, view.tick);
    return;
  }
  const who = [...folk].sort((a, b) => chebyshev(self.tile, a.tile) - chebyshev(self.tile, b.tile))[0];
  if (!who) return drop(mind, goal, `${k.data.npcs.get(step.npcId)?.name ?? step.npcId} is not here`);
  if (!approach(mind, view, k, who.tile, NPC_APPROACH, orders)) return;
  const key = `talk:${who.id}`;
  if (waitingFor(mind, key, view.tick, self.moving ? Infinity : 10)) return;
  // An npc who keeps having nothing for this stage is given up on.
  const tries = `talks:${stageKey}`;
  const memo = goal.memo!;
  memo[tries] = (memo[tries] ?? 0) + 1;
  if (memo[tries] > MAX_TALKS) return drop(mind, goal, `${who.name} has nothing for me about ${quest.name}`);
  orders.push({ type: "player:action", data: { action: "talk", targetId: who.id } });
  expect(mind, key, view.tick);
}

/** Gather one of `itemIds` where it can (buying a tool first if need be): no purchase needed first, then the nearest. */
function gatherFor(mind: Mind, goal: Goal, itemIds: string[], view: AgentView, k: WorldKnowledge, orders: Order[]) {
  const self = view.self!;
  const defs = [...new Set(itemIds.flatMap((id) => k.yieldsOf.get(id) ?? []))]
    .map((id) => resourceOf(k, id))
    .filter((d): d is GatheringResource => d !== undefined && k.resourceSpots.has(d.id));
  const skip = skipOf(mind, view.tick);
  const rated = defs.map((def) => ({ def, needs: gatherNeeds(view, k, def, skip), distance: spotDistance(k, def.id, self.tile) }));
  const usable = rated.filter((r) => r.needs.ok).sort((a, b) => buys(a) - buys(b) || a.distance - b.distance);
  if (usable.length === 0) {
    const why = rated.find((r) => !r.needs.ok)?.needs;
    return drop(mind, goal, why && !why.ok ? why.reason : `nothing here yields ${itemIds.join(" or ")}`);
  }
  gatherAt(mind, goal, usable[0].def, view, k, orders);
}

const buys = (r: { needs: ReturnType<typeof gatherNeeds> }) => (r.needs.ok ? r.needs.buy.length : Infinity);

function resourceOf(k: WorldKnowledge, id: string): GatheringResource | undefined {
  for (const skill of Object.values(k.data.gathering)) if (skill.has(id)) return skill.get(id);
  return undefined;
}

function spotDistance(k: WorldKnowledge, resourceId: string, from: { x: number; z: number }) {
  return Math.min(Infinity, ...(k.resourceSpots.get(resourceId)?.tiles ?? []).map((t) => chebyshev(from, t)));
}

/** Light `remaining` fires: a tinderbox (bought if need be) on logs it can burn (cut first when it has none). */
function lightFires(mind: Mind, goal: Goal, remaining: number, view: AgentView, k: WorldKnowledge, orders: Order[]) {
  const self = view.self!;
  const items = k.data.items;
  const recipes = k.data.recipes.firemaking ?? [];
  const level = self.skills.firemaking?.level ?? 1;
  const burns = (itemId: string) => (firemakingRecipe(recipes, itemId)?.level ?? Infinity) <= level;
  const box = self.inventory.find((s) => !s.locked && isTinderbox(s.itemId, items));
  if (!box) {
    const offer = offersOf(k, TINDERBOX_ITEM_ID, self.tile, skipOf(mind, view.tick))[0];
    if (!offer || offer.price > coinsOf(self)) return drop(mind, goal, "I need a tinderbox to light a fire, and can't get one");
    mind.goal = errand("buy", offer.itemId, view, goal);
    return;
  }
  const logs = self.inventory.filter((s) => !s.locked && burns(s.itemId));
  const held = logs.reduce((n, s) => n + s.quantity, 0);
  // Cut logs first: all the fires need while it is at it, at least one.
  if (held === 0 || (held < remaining && self.doing === "woodcutting" && view.freeSlots() > 0)) {
    return gatherFor(
      mind,
      goal,
      [...k.yieldsOf.keys()].filter((id) => burns(id)),
      view,
      k,
      orders,
    );
  }
  if (self.moving || waitingFor(mind, "light", view.tick, 3)) return;
  if (self.doing) orders.push({ type: "player:action", data: { action: "stop" } });
  if (mind.lastError === "CANNOT_LIGHT_HERE") {
    // Something burns (or grows) here already: a step aside.
    const aside = [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ]
      .map(([dx, dz]) => ({ x: self.tile.x + dx, z: self.tile.z + dz }))
      .find((t) => k.walkable(t.x, t.z) && ![...view.resources.values()].some((r) => r.x === t.x && r.z === t.z));
    if (aside) orders.push({ type: "player:move", data: { x: aside.x, z: aside.z } });
    expect(mind, "light", view.tick);
    return;
  }
  orders.push({ type: "inventory:use", data: { slot: box.slot, action: "light", targetSlot: logs[0].slot } });
  expect(mind, "light", view.tick);
}
