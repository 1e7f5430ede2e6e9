import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { z } from "zod";
import { FeatureMessages, type FeatureMessageType, type RoomEnvelope } from "../protocol/index.js";
import { DEFAULT_MAX_TICKS, perform, type Watch } from "./act.js";
import { outcome, outputSchemaOf } from "./outputs.js";
import type { McpSession } from "./session.js";
import { maxTicks, registerTool } from "./toolKit.js";
import { TOOL_META, type ToolMeta } from "./toolMeta.js";

/**
 * An MCP tool a feature folder declares (src/features/<feature>/), listed in the feature registry
 * and handed to the endpoint by the assembly: it sends one of the feature's client messages, its
 * arguments that message's payload (with `maxTicks`, unless the wait is the feature's own), and
 * answers like every action tool once its watch says the outcome came.
 */
export interface FeatureTool {
  readonly name: string;
  readonly meta: ToolMeta;
  readonly description: string;
  /** The feature message it sends (src/protocol/featureMessages.ts). */
  readonly message: FeatureMessageType;
  /** Its own answer fields, beside what every action's answer carries. */
  readonly output: z.ZodRawShape;
  /** What the call waits for, given how many ticks it may wait. */
  readonly watch: (maxTicks: number) => Watch;
  /** The wait's length is the feature's own (a cast's time): the tool takes no `maxTicks`. */
  readonly fixedTicks?: number;
}

/** Refuse, at startup, feature tools that take a name already in use (a core tool's or another feature's). */
export function checkFeatureTools(tools: readonly FeatureTool[]): void {
  const seen = new Set<string>(Object.keys(TOOL_META));
  for (const t of tools) {
    if (seen.has(t.name)) throw new Error(`MCP tool ${t.name} (feature message ${t.message}) has a name already in use`);
    seen.add(t.name);
  }
}

/** A feature message whose payload its own schema checked (the tool's input schema): the pair the union types. */
const envelope = (type: FeatureMessageType, data: unknown) => ({ type, data }) as RoomEnvelope;

/** Register the feature folders' tools on a session's server. */
export function registerFeatureTools(server: McpServer, s: McpSession, tools: readonly FeatureTool[]): void {
  for (const t of tools) {
    const payload = FeatureMessages[t.message];
    const card = { name: t.name, meta: t.meta, output: outputSchemaOf({ ...outcome, ...t.output }), description: t.description };
    if (t.fixedTicks !== undefined) {
      const ticks = t.fixedTicks;
      registerTool(server, s, card, payload, async (m, extra) => perform(s, extra, envelope(t.message, m), t.watch(ticks)));
    } else {
      registerTool(server, s, card, payload.extend({ maxTicks }), async ({ maxTicks: ticks, ...m }, extra) =>
        perform(s, extra, envelope(t.message, m), t.watch(ticks ?? DEFAULT_MAX_TICKS)),
      );
    }
  }
}
