import { Client, type Room } from "@colyseus/sdk";
import type { UpdatesForm } from "../src/protocol/index.js";
import WebSocket from "ws";

/**
 * The two kinds of real client the /ws benchmark drives over loopback, with what they have in
 * common: the player's last known tile, the move in flight and how long it took to show, and the
 * frames received. A move counts as shown on the first frame in which the client's own player
 * stands on the move's target tile: a `world:update` listing it (/ws), or a state patch after
 * which `room.state.players.get(me)` is there (SDK). The time taken is from just before the move
 * is written to the socket to the moment that frame's message event began (before any decoding),
 * both on this process's clock.
 */

/** What one measuring window collects across all clients. */
export class Meter {
  measuring = false;
  /** Move-to-shown latencies (ms) of the moves sent while measuring. */
  latencies: number[] = [];
  /** Moves written while measuring. */
  sent = 0;
  /** Seconds in which a client sent no move because its previous move had not shown yet. */
  held = 0;
  /** Moves sent while measuring that had not shown after MOVE_TIMEOUT_MS (given up, not in the latencies). */
  timedOut = 0;
  /** Refusals (`error` codes) received while measuring. */
  refused = new Map<string, number>();
  /** Frames received while measuring, by kind (event type, or the Colyseus frame kind). */
  kinds = new Map<string, number>();

  reset() {
    this.latencies = [];
    this.sent = 0;
    this.held = 0;
    this.timedOut = 0;
    this.refused.clear();
    this.kinds.clear();
  }
}

interface Move {
  x: number;
  z: number;
  sentAt: number;
  measured: boolean;
}

export type ClientKind = "ws" | "sdk";

/** A move not shown after this long is given up (counted, not timed) and the client moves on. */
export const MOVE_TIMEOUT_MS = 5_000;

export abstract class LoadClient {
  abstract readonly kind: ClientKind;
  playerId = "";
  /** The player's tile as this client last saw it. */
  pos: { x: number; z: number } | undefined;
  pending: Move | undefined;
  /** While spreading out from the spawn: the tile it runs to, the tries so far, and whether the last was refused. */
  scatter: { x: number; z: number; tries: number; refused: boolean } | undefined;
  /** Its character was made by this connection (a new guest token): it starts on the spawn tile. */
  fresh = false;
  /** Frames and payload bytes received since the last reset. */
  frames = 0;
  bytes = 0;
  closed = false;

  constructor(
    readonly idx: number,
    protected readonly meter: Meter,
  ) {}

  abstract connect(): Promise<void>;
  protected abstract write(type: string, data: unknown): void;
  abstract close(): Promise<void>;

  /**
   * Whether the client may send its next move: only once the previous one has shown (so every
   * latency is measured to the end, none cut short by the next move), or after MOVE_TIMEOUT_MS,
   * when the previous one is given up.
   */
  readyToMove(now: number): boolean {
    const p = this.pending;
    if (!p) return true;
    if (now - p.sentAt < MOVE_TIMEOUT_MS) {
      if (this.meter.measuring) this.meter.held++;
      return false;
    }
    if (p.measured) this.meter.timedOut++;
    this.pending = undefined;
    return true;
  }

  /** Walk (or run) to a tile, remembering when, to time how long it takes to show. */
  move(x: number, z: number, run = false) {
    const m = this.meter;
    this.pending = { x, z, sentAt: performance.now(), measured: m.measuring && !run };
    if (this.pending.measured) m.sent++;
    this.write("player:move", run ? { x, z, run: true } : { x, z });
  }

  protected count(kind: string | undefined, bytes: number) {
    this.frames++;
    this.bytes += bytes;
    if (kind !== undefined) this.countKind(kind);
  }

  protected countKind(kind: string) {
    if (this.meter.measuring) this.meter.kinds.set(kind, (this.meter.kinds.get(kind) ?? 0) + 1);
  }

  /** The client saw its own player on (x, z) in a frame that arrived at `at`. */
  protected seen(x: number, z: number, at: number) {
    this.pos = { x, z };
    const p = this.pending;
    if (p && p.x === x && p.z === z) {
      if (p.measured) this.meter.latencies.push(at - p.sentAt);
      this.pending = undefined;
    }
    if (this.scatter && this.scatter.x === x && this.scatter.z === z) this.scatter = undefined;
  }

  /** The room refused a request (the only requests are moves). */
  protected refused(code: string) {
    if (this.meter.measuring) this.meter.refused.set(code, (this.meter.refused.get(code) ?? 0) + 1);
    this.pending = undefined;
    if (this.scatter) this.scatter.refused = true; // the spreader picks another tile
  }
}

const timeout = <T>(p: Promise<T>, ms: number, what: string) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });

