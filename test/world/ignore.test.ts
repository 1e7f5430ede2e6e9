import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { makeTrader, type Trader, type TraderKind } from "../helpers/traders.js";
import { guestToken, joinWorld } from "../helpers/worldClient.js";
import { place, ticks, theWorld } from "../helpers/worldRoom.js";

/** What the chat checks need of a player in the world. */
type Listener = Pick<Trader, "id" | "mark" | "next" | "all" | "send">;

/**
 * Ignore lists in the world: an ignored player's chat (local and world) and trade requests do not
 * reach the players of the ignoring account; changes through the REST API apply to players
 * already online; lists set while offline apply from the join.
 */
describe("world: ignore lists", function () {
  this.timeout(60_000);
  let server: TestServer;
  const open: Trader[] = [];

  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const ignore = async (who: Trader, target: Trader) => assert.equal((await call("POST", "/api/player/ignore", who.token, { characterId: target.id })).status, 201);
  const unignore = async (who: Trader, target: Trader) => assert.equal((await call("DELETE", `/api/player/ignore/${target.id}`, who.token)).status, 200);

  /** A player in the world over either protocol, standing next to the spawn (all within trading range). */
  async function player(kind: TraderKind, dx: number, identity?: { token: string; accountId: string }): Promise<Trader> {
    const t = await makeTrader(kind, server, identity);
    open.push(t);
    const room = await theWorld();
    place(room, t.id, { x: room.world.spawnTile.x + dx, z: room.world.spawnTile.z });
    return t;
  }

  /**
   * `speaker` says `text` (on `channel`); resolves once the speaker heard its own message, so the
   * room has sent it to everyone it goes to.
   */
  async function say(speaker: Listener, text: string, channel: "local" | "world" = "local") {
    const since = speaker.mark();
    speaker.send("player:chat", { message: text, channel });
    await speaker.next("chat:message", (d) => d.message === text, { since });
  }

  /**
   * What `listener` heard before a marker line from `witness`: every message sent to the listener
   * before the marker arrives first on its connection, so this is all it will ever get of them.
   */
  async function heardBefore(listener: Listener, witness: Listener, since: number): Promise<string[]> {
    const marker = `marker ${Math.random().toString(36).slice(2, 8)}`;
    await say(witness, marker, "world");
    await listener.next("chat:message", (d) => d.message === marker, { since });
    const heard = listener.all("chat:message", since).map((d) => d.message as string);
    return heard.slice(0, heard.indexOf(marker)).filter((m) => !m.startsWith("marker "));
  }

  before(async () => {
    // Short request timeouts, and asking the same player again at once.
    server = await startTestServer({ tradeLimits: { requestTimeoutMs: 1_500, repeatRequestMs: 0 } });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close().catch(() => {})));
  });
  after(async () => {
    await server.close();
  });

  for (const kind of ["sdk", "ws"] as const) {
    it(`chat: ignoring through REST while online mutes the ignored player for that account (${kind} listener), others still hear them; unignoring restores it`, async () => {
      const pest = await player("sdk", 1);
      const listener = await player(kind, 0);
      const witness = await player("sdk", -1);
      const room = await theWorld();
      await ticks(room, 1);

      let since = listener.mark();
      await say(pest, "before the ignore");
      assert.deepEqual(await heardBefore(listener, witness, since), ["before the ignore"]);

      await ignore(listener, pest);
      since = listener.mark();
      const witnessSince = witness.mark();
      await say(pest, "muted local");
      await say(pest, "muted world", "world");
      await say(witness, "still heard");
      assert.deepEqual(await heardBefore(listener, witness, since), ["still heard"]);
      assert.deepEqual(
        witness.all("chat:message", witnessSince).map((d) => d.message).slice(0, 3),
        ["muted local", "muted world", "still heard"],
        "players who do not ignore the pest hear it",
      );

      // The ignoring player's own messages still reach the ignored one.
      const pestSince = pest.mark();
      await say(listener, "you can hear me");
      await pest.next("chat:message", (d) => d.message === "you can hear me", { since: pestSince });

      await unignore(listener, pest);
      since = listener.mark();
      await say(pest, "heard again", "world");
      assert.deepEqual(await heardBefore(listener, witness, since), ["heard again"]);
    });
  }

  it("a list set while offline applies from the join, to every character of the account", async () => {
    const pest = await player("sdk", 1);
    const witness = await player("sdk", -1);
    const who = await guestToken(server);
    const name = () => `Ig${Math.random().toString(36).slice(2, 9)}`;
    const first = (await call("POST", "/api/character", who.token, { name: name() })).body.character;
    const second = (await call("POST", "/api/character", who.token, { name: name() })).body.character;
    assert.equal((await call("POST", "/api/player/ignore", who.token, { characterId: pest.id })).status, 201);

    // Both characters of the account online at once: the first over /ws, the second over the SDK.
    const room = await theWorld();
    const overWs = await player("ws", 0, who);
    assert.equal(overWs.id, first.id);
    const sdk = await joinWorld(server, { characterId: second.id }, who);
    const overSdk: Listener = { ...sdk, all: (type, since = 0) => sdk.received.slice(since).filter((r) => r.type === type).map((r) => r.data) };
    try {
      place(room, sdk.id, { x: room.world.spawnTile.x, z: room.world.spawnTile.z + 1 });
      const sinceWs = overWs.mark();
      const sinceSdk = overSdk.mark();
      await say(pest, "nobody here hears this");
      await say(pest, "nor this", "world");
      assert.deepEqual(await heardBefore(overWs, witness, sinceWs), []);
      assert.deepEqual(await heardBefore(overSdk, witness, sinceSdk), []);

      // One character leaving does not drop the list of the other.
      await sdk.leave();
      while (room.sessions.has(sdk.id)) await new Promise((r) => setImmediate(r));
      const again = overWs.mark();
      await say(pest, "still nothing", "world");
      assert.deepEqual(await heardBefore(overWs, witness, again), []);
    } finally {
      await sdk.leave();
    }
  });

  for (const kind of ["sdk", "ws"] as const) {
    it(`trade requests from an ignored player are not delivered (${kind} target): the asker sees an ordinary request that times out`, async () => {
      const pest = await player("sdk", 1);
      const target = await player(kind, 0);
      const friend = await player("sdk", -1);
      await ignore(target, pest);

      const pestSince = pest.mark();
      const targetSince = target.mark();
      pest.send("tradeRequest", { targetPlayerId: target.id });
      const sent = await pest.next("tradeRequestSent", (d) => d.targetPlayerId === target.id, { since: pestSince });

      // Someone else's request does reach the target, after any the pest's would have.
      friend.send("tradeRequest", { targetPlayerId: target.id });
      const incoming = await target.next("tradeIncoming", (d) => d.fromPlayerId === friend.id, { since: targetSince });
      assert.deepEqual(target.all("tradeIncoming", targetSince).map((d) => d.fromPlayerId), [friend.id]);

      // The pest's request times out for the pest alone; the target then declines the friend's request.
      const cancelled = await pest.next("tradeCancelled", (d) => d.tradeId === sent.tradeId, { since: pestSince });
      assert.equal(cancelled.reason, "timeout");
      target.send("tradeRequestRespond", { tradeId: incoming.tradeId, accept: false });
      await target.next("tradeCancelled", (d) => d.tradeId === incoming.tradeId, { since: targetSince });
      assert.ok(!target.events(targetSince).some((e) => e.data?.tradeId === sent.tradeId || e.data?.fromPlayerId === pest.id), "the target saw nothing of the pest's request");

      // Unignored (while online): the next request is delivered.
      await unignore(target, pest);
      const againSince = target.mark();
      pest.send("tradeRequest", { targetPlayerId: target.id });
      const now = await target.next("tradeIncoming", (d) => d.fromPlayerId === pest.id, { since: againSince });
      target.send("tradeRequestRespond", { tradeId: now.tradeId, accept: false });
      await pest.next("tradeCancelled", (d) => d.tradeId === now.tradeId && d.reason === "declined", { since: pestSince });
    });
  }

  it("a hidden request is withdrawn for the asker alone; asking the ignored player back opens the trade", async () => {
    const pest = await player("sdk", 1);
    const target = await player("sdk", 0);
    await ignore(target, pest);
    const pestSince = pest.mark();
    const targetSince = target.mark();

    pest.send("tradeRequest", { targetPlayerId: target.id });
    const first = await pest.next("tradeRequestSent", () => true, { since: pestSince });
    pest.send("tradeCancel", { tradeId: first.tradeId });
    await pest.next("tradeCancelled", (d) => d.tradeId === first.tradeId, { since: pestSince });

    pest.send("tradeRequest", { targetPlayerId: target.id });
    const second = await pest.next("tradeRequestSent", (d) => d.tradeId !== first.tradeId, { since: pestSince });
    // The ignoring player chose to ask: the two requests meet and the trade opens for both.
    target.send("tradeRequest", { targetPlayerId: pest.id });
    const [a, b] = await Promise.all([
      pest.next("tradeStarted", (d) => d.tradeId === second.tradeId, { since: pestSince }),
      target.next("tradeStarted", (d) => d.tradeId === second.tradeId, { since: targetSince }),
    ]);
    assert.equal(a.partnerId, target.id);
    assert.equal(b.partnerId, pest.id);
    assert.ok(!target.events(targetSince).some((e) => e.data?.tradeId === first.tradeId || e.type === "tradeIncoming"), "the withdrawn request never showed");
    pest.send("tradeCancel", { tradeId: second.tradeId });
    await target.next("tradeCancelled", (d) => d.tradeId === second.tradeId, { since: targetSince });
  });
});
