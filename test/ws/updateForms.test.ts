import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { collectionOf, KINDS } from "../../rooms/interest/stateCollections.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";
import { place, theWorld, tileAway } from "../helpers/worldRoom.js";
import { wsConnect, type Frame, type WsPlayer } from "../helpers/wsClient.js";

/**
 * The two forms of world:update (PROTOCOL.md §4): "whole" (the default) lists every entity whole;
 * "changes" (`?updates=changes`, or `updates` in `authenticate`) lists an entity already in view as
 * its id and the fields that changed. Applying every entry by merging it into what the client holds
 * gives the server's state in both forms.
 */

const LISTS = ["players", "npcs", "resources", "groundItems", "stations"];
type Entity = Record<string, unknown> & { id: string };

/** What a client that merges every entry of every world:update it received holds. */
function modelOf(frames: Frame[]): Map<string, Entity> {
  const held = new Map<string, Entity>();
  for (const f of frames) {
    if (f.type !== "world:update") continue;
    for (const list of LISTS) for (const e of f.data[list] as Entity[]) held.set(e.id, { ...held.get(e.id), ...e });
    for (const id of f.data.removed as string[]) held.delete(id);
  }
  return held;
}

/** The server's schema JSON of everything this player sees now. */
function truthOf(room: WorldRoom, playerId: string): Map<string, Entity> {
  const seen = room.interest.seenBy(playerId)!;
  const out = new Map<string, Entity>();
  for (const kind of KINDS) {
    const collection = collectionOf(room.state, kind);
    for (const id of seen[kind]) out.set(id, collection.get(id)!.toJSON() as Entity);
  }
  return out;
}

/** Does the client's merged model equal the server's state of its view? (The first difference, if not.) */
function difference(model: Map<string, Entity>, truth: Map<string, Entity>): string | undefined {
  for (const id of model.keys()) if (!truth.has(id)) return `${id} is held but out of view`;
  for (const [id, want] of truth) {
    const got = model.get(id);
    if (!got) return `${id} is missing`;
    for (const [k, v] of Object.entries(want)) if (got[k] !== v) return `${id}.${k} is ${JSON.stringify(got[k])}, the server has ${JSON.stringify(v)}`;
  }
  return undefined;
}

const bytesOf = (frames: Frame[]) => frames.filter((f) => f.type === "world:update").reduce((n, f) => n + JSON.stringify(f).length, 0);

