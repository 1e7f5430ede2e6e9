import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/**
 * What a tool answers: a JSON object, as text (what every MCP client shows a model) and as
 * structured content. A refusal is an MCP tool error (`isError: true`) whose text starts with the
 * documented error code (src/protocol/codes.ts): `"NO_PATH: ..."`, and whose structured content is
 * `{error: {code, message}}`. Never a stack.
 */

/** A refusal a tool throws: answered as a tool error with its code. */
export class ToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** What else to tell beside the error (events that came with it). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ToolError";
  }
}

export function toolResult(body: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}

export function toolError(code: string, message: string, extra?: Record<string, unknown>): CallToolResult {
  const body = { error: { code, message }, ...extra };
  return { content: [{ type: "text", text: `${code}: ${message}${extra ? `\n${JSON.stringify(extra)}` : ""}` }], structuredContent: body, isError: true };
}

/**
 * The SDK's own refusal of a tool's arguments ("MCP error -32602: Input validation error: Invalid
 * arguments for tool x: ...") as the project's INVALID_PAYLOAD, naming the fields; any other text
 * (an unknown tool) stays as it is, under INVALID_PAYLOAD too.
 */
export function argumentsRefused(text: string): CallToolResult {
  const m = /Invalid arguments for tool ([\w-]+): ([\s\S]*)$/.exec(text);
  if (!m) return toolError("INVALID_PAYLOAD", text.replace(/^MCP error -?\d+: /, ""));
  return toolError("INVALID_PAYLOAD", `${m[1]}: ${describeIssues(m[2])}`);
}

/** The SDK's issue lines ("<reason> at <field>", one per line) as "field: reason; field: reason". */
function describeIssues(text: string): string {
  return text
    .trim()
    .split("\n")
    .map((line) => {
      const m = /^(.*) at ([^\s]+)$/.exec(line.trim());
      return m ? `${m[2]}: ${m[1]}` : line.trim();
    })
    .join("; ");
}