/** A plain /ws client: JSON text frames, `world:update` every tick. */
export class WsLoadClient extends LoadClient {
  readonly kind = "ws";
  private ws: WebSocket | undefined;
  private closedAt: Promise<void> | undefined;

  constructor(
    idx: number,
    meter: Meter,
    private readonly port: number,
    private readonly token: string,
    /** The form of world:update it asks for (PROTOCOL.md §4). */
    private readonly updates: UpdatesForm,
  ) {
    super(idx, meter);
  }

  connect(): Promise<void> {
    const query = `token=${encodeURIComponent(this.token)}&updates=${this.updates}`;
    const ws = new WebSocket(`ws://127.0.0.1:${this.port}/ws?${query}`, { perMessageDeflate: false });
    /** Where its own player stands, as the entries merged so far say (the changes form lists only what changed). */
    const self = { x: NaN, z: NaN };
    this.ws = ws;
    let joined = false;
    this.closedAt = new Promise((resolve) => ws.once("close", () => resolve()));
    const ready = new Promise<void>((resolve, reject) => {
      ws.on("message", (data: Buffer) => {
        const at = performance.now();
        const msg = JSON.parse(data.toString("utf8")) as { type: string; data: any };
        this.count(msg.type, data.length);
        if (msg.type === "world:update") {
          const me = this.playerId;
          for (const p of msg.data.players as Array<{ id: string; x?: number; z?: number }>) {
            if (p.id === me) {
              self.x = p.x ?? self.x;
              self.z = p.z ?? self.z;
              this.seen(self.x, self.z, at);
              break;
            }
          }
          if (!joined) {
            joined = true;
            resolve();
          }
        } else if (msg.type === "authenticated") this.playerId = msg.data.playerId;
        else if (msg.type === "player:sync") this.pos ??= { x: msg.data.position.x, z: msg.data.position.z };
        else if (msg.type === "error") this.refused(String(msg.data?.code));
      });
      ws.once("close", (code, reason) => {
        this.closed = true;
        if (!joined) reject(new Error(`/ws closed ${code} ${String(reason)} before the first world:update`));
      });
      ws.on("error", (err) => {
        if (!joined) reject(err);
      });
    });
    return timeout(ready, 30_000, "/ws join").catch((err) => {
      ws.terminate();
      throw err;
    });
  }

  protected write(type: string, data: unknown) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type, data }));
  }

  async close() {
    if (!this.ws) return;
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(1000);
    await timeout(this.closedAt!, 10_000, "/ws close").catch(() => this.ws?.terminate());
  }
}

/** Colyseus frame kinds by protocol code (the low 5 bits of the first byte). */
const FRAME_KIND: Record<number, string> = { 10: "join", 11: "roomError", 12: "leave", 14: "state", 15: "patch", 17: "bytes" };
const ROOM_DATA = 13;
const ROOM_STATE_PATCH = 15;

/** An @colyseus/sdk client: schema state and patches, room messages as msgpack. */
export class SdkLoadClient extends LoadClient {
  readonly kind = "sdk";
  private room: Room<any> | undefined;

  constructor(
    idx: number,
    meter: Meter,
    private readonly url: string,
    private readonly token: string,
  ) {
    super(idx, meter);
  }

  async connect(): Promise<void> {
    const sdk = new Client(this.url);
    sdk.auth.token = this.token;
    const room = await timeout(sdk.joinOrCreate("world", {}), 30_000, "SDK join");
    this.room = room;
    let synced: () => void = () => {};
    const firstSync = new Promise<void>((resolve) => (synced = resolve));
    room.onMessage("*", (type: string | number, data: any) => {
      this.countKind(String(type));
      if (type === "player:sync") {
        this.playerId ||= data.id;
        this.pos ??= { x: data.position.x, z: data.position.z };
        synced();
      } else if (type === "error") this.refused(String(data?.code));
    });
    room.onLeave(() => (this.closed = true));
    room.onError(() => {});
    // Time and count each frame as the socket delivers it, then let the SDK decode it as usual.
    const events = (room as any).connection.events;
    const decode = events.onmessage;
    events.onmessage = (event: { data: ArrayBuffer }) => {
      const at = performance.now();
      const code = new Uint8Array(event.data)[0] & 0x1f;
      this.count(code === ROOM_DATA ? undefined : (FRAME_KIND[code] ?? `code${code}`), event.data.byteLength);
      decode(event);
      if (code === ROOM_STATE_PATCH && this.playerId) {
        const me = room.state?.players?.get(this.playerId);
        if (me) this.seen(me.x, me.z, at);
      }
    };
    await timeout(firstSync, 30_000, "SDK player:sync");
  }

  protected write(type: string, data: unknown) {
    if (!this.closed) this.room?.send(type, data);
  }

  async close() {
    if (!this.room || this.closed) return;
    await timeout(this.room.leave(true), 10_000, "SDK leave").catch(() => {});
    this.closed = true;
  }
}
