import { randomUUID } from "node:crypto";
import type { Tile } from "../game/types.js";
import { chooseGoal, hasBankable, isKept, npcByName, availableGoals, type Command, type Goal, type GoalOption, type GoalType } from "./goals.js";
import { walkableNear, type WorldKnowledge } from "./knowledge.js";
import { nearest, type AgentView } from "./view.js";
import { GATHERING_SKILLS, type RoomEnvelope } from "../protocol/index.js";
import { chebyshev } from "../game/movement.js";

/**
 * An agent's decisions, one step per world tick: pure apart from the mind it updates. Each step
 * returns the room messages the agent sends, the same messages a game client would send.
 */

/** A room message the agent sends, its payload checked against the protocol's schema types. */
export type Order = RoomEnvelope;

export interface Mind {
  goal: Goal | null;
  /** Automatic goal selection is off (owner's stop); commands still run. */
  paused: boolean;
  /** Commands from the owner, run at the next step in order. */
  queue: Command[];
  /** Things said in world chat at the next step. */
  say: string[];
  /** Targets that failed lately (unreachable, depleted), by id: skipped until the tick. */
  avoid: Map<string, number>;
  /** The last server refusal (code), cleared once read. */
  lastError: string | null;
  /** Ticks the current goal has made no headway (no target in view, nowhere to go). */
  stuck: number;
  /** Where it is headed to find its target (kept until reached), and when it got there. */
  destination: { key: string; tile: Tile; arrivedTick: number | null } | null;
  /** Its own randomness (which spot among the near ones, which skill among equals). */
  rng: () => number;
}

export const newMind = (rng: () => number = Math.random): Mind => ({
  goal: null,
  paused: false,
  queue: [],
  say: [],
  avoid: new Map(),
  lastError: null,
  stuck: 0,
  destination: null,
  rng,
});

/** How far one move order goes (the server refuses moves of more than 200 tiles; paths stay short). */
const LEG_TILES = 24;

export function goalFrom(option: Pick<GoalOption, "type" | "target">, view: AgentView, source: Goal["source"]): Goal {
  const startXp: Record<string, number> = {};
  for (const [skill, s] of Object.entries(view.self?.skills ?? {})) startXp[skill] = s.xp;
  return {
    id: `g_${randomUUID()}`,
    type: option.type as GoalType,
    target: option.target,
    source,
    startedTick: view.tick,
    startXp,
    progress: { xpGained: 0, gathered: 0, banked: 0, pickedUp: 0, kills: 0 },
  };
}

/** The skills whose experience counts toward a goal. */
const goalSkills = (g: Goal) =>
  (GATHERING_SKILLS as readonly string[]).includes(g.type) ? [g.type] : g.type === "combat" ? ["attack", "strength", "defense", "constitution"] : [];

/** Refresh the goal's experience progress from what the agent knows. */
export function measure(goal: Goal, view: AgentView) {
  const skills = view.self?.skills ?? {};
  goal.progress.xpGained = goalSkills(goal).reduce((n, s) => n + Math.max(0, (skills[s]?.xp ?? 0) - (goal.startXp[s] ?? 0)), 0);
}

export function step(mind: Mind, view: AgentView, k: WorldKnowledge): Order[] {
  const self = view.self;
  if (!self) return [];
  const orders: Order[] = [];
  for (const text of mind.say.splice(0)) orders.push({ type: "player:chat", data: { message: text, channel: "world" } });
  for (const cmd of mind.queue.splice(0)) runCommand(mind, cmd, view, k, orders);
  if (!mind.goal && !mind.paused) mind.goal = goalFrom(chooseGoal(view, k, mind.rng), view, "auto");
  const goal = mind.goal;
  if (!goal) return orders;
  measure(goal, view);

  // Eat when hurt, whatever the goal.
  if (self.health < self.maxHealth * 0.4) {
    const food = self.inventory.find((s) => !s.locked && k.data.items.get(s.itemId)?.healAmount);
    if (food) orders.push({ type: "inventory:use", data: { slot: food.slot, action: "eat" } });
  }

  switch (goal.type) {
    case "woodcutting":
    case "mining":
    case "fishing":
      gather(mind, goal, view, k, orders);
      break;
    case "combat":
      fight(mind, goal, view, k, orders);
      break;
    case "bank":
      bank(mind, goal, view, k, orders);
      break;
    case "pickup":
      pickUp(mind, goal, view, orders);
      break;
    case "idle":
      break;
  }
  mind.lastError = null;
  return orders;
}

