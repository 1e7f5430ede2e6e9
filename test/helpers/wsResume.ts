import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import type { WsRoomClient } from "../../src/ws/roomClients.js";
import type { TestServer } from "./server.js";
import { until } from "./tradeSuite.js";
import { guestToken } from "./worldClient.js";
import { wsConnect, type Frame, type WsPlayer } from "./wsClient.js";

/** The adapter's room client of a /ws player (the room's side of its seat). */
export const seatClientOf = (room: WorldRoom, playerId: string) => room.sessions.get(playerId)?.client as unknown as WsRoomClient | undefined;

/** The server has seen the player's socket drop: the player is in the world with no socket (parked). */
export const parked = (room: WorldRoom, playerId: string) => {
  const client = seatClientOf(room, playerId);
  return client !== undefined && !client.closed && !client.open;
};

let barrier = 0;

/**
 * A /ws player that drops its socket (`terminate()`: no close frame, 1006 on the server) and
 * resumes its session on a new one with its latest resume token. `ws` is the current socket;
 * `sockets` every socket it opened (for clean-up).
 */
export class ResumingPlayer {
  ws!: WsPlayer;
  id = "";
  accountId = "";
  token = "";
  resumeToken = "";
  readonly sockets: WsPlayer[] = [];

  constructor(private readonly server: TestServer) {}

  /** A new guest in the world over /ws (token in the URL), its first frames received. */
  static async join(server: TestServer, registry: ResumingPlayer[]): Promise<ResumingPlayer> {
    const p = new ResumingPlayer(server);
    registry.push(p);
    const who = await guestToken(server);
    p.token = who.token;
    const ws = await p.open(`?token=${encodeURIComponent(who.token)}`);
    const auth = await ws.next("authenticated");
    assert.equal(auth.data.resumed, false);
    assert.match(auth.data.resumeToken, /^[A-Za-z0-9_-]{43}$/, "256 random bits, base64url");
    [p.id, p.accountId, p.resumeToken] = [auth.data.playerId, auth.data.accountId, auth.data.resumeToken];
    await ws.next("world:update");
    await p.settle();
    return p;
  }

  private async open(query = ""): Promise<WsPlayer> {
    const ws = await wsConnect(this.server.port, query);
    this.sockets.push(ws);
    this.ws = ws;
    return ws;
  }

  /** Kill the current socket without a close frame (a network drop). */
  drop() {
    this.ws.ws.terminate();
  }

  /**
   * Resume on a new socket with the latest token: `authenticated` (resumed, a new token), then
   * player:sync and a full world:update; resolves once everything the resume sent has arrived.
   */
  async resume(): Promise<{ auth: Frame; sync: Frame; update: Frame; frames: Frame[] }> {
    const ws = await this.open();
    const used = this.resumeToken;
    ws.send("resume", { resumeToken: used }, "resume");
    const auth = await ws.next("*", (f) => f.id === "resume");
    assert.equal(auth.type, "authenticated", `resume refused: ${JSON.stringify(auth.data)}`);
    assert.deepEqual([auth.data.resumed, auth.data.playerId, auth.data.accountId], [true, this.id, this.accountId]);
    assert.notEqual(auth.data.resumeToken, used, "a new token after every resume");
    this.resumeToken = auth.data.resumeToken;
    const sync = await ws.next("player:sync");
    const update = await ws.next("world:update");
    await this.settle();
    assert.deepEqual(
      ws.frames.slice(0, 3).map((f) => f.type),
      ["authenticated", "player:sync", "world:update"],
    );
    return { auth, sync, update, frames: ws.frames.slice() };
  }

  /** A ping's answer: every frame the server sent before it has arrived. */
  async settle() {
    const id = `barrier-${++barrier}`;
    this.ws.send("ping", {}, id);
    await this.ws.next("pong", (f) => f.id === id);
  }

  /** Wait until the server has seen the drop (the player waits in the world, without a socket). */
  async parkedIn(room: WorldRoom) {
    await until(() => parked(room, this.id), 15_000);
  }

  /** Leave the world (a close with 1000) and let the room save the character. */
  async leave(room: WorldRoom) {
    if (this.ws.ws.readyState === this.ws.ws.OPEN) {
      this.ws.ws.close(1000);
      await this.ws.closed;
    }
    await until(() => !room.sessions.has(this.id), 15_000);
    await room.settled();
  }

  /** Every frame of every socket so far. */
  frames(): Frame[] {
    return this.sockets.flatMap((s) => s.frames);
  }

  terminateAll() {
    for (const s of this.sockets) s.ws.terminate();
  }
}
