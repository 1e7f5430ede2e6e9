import { z } from "zod";
import { textProblem } from "../http/requestTarget.js";
import { TradeMessages } from "../../rooms/tradeMessages.js";
import { ClientMessages } from "../../rooms/worldMessages.js";

/**
 * The plain JSON WebSocket protocol at /ws (docs/PROTOCOL.md): one JSON object per text frame,
 * `{"type": "<event>", "data": {...}, "id"?: "..."}` both ways; replies and errors caused by a frame
 * echo its id.
 */
export const Envelope = z
  .object({
    type: z.string().min(1).max(64),
    data: z.unknown().optional(),
    id: z.string().max(128).optional(),
  })
  .strict();
export type Envelope = z.infer<typeof Envelope>;

export const AuthenticateData = z
  .object({
    token: z.string().min(1).max(8192),
    characterId: z.string().min(1).max(128).optional(),
  })
  .strict();

/** Events a /ws client may send beyond the adapter's own: the world room's and the trades', forwarded as they are. */
export const ROOM_EVENTS = new Set<string>([...Object.keys(ClientMessages), ...Object.keys(TradeMessages)]);

export const WS_LIMITS = {
  /** Frames a connection may send per second; more are dropped with RATE_LIMITED. */
  messagesPerSecond: 60,
  /** Dropped frames within one second that count as a flood: the socket is closed with 4029. */
  floodDropsPerSecond: 60,
  /** Largest frame accepted; larger closes the socket with 1009. */
  maxFrameBytes: 64 * 1024,
  /** Nesting levels a frame may have, the envelope being the first (as for HTTP bodies). */
  maxDepth: 32,
  /** Object keys and array elements a frame may hold, counted over the whole frame. */
  maxEntries: 1024,
  /** Without a token in the URL, the time allowed to send `authenticate` (when guests are off). */
  authenticateWithinMs: 10_000,
  /** Ping every interval; a peer that has not answered the previous ping by the next is dropped. */
  heartbeatMs: 15_000,
};

/** Close codes of /ws. */
export const WS_CLOSE = {
  GOING_AWAY: 1001,
  TOO_BIG: 1009,
  UNAUTHORIZED: 4001,
  FLOOD: 4029,
} as const;

/**
 * The problem with a parsed frame, if any, before anything else looks at it: nested deeper than
 * `maxDepth`, more than `maxEntries` keys and elements, or a key or string that no part of the
 * server can store (a NUL character, an unpaired surrogate). Walked without recursion, and it
 * stops at the first problem, so no frame the size limit lets through costs more than one pass.
 */
export function frameProblem(value: unknown, limits: { maxDepth: number; maxEntries: number } = WS_LIMITS): string | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  let entries = 0;
  while (stack.length) {
    const { value: v, depth } = stack.pop()!;
    if (typeof v === "string") {
      const bad = textProblem(v);
      if (bad) return `frame: a string ${bad}`;
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (depth > limits.maxDepth) return `frame: nested more than ${limits.maxDepth} levels deep`;
    const children = Array.isArray(v) ? v : Object.values(v);
    if (!Array.isArray(v)) {
      for (const key of Object.keys(v)) {
        const bad = textProblem(key);
        if (bad) return `frame: a key ${bad}`;
      }
    }
    entries += children.length;
    if (entries > limits.maxEntries) return `frame: more than ${limits.maxEntries} keys and array elements`;
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}

export function frame(type: string, data: unknown, id?: string): string {
  return JSON.stringify(id === undefined ? { type, data } : { type, data, id });
}
