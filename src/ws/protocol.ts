import { textProblem } from "../http/requestTarget.js";
import { Envelope, RoomMessages, UpdatesForm, type ErrorCode, type ServerMessage, type ServerMessageType } from "../protocol/index.js";
import { worldIdOption } from "../worldSpecs.js";

/**
 * The /ws adapter's side of the plain JSON WebSocket protocol (docs/PROTOCOL.md §8): its limits, its
 * reading of a socket's query and its checks of a frame. The frame (`Envelope`), `authenticate` and every message are defined in
 * src/protocol, with the close codes (`CLOSE_CODES`).
 */

/** Events a /ws client may send beyond the adapter's own: the world room's and the trades', forwarded as they are. */
export const ROOM_EVENTS = new Set<string>(Object.keys(RoomMessages));

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

/** What a /ws URL's query asks for: `?token=&characterId=&world=&updates=` (PROTOCOL.md §8). */
export interface WsQuery {
  token?: string;
  characterId?: string;
  /** The world asked for; none: the least full. */
  worldId?: number;
  /** The form of world:update asked for (PROTOCOL.md §4). */
  updates?: UpdatesForm;
}

/** A socket's query, or the problem with it (the socket is refused with INVALID_PAYLOAD). */
export function readQuery(url: URL): WsQuery | { problem: string } {
  const token = url.searchParams.get("token") ?? undefined;
  const characterId = url.searchParams.get("characterId") ?? undefined;
  const bad = [token, characterId].map((v) => (v === undefined ? undefined : textProblem(v))).find(Boolean);
  if (bad) return { problem: `The query ${bad}` };
  const query: WsQuery = { token, characterId };
  const world = url.searchParams.get("world");
  if (world !== null) {
    try {
      query.worldId = worldIdOption(world);
    } catch (err) {
      return { problem: `The query's ${(err as Error).message}` };
    }
  }
  const updates = url.searchParams.get("updates");
  if (updates !== null) {
    const form = UpdatesForm.safeParse(updates);
    if (!form.success) return { problem: `The query's updates must be "whole" or "changes"` };
    query.updates = form.data;
  }
  return query;
}

const NOT_JSON = Symbol("not JSON");

function parseFrame(data: Buffer, isBinary: boolean): unknown {
  if (isBinary) return NOT_JSON;
  try {
    return JSON.parse(data.toString("utf8"));
  } catch {
    return NOT_JSON;
  }
}

/** A parsed frame's `id`, where it is one a reply may echo: a string of at most 128 characters that can be stored. */
function usableId(parsed: unknown): string | undefined {
  const rawId = (parsed as { id?: unknown } | null)?.id;
  return typeof rawId === "string" && rawId.length <= 128 && !textProblem(rawId) ? rawId : undefined;
}

/** The `id` a dropped frame's refusal (RATE_LIMITED) echoes, if the frame is JSON with a usable one. */
export function frameId(data: Buffer, isBinary: boolean): string | undefined {
  const parsed = parseFrame(data, isBinary);
  return parsed === NOT_JSON ? undefined : usableId(parsed);
}

/**
 * A client's frame as its envelope, or the error it is answered with: not JSON text, a problem of
 * its shape (frameProblem), or not an envelope. The error echoes the frame's `id` where it had a
 * usable one (a string of at most 128 characters that can be stored).
 */
export function readFrame(
  data: Buffer,
  isBinary: boolean,
): { envelope: Envelope } | { error: { code: ErrorCode; message: string; id?: string }; type?: string } {
  const parsed = parseFrame(data, isBinary);
  if (parsed === NOT_JSON) return { error: { code: "BAD_JSON", message: 'Frames must be JSON text: {"type": "...", "data": {...}}' } };
  const id = usableId(parsed);
  const rawType = (parsed as { type?: unknown } | null)?.type;
  // The event a refused frame meant, where it names one (a refused `authenticate` is answered as such).
  const type = typeof rawType === "string" && rawType.length <= 64 && !textProblem(rawType) ? rawType : undefined;
  // Too deep or too wide never reaches the room (nor msgpack, which recurses).
  const problem = frameProblem(parsed);
  if (problem) return { error: { code: "INVALID_PAYLOAD", message: problem, id }, type };
  const envelope = Envelope.safeParse(parsed);
  if (!envelope.success) {
    const issue = envelope.error.issues[0];
    return { error: { code: "INVALID_PAYLOAD", message: `${issue.path.join(".") || "frame"}: ${issue.message}`, id }, type };
  }
  return { envelope: envelope.data };
}

/** A server frame of the adapter's own: its payload checked against ServerMessages. */
export function frame<K extends ServerMessageType>(type: K, data: ServerMessage<K>, id?: string): string {
  return frameOf(type, data, id);
}

/**
 * The JSON of each world:update the room sent, made once: the clients standing in one zone are
 * sent the very same update object (rooms/interest/worldWindows.ts), which is never changed once sent.
 */
const updateJson = new WeakMap<object, string>();

/** A frame of a message the room sent, passed on as it came. */
export function frameOf(type: string, data: unknown, id?: string): string {
  if (type === "world:update" && data !== null && typeof data === "object") {
    let json = updateJson.get(data);
    if (json === undefined) {
      json = JSON.stringify(data);
      updateJson.set(data, json);
    }
    return `{"type":"world:update","data":${json}${id === undefined ? "" : `,"id":${JSON.stringify(id)}`}}`;
  }
  return JSON.stringify(id === undefined ? { type, data } : { type, data, id });
}
