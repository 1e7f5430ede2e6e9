import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";

/**
 * Between worlds (two in one process here; test/cluster has them on several processes): private
 * messages by name, in whatever world, the recipient's ignore list holding; an admin's /kick of a
 * player in another world; trades and duels refused across worlds.
 */
describe("across worlds: private messages, kicks, trade and duel requests", function () {
  this.timeout(60_000);
  let server: TestServer;
  const sockets: WsPlayer[] = [];
  before(async () => {
    server = await startTestServer({ env: { WORLDS: "2", ADMIN_CODE: "across-worlds-admin" } });
  });
  after(async () => {
    for (const s of sockets) s.ws.terminate();
    await server.close();
  });

  async function player(world: number) {
    const { token } = await guestToken(server);
    const ws = await wsConnect(server.port, `?token=${encodeURIComponent(token)}&world=${world}`);
    sockets.push(ws);
    const id = (await ws.next("authenticated")).data.playerId as string;
    const name = (await ws.next("player:sync")).data.name as string;
    return { ws, id, name, token };
  }

  it("reaches a player in another world by name; the sender gets the echo; an ignoring account hears nothing", async () => {
    const ann = await player(1);
    const bob = await player(2);
    const cat = await player(2);
    ann.ws.send("player:chat", { message: "hello from world 1", channel: "private", to: bob.name.toUpperCase() });
    const got = await bob.ws.next("chat:message", (f) => f.data.message === "hello from world 1");
    assert.deepEqual(
      [got.data.channel, got.data.fromId, got.data.fromName, got.data.toId, got.data.toName],
      ["private", ann.id, ann.name, bob.id, bob.name],
    );
    const echo = await ann.ws.next("chat:message", (f) => f.data.message === "hello from world 1");
    assert.deepEqual([echo.data.fromId, echo.data.toId], [ann.id, bob.id]);
    assert.equal(
      cat.ws.frames.some((f) => f.type === "chat:message" && f.data.message === "hello from world 1"),
      false,
      "nobody else hears it",
    );

    // Bob's account ignores Ann: her next message is dropped (she is not told), Cat's still arrives.
    const res = await fetch(`${server.url}/api/player/ignore`, {
      method: "POST",
      headers: { authorization: `Bearer ${bob.token}`, "content-type": "application/json" },
      body: JSON.stringify({ characterId: ann.id }),
    });
    assert.equal(res.status, 201);
    const since = bob.ws.mark();
    ann.ws.send("player:chat", { message: "are you there?", channel: "private", to: bob.name });
    await ann.ws.next("chat:message", (f) => f.data.message === "are you there?");
    cat.ws.send("player:chat", { message: "marker", channel: "private", to: bob.name });
    await bob.ws.next("chat:message", (f) => f.data.message === "marker", { since });
    assert.deepEqual(
      bob.ws.frames.slice(since).filter((f) => f.type === "chat:message").map((f) => f.data.message),
      ["marker"],
    );
  });

  it("refuses an unknown name (UNKNOWN_PLAYER), a player in no world (PLAYER_OFFLINE) and malformed messages (INVALID_PAYLOAD), changing nothing", async () => {
    const ann = await player(1);
    const gone = await player(2);
    gone.ws.close();
    await gone.ws.closed;
    const refusal = async (data: unknown) => {
      const since = ann.ws.mark();
      ann.ws.send("player:chat", data, "x");
      return (await ann.ws.next("error", (f) => f.id === "x", { since })).data.code;
    };
    // Gone once its leave has run (the name is still known, the player in no world).
    for (let i = 0; i < 200 && (await server.ctx.world.hasSession(gone.id)); i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal(await refusal({ message: "hi", channel: "private", to: gone.name }), "PLAYER_OFFLINE");
    assert.equal(await refusal({ message: "hi", channel: "private", to: "Nobody Here" }), "UNKNOWN_PLAYER");
    assert.equal(await refusal({ message: "hi", channel: "private" }), "INVALID_PAYLOAD");
    assert.equal(await refusal({ message: "hi", channel: "local", to: gone.name }), "INVALID_PAYLOAD");
    assert.equal(await refusal({ message: "hi", channel: "private", to: "x".repeat(13) }), "INVALID_PAYLOAD");
    assert.equal(await refusal({ message: "   ", channel: "private", to: gone.name }), "EMPTY_MESSAGE");
    assert.equal(await refusal({ message: "x".repeat(201), channel: "private", to: gone.name }), "MESSAGE_TOO_LONG");
    assert.equal(
      ann.ws.frames.some((f) => f.type === "chat:message"),
      false,
      "nothing was sent",
    );
  });

  it("an admin's /kick reaches a player in another world; an unknown name is UNKNOWN_PLAYER", async () => {
    const admin = await player(1);
    const target = await player(2);
    admin.ws.send("player:chat", { message: "/admin across-worlds-admin" });
    await admin.ws.next("notice", (f) => f.data.code === "ADMIN_GRANTED");
    admin.ws.send("player:chat", { message: `/kick ${target.name}` }, "k1");
    const done = await admin.ws.next("notice", (f) => f.data.code === "KICKED");
    assert.equal(done.id, "k1");
    assert.equal((await target.ws.next("notice", (f) => f.data.code === "KICKED")).data.message, `You were removed from the world by ${admin.name}`);
    assert.equal((await target.ws.closed).code, 4101);
    admin.ws.send("player:chat", { message: "/kick Nobody Here" }, "k2");
    assert.equal((await admin.ws.next("error", (f) => f.id === "k2")).data.code, "UNKNOWN_PLAYER");
  });

  it("a trade or duel request to a player in another world is refused OTHER_WORLD, and nothing opens", async () => {
    const ann = await player(1);
    const bob = await player(2);
    ann.ws.send("tradeRequest", { targetPlayerId: bob.id }, "t1");
    const trade = await ann.ws.next("tradeError", (f) => f.id === "t1");
    assert.equal(trade.data.code, "OTHER_WORLD");
    assert.match(trade.data.message, /world 2/);
    ann.ws.send("duel:challenge", { targetPlayerId: bob.id }, "d1");
    assert.equal((await ann.ws.next("duel:error", (f) => f.id === "d1")).data.code, "OTHER_WORLD");
    // Someone in no world at all is still simply offline.
    ann.ws.send("tradeRequest", { targetPlayerId: "c_nobody" }, "t2");
    assert.equal((await ann.ws.next("tradeError", (f) => f.id === "t2")).data.code, "PLAYER_OFFLINE");
    assert.equal(
      bob.ws.frames.some((f) => f.type === "tradeIncoming" || f.type === "duel:incoming"),
      false,
    );
  });
});

