import { z } from "zod";
import type { ToolName } from "./toolMeta.js";

/**
 * Every tool's `outputSchema`: the shape of its `structuredContent`, which the SDK's client checks on
 * every answer. One schema a tool, for its answers and its refusals alike (a client checks both):
 * what every answer carries (src/mcp/answers.ts: the events since the session's previous answer and
 * the vitals; a refusal's `error`), then the tool's own fields, absent from a refusal. Objects stay
 * open (more fields may come); the fields named here are what a model can count on.
 */

const tile = z.object({ x: z.number(), z: z.number() });
const looseObject = z.looseObject({});

/** What every answer carries (src/mcp/answers.ts withTold). */
const told = {
  error: z
    .object({ code: z.string().describe("the documented error code (docs/PROTOCOL.md §6)"), message: z.string() })
    .optional()
    .describe("present on a refusal only"),
  events: z
    .array(z.looseObject({ type: z.string().optional(), kind: z.string().optional() }))
    .optional()
    .describe(
      "what the player was told of since the session's previous answer, each event in exactly one answer; a fight's swings folded into totals (kind: combat)",
    ),
  eventsDropped: z.number().int().optional().describe("events that fell off the session's backlog before this answer"),
  vitals: z
    .object({
      health: z.number(),
      maxHealth: z.number(),
      prayer: z.object({ points: z.number(), max: z.number() }).nullable(),
      runEnergy: z.number().nullable().describe("run energy in percent, when the world keeps it"),
      position: tile,
      freeSlots: z.number().int(),
      underAttackBy: z.array(z.object({ id: z.string(), name: z.string() })),
    })
    .nullable()
    .optional()
    .describe("one line of the player's state: null before its first state has come"),
};

/** An action's outcome (src/mcp/act.ts perform): absent from a refusal. */
const outcome = {
  done: z.boolean().optional().describe("the outcome came within the call (false: it goes on; see `continues`)"),
  gained: z.record(z.string(), z.number()).optional().describe("item id → change in the pack over the call (negative: lost)"),
  xp: z.record(z.string(), z.number()).optional().describe("skill → xp gained over the call"),
  position: tile.nullable().optional(),
  action: z.unknown().optional().describe("the player's action when the call ended (null: idle)"),
  continues: z.string().optional().describe("how to keep waiting for an outcome that has not come"),
  resolved: z.object({ from: z.string(), targetId: z.string() }).optional().describe("a kind id given as a target, and the instance it named"),
};

const goal = looseObject.nullable().optional().describe("the built-in runtime's goal (null: none)");

/** Each tool's own fields beside `told` (and, for the actions, `outcome`). */
const OWN = {
  observe: {
    tick: z.number().int().optional(),
    you: looseObject.nullable().optional().describe("the player (null before its first state)"),
    skills: z.record(z.string(), z.object({ level: z.number(), xp: z.number() })).optional(),
    pack: z.array(z.looseObject({ slot: z.number().int(), itemId: z.string(), quantity: z.number() })).optional(),
    freeSlots: z.number().int().optional(),
  },
  move_to: { ...outcome, arrived: z.boolean().optional(), target: tile.optional() },
  interact: { ...outcome, target: z.unknown().optional(), dialogue: z.unknown().optional(), store: z.unknown().optional() },
  dialogue_respond: { ...outcome, dialogue: z.unknown().optional() },
  close: outcome,
  store_buy: outcome,
  store_sell: outcome,
  bank: { ...outcome, bank: z.array(looseObject).nullable().optional() },
  make: { ...outcome, attempts: z.number().int().optional().describe("items the recipe was made of, successes and failures") },
  equip: outcome,
  unequip: outcome,
  eat: outcome,
  use_item: outcome,
  cast: { ...outcome, target: z.unknown().optional() },
  prayer: { ...outcome, prayer: looseObject.nullable().optional() },
  setting: { ...outcome, vars: z.record(z.string(), z.unknown()).optional() },
  home_teleport: { ...outcome, arrived: z.boolean().optional(), readyAt: z.number().optional().describe("when the next cast is allowed (ms since 1970)") },
  cross_obstacle: { ...outcome, crossed: z.boolean().optional() },
  trade: { ...outcome, trade: z.unknown().optional(), answer: z.string().nullable().optional() },
  chat: outcome,
  note: { noted: z.string().optional().describe("the note as posted") },
  quest_journal: {
    questPoints: z.number().int().optional().describe("quest points earned: each completed quest's once"),
    quests: z
      .array(z.looseObject({ questId: z.string(), name: z.string(), status: z.string(), stage: z.number().int(), stageDescription: z.string().nullable() }))
      .optional(),
  },
  set_goal: { goal },
  agent_status: { goal, availableGoals: z.array(z.unknown()).optional() },
  wait: { ...outcome, goal },
} satisfies Record<ToolName, z.ZodRawShape>;

/** The output schema of a tool. */
export function outputSchemaOf(name: ToolName) {
  return z.looseObject({ ...told, ...OWN[name] });
}
