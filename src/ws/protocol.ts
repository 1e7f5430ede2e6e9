import { z } from "zod";
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

export function frame(type: string, data: unknown, id?: string): string {
  return JSON.stringify(id === undefined ? { type, data } : { type, data, id });
}
