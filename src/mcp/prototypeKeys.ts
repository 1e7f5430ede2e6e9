import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { toolError } from "./results.js";

/** Keys that name an object's prototype machinery rather than a field: never a tool's argument. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Where `value` holds a prototype key (`"__proto__"`, `"constructor"`, `"prototype"`) at any depth,
 * as a field path (`"target.__proto__"`), or undefined. JSON.parse makes `"__proto__"` an own key;
 * the SDK's message schema copies the arguments by assignment, which drops it silently, so it is
 * looked for in the body as it arrived.
 */
export function prototypeKeyPath(value: unknown, at: string[] = []): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  for (const key of Object.keys(value)) {
    const path = [...at, key];
    if (PROTOTYPE_KEYS.has(key)) return path.join(".");
    const inner = prototypeKeyPath((value as Record<string, unknown>)[key], path);
    if (inner) return inner;
  }
  return undefined;
}

interface ToolCall {
  jsonrpc: "2.0";
  id: string | number;
  method: "tools/call";
  params: { name?: unknown; arguments?: unknown };
}

const isToolCall = (m: unknown): m is ToolCall =>
  typeof m === "object" &&
  m !== null &&
  (m as ToolCall).method === "tools/call" &&
  typeof (m as ToolCall).params === "object" &&
  (m as ToolCall).params !== null;

/**
 * The answer to a tool call whose arguments hold a prototype key: the tool error INVALID_PAYLOAD
 * naming the field, as for any unknown field (the tool is not run); undefined for any other body.
 */
export function prototypeKeyRefusal(body: unknown): { jsonrpc: "2.0"; id: string | number; result: CallToolResult } | undefined {
  if (!isToolCall(body)) return undefined;
  const path = prototypeKeyPath(body.params.arguments);
  if (!path) return undefined;
  const tool = typeof body.params.name === "string" ? body.params.name : "tool";
  return { jsonrpc: "2.0", id: body.id, result: toolError("INVALID_PAYLOAD", `${tool}: ${path}: not a field of this tool`) };
}