function runCommand(mind: Mind, cmd: Command, view: AgentView, k: WorldKnowledge, orders: Order[]) {
  const options = availableGoals(view, k);
  const set = (o: Pick<GoalOption, "type" | "target">) => {
    mind.goal = goalFrom(o, view, "command");
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
    case "gather": {
      const fit = options
        .filter((o) => o.type === cmd.skill && o.available)
        .sort((a, b) => (k.data.gathering[cmd.skill].get(b.target!)?.levelRequired ?? 0) - (k.data.gathering[cmd.skill].get(a.target!)?.levelRequired ?? 0));
      if (fit.length) return set(fit[0]);
      const why = options.find((o) => o.type === cmd.skill)?.reason ?? `there is nowhere to go ${cmd.skill}`;
      mind.say.push(`I can't do that: ${why}`);
      return;
    }
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

/** Walk toward a tile: at most one leg at a time, to a walkable tile near it. */
function walkToward(mind: Mind, view: AgentView, k: WorldKnowledge, target: Tile, orders: Order[]) {
  const self = view.self!;
  if (self.moving) return;
  const d = chebyshev(self.tile, target);
  const f = d > LEG_TILES ? LEG_TILES / d : 1;
  const aim = { x: Math.round(self.tile.x + (target.x - self.tile.x) * f), z: Math.round(self.tile.z + (target.z - self.tile.z) * f) };
  const to = walkableNear(k, aim, 4);
  if (!to || (to.x === self.tile.x && to.z === self.tile.z)) {
    mind.stuck++;
    return;
  }
  orders.push({ type: "player:move", data: { x: to.x, z: to.z, run: d > 8 } });
}

function gather(mind: Mind, goal: Goal, view: AgentView, k: WorldKnowledge, orders: Order[]) {
  const self = view.self!;
  const def = k.data.gathering[goal.type as "woodcutting"].get(goal.target ?? "");
  if (!def) {
    mind.goal = null;
    return;
  }
  // A full pack goes to the bank first; the goal resumes afterwards.
  if (view.freeSlots() === 0) {
    if (hasBankable(k, self)) {
      mind.goal = { ...goalFrom({ type: "bank", target: null }, view, goal.source), resume: goal };
      return;
    }
    mind.goal = null;
    return;
  }
  // Already at it (or on the way to it): a new order would start the cycle over.
  if (!mind.lastError && self.doing === goal.type) return;
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
 * Walk to one of `spots` (a random one of the three nearest, so agents spread out), committed to it
 * until reached; once there, stay `waitTicks` before picking again (away from this one).
 */
function goTo(mind: Mind, view: AgentView, k: WorldKnowledge, key: string, spots: Tile[], waitTicks: number, orders: Order[]) {
  const self = view.self!;
  const usable = spots.filter((t) => (mind.avoid.get(`spot:${t.x},${t.z}`) ?? -1) < view.tick);
  if (!mind.destination || mind.destination.key !== key) {
    const near = [...(usable.length ? usable : spots)].sort((a, b) => chebyshev(self.tile, a) - chebyshev(self.tile, b)).slice(0, 3);
    if (near.length === 0) {
      mind.stuck++;
      return;
    }
    mind.destination = { key, tile: near[Math.floor(mind.rng() * near.length)], arrivedTick: null };
  }
  const dest = mind.destination;
  if (chebyshev(self.tile, dest.tile) > 4) {
    walkToward(mind, view, k, dest.tile, orders);
    return;
  }
  dest.arrivedTick ??= view.tick;
  if (view.tick - dest.arrivedTick >= waitTicks) {
    mind.avoid.set(`spot:${dest.tile.x},${dest.tile.z}`, view.tick + waitTicks);
    mind.destination = null;
  }
}

function fight(mind: Mind, goal: Goal, view: AgentView, k: WorldKnowledge, orders: Order[]) {
  const self = view.self!;
  if (!mind.lastError && self.doing === "combat") return;
  const foes = [...view.npcs.values()].filter((n) => n.npcId === goal.target && n.state !== "dead" && n.health > 0 && (mind.avoid.get(n.id) ?? -1) < view.tick);
  const foe = nearest(self.tile, foes);
  if (foe) {
    mind.destination = null;
    if (mind.lastError) mind.avoid.set(foe.id, view.tick + 20);
    else orders.push({ type: "player:action", data: { action: "attack", targetId: foe.id } });
    return;
  }
  goTo(mind, view, k, `npc:${goal.target}`, k.npcSpawns.get(goal.target ?? "")?.tiles ?? [], 30, orders);
}

function bank(mind: Mind, goal: Goal, view: AgentView, k: WorldKnowledge, orders: Order[]) {
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
  if (deposit.size === 0) {
    // Done: back to what it was doing.
    const resume = goal.resume;
    if (resume) resume.progress.banked += goal.progress.banked;
    mind.goal = resume ?? (goal.source === "auto" ? null : goal);
    if (mind.goal === goal) mind.goal = null;
    return;
  }
  for (const d of deposit.values()) {
    orders.push({ type: "bank:deposit", data: { slot: d.slot, quantity: d.quantity } });
    goal.progress.banked += d.quantity;
  }
}

function pickUp(mind: Mind, goal: Goal, view: AgentView, orders: Order[]) {
  const self = view.self!;
  if (!mind.lastError && self.doing === "pickup") return;
  const item = nearest(
    self.tile,
    [...view.groundItems.values()].filter((g) => (mind.avoid.get(g.id) ?? -1) < view.tick && chebyshev(self.tile, g) <= 16),
  );
  if (!item) {
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
