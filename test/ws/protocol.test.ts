import assert from "node:assert/strict";
import { signToken } from "../../src/auth/tokens.js";
import { startTestServer, TEST_SECRET, type TestServer } from "../helpers/server.js";
import { guestToken, joinWorld } from "../helpers/worldClient.js";
import { place, ticks, theWorld } from "../helpers/worldRoom.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";

describe("/ws: the plain JSON protocol", function () {
  this.timeout(30_000);
  let server: TestServer;
  const open: WsPlayer[] = [];
  const connect = async (query = "") => {
    const p = await wsConnect(server.port, query);
    open.push(p);
    return p;
  };

  before(async () => {
    // Connections without a token get their guest 50 ms after a silent start (1 s in service); a
    // dropped socket's player stays 1 s to be resumed (30 s in service; test/ws/resume.test.ts).
    server = await startTestServer({ wsHeartbeatMs: 300, env: { WS_GUEST_AFTER_MS: "50", RECONNECT_GRACE_S: "1" } });
  });
  afterEach(() => {
    for (const p of open.splice(0)) p.close();
  });
  after(async () => {
    await server?.close();
  });

  it("authenticates by token in the URL: authenticated, then player:sync, then a first world:update", async () => {
    const who = await guestToken(server);
    const a = await connect(`?token=${who.token}`);
    const auth = await a.next("authenticated");
    assert.equal(auth.data.accountId, who.accountId);
    assert.equal(auth.data.playerId, auth.data.characterId);
    const types = a.frames.map((f) => f.type);
    await a.next("world:update");
    assert.deepEqual(
      a.frames.slice(0, 3).map((f) => f.type),
      ["authenticated", "player:sync", "world:update"],
      JSON.stringify(types),
    );
    const sync = a.frames[1].data;
    assert.equal(sync.id, auth.data.playerId);
    assert.ok(sync.inventory.length > 0);
    const update = a.frames[2].data;
    assert.ok(
      update.players.some((p: { id: string }) => p.id === auth.data.playerId),
      "everything in view, me included",
    );
    assert.ok(update.npcs.length + update.resources.length > 0);
  });

  it("gives a connection with no token a guest identity in anonymous mode", async () => {
    const a = await connect();
    const auth = await a.next("authenticated");
    assert.match(auth.data.accountId, /^guest_/);
    const user = await server.ctx.db.prisma.user.findUniqueOrThrow({ where: { id: auth.data.accountId } });
    assert.equal(user.isGuest, true);
  });

  it("in anonymous mode an authenticate frame once the guest is in replaces the guest identity", async () => {
    const who = await guestToken(server);
    const a = await connect();
    assert.match((await a.next("authenticated")).data.accountId, /^guest_/);
    a.send("authenticate", { token: who.token }, "switch");
    const auth = await a.next("authenticated", (f) => f.id === "switch");
    assert.equal(auth.data.accountId, who.accountId);
    const room = await theWorld();
    await ticks(room, 1);
    const guestIds = a.frames.filter((f) => f.type === "authenticated" && f.id !== "switch").map((f) => f.data.playerId);
    for (const id of guestIds) assert.equal(room.sessions.has(id), false, "the guest player left the world");
    assert.equal(room.sessions.has(auth.data.playerId), true);
  });

  it("a malformed authenticate on a socket that plays nobody is INVALID_PAYLOAD and close 4000, never a guest", async () => {
    const who = await guestToken(server);
    const usersBefore = await server.ctx.db.prisma.user.count();
    for (const world of ["abc", "2", 0, 1.5, -1, 10000, null]) {
      const a = await connect();
      a.sendRaw(JSON.stringify({ type: "authenticate", data: { token: who.token, world }, id: "a1" }));
      const closed = await a.closed;
      assert.equal(closed.code, 4000, `world ${JSON.stringify(world)}`);
      assert.deepEqual(
        a.frames.map((f) => [f.type, f.data.code, f.id]),
        [["error", "INVALID_PAYLOAD", "a1"]],
        `world ${JSON.stringify(world)}: one refusal, nothing else`,
      );
      assert.match(a.frames[0].data.message, /^authenticate: world: /);
    }
    assert.equal(await server.ctx.db.prisma.user.count(), usersBefore, "no guest account was made");
  });

  it("a malformed authenticate on a socket that plays a player changes nothing: the player stays", async () => {
    const who = await guestToken(server);
    const a = await connect(`?token=${who.token}`);
    const auth = await a.next("authenticated");
    const since = a.mark();
    a.send("authenticate", { token: who.token, world: "abc" }, "a2");
    const err = await a.next("error", () => true, { since });
    assert.deepEqual([err.data.code, err.id], ["INVALID_PAYLOAD", "a2"]);
    a.send("ping", {}, "after");
    assert.equal((await a.next("pong", (f) => f.id === "after", { since })).id, "after");
    assert.equal(a.ws.readyState, a.ws.OPEN);
    assert.equal((await theWorld()).sessions.has(auth.data.playerId), true);
  });

  it("refuses a bad token with UNAUTHORIZED and close 4001", async () => {
    for (const token of ["garbage", signToken({ sub: "x" }, "other-secret-".padEnd(40, "o")), signToken({ sub: "no-such-account" }, TEST_SECRET)]) {
      const a = await connect(`?token=${encodeURIComponent(token)}`);
      const err = await a.next("error");
      assert.equal(err.data.code, "UNAUTHORIZED");
      assert.equal((await a.closed).code, 4001);
    }
  });

  it("moves are translated into the room and come back in world:update; replies echo the frame id", async () => {
    const a = await connect();
    const auth = await a.next("authenticated");
    const sync = await a.next("player:sync");
    const target = { x: sync.data.position.x + 2, z: sync.data.position.z };
    const since = a.mark();
    a.send("player:move", target, "move-1");
    const update = await a.next(
      "world:update",
      (f) => f.data.players.some((p: { id: string; x: number; z: number }) => p.id === auth.data.playerId && p.x === target.x && p.z === target.z),
      { since },
    );
    assert.equal(typeof update.data.tick, "number");
    const room = await theWorld();
    assert.deepEqual(room.world.players.get(auth.data.playerId)!.tile, target);
    // A refusal caused by a frame echoes its id.
    const s2 = a.mark();
    a.send("player:move", { x: 1e9, z: 0 }, "move-2");
    const err = await a.next("error", () => true, { since: s2 });
    assert.deepEqual([err.data.code, err.id], ["INVALID_PAYLOAD", "move-2"]);
  });

  it("room events sent before `authenticated` run once the player is in", async () => {
    const who = await guestToken(server);
    const a = await connect(`?token=${who.token}`);
    // Straight after opening: the join is still in progress.
    a.send("player:chat", { message: "/world early bird" }, "early");
    const heard = await a.next("chat:message", (f) => f.data.message === "early bird");
    assert.equal(heard.data.channel, "world");
    assert.equal(a.frames.filter((f) => f.type === "error").length, 0);
    assert.ok(a.frames.findIndex((f) => f.type === "authenticated") < a.frames.indexOf(heard));
  });

  it("a /ws player and an @colyseus/sdk player chat with each other, both ways", async () => {
    const a = await connect();
    const auth = await a.next("authenticated");
    const b = await joinWorld(server);
    const room = await theWorld();
    place(room, b.id, room.world.players.get(auth.data.playerId)!.tile);
    await ticks(room, 1);
    const sb = b.mark();
    a.send("player:chat", { message: "hello from /ws" });
    const heard = await b.next("chat:message", (m) => m.fromId === auth.data.playerId, { since: sb });
    assert.equal(heard.message, "hello from /ws");
    const sa = a.mark();
    b.send("player:chat", { message: "hello from the sdk" });
    const back = await a.next("chat:message", (f) => f.data.fromId === b.id, { since: sa });
    assert.equal(back.data.message, "hello from the sdk");
    // They see each other too.
    await a.next("world:update", (f) => f.data.players.some((p: { id: string }) => p.id === b.id));
    assert.ok(b.room.state.players.get(auth.data.playerId));
    await b.leave();
  });

  it("answers malformed frames with a code and keeps the socket usable", async () => {
    const a = await connect();
    await a.next("authenticated");
    const cases: Array<[string, string]> = [
      ["{not json", "BAD_JSON"],
      ["[1,2,3]", "INVALID_PAYLOAD"],
      ['"just a string"', "INVALID_PAYLOAD"],
      [JSON.stringify({ data: {} }), "INVALID_PAYLOAD"],
      [JSON.stringify({ type: 5 }), "INVALID_PAYLOAD"],
      [JSON.stringify({ type: "player:move", data: {}, extra: 1 }), "INVALID_PAYLOAD"],
      [JSON.stringify({ type: "player:fly", data: {} }), "UNKNOWN_EVENT"],
      [JSON.stringify({ type: "player:move", data: { x: "1", z: 2 } }), "INVALID_PAYLOAD"],
      [JSON.stringify({ type: "bank:withdraw", data: { itemId: "coins", quantity: -1 } }), "INVALID_PAYLOAD"],
      [JSON.stringify({ type: "inventory:use", data: { slot: 99 } }), "INVALID_PAYLOAD"],
      [JSON.stringify({ type: "authenticate", data: { token: 5 } }), "INVALID_PAYLOAD"],
      // `data` is an object or absent: null, an array or a string is a wrong type, for every event.
      [JSON.stringify({ type: "dialogue:close", data: null }), "INVALID_PAYLOAD"],
      [JSON.stringify({ type: "store:close", data: null }), "INVALID_PAYLOAD"],
      [JSON.stringify({ type: "player:move", data: [1, 2] }), "INVALID_PAYLOAD"],
      [JSON.stringify({ type: "ping", data: "x" }), "INVALID_PAYLOAD"],
      // Absent counts as {}.
      [JSON.stringify({ type: "dialogue:close" }), "NOT_IN_DIALOGUE"],
      [JSON.stringify({ type: "store:close" }), "STORE_NOT_OPEN"],
    ];
    for (const [text, code] of cases) {
      const since = a.mark();
      a.sendRaw(text);
      const err = await a.next("error", () => true, { since });
      assert.equal(err.data.code, code, text);
    }
    const since0 = a.mark();
    a.sendRaw(JSON.stringify({ type: "dialogue:close", data: null, id: "d1" }));
    const wrongType = await a.next("error", () => true, { since: since0 });
    assert.equal(wrongType.id, "d1");
    assert.match(wrongType.data.message, /^dialogue:close: .*expected object, received null/);
    const since = a.mark();
    a.send("ping", {}, "still-there");
    const pong = await a.next("pong", () => true, { since });
    assert.equal(pong.id, "still-there");
    assert.equal(a.ws.readyState, a.ws.OPEN);
  });

  it("drops frames over 60 per second with RATE_LIMITED; a flood closes with 4029", async () => {
    const a = await connect();
    await a.next("authenticated");
    const since = a.mark();
    const ids = Array.from({ length: 70 }, (_, i) => `b${i}`);
    for (const id of ids) a.send("ping", {}, id);
    // Every frame is answered: a pong, or RATE_LIMITED echoing the id of the frame it dropped.
    await a.next("*", () => a.frames.slice(since).filter((f) => f.type === "pong" || f.data?.code === "RATE_LIMITED").length === 70, { since });
    assert.equal(a.ws.readyState, a.ws.OPEN, "a burst is not a flood");
    const answers = a.frames.slice(since);
    const pongs = answers.filter((f) => f.type === "pong");
    const limited = answers.filter((f) => f.type === "error" && f.data.code === "RATE_LIMITED");
    assert.ok(pongs.length <= 60 && limited.length >= 10, `${pongs.length} pongs, ${limited.length} RATE_LIMITED`);
    assert.deepEqual([...pongs, ...limited].map((f) => f.id).sort(), [...ids].sort(), "each answer echoes its frame's id");

    const b = await connect();
    await b.next("authenticated");
    for (let i = 0; i < 400; i++) b.send("ping", {});
    const closed = await b.closed;
    assert.equal(closed.code, 4029);
  });

  it("closes a frame over 64 KiB with 1009", async () => {
    const a = await connect();
    await a.next("authenticated");
    a.sendRaw(JSON.stringify({ type: "player:chat", data: { message: "x".repeat(70 * 1024) } }));
    assert.equal((await a.closed).code, 1009);
  });

  it("drops a dead peer after missed pings; past the grace period it leaves the world and is saved", async () => {
    const a = await connect();
    const auth = await a.next("authenticated");
    const room = await theWorld();
    assert.ok(room.sessions.has(auth.data.playerId));
    // Stop reading: the peer answers no pings any more (its socket is still open on the wire).
    (a.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    while (room.sessions.has(auth.data.playerId)) await ticks(room, 1);
    await room.settled();
    const session = await server.ctx.db.prisma.playerSession.findFirstOrThrow({ where: { characterId: auth.data.playerId } });
    assert.ok(session.endedAt, "left the world");
  });

  it("closing the socket leaves the world and saves the character", async () => {
    const a = await connect();
    const auth = await a.next("authenticated");
    const room = await theWorld();
    const p = room.world.players.get(auth.data.playerId)!;
    const dest = { x: room.world.spawnTile.x + 3, z: room.world.spawnTile.z + 3 };
    place(room, p.id, dest);
    a.close();
    await a.closed;
    while (room.sessions.has(p.id)) await ticks(room, 1);
    await room.settled();
    const row = await server.ctx.db.prisma.character.findUniqueOrThrow({ where: { id: p.id } });
    assert.deepEqual([row.positionX, row.positionZ], [dest.x, dest.z]);
  });
});

describe("/ws with an identity provider configured (no guests)", function () {
  this.timeout(30_000);
  let server: TestServer;
  before(async () => {
    // The window for `authenticate` is 10 s in service; 400 ms here so its expiry can be seen.
    server = await startTestServer({ env: { PUBLIC_IDP_APP_ID: "app-1" }, wsAuthenticateWithinMs: 400 });
  });
  after(async () => {
    await server?.close();
  });

  it("authenticates by message; a bad token in the message closes with 4001", async () => {
    await server.ctx.db.prisma.user.create({ data: { id: "acc_ws_msg" } });
    const a = await wsConnect(server.port);
    a.send("authenticate", { token: signToken({ sub: "acc_ws_msg" }, TEST_SECRET) }, "auth-1");
    const auth = await a.next("authenticated");
    assert.deepEqual([auth.data.accountId, auth.id], ["acc_ws_msg", "auth-1"]);
    await a.next("player:sync");
    a.close();

    const b = await wsConnect(server.port);
    const since = b.mark();
    b.send("player:move", { x: 1, z: 1 });
    assert.equal((await b.next("error", () => true, { since })).data.code, "NOT_AUTHENTICATED");
    b.send("authenticate", { token: "not-a-token" });
    assert.equal((await b.next("error", (f) => f.data.code === "UNAUTHORIZED")).data.code, "UNAUTHORIZED");
    assert.equal((await b.closed).code, 4001);
  });

  it("closes with 4001 when no authenticate arrives in time", async () => {
    const a = await wsConnect(server.port);
    const closed = await a.closed;
    assert.equal(closed.code, 4001);
    const err = a.frames.find((f) => f.type === "error")!;
    assert.equal(err.data.code, "UNAUTHORIZED");
    assert.match(err.data.message, /authenticate/);
  });
});

describe("/ws on shutdown", function () {
  this.timeout(30_000);
  it("saves the players, then closes every socket with 1001", async () => {
    const server = await startTestServer();
    const a = await wsConnect(server.port);
    const auth = await a.next("authenticated");
    const room = await theWorld();
    const p = room.world.players.get(auth.data.playerId)!;
    p.xp.cooking = 388;
    room.world.touchPlayer(p);
    await server.arena.shutdown();
    assert.equal((await a.closed).code, 1001);
    const row = await server.ctx.db.prisma.character.findUniqueOrThrow({ where: { id: p.id } });
    assert.equal(row.cookingXp, 388);
    await server.ctx.db.close();
  });
});
