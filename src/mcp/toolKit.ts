import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { DEFAULT_MAX_TICKS, MAX_TICKS, type Extra, type Watch } from "./act.js";
import { withTold } from "./answers.js";
import { toolError, ToolError } from "./results.js";
import { outputSchemaOf } from "./outputs.js";
import { annotationsOf, TOOL_META, type ToolMeta, type ToolName } from "./toolMeta.js";
import type { McpSession } from "./session.js";

/** How long a tool may wait for its outcome, in ticks of 600 ms. */
export const maxTicks = z
  .number()
  .int()
  .min(1)
  .max(MAX_TICKS)
  .optional()
  .describe(
    `most game ticks (600 ms) to wait for the outcome; default ${DEFAULT_MAX_TICKS} (a fight: ${MAX_TICKS}, to its end), at most ${MAX_TICKS} (54 s, under a client's 60 s timeout)`,
  );

/** A tool's handler: its checked arguments and the request's extra; a ToolError is answered as the tool's error. */
export type Handler<A> = (args: A, extra: Extra) => Promise<CallToolResult>;

/**
 * Register a tool, with its title and hints (src/mcp/toolMeta.ts) and its output schema
 * (src/mcp/outputs.ts), whose refusals (ToolError) are
 * answered as tool errors with their code; nothing else escapes. Every answer, refusals included, carries the events since the session's previous
 * answer and the player's vitals (src/mcp/answers.ts).
 */
export function tool<S extends z.ZodType>(server: McpServer, s: McpSession, name: ToolName, description: string, inputSchema: S, run: Handler<z.infer<S>>) {
  registerTool(server, s, { name, meta: TOOL_META[name], output: outputSchemaOf(name), description }, inputSchema, run);
}

/** Register a tool of any name with its own title, hints and output schema (a feature's tool: src/mcp/featureTools.ts), as `tool` does. */
export function registerTool<S extends z.ZodType>(
  server: McpServer,
  s: McpSession,
  { name, meta, output: outputSchema, description }: { name: string; meta: ToolMeta; output: z.ZodType; description: string },
  inputSchema: S,
  run: Handler<z.infer<S>>,
) {
  const annotations = annotationsOf(meta);
  server.registerTool(name, { title: annotations.title, description, inputSchema: inputSchema as any, outputSchema: outputSchema as any, annotations }, (async (
    args: z.infer<S>,
    extra: Extra,
  ) => {
    let result: CallToolResult;
    try {
      result = await run(args, extra);
    } catch (err) {
      if (err instanceof ToolError) result = toolError(err.code, err.message, err.extra);
      else {
        s.ctx.logger.error({ err, tool: name }, "MCP tool failed");
        result = toolError("INTERNAL", "Something went wrong");
      }
    }
    return withTold(s.player, result);
  }) as any);
}

/** Settled once the tick after the order has been told (its private sync, or its update). */
export const afterTick: Watch = { maxTicks: 3, settled: () => true };
