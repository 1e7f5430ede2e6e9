import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken, joinWorld, type WorldPlayer } from "../helpers/worldClient.js";
import { wsConnect } from "../helpers/wsClient.js";

/** WORLDS in one process: every world runs here; players choose one, or get the least full. */
describe("numbered worlds in one process", function () {
  this.timeout(60_000);
  let server: TestServer;
  const players: WorldPlayer[] = [];
  before(async () => {
    server = await startTestServer({ env: { WORLDS: "1,2:Small world:1" } });
  });
  afterEach(async () => {
    await Promise.all(players.splice(0).map((p) => p.leave()));
  });
  after(async () => {
    await server.close();
  });

  const worlds = async () => ((await (await fetch(`${server.url}/api/v1/worlds`)).json()) as any).worlds;
  const join = async (body: unknown, token?: string) => {
    const who = token ?? (await guestToken(server)).token;
    const res = await fetch(`${server.url}/matchmake/join/world`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${who}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  it("lists both worlds, online, with names, capacities and players", async () => {
    assert.deepEqual(
      (await worlds()).map((w: any) => [w.id, w.name, w.capacity, w.players, w.status, w.full, w.roomId]),
      [
        [1, "World 1", 2000, 0, "online", false, "world-1"],
        [2, "Small world", 1, 0, "online", false, "world-2"],
      ],
    );
    const status = (await (await fetch(`${server.url}/status`)).json()) as any;
    assert.deepEqual([status.cluster, status.worlds], [false, [1, 2]]);
  });

  it("an SDK player joins the world it names; a full world refuses with WORLD_FULL and the least full takes the next", async () => {
    const small = await joinWorld(server, { world: 2 });
    players.push(small);
    assert.equal(small.room.roomId, "world-2");
    assert.deepEqual(
      (await worlds()).map((w: any) => [w.id, w.players, w.full]),
      [
        [1, 0, false],
        [2, 1, true],
      ],
    );
    const full = await join({ world: 2 });
    assert.deepEqual([full.status, full.body.error.code], [409, "WORLD_FULL"]);
    const any = await joinWorld(server);
    players.push(any);
    assert.equal(any.room.roomId, "world-1", "the least full world");
    // The two do not see each other: each world has its own players.
    assert.equal(any.room.state.players.has(small.id), false);
    const summary = (await (await fetch(`${server.url}/api/v1/world?world=2`)).json()) as any;
    assert.deepEqual([summary.world, summary.onlinePlayers.map((p: any) => p.id)], [2, [small.id]]);
  });

  it("bad world ids: unknown 404 WORLD_NOT_FOUND, malformed 400 INVALID_WORLD, over matchmaking and REST", async () => {
    const missing = await join({ world: 3 });
    assert.deepEqual([missing.status, missing.body.error.code], [404, "WORLD_NOT_FOUND"]);
    for (const world of ["two", -2, 2.5, [2]]) {
      const bad = await join({ world });
      assert.deepEqual([bad.status, bad.body.error.code], [400, "INVALID_WORLD"], JSON.stringify(world));
    }
    assert.equal((await fetch(`${server.url}/api/v1/world?world=3`)).status, 404);
    const bad = await fetch(`${server.url}/api/v1/world?world=x`);
    assert.deepEqual([bad.status, ((await bad.json()) as any).error.code], [400, "INVALID_WORLD"]);
  });

  it("/ws: ?world= and authenticate's world choose the world; refusals name their code and close the socket accordingly", async () => {
    const { token } = await guestToken(server);
    const there = await wsConnect(server.port, `?token=${encodeURIComponent(token)}&world=2`);
    await there.next("authenticated");
    assert.deepEqual(
      (await worlds()).map((w: any) => w.players),
      [0, 1],
    );
    const other = (await guestToken(server)).token;
    const full = await wsConnect(server.port, `?token=${encodeURIComponent(other)}&world=2`);
    assert.equal((await full.next("error")).data.code, "WORLD_FULL");
    assert.equal((await full.closed).code, 4009);
    const unknown = await wsConnect(server.port, `?token=${encodeURIComponent(other)}&world=7`);
    assert.equal((await unknown.next("error")).data.code, "WORLD_NOT_FOUND");
    assert.equal((await unknown.closed).code, 4004);
    const malformed = await wsConnect(server.port, `?token=${encodeURIComponent(other)}&world=x`);
    assert.equal((await malformed.next("error")).data.code, "INVALID_PAYLOAD");
    assert.equal((await malformed.closed).code, 4000);

    const framed = await wsConnect(server.port);
    framed.send("authenticate", { token: other, world: 1 }, "a1");
    const auth = await framed.next("authenticated");
    assert.equal(auth.id, "a1");
    framed.send("authenticate", { token: other, world: "1" }, "a2");
    assert.equal((await framed.next("error", (f) => f.id === "a2")).data.code, "INVALID_PAYLOAD");
    assert.deepEqual(
      (await worlds()).map((w: any) => w.players),
      [1, 1],
    );
    there.close();
    framed.close();
    await Promise.all([there.closed, framed.closed]);
  });
});
