import { randomUUID } from "node:crypto";
import { recipeKindSkill } from "../manifests/recipes.js";
import type { Tile } from "../game/types.js";
import type { Goal, GoalOption, GoalType } from "./goals.js";
import type { Command } from "./commands.js";
import type { AgentView } from "./view.js";
import { GATHERING_SKILLS, type RoomEnvelope } from "../protocol/index.js";

/**
 * An agent's state of mind between two steps: its goal, its owner's commands, what it is waiting
 * for, and the server's last answers it has not read yet.
 */

/** A room message the agent sends, its payload checked against the protocol's schema types. */
export type Order = RoomEnvelope;

/** A store deal the server wrote (`store:bought` / `store:sold`), as the driver heard it. */
export interface Deal {
  kind: "buy" | "sell";
  itemId: string;
  quantity: number;
  coins: number;
}

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
  /** The tile its last walk order heads for ("x,z"): a walk elsewhere (a new goal) replaces it at once. */
  leg: string | null;
  /** An order whose answer it waits for (a talk, a store, a deal), and the tick it was sent. */
  pending: { key: string; tick: number } | null;
  /** Store deals written since the last step. */
  deals: Deal[];
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
  leg: null,
  pending: null,
  deals: [],
  rng,
});

/** A new goal; `count`: how many to make (production) or buy (buy). */
export function goalFrom(
  option: Pick<GoalOption, "type" | "target"> & { name?: string; why?: string },
  view: AgentView,
  source: Goal["source"],
  count?: number | null,
): Goal {
  const startXp: Record<string, number> = {};
  for (const [skill, s] of Object.entries(view.self?.skills ?? {})) startXp[skill] = s.xp;
  return {
    id: `g_${randomUUID()}`,
    type: option.type as GoalType,
    target: option.target,
    source,
    startedTick: view.tick,
    startXp,
    progress: { xpGained: 0, gathered: 0, banked: 0, pickedUp: 0, kills: 0, bought: 0, sold: 0, coins: 0, made: 0 },
    ...(count ? { amount: count } : {}),
    ...(option.name ? { name: option.name } : {}),
    ...(option.why ? { why: option.why } : {}),
  };
}

/** An errand (bank, buy) run before going back to `goal`. */
export function errand(type: "bank" | "buy", target: string | null, view: AgentView, goal: Goal): Goal {
  const serves = goal.name ?? goal.type;
  const [name, why] = type === "bank" ? ["Bank the pack", `its pack is full; then back to: ${serves}`] : [`Buy ${target}`, `it needs ${target} for: ${serves}`];
  return { ...goalFrom({ type, target, name, why }, view, goal.source), resume: goal };
}

/** The skills whose experience counts toward a goal. */
const goalSkills = (g: Goal) =>
  (GATHERING_SKILLS as readonly string[]).includes(g.type)
    ? [g.type]
    : recipeKindSkill(g.type)
      ? [recipeKindSkill(g.type)!]
      : g.type === "combat"
        ? ["attack", "strength", "defense", "constitution"]
        : g.type === "quest"
          ? Object.keys(g.startXp)
          : [];

/** Refresh the goal's experience progress from what the agent knows. */
export function measure(goal: Goal, view: AgentView) {
  const skills = view.self?.skills ?? {};
  goal.progress.xpGained = goalSkills(goal).reduce((n, s) => n + Math.max(0, (skills[s]?.xp ?? 0) - (goal.startXp[s] ?? 0)), 0);
}

/**
 * Waiting for the answer to an order sent under `key`: true while it is younger than `ticks` and
 * no refusal came back (then the order may be sent again).
 */
export function waitingFor(mind: Mind, key: string, tick: number, ticks: number): boolean {
  const p = mind.pending;
  if (!p || p.key !== key) return false;
  if (mind.lastError || tick - p.tick >= ticks) {
    mind.pending = null;
    return false;
  }
  return true;
}

export function expect(mind: Mind, key: string, tick: number) {
  mind.pending = { key, tick };
}
