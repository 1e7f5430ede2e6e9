import assert from "node:assert/strict";
import { Client, type Room } from "@colyseus/sdk";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { joinWorld, type WorldPlayer } from "../helpers/worldClient.js";
import { until } from "../helpers/tradeSuite.js";
import { place, ticks, worldRoomOf } from "../helpers/worldRoom.js";
import { checkEveryPatch, recordComplaints, recordViews, sharedViewsOf, zonesEast } from "../helpers/viewChecks.js";

/**
 * A dropped SDK connection (a Wi-Fi blip: the socket dies without a leave) keeps its player in the
 * world for RECONNECT_GRACE_S; the SDK's own automatic reconnection, or `client.reconnect(token)`,
 * resumes the same session with nothing lost; past the grace period the player leaves and is saved.
 */
/** A server with this grace period for the suite (one at a time: the match-maker is the process's). */
function graceSuite(graceS: number) {
  let server: TestServer | undefined;
  before(async () => {
    server = await startTestServer({ env: { RECONNECT_GRACE_S: String(graceS) } });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((p) => p.leave().catch(() => {})));
  });
  after(async () => {
    await server?.close();
  });
  return () => server!;
}

const open: WorldPlayer[] = [];

async function player(s: TestServer, autoReconnect: boolean) {
  const p = await joinWorld(s);
  open.push(p);
  p.room.reconnection.enabled = autoReconnect;
  p.room.reconnection.minUptime = 0;
  p.room.reconnection.minDelay = 10;
  p.room.reconnection.delay = 10;
  return p;
}

/** Kill the player's socket from the server's side, as a network drop would (no leave, no close frame). */
function drop(room: WorldRoom, p: WorldPlayer) {
  const session = room.sessions.get(p.id)!;
  (session.client as unknown as { ref: { terminate(): void } }).ref.terminate();
  return session;
}


