import type { Room } from "@colyseus/sdk";
import type { TestServer } from "./server.js";
import { guestToken, joinWorld, type WorldPlayer } from "./worldClient.js";
import { wsConnect, type WsPlayer } from "./wsClient.js";
import { TRADE_ROOM_MESSAGES } from "../../src/protocol/index.js";

export type TraderKind = "sdk" | "ws";

/**
 * A player who trades, over either protocol, with one interface: the tests of a flow run the same
 * steps over @colyseus/sdk, over /ws, and with one of each.
 */
export interface Trader {
  kind: TraderKind;
  id: string;
  token: string;
  /** Send an event: trade moves go to the trade's room once the SDK player sits in it. */
  send(type: string, data: unknown): void;
  /** The first event of `type` (after `since`) whose data matches. */
  next(type: string, pred?: (data: any) => boolean, options?: { since?: number; timeoutMs?: number }): Promise<any>;
  /** Every event of `type` received so far (after `since`). */
  all(type: string, since?: number): any[];
  /** Every event received so far (after `since`), with its type. */
  events(since?: number): Array<{ type: string; data: any }>;
  mark(): number;
  /** The latest player:sync. */
  sync(): any;
  /** The SDK player's reconnection token for its world room. */
  reconnectionToken?: string;
  /** The SDK player's seat in the current trade's room. */
  tradeRoom(): Room<any> | undefined;
  /** Settles with the close code once the world connection is closed (by either side). */
  closed: Promise<number>;
  close(): Promise<void>;
}

const TRADE_ROOM_EVENTS = new Set<string>(TRADE_ROOM_MESSAGES);

export async function sdkTrader(
  server: Pick<TestServer, "url">,
  identity?: { token: string; accountId: string },
  join: { roomId?: string; options?: Record<string, unknown> } = {},
): Promise<Trader> {
  const p: WorldPlayer = await joinWorld(server, join.options ?? {}, identity, join.roomId);
  let seat: { tradeId: string; room: Room<any> } | undefined;
  let seating: Promise<void> = Promise.resolve();
  // Take the seat the server reserved, as a game client would.
  const watch = (from: number) => {
    p.next("tradeStarted", (d) => d.reservation, { since: from, timeoutMs: 600_000 })
      .then((d) => {
        const at = p.mark();
        // A trade that ended before its seat was taken leaves nothing to sit in.
        seating = p.sdk
          .consumeSeatReservation(d.reservation)
          .then((room) => {
            seat = { tradeId: d.tradeId, room };
          })
          .catch(() => {});
        watch(at);
      })
      .catch(() => {});
  };
  watch(0);
  // Once the trade is over its room is gone: later messages about it go to the world, as a game client's would.
  const ended = (from: number) => {
    Promise.race([
      p.next("tradeCompleted", () => true, { since: from, timeoutMs: 600_000 }),
      p.next("tradeCancelled", () => true, { since: from, timeoutMs: 600_000 }),
    ])
      .then((d) => {
        const at = p.mark();
        if (seat?.tradeId === d.tradeId) seat = undefined;
        ended(at);
      })
      .catch(() => {});
  };
  ended(0);
  const closed = new Promise<number>((resolve) => p.room.onLeave((code: number) => resolve(code)));
  const trader: Trader = {
    kind: "sdk",
    id: p.id,
    reconnectionToken: p.room.reconnectionToken,
    token: p.token,
    send: (type, data) => {
      const tradeId = (data as { tradeId?: unknown })?.tradeId;
      if (seat && seat.tradeId === tradeId && TRADE_ROOM_EVENTS.has(type) && seat.room.connection.isOpen) seat.room.send(type, data);
      else p.room.send(type, data);
    },
    next: (type, pred, options) => p.next(type, pred, options),
    all: (type, since = 0) =>
      p.received
        .slice(since)
        .filter((r) => r.type === type)
        .map((r) => r.data),
    events: (since = 0) => p.received.slice(since),
    mark: () => p.mark(),
    sync: () => p.sync(),
    tradeRoom: () => seat?.room,
    closed,
    close: async () => {
      await seating.catch(() => {});
      // A trade room the server already closed has nothing to leave.
      if (seat?.room.connection.isOpen) await seat.room.leave().catch(() => {});
      await p.leave();
    },
  };
  return trader;
}

/** A /ws trader; `query` adds to the URL (`&world=302`). */
export async function wsTrader(server: Pick<TestServer, "url" | "port">, identity?: { token: string; accountId: string }, query = ""): Promise<Trader> {
  const who = identity ?? (await guestToken(server));
  const ws: WsPlayer = await wsConnect(server.port, `?token=${encodeURIComponent(who.token)}${query}`);
  const auth = await ws.next("authenticated");
  await ws.next("player:sync");
  const trader: Trader = {
    kind: "ws",
    id: auth.data.playerId,
    token: who.token,
    send: (type, data) => ws.send(type, data),
    next: async (type, pred = () => true, options) => (await ws.next(type, (f) => pred(f.data), options)).data,
    all: (type, since = 0) =>
      ws.frames
        .slice(since)
        .filter((f) => f.type === type)
        .map((f) => f.data),
    events: (since = 0) => ws.frames.slice(since).map((f) => ({ type: f.type, data: f.data })),
    mark: () => ws.mark(),
    sync: () => [...ws.frames].reverse().find((f) => f.type === "player:sync")?.data,
    tradeRoom: () => undefined,
    closed: ws.closed.then((c) => c.code),
    close: async () => {
      if (ws.ws.readyState === ws.ws.OPEN) {
        ws.close();
        await ws.closed;
      }
    },
  };
  return trader;
}

export function makeTrader(kind: TraderKind, server: TestServer, identity?: { token: string; accountId: string }): Promise<Trader> {
  return kind === "sdk" ? sdkTrader(server, identity) : wsTrader(server, identity);
}
