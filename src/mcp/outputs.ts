import { z } from "zod";
import type { ToolName } from "./toolMeta.js";

/**
 * Every tool's `outputSchema`: the shape of its `structuredContent`, which the SDK's client checks on
 * every answer. One schema a tool, for its answers and its refusals alike (a client checks both):
 * what every answer carries (src/mcp/answers.ts: the events since the session's previous answer and
 * the vitals; a refusal's `error`), then the tool's own fields, absent from a refusal. Objects stay
 * open (more fields may come); the fields named here are what a model can count on.
 */

/**
 * Kept short: a model is given every tool's schema before its first call, so what the answers
 * mean is said once (docs/MCP.md, the server's instructions, the tools' descriptions), not in each
 * schema. Whole numbers are plain numbers here (an integer's bounds would be written out in full).
 */
const num = z.number();
const tile = z.looseObject({ x: num, z: num });
const looseObject = z.looseObject({});

/** What every answer carries (src/mcp/answers.ts withTold): a refusal's error, the events since the previous answer, the vitals. */
const told = {
  error: z.looseObject({ code: z.string(), message: z.string() }).optional(),
  events: z.array(looseObject).optional(),
  eventsDropped: num.optional(),
  // Its other fields (prayer, runEnergy, freeSlots, underAttackBy) are the docs' (docs/MCP.md, "Answers and errors").
  vitals: z.looseObject({ health: num, maxHealth: num, position: tile }).nullable().optional(),
};

/** An action's outcome (src/mcp/act.ts perform): absent from a refusal. */
export const outcome = {
  done: z.boolean().optional(),
  gained: z.record(z.string(), num).optional(),
  xp: z.record(z.string(), num).optional(),
  position: tile.nullable().optional(),
  action: z.unknown().optional(),
  continues: z.string().optional(),
  resolved: z.looseObject({ from: z.string(), targetId: z.string() }).optional(),
};

const goal = looseObject.nullable().optional().describe("the built-in runtime's goal (null: none)");

/** Each tool's own fields beside `told` (and, for the actions, `outcome`). */
const OWN = {
  observe: {
    tick: num.optional(),
    you: looseObject.nullable().optional().describe("the player (null before its first state)"),
    skills: z.record(z.string(), z.object({ level: z.number(), xp: z.number() })).optional(),
    pack: z.array(z.looseObject({ slot: num, itemId: z.string(), quantity: z.number() })).optional(),
    freeSlots: num.optional(),
  },
  move_to: { ...outcome, arrived: z.boolean().optional(), target: tile.optional() },
  interact: { ...outcome, target: z.unknown().optional(), dialogue: z.unknown().optional(), store: z.unknown().optional() },
  dialogue_respond: { ...outcome, dialogue: z.unknown().optional() },
  close: outcome,
  store_buy: outcome,
  store_sell: outcome,
  bank: { ...outcome, bank: z.array(looseObject).nullable().optional() },
  make: { ...outcome, attempts: num.optional().describe("items the recipe was made of, successes and failures") },
  equip: outcome,
  unequip: outcome,
  eat: outcome,
  use_item: outcome,
  cast: { ...outcome, target: z.unknown().optional() },
  prayer: { ...outcome, prayer: looseObject.nullable().optional() },
  setting: { ...outcome, vars: z.record(z.string(), z.unknown()).optional() },
  trade: { ...outcome, trade: z.unknown().optional(), answer: z.string().nullable().optional() },
  chat: outcome,
  note: { noted: z.string().optional().describe("the note as posted") },
  quest_journal: {
    questPoints: num.optional().describe("quest points earned: each completed quest's once"),
    quests: z
      .array(z.looseObject({ questId: z.string(), name: z.string(), status: z.string(), stage: num, stageDescription: z.string().nullable() }))
      .optional(),
  },
  set_goal: { goal },
  agent_status: { goal, availableGoals: z.array(z.unknown()).optional() },
  wait: { ...outcome, goal },
} satisfies Record<ToolName, z.ZodRawShape>;

/** The output schema of a tool: of a tool named here, or a feature's tool with its own fields. */
export function outputSchemaOf(own: ToolName | z.ZodRawShape) {
  return z.looseObject({ ...told, ...(typeof own === "string" ? OWN[own] : own) });
}
