import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { seededRng } from "../../src/game/random.js";
import { TradeThroughDrops, OFFERS } from "../helpers/resumeTrade.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/tradeSuite.js";
import { joinWorld } from "../helpers/worldClient.js";
import { givePack, place, theWorld, tileAway } from "../helpers/worldRoom.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";
import { parked, ResumingPlayer, seatClientOf } from "../helpers/wsResume.js";
import { addTo, bagOf, plain, type Bag } from "../helpers/itemLedger.js";

/**
 * /ws reconnection (docs/PROTOCOL.md §8): a socket that drops (no close frame: `terminate()`, 1006
 * on the server) keeps its player in the world for RECONNECT_GRACE_S; `resume` with the latest
 * resume token, on a new socket, continues the same session. Tokens work once; the wrong ones
 * change nothing; past the grace period the player leaves and is saved.
 */

/** A server with this grace period for the suite, and the players and sockets to close after each test. */
function resumeSuite(graceS: number) {
  const ctx = {
    server: undefined as unknown as TestServer,
    room: undefined as unknown as WorldRoom,
    players: [] as ResumingPlayer[],
    sockets: [] as WsPlayer[],
  };
  before(async () => {
    // A socket whose resume failed is not made a guest here (its guest window starts again: 1 s in service).
    ctx.server = await startTestServer({ env: { RECONNECT_GRACE_S: String(graceS), WS_GUEST_AFTER_MS: "60000" } });
    ctx.room = await theWorld();
  });
  afterEach(async () => {
    for (const s of ctx.sockets.splice(0)) s.ws.terminate();
    const players = ctx.players.splice(0);
    await Promise.all(players.map((p) => p.leave(ctx.room).catch(() => {})));
    for (const p of players) p.terminateAll();
  });
  after(async () => {
    await ctx.server?.close();
  });
  return ctx;
}

const inventoryOf = (sync: { data: { inventory: Array<{ slot: number; itemId: string; quantity: number }> } }) =>
  sync.data.inventory.map((s) => `${s.slot}:${s.itemId}x${s.quantity}`).sort();