describe("/ws world:update forms: whole and changes", function () {
  this.timeout(60_000);
  let server: TestServer;
  const open: WsPlayer[] = [];
  /** A field by the bank, away from the spawn's crowd of test players. */
  const SCENE = { x: 110, z: 57 };
  before(async () => {
    server = await startTestServer({ env: { WS_GUEST_AFTER_MS: "50" } });
  });
  afterEach(() => {
    for (const p of open.splice(0)) p.close();
  });
  after(async () => {
    await server?.close();
  });

  /** A /ws player by a token in the URL, in the world, with `query` added to the URL. */
  const player = async (query = "") => {
    const p = await wsConnect(server.port, `?token=${encodeURIComponent((await guestToken(server)).token)}${query}`);
    open.push(p);
    const auth = await p.next("authenticated");
    await p.next("world:update");
    return { p, id: auth.data.playerId as string };
  };

  /** Wait until the client's merged model is the server's state of its view. */
  const modelMatches = async (room: WorldRoom, who: { p: WsPlayer; id: string }) => {
    try {
      await who.p.next("world:update", () => difference(modelOf(who.p.frames), truthOf(room, who.id)) === undefined, { timeoutMs: 10_000 });
    } catch {
      assert.fail(`the merged model differs from the server: ${difference(modelOf(who.p.frames), truthOf(room, who.id))}`);
    }
  };

  it("a client of changes is sent only what changed of what it holds; merging every entry gives the server's state, as the whole form does, in fewer bytes", async () => {
    const room = await theWorld();
    const changes = await player("&updates=changes");
    const whole = await player();
    const walker = await player();
    place(room, changes.id, SCENE);
    place(room, whole.id, SCENE);
    place(room, walker.id, tileAway(room, SCENE, 1));
    // Both see the walker arrive whole.
    for (const who of [changes, whole]) {
      const entered = await who.p.next("world:update", (f) => f.data.players.some((e: Entity) => e.id === walker.id));
      const entry = entered.data.players.find((e: Entity) => e.id === walker.id);
      assert.equal(typeof entry.name, "string", "an entity entering the view is listed whole");
      assert.equal(typeof entry.health, "number");
    }
    const changesFrom = changes.p.mark();
    const wholeFrom = whole.p.mark();
    // The walker walks away and back a few times.
    for (const to of [tileAway(room, SCENE, 4), SCENE, tileAway(room, SCENE, 3)]) {
      const since = walker.p.mark();
      walker.p.send("player:move", to);
      await walker.p.next("world:update", (f) => f.data.players.some((e: Entity) => e.id === walker.id && e.x === to.x && e.z === to.z && e.moving === false), {
        since,
        timeoutMs: 15_000,
      });
    }
    await modelMatches(room, changes);
    await modelMatches(room, whole);

    const moves = (frames: Frame[]) => frames.flatMap((f) => (f.type === "world:update" ? (f.data.players as Entity[]).filter((e) => e.id === walker.id) : []));
    const changeEntries = moves(changes.p.frames.slice(changesFrom));
    assert.ok(changeEntries.length >= 3, `the walker's steps were listed: ${changeEntries.length}`);
    for (const e of changeEntries) {
      assert.equal(e.name, undefined, `a held entity is listed without its unchanged fields: ${JSON.stringify(e)}`);
      assert.equal(e.isAgent, undefined);
    }
    assert.ok(
      changeEntries.some((e) => typeof e.x === "number" || typeof e.z === "number"),
      "a step lists the coordinates that changed",
    );
    for (const e of moves(whole.p.frames.slice(wholeFrom))) assert.equal(typeof e.name, "string", "the whole form lists every field");
    const changeBytes = bytesOf(changes.p.frames.slice(changesFrom));
    const wholeBytes = bytesOf(whole.p.frames.slice(wholeFrom));
    assert.ok(changeBytes < wholeBytes, `the changes form is smaller: ${changeBytes} bytes against ${wholeBytes}`);
  });

  it("authenticate's updates picks the form for that identity; a bad form in the URL or in authenticate is refused", async () => {
    const room = await theWorld();
    // authenticate with updates: "changes".
    const badFrame = await wsConnect(server.port);
    open.push(badFrame);
    badFrame.send("authenticate", { token: (await guestToken(server)).token, updates: "bogus" }, "bad");
    const refused = await badFrame.next("error", (f) => f.id === "bad");
    assert.equal(refused.data.code, "INVALID_PAYLOAD");
    assert.equal((await badFrame.closed).code, 4000);
    const viaFrame = await wsConnect(server.port);
    open.push(viaFrame);
    viaFrame.send("authenticate", { token: (await guestToken(server)).token, updates: "changes" }, "good");
    const id = (await viaFrame.next("authenticated", (f) => f.id === "good")).data.playerId as string;
    const walker = await player();
    place(room, id, SCENE);
    place(room, walker.id, tileAway(room, SCENE, 1));
    await viaFrame.next("world:update", (f) => f.data.players.some((e: Entity) => e.id === walker.id));
    const since = viaFrame.mark();
    walker.p.send("player:move", tileAway(room, SCENE, 3));
    const step = await viaFrame.next("world:update", (f) => f.data.players.some((e: Entity) => e.id === walker.id), { since });
    const entry = step.data.players.find((e: Entity) => e.id === walker.id);
    assert.equal(entry.name, undefined, `authenticate's form holds: ${JSON.stringify(entry)}`);
    await modelMatches(room, { p: viaFrame, id });

    // A form the server does not know in the URL: INVALID_PAYLOAD and 4000, no player made.
    const before = room.sessions.size;
    const bad = await wsConnect(server.port, `?token=${encodeURIComponent((await guestToken(server)).token)}&updates=deltas`);
    open.push(bad);
    const error = await bad.next("error");
    assert.equal(error.data.code, "INVALID_PAYLOAD");
    assert.equal((await bad.closed).code, 4000);
    assert.equal(room.sessions.size, before);
  });
});