describe("world room: reconnection after a dropped connection", function () {
  this.timeout(60_000);
  const serverOf = graceSuite(30);

  it("the SDK reconnects by itself: the same session and player, never out of the world", async () => {
    const p = await player(serverOf(), true);
    const room = worldRoomOf(p);
    const sessionId = p.room.sessionId;
    const before = room.sessions.get(p.id)!;
    const oldClient = before.client;
    const since = p.mark();
    drop(room, p);
    // Back: a fresh player:sync on the same room object and session id.
    await p.next("player:sync", () => true, { since });
    assert.equal(p.room.sessionId, sessionId);
    assert.equal(room.sessions.get(p.id), before, "the same session");
    assert.notEqual(before.client, oldClient, "on a new connection");
    assert.ok(room.world.players.has(p.id));
    // And it plays on.
    const again = p.mark();
    p.send("player:action", { action: "stop" });
    await p.next("player:sync", () => true, { since: again });
  });

  it("client.reconnect(token) within the grace period resumes the session with what changed meanwhile", async () => {
    const server = serverOf();
    const p = await player(server, false);
    const room = worldRoomOf(p);
    const token = p.room.reconnectionToken;
    const session = drop(room, p);
    await until(() => session.awaitingReconnection !== undefined);
    // While dropped, the player is still in the world: what happens to it is kept.
    const e = room.world.players.get(p.id)!;
    e.inventory[27] = { itemId: "logs", quantity: 3 };
    room.world.touchPlayer(e);
    const sdk = new Client(server.url);
    const back: Room = await sdk.reconnect(token);
    const sync = await new Promise<any>((resolve) => back.onMessage("player:sync", resolve));
    assert.equal(back.sessionId, p.room.sessionId);
    assert.ok(sync.inventory.some((s: { slot: number; itemId: string }) => s.slot === 27 && s.itemId === "logs"));
    assert.equal(room.sessions.get(p.id)?.client.sessionId, back.sessionId);
    await back.leave();
    await until(() => !room.sessions.has(p.id));
  });

  it("back after a drop in which it crossed zones and had a window of its own: its state is exactly what the server has it see, patch after patch", async () => {
    const server = serverOf();
    const other = await player(server, false);
    const p = await player(server, false);
    const room = worldRoomOf(p);
    const byTick = recordViews(room);
    const token = p.room.reconnectionToken;
    const session = drop(room, p);
    await until(() => session.awaitingReconnection !== undefined);
    // While it is gone: handed over to another zone's view (the frame goes nowhere), then a window of its own.
    const away = zonesEast(room, room.world.spawnTile, 2);
    place(room, p.id, away);
    place(room, other.id, away);
    await ticks(room, 2);
    room.world.addGroundItem({ id: room.world.newId(), itemId: "logs", quantity: 1, tile: { ...away }, ownerId: p.id, createdTick: room.world.tick });
    await ticks(room, 2);
    assert.equal(sharedViewsOf(room).viewers.get(p.id)!.shared, false, "a window of its own");
    const complaints = recordComplaints("error");
    try {
      const back: Room = await new Client(server.url).reconnect(token);
      back.onMessage("*", () => {});
      const again = { id: p.id, room: back } as unknown as WorldPlayer;
      open.push({ leave: async () => void (await back.leave()) } as WorldPlayer);
      const check = checkEveryPatch(again, byTick);
      try {
        await until(() => check.checked() >= 3);
      } finally {
        check.stop();
      }
      assert.deepEqual(check.mismatches, []);
      assert.ok(back.state.players.get(other.id) && back.state.groundItems.size === 1, "the other player and its drop, where it is now");
    } finally {
      complaints.stop();
    }
    assert.deepEqual(complaints.lines, [], "its decoder met no structure it does not know");
  });

  it("a trade stays open through a drop and completes after the reconnection", async () => {
    const a = await player(serverOf(), true);
    const b = await player(serverOf(), true);
    const room = worldRoomOf(a);
    place(room, a.id, room.world.spawnTile);
    place(room, b.id, room.world.spawnTile);
    const coins = room.world.players.get(a.id)!.inventory.findIndex((s) => s?.itemId === "coins");
    const [aCoins, bCoins] = [a.id, b.id].map((id) => room.world.players.get(id)!.inventory[coins]!.quantity);
    let since = b.mark();
    a.send("tradeRequest", { targetPlayerId: b.id });
    const { tradeId } = await b.next("tradeIncoming", () => true, { since });
    b.send("tradeRequestRespond", { tradeId, accept: true });
    await a.next("tradeStarted", (d) => d.tradeId === tradeId);
    a.send("tradeAddItem", { tradeId, inventorySlot: coins, quantity: 5 });
    await b.next("tradeUpdated", (d) => d.theirOffer.items.length === 1);
    since = a.mark();
    drop(room, a);
    await a.next("player:sync", () => true, { since });
    assert.ok(room.world.trades.tradeOf(a.id), "the trade is still open");
    for (const screen of ["tradeConfirmScreen", "tradeCompleted"]) {
      const ma = a.mark();
      a.send("tradeAccept", { tradeId });
      await a.next("tradeUpdated", (d) => d.myOffer.accepted, { since: ma });
      b.send("tradeAccept", { tradeId });
      await a.next(screen, (d) => d.tradeId === tradeId, { since: ma });
    }
    assert.equal(room.world.players.get(a.id)!.inventory[coins]!.quantity, aCoins - 5);
    assert.equal(room.world.players.get(b.id)!.inventory[coins]!.quantity, bCoins + 5);
  });

});

describe("world room: a dropped connection past the grace period", function () {
  this.timeout(60_000);
  const serverOf = graceSuite(1);

  it("the player leaves and is saved; the token no longer works", async () => {
    const short = serverOf();
    const p = await player(short, false);
    const room = worldRoomOf(p);
    const token = p.room.reconnectionToken;
    room.world.players.get(p.id)!.inventory[27] = { itemId: "logs", quantity: 2 };
    room.world.touchPlayer(room.world.players.get(p.id)!);
    drop(room, p);
    await until(() => !room.sessions.has(p.id) && !room.world.players.has(p.id));
    await room.settled();
    const saved = await short.ctx.db.prisma.inventoryItem.findFirst({ where: { characterId: p.id, slot: 27 } });
    assert.deepEqual([saved?.itemId, saved?.quantity], ["logs", 2]);
    await assert.rejects(new Client(short.url).reconnect(token));
  });
});