describe("/ws resume after a dropped socket", function () {
  this.timeout(120_000);
  const s = resumeSuite(30);
  const join = () => ResumingPlayer.join(s.server, s.players);
  /** Two players side by side on the spawn tile, one with 50 coins, the other with 5 logs. */
  const traders = async () => {
    const { room } = s;
    const a = await join();
    const b = await join();
    place(room, a.id, room.world.spawnTile);
    place(room, b.id, room.world.spawnTile);
    givePack(room, a.id, [["coins", 50]]);
    givePack(room, b.id, [["logs", 5]]);
    return { a, b };
  };
  const bare = async () => {
    const ws = await wsConnect(s.server.port);
    s.sockets.push(ws);
    return ws;
  };
  /** `resume` with `data` on `ws`: the refusal's code (the frame's id echoed). */
  const refusal = async (ws: WsPlayer, data: unknown, id: string) => {
    ws.send("resume", data, id);
    const answer = await ws.next("*", (f) => f.id === id);
    assert.equal(answer.type, "error", `${id}: ${JSON.stringify(answer)}`);
    return answer.data.code as string;
  };

  it("the player stays in the world; `resume` continues the same session: authenticated (new token), player:sync, a full view", async () => {
    const { room } = s;
    const a = await join();
    const dest = tileAway(room, room.world.spawnTile, 3);
    place(room, a.id, dest);
    givePack(room, a.id, [
      ["coins", 25],
      ["logs", 3],
    ]);
    const session = room.sessions.get(a.id)!;
    const first = a.resumeToken;
    a.drop();
    await a.parkedIn(room);
    assert.equal(room.sessions.get(a.id), session, "still in the world");
    // What happens to the player meanwhile is kept.
    const e = room.world.players.get(a.id)!;
    e.inventory[27] = { itemId: "logs", quantity: 7 };
    room.world.touchPlayer(e);

    const { auth, sync, update } = await a.resume();
    assert.notEqual(auth.data.resumeToken, first);
    assert.equal(room.sessions.get(a.id), session, "the same session");
    assert.deepEqual([sync.data.position.x, sync.data.position.z], [dest.x, dest.z]);
    assert.deepEqual(inventoryOf(sync), ["0:coinsx25", "1:logsx3", "27:logsx7"]);
    const me = update.data.players.find((p: { id: string }) => p.id === a.id);
    assert.deepEqual([me?.x, me?.z], [dest.x, dest.z], "a full view: the player itself included");
    assert.ok(update.data.npcs.length + update.data.resources.length > 0, "and what stands around");
    // It plays on, on one database session.
    const m = a.ws.mark();
    a.ws.send("player:chat", { message: "back" });
    await a.ws.next("chat:message", (f) => f.data.fromId === a.id, { since: m });
    const rows = await s.server.ctx.db.prisma.playerSession.findMany({ where: { characterId: a.id } });
    assert.deepEqual(
      rows.map((r) => r.endedAt),
      [null],
    );
  });

  it("a resume token works once: replayed, it is refused RESUME_FAILED and changes nothing", async () => {
    const { room } = s;
    const a = await join();
    const first = a.resumeToken;
    a.drop();
    await a.parkedIn(room);
    await a.resume();
    const players = room.world.players.size;
    const c = await bare();
    assert.equal(await refusal(c, { resumeToken: first }, "replay"), "RESUME_FAILED");
    assert.equal(await refusal(c, { resumeToken: first }, "again"), "RESUME_FAILED", "the socket stays open, still refused");
    assert.ok(!c.frames.some((f) => f.type === "authenticated"));
    // The session plays on its resumed socket; nobody joined or left.
    assert.ok(seatClientOf(room, a.id)?.open);
    assert.equal(room.world.players.size, players);
    const m = a.ws.mark();
    a.ws.send("player:chat", { message: "still here" });
    await a.ws.next("chat:message", (f) => f.data.fromId === a.id, { since: m });
    // The newest token still works (the refusals did not spend it).
    a.drop();
    await a.resume();
  });

  it("garbage, a login token, an SDK reconnection token, a prefix, another player's used token and a left player's token are refused", async () => {
    const { room, server } = s;
    const a = await join();
    const b = await join();
    const bUsed = b.resumeToken;
    b.drop();
    await b.resume();
    const left = await join();
    const leftToken = left.resumeToken;
    await left.leave(room);
    const sdk = await joinWorld(server);
    a.drop();
    await a.parkedIn(room);

    const c = await bare();
    const cases: Array<[string, unknown, string]> = [
      ["garbage", { resumeToken: "garbage" }, "RESUME_FAILED"],
      ["login", { resumeToken: a.token }, "RESUME_FAILED"],
      ["sdk", { resumeToken: sdk.room.reconnectionToken }, "RESUME_FAILED"],
      ["prefix", { resumeToken: a.resumeToken.slice(0, -1) }, "RESUME_FAILED"],
      ["b-used", { resumeToken: bUsed }, "RESUME_FAILED"],
      ["left", { resumeToken: leftToken }, "RESUME_FAILED"],
      ["empty", { resumeToken: "" }, "INVALID_PAYLOAD"],
      ["number", { resumeToken: 5 }, "INVALID_PAYLOAD"],
      ["other-key", { token: a.resumeToken }, "INVALID_PAYLOAD"],
    ];
    for (const [id, data, code] of cases) assert.equal(await refusal(c, data, id), code, id);
    assert.ok(!c.frames.some((f) => f.type === "authenticated"));
    // A socket playing b that sends a bad token stays b.
    assert.equal(await refusal(b.ws, { resumeToken: "nope" }, "b-bad"), "RESUME_FAILED");
    await b.settle();
    assert.ok(seatClientOf(room, b.id)?.open);
    // Nothing changed for a: still waiting, and its own token still works.
    assert.ok(parked(room, a.id));
    await a.resume();
    await sdk.leave();
  });

  it("a close with 1000 is a leave: the player leaves at once and its token is refused", async () => {
    const { room } = s;
    const a = await join();
    const token = a.resumeToken;
    a.ws.ws.close(1000);
    await until(() => !room.sessions.has(a.id) && !room.world.players.has(a.id));
    await room.settled();
    const row = await s.server.ctx.db.prisma.playerSession.findFirstOrThrow({ where: { characterId: a.id } });
    assert.deepEqual([Boolean(row.endedAt), row.endReason], [true, "logout"]);
    assert.equal(await refusal(await bare(), { resumeToken: token }, "left"), "RESUME_FAILED");
  });

  it("a resume while the old socket is still open moves the session there: the old one gets session:replaced and 4100", async () => {
    const { room } = s;
    const a = await join();
    const old = a.ws;
    const session = room.sessions.get(a.id);
    await a.resume();
    await old.next("session:replaced");
    assert.equal((await old.closed).code, 4100);
    assert.equal(room.sessions.get(a.id), session);
    assert.ok(seatClientOf(room, a.id)?.open);
  });

  it("an `authenticate` of the same account during the grace period takes the session over, as any second login", async () => {
    const { room } = s;
    const a = await join();
    givePack(room, a.id, [["logs", 4]]);
    const session = room.sessions.get(a.id)!;
    a.drop();
    await a.parkedIn(room);
    const n = await bare();
    n.send("authenticate", { token: a.token }, "again");
    const auth = await n.next("authenticated", (f) => f.id === "again");
    assert.deepEqual([auth.data.resumed, auth.data.playerId], [false, a.id]);
    assert.notEqual(auth.data.resumeToken, a.resumeToken);
    // Saved by the take-over, loaded again by the new session.
    assert.deepEqual(inventoryOf(await n.next("player:sync")), ["0:logsx4"]);
    assert.notEqual(room.sessions.get(a.id), session);
    const old = await s.server.ctx.db.prisma.playerSession.findUniqueOrThrow({ where: { id: session.dbSessionId } });
    assert.equal(old.endReason, "replaced");
    assert.equal(await refusal(await bare(), { resumeToken: a.resumeToken }, "old"), "RESUME_FAILED");
    n.ws.close(1000);
    await until(() => !room.sessions.has(a.id));
  });

  it("an open trade stays open: the resumed socket is told where it stands, and the trade completes", async () => {
    const { room } = s;
    const { a, b } = await traders();
    a.ws.send("tradeRequest", { targetPlayerId: b.id });
    const { tradeId } = (await b.ws.next("tradeIncoming")).data;
    // The request waits through b's drop: b is asked again.
    b.drop();
    await b.parkedIn(room);
    let back = await b.resume();
    assert.ok(back.frames.some((f) => f.type === "tradeIncoming" && f.data.tradeId === tradeId && f.data.fromPlayerId === a.id));
    b.ws.send("tradeRequestRespond", { tradeId, accept: true });
    await a.ws.next("tradeStarted", (f) => f.data.tradeId === tradeId);
    a.ws.send("tradeAddItem", { tradeId, inventorySlot: 0, quantity: 10 });
    await b.ws.next("tradeUpdated", (f) => f.data.theirOffer.items.length === 1);

    // The offer screen, told again after a's drop.
    a.drop();
    await a.parkedIn(room);
    back = await a.resume();
    const told = back.frames.filter((f) => f.data?.tradeId === tradeId).map((f) => f.type);
    assert.deepEqual(told, ["tradeStarted", "tradeUpdated"]);
    const started = back.frames.find((f) => f.type === "tradeStarted")!;
    assert.deepEqual(started.data, { tradeId, partnerId: b.id, partnerName: started.data.partnerName }, "no seat reservation");
    const offer = back.frames.find((f) => f.type === "tradeUpdated")!.data;
    assert.deepEqual([offer.myOffer.items, offer.theirOffer.items], [[{ inventorySlot: 0, itemId: "coins", quantity: 10 }], []]);

    // The confirm screen, told again after b's drop.
    a.ws.send("tradeAccept", { tradeId });
    await a.ws.next("tradeUpdated", (f) => f.data.myOffer.accepted);
    b.ws.send("tradeAccept", { tradeId });
    await a.ws.next("tradeConfirmScreen");
    b.drop();
    await b.parkedIn(room);
    back = await b.resume();
    const confirm = back.frames.find((f) => f.type === "tradeConfirmScreen" && f.data.tradeId === tradeId);
    assert.ok(confirm, JSON.stringify(back.frames.map((f) => f.type)));
    assert.deepEqual(confirm.data.theirOffer.items, [{ inventorySlot: 0, itemId: "coins", quantity: 10 }]);

    const mb = b.ws.mark();
    a.ws.send("tradeAccept", { tradeId });
    b.ws.send("tradeAccept", { tradeId });
    await Promise.all([a.ws.next("tradeCompleted"), b.ws.next("tradeCompleted", () => true, { since: mb })]);
    assert.deepEqual(plain(bagOf(room.world.players.get(a.id)!.inventory.flatMap((x) => x ?? []))), { coins: 40 });
    assert.deepEqual(plain(bagOf(room.world.players.get(b.id)!.inventory.flatMap((x) => x ?? []))), { coins: 10, logs: 5 });
  });

  it("sockets dropped at random moments of trades (request, offers, first accept, confirm) by both /ws players: items conserved, each trade completed once or cancelled", async () => {
    const { room, server } = s;
    const seed = Number(process.env.RESUME_SEED ?? Date.now() % 1_000_000);
    console.log(`      resume trade storm: seed ${seed} (RESUME_SEED=${seed} to replay)`);
    const rng = seededRng(seed);
    const outcomes: string[] = [];
    for (let round = 0; round < 8; round++) {
      const { a, b } = await traders();
      const bag = (id: string) => bagOf(room.world.players.get(id)!.inventory.flatMap((x) => x ?? []));
      const total = (): Bag => [...bag(b.id)].reduce((sum, [item, n]) => addTo(sum, item, n), bag(a.id));
      const before = plain(total());
      const run = new TradeThroughDrops(room, a, b, rng);
      const where = () => `seed ${seed}, round ${round}:\n${run.log.join("\n")}`;
      try {
        await run.run();
      } catch (err) {
        (err as Error).message += `\n${where()}`;
        throw err;
      }
      const tradeId = run.tradeId!;
      const completed = (await server.ctx.db.prisma.trade.count({ where: { id: tradeId } })) === 1;
      outcomes.push(`${completed ? "completed" : "cancelled"} (${run.drops} drops)`);
      // No drop ends a trade: only a player's own cancel or decline does.
      assert.ok(completed || run.cancelSent, `cancelled with no cancel sent; ${where()}`);
      const reasons = [a, b].flatMap((p) =>
        p
          .frames()
          .filter((f) => f.type === "tradeCancelled" && f.data.tradeId === tradeId)
          .map((f) => f.data.reason),
      );
      assert.ok(
        reasons.every((r) => r === "cancelled" || r === "declined"),
        `cancel reasons ${reasons}; ${where()}`,
      );
      for (const p of [a, b]) {
        const told = p.frames().filter((f) => f.type === "tradeCompleted" && f.data.tradeId === tradeId).length;
        assert.ok(told <= 1, `told completed ${told} times; ${where()}`);
      }
      assert.deepEqual(plain(total()), before, `items conserved; ${where()}`);
      const [give, take] = completed ? [-1, 1] : [0, 0];
      assert.deepEqual(
        plain(bag(a.id)),
        plain(addTo(addTo(bagOf([{ itemId: "coins", quantity: 50 }]), "coins", give * OFFERS.a.quantity), "logs", take * OFFERS.b.quantity)),
        where(),
      );
      // What the world holds is what is saved once both leave.
      const held = [plain(bag(a.id)), plain(bag(b.id))];
      await Promise.all([a.leave(room), b.leave(room)]);
      const saved = await Promise.all([a, b].map((p) => server.ctx.db.prisma.inventoryItem.findMany({ where: { characterId: p.id } })));
      assert.deepEqual(
        saved.map((rows) => plain(bagOf(rows))),
        held,
        where(),
      );
    }
    console.log(`      outcomes: ${outcomes.join(", ")}`);
  });
});

