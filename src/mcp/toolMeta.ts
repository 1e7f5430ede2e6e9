import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";

/** What an MCP client shows of a tool and may decide on before calling it (the spec's tool annotations). */
export interface ToolMeta {
  title: string;
  /** Changes nothing in the world. */
  readOnly?: boolean;
  /** May lose the player something it cannot simply take back (items sold, given, dropped, used up). */
  destructive?: boolean;
  /** Called again with the same arguments, it changes nothing more. */
  idempotent?: boolean;
  /** Reaches other people (other players read it). */
  openWorld?: boolean;
}

/**
 * Every tool's title and hints, by name: the tools are registered by these names only
 * (src/mcp/toolKit.ts), so a tool without its entry does not compile. The feature folders' tools
 * carry their own (src/mcp/featureTools.ts).
 */
export const TOOL_META = {
  observe: { title: "Look around", readOnly: true, idempotent: true },
  move_to: { title: "Walk to a tile", idempotent: true },
  interact: { title: "Act on something near (gather, attack, talk, store, pick up, pray)" },
  dialogue_respond: { title: "Answer the dialogue" },
  close: { title: "Close the dialogue or store", idempotent: true },
  store_buy: { title: "Buy from the open store" },
  store_sell: { title: "Sell to the open store", destructive: true },
  bank: { title: "Deposit or withdraw at a bank" },
  make: { title: "Make items from a recipe", destructive: true },
  equip: { title: "Wear or wield an item", idempotent: true },
  unequip: { title: "Take off a worn item", idempotent: true },
  eat: { title: "Eat food", destructive: true },
  use_item: { title: "Use an item (cook, light, bury, drop, use on another)", destructive: true },
  cast: { title: "Cast a combat spell" },
  prayer: { title: "Turn a prayer on or off", idempotent: true },
  setting: { title: "Change a setting (auto-retaliate)", idempotent: true },
  trade: { title: "Trade with another player", destructive: true, openWorld: true },
  chat: { title: "Say something", openWorld: true },
  note: { title: "Note your plan for the people watching" },
  quest_journal: { title: "Read the quest journal", readOnly: true, idempotent: true },
  set_goal: { title: "Hand a goal to the built-in runtime", idempotent: true },
  agent_status: { title: "The runtime's goal and the goals available", readOnly: true, idempotent: true },
  wait: { title: "Let game ticks pass, or wait for an event", readOnly: true },
} as const satisfies Record<string, ToolMeta>;

export type ToolName = keyof typeof TOOL_META;

/** A tool's annotations as the MCP spec names them. */
export function annotationsOf(m: ToolMeta): ToolAnnotations {
  return {
    title: m.title,
    readOnlyHint: m.readOnly === true,
    destructiveHint: m.destructive === true,
    idempotentHint: m.idempotent === true,
    openWorldHint: m.openWorld === true,
  };
}
