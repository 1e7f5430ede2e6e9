import { Protocol, type Client } from "@colyseus/core";
import type { WebSocket } from "ws";
import { isWebSocket } from "./sendsWritten.js";
import { beforeCollect, wireBytesReceived, wireBytesSent, wireFramesSent } from "../src/metrics.js";
import { RoomMessages, SERVER_MESSAGE_TYPES } from "../src/protocol/index.js";

/** How a player's connection reaches the world: a Colyseus SDK socket, or the /ws JSON adapter's. */
export type Transport = "sdk" | "ws";

const SENT_TYPES: ReadonlySet<string> = new Set(SERVER_MESSAGE_TYPES);
const RECEIVED_TYPES: ReadonlySet<string> = new Set(Object.keys(RoomMessages));

/** What one label set carried since the metrics were last read. */
interface Pending {
  labels: { world: string; transport: Transport; type: string };
  bytes: number;
  frames: number;
}

/**
 * What the world room's connections carry, counted in /metrics (`world_bytes_sent_total`,
 * `world_frames_sent_total`, `world_bytes_received_total`) by world, transport and message type. A
 * message type is one of the protocol's (what a client sends that is not counts as `other`, so no
 * client can grow the label set). A frame adds to plain numbers (a map lookup and two adds); they go
 * into the metrics when the metrics are read. Agents and MCP sessions play in-process: no
 * connection, nothing counted.
 */
export class WireMeter {
  private readonly sent = new Map<string, Pending>();
  private readonly received = new Map<string, Pending>();

  constructor(
    private readonly world: string,
    private readonly transport: Transport,
  ) {
    beforeCollect.add(() => this.collect());
  }

  /** A frame of `bytes` bytes sent, of a message type (or `join`, `state`, `patch`). */
  out(type: string, bytes: number): void {
    const p = this.pending(this.sent, SENT_TYPES.has(type) || SCHEMA_FRAMES.has(type) ? type : "other");
    p.bytes += bytes;
    p.frames++;
  }

  /** A frame of `bytes` bytes received, of a message type (`other` when the protocol has none of that name). */
  in(type: string, bytes: number): void {
    this.pending(this.received, RECEIVED_TYPES.has(type) || SCHEMA_FRAMES.has(type) ? type : "other").bytes += bytes;
  }

  private pending(map: Map<string, Pending>, type: string): Pending {
    let p = map.get(type);
    if (!p) map.set(type, (p = { labels: { world: this.world, transport: this.transport, type }, bytes: 0, frames: 0 }));
    return p;
  }

  /** Into the metrics: what was counted since they were last read. */
  private collect() {
    for (const p of this.sent.values()) {
      if (p.frames === 0) continue;
      wireBytesSent.inc(p.labels, p.bytes);
      wireFramesSent.inc(p.labels, p.frames);
      p.bytes = p.frames = 0;
    }
    for (const p of this.received.values()) {
      if (p.bytes === 0) continue;
      wireBytesReceived.inc(p.labels, p.bytes);
      p.bytes = 0;
    }
  }
}

const METERS = new Map<string, WireMeter>();

/** The meter of one world's connections over one transport (one per process). */
export function wireMeter(worldId: number, transport: Transport): WireMeter {
  const key = `${worldId}/${transport}`;
  let m = METERS.get(key);
  if (!m) METERS.set(key, (m = new WireMeter(String(worldId), transport)));
  return m;
}

/** The frame kinds of the Colyseus protocol that carry no message type of ours. */
const FRAME_KINDS: Record<number, string> = {
  [Protocol.JOIN_ROOM]: "join",
  [Protocol.ERROR]: "room_error",
  [Protocol.LEAVE_ROOM]: "leave",
  [Protocol.ROOM_STATE]: "state",
  [Protocol.ROOM_STATE_PATCH]: "patch",
  [Protocol.PING]: "ping",
};
const SCHEMA_FRAMES: ReadonlySet<string> = new Set(Object.values(FRAME_KINDS));

/** The message type a Colyseus frame carries: a room message's own (a short string after the frame's code), or the frame's kind. */
export function frameType(data: Uint8Array): string {
  const code = data[0] & 0x1f;
  if (code !== Protocol.ROOM_DATA && code !== Protocol.ROOM_DATA_BYTES) return FRAME_KINDS[code] ?? "other";
  const prefix = data[1];
  // A fixstr (under 32 bytes, as every message type of ours) or a str 8.
  if (prefix >= 0xa0 && prefix < 0xc0) return latin1(data, 2, prefix & 0x1f);
  if (prefix === 0xd9 && data.length > 2) return latin1(data, 3, data[2]);
  return "other";
}

const latin1 = (data: Uint8Array, start: number, length: number) =>
  Buffer.from(data.buffer, data.byteOffset + start, Math.min(length, data.length - start)).toString("latin1");

/**
 * Count what an SDK client's socket carries: every frame the room writes to it, and every frame it
 * receives. In-process clients (the /ws adapter's, agents', MCP sessions') have no socket here.
 */
export function meterSocket(client: Pick<Client, "raw" | "ref">, meter: WireMeter): void {
  if (!isWebSocket(client.ref) || METERED.has(client.ref)) return;
  const socket: WebSocket = client.ref;
  METERED.add(socket);
  const raw = client.raw.bind(client);
  client.raw = (data, options, cb) => {
    meter.out(frameType(data), data.byteLength);
    raw(data, options, cb);
  };
  socket.on("message", (data: Buffer | ArrayBuffer | Buffer[]) => {
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    meter.in(frameType(bytes), bytes.byteLength);
  });
}

const METERED = new WeakSet<object>();
