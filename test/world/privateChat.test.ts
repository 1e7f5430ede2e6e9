import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";

/**
 * Private messages (`player:chat` on channel `private`): one player to another by name, in
 * whatever world; the recipient's ignore list holds; the sender gets the echo, or why not.
 */
describe("private messages across worlds", function () {
  this.timeout(60_000);
  let server: TestServer;
  const sockets: WsPlayer[] = [];
  before(async () => {
    server = await startTestServer({ env: { WORLDS: "2" } });
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
    assert.equal(
      ann.ws.frames.some((f) => f.type === "chat:message"),
      false,
      "nothing was sent",
    );
  });
});