describe("/ws resume: past the grace period", function () {
  this.timeout(60_000);
  const s = resumeSuite(1);

  it("the player leaves and is saved; its token is refused", async () => {
    const { room, server } = s;
    const a = await ResumingPlayer.join(server, s.players);
    const dest = tileAway(room, room.world.spawnTile, 2);
    place(room, a.id, dest);
    givePack(room, a.id, [["logs", 2]]);
    a.drop();
    await until(() => !room.sessions.has(a.id) && !room.world.players.has(a.id), 20_000);
    await room.settled();
    const row = await server.ctx.db.prisma.character.findUniqueOrThrow({ where: { id: a.id } });
    assert.deepEqual([row.positionX, row.positionZ], [dest.x, dest.z]);
    const saved = await server.ctx.db.prisma.inventoryItem.findMany({ where: { characterId: a.id } });
    assert.deepEqual(
      saved.map((r) => [r.slot, r.itemId, r.quantity]),
      [[0, "logs", 2]],
    );
    const session = await server.ctx.db.prisma.playerSession.findFirstOrThrow({ where: { characterId: a.id } });
    assert.ok(session.endedAt);
    const c = await wsConnect(server.port);
    s.sockets.push(c);
    c.send("resume", { resumeToken: a.resumeToken }, "late");
    assert.equal((await c.next("error", (f) => f.id === "late")).data.code, "RESUME_FAILED");
  });
});
