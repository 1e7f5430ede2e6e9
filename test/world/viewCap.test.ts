import assert from "node:assert/strict";
import { place, tileAway, ticks, worldRoomOf } from "../helpers/worldRoom.js";
import { guestToken, worldSuite } from "../helpers/worldClient.js";
import { wsConnect } from "../helpers/wsClient.js";

/**
 * Bounded interest (PROTOCOL.md §2, Area of interest): with VIEW_PLAYER_CAP=2 a client sees itself
 * and the two nearest other players, over the SDK's state and /ws's world:update alike.
 */
describe("world room: the cap on players in view", function () {
  this.timeout(60_000);
  const suite = worldSuite({ env: { VIEW_PLAYER_CAP: "2" } });

  it("a crowd over the cap: the nearest two others are in view; they stay while in range, and others take their places when they go", async () => {
    const viewer = await suite.join();
    const room = worldRoomOf(viewer);
    const spawn = room.world.players.get(viewer.id)!.tile;
    const others = [];
    // One at a time: the first two are in view (there was room) before the next arrives. (Joins that
    // land in one tick on a busy machine would tie on the spawn tile, where the choice goes by id.)
    for (let i = 0; i < 4; i++) {
      const p = await suite.join();
      others.push(p);
      if (i < 2) await viewer.sees((state) => state.players.has(p.id), `joiner ${i + 1} in view`);
    }
    // Two beside the viewer, two a few tiles off: all four within the full view radius.
    others.forEach((p, i) => place(room, p.id, { x: spawn.x + (i < 2 ? 1 : 5), z: spawn.z + i }));
    await ticks(room, 3);
    const near = new Set(others.slice(0, 2).map((p) => p.id));
    const seen = () => [...viewer.room.state.players.keys()].filter((id: string) => id !== viewer.id).sort();
    const sees = (ids: string[], what: string) => viewer.sees(() => JSON.stringify(seen()) === JSON.stringify([...ids].sort()), what);
    await sees([...near], "the nearest two");
    assert.deepEqual([...room.interest.seenBy(viewer.id)!.player].filter((id) => id !== viewer.id).sort(), [...near].sort());
    // Those in view stay while within the radius, even when the others come nearer.
    others.slice(2).forEach((p, i) => place(room, p.id, { x: spawn.x + i, z: spawn.z + 1 }));
    await ticks(room, 3);
    assert.deepEqual(seen(), [...near].sort());
    // The two in view go out of range: the other two take their places.
    const away = tileAway(room, spawn, 40);
    others.slice(0, 2).forEach((p) => place(room, p.id, away));
    await sees(others.slice(2).map((p) => p.id), "the other two in their places");
  });

  it("a /ws client is told the same: world:update lists the nearest two others", async () => {
    const first = await suite.join();
    const room = worldRoomOf(first);
    const spawn = room.world.players.get(first.id)!.tile;
    const others = [first];
    for (let i = 0; i < 3; i++) others.push(await suite.join());
    // The crowd stands where it will before the /ws player arrives on the spawn tile.
    others.forEach((p, i) => place(room, p.id, { x: spawn.x + (i < 2 ? 1 : 6), z: spawn.z + i }));
    await ticks(room, 1);
    const who = await guestToken(suite.server);
    const ws = await wsConnect(suite.server.port, `?token=${encodeURIComponent(who.token)}`);
    try {
      const wsId = (await ws.next("authenticated")).data.playerId as string;
      assert.deepEqual(room.world.players.get(wsId)!.tile, spawn);
      await ticks(room, 3);
      const inView = new Set<string>();
      for (const f of ws.frames.filter((f) => f.type === "world:update")) {
        for (const p of f.data.players) inView.add(p.id);
        for (const id of f.data.removed) inView.delete(id);
      }
      inView.delete(wsId);
      assert.deepEqual([...inView].sort(), others.slice(0, 2).map((p) => p.id).sort());
    } finally {
      ws.close();
    }
  });
});
