import { Client, type Room } from "@colyseus/sdk";
import { SERVER_MESSAGE_TYPES } from "../../src/protocol/index.js";
import { startTestServer, type TestServer } from "./server.js";

export interface Received {
  type: string;
  data: any;
}

/** A real @colyseus/sdk player in the world room, recording every message it receives. */
export interface WorldPlayer {
  /** The SDK client the player joined with (to take seats the server reserves for it). */
  sdk: Client;
  room: Room<any>;
  token: string;
  accountId: string;
  /** The character id (also the player's entity id). */
  id: string;
  received: Received[];
  /** Resolve with the first message of `type` ("*": any type) (already received after `since`, or still to come) matching `pred`. */
  next(type: string, pred?: (data: any) => boolean, options?: { timeoutMs?: number; since?: number }): Promise<any>;
  /** The latest player:sync. */
  sync(): any;
  /** Resolve once the client's decoded state satisfies `check` (re-checked after every patch it applies). */
  sees(check: (state: any) => unknown, what: string, timeoutMs?: number): Promise<void>;
  send(type: string, data: unknown): void;
  leave(): Promise<void>;
  /** Index of the next message to be received (for `since`). */
  mark(): number;
}

export const TRADE_EVENTS = [
  "tradeRequestSent",
  "tradeIncoming",
  "tradeStarted",
  "tradeUpdated",
  "tradeConfirmScreen",
  "tradeCompleted",
  "tradeCancelled",
  "tradeError",
];
/** Every server message a world player may receive (the /ws adapter's own never reach the room). */
const MESSAGE_TYPES = SERVER_MESSAGE_TYPES.filter((t) => t !== "authenticated" && t !== "pong");

export async function guestToken(server: Pick<TestServer, "url">): Promise<{ token: string; accountId: string }> {
  const res = await fetch(`${server.url}/api/auth/guest`, { method: "POST" });
  if (res.status !== 201) throw new Error(`guest: ${res.status}`);
  return res.json();
}

/** Join the world (by name, or by room id when `roomId` is given) as a real SDK client. */
export async function joinWorld(
  server: Pick<TestServer, "url">,
  options: Record<string, unknown> = {},
  identity?: { token: string; accountId: string },
  roomId?: string,
): Promise<WorldPlayer> {
  const who = identity ?? (await guestToken(server));
  const sdk = new Client(server.url);
  sdk.auth.token = who.token;
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const room = roomId ? await sdk.joinById(roomId, options) : await sdk.joinOrCreate("world", options);
  const record = (type: string) => (data: unknown) => {
    received.push({ type, data });
    for (const w of waiters.splice(0)) w();
  };
  for (const t of MESSAGE_TYPES) room.onMessage(t, record(t));
  let closed = false;
  room.onLeave(() => {
    closed = true;
  });
  const first = await new Promise<any>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no player:sync after join")), 10_000);
    const check = () => {
      const m = received.find((r) => r.type === "player:sync");
      if (m) {
        clearTimeout(timer);
        resolve(m.data);
      } else waiters.push(check);
    };
    check();
  });
  const player: WorldPlayer = {
    sdk,
    room,
    token: who.token,
    accountId: who.accountId,
    id: first.id,
    received,
    mark: () => received.length,
    next: (type, pred = () => true, opts = {}) =>
      new Promise((resolve, reject) => {
        const since = opts.since ?? 0;
        const timer = setTimeout(
          () => reject(new Error(`no ${type} within ${opts.timeoutMs ?? 15_000} ms; got ${JSON.stringify(received.slice(since)).slice(0, 600)}`)),
          opts.timeoutMs ?? 15_000,
        );
        const check = () => {
          const m = received.slice(since).find((r) => (type === "*" || r.type === type) && pred(r.data));
          if (m) {
            clearTimeout(timer);
            resolve(m.data);
          } else waiters.push(check);
        };
        check();
      }),
    sync: () => [...received].reverse().find((r) => r.type === "player:sync")?.data,
    sees: (check, what, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        if (check(room.state)) return resolve();
        const timer = setTimeout(() => {
          room.onStateChange.remove(onPatch);
          reject(new Error(`the client never saw: ${what}`));
        }, timeoutMs);
        const onPatch = (state: any) => {
          if (!check(state)) return;
          clearTimeout(timer);
          room.onStateChange.remove(onPatch);
          resolve();
        };
        room.onStateChange(onPatch);
      }),
    send: (type, data) => room.send(type, data),
    leave: async () => {
      if (!closed) await room.leave();
    },
  };
  return player;
}

/**
 * A mocha suite's world: one server for the suite, players joined through `join` and left after
 * each test. Call inside `describe`.
 */
export function worldSuite(options: Parameters<typeof startTestServer>[0] = {}) {
  let server: TestServer | undefined;
  const players: WorldPlayer[] = [];
  before(async () => {
    server = await startTestServer(options);
  });
  afterEach(async () => {
    await Promise.all(players.splice(0).map((p) => p.leave().catch(() => {})));
  });
  after(async () => {
    await server?.close();
  });
  return {
    get server(): TestServer {
      if (!server) throw new Error("the suite's server is not started");
      return server;
    },
    join: async (joinOptions: Record<string, unknown> = {}, identity?: { token: string; accountId: string }) => {
      const p = await joinWorld(server!, joinOptions, identity);
      players.push(p);
      return p;
    },
    /** Players joined in this test and still to be left. */
    players,
  };
}
