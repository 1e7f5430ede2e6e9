import assert from "node:assert/strict";
import { tileDistance, zoneOf } from "../../src/game/world/interest.js";
import type { EntityKind } from "../../src/game/world/entities.js";
import { worldSuite } from "../helpers/worldClient.js";
import { leaveAndSettle, place, ticks, worldRoomOf } from "../helpers/worldRoom.js";

/**
 * A join into a zone whose window was worked out last tick, under the cap, sees that window
 * (rooms/worldViews.ts, refreshViewer): no spatial query, so the first view costs what the window
 * holds however many are online, and the joins into one zone before the next tick are sent the
 * same bytes of it. Into a crowd over the cap it sees the zone's window cut to the cap, then its own
 * window of the nearest from the next tick (and so does a /ws client: viewCap.test.ts).
 */
describe("world room: a join's first view", function () {
  this.timeout(60_000);
  const suite = worldSuite({ env: { VIEW_PLAYER_CAP: "3" } });

  it("is its zone's window and itself, found without a spatial query", async () => {
    const first = await suite.join();
    const room = worldRoomOf(first);
    const spawn = room.world.spawnTile;
    const crowd = [first];
    for (let i = 0; i < 2; i++) crowd.push(await suite.join());
    // Three, the cap, stand in the spawn tile's zone, a few tiles apart.
    crowd.forEach((p, i) => place(room, p.id, { x: spawn.x + i, z: spawn.z + 2 * i }));
    const zone = () => room.sync.views.zones.get(zoneOf(spawn))!;
    while (!zone() || zone().visible.player.size !== 3) await ticks(room, 1);

    const queried: EntityKind[] = [];
    const near = room.world.near.bind(room.world);
    room.world.near = (kind, tile, radius, out) => {
      queried.push(kind);
      return near(kind, tile, radius, out);
    };
    let firstWindow: Record<EntityKind, Set<string>> | undefined;
    let zoneWindow: Record<EntityKind, Set<string>> | undefined;
    const views = room.sync.views;
    const refresh = views.refreshViewer.bind(views);
    views.refreshViewer = (v) => {
      zoneWindow = Object.fromEntries(Object.entries(zone().visible).map(([k, ids]) => [k, new Set(ids)])) as typeof zoneWindow;
      queried.length = 0;
      const out = refresh(v);
      firstWindow = v.visible;
      return out;
    };
    try {
      const newcomer = await suite.join();
      assert.ok(firstWindow && zoneWindow, "the newcomer's first window was made");
      assert.deepEqual(queried, [], "no spatial query");
      for (const kind of ["npc", "resource", "station"] as const) assert.deepEqual([...firstWindow[kind]].sort(), [...zoneWindow[kind]].sort(), kind);
      assert.ok(firstWindow.resource.size > 0, "the zone's resources");
      assert.deepEqual([...firstWindow.player].sort(), [newcomer.id, ...zoneWindow.player].sort(), "the zone's three and itself");
      await newcomer.sees((s) => s.players.size === 4 && s.players.get(newcomer.id) && s.resources.size === firstWindow!.resource.size, "its first window");
    } finally {
      views.refreshViewer = refresh;
      room.world.near = near;
    }
  });

  it("joins into one zone before the next tick share the bytes of its window, cut to the cap; from the next tick each sees its nearest", async () => {
    const first = await suite.join();
    const room = worldRoomOf(first);
    const spawn = room.world.spawnTile;
    const crowd = [first];
    for (let i = 0; i < 4; i++) crowd.push(await suite.join());
    // Five in the spawn tile's zone, over the cap of three: its window shows four (the cap and one).
    crowd.forEach((p, i) => place(room, p.id, { x: spawn.x + 1 + i, z: spawn.z + i }));
    const zone = () => room.sync.views.zones.get(zoneOf(spawn))!;
    // (At least one tick after the last join: the zone's adds are made afresh for the next.)
    do await ticks(room, 1);
    while (!zone() || zone().visible.player.size !== 4);

    const frames = (room.sync.views as unknown as { frames: { addsBody(moves: Array<{ added: object[] }>): Uint8Array } }).frames;
    const addsBody = frames.addsBody;
    const made: number[] = [];
    frames.addsBody = (moves) => {
      made.push(moves.reduce((n, m) => n + m.added.length, 0));
      return addsBody(moves);
    };
    room.loop.stop();
    const newcomers = [];
    try {
      const zonePlayers = [...zone().visible.player];
      const [a, b] = [await suite.join(), await suite.join()];
      newcomers.push(a, b);
      assert.equal(made.length, 3, "the zone's adds made once, and each newcomer's own");
      assert.ok(made[0] > 4, "the zone's window: its players, npcs, resources and stations");
      assert.deepEqual(made.slice(1), [1, 1], "each newcomer's own add");
      const shown = new Set(zonePlayers.slice(0, 3));
      for (const p of [a, b]) {
        await p.sees((s) => s.players.size === 4 && s.players.get(p.id), "the zone's window cut to three, and itself");
        assert.deepEqual([...p.room.state.players.keys()].filter((id) => id !== p.id).sort(), [...shown].sort());
      }
    } finally {
      frames.addsBody = addsBody;
      room.loop.begin();
    }
    // From the next tick each has a window of its own: the nearest three others to it.
    await ticks(room, 2);
    const everyone = [...room.world.players.values()];
    for (const p of newcomers) {
      const me = room.world.players.get(p.id)!;
      const nearest = everyone
        .filter((o) => o.id !== me.id)
        .map((o) => ({ id: o.id, d: tileDistance(o.tile, me.tile) }))
        .sort((x, y) => x.d - y.d || (x.id < y.id ? -1 : 1))
        .slice(0, 3)
        .map((o) => o.id);
      assert.deepEqual([...room.sync.views.viewers.get(me.id)!.visible.player].filter((id) => id !== me.id).sort(), nearest.sort(), "the nearest three");
    }
  });

  it("a character back in the tick it left is in its zone's window still: it and the next join into the zone both hold it", async () => {
    const first = await suite.join();
    const room = worldRoomOf(first);
    const spawn = room.world.spawnTile;
    const crowd = [first];
    for (let i = 0; i < 2; i++) crowd.push(await suite.join());
    crowd.forEach((p, i) => place(room, p.id, { x: spawn.x + 1 + i, z: spawn.z + i }));
    const zone = () => room.sync.views.zones.get(zoneOf(spawn))!;
    do await ticks(room, 1);
    while (!zone() || !crowd.every((p) => zone().visible.player.has(p.id)));
    room.loop.stop();
    try {
      const back = crowd[1];
      await leaveAndSettle(back);
      const again = await suite.join({}, { token: back.token, accountId: back.accountId });
      assert.equal(again.id, back.id, "the same character");
      assert.ok(zone().visible.player.has(again.id), "no tick since it left: its zone's window still shows it");
      const newcomer = await suite.join();
      await again.sees((s) => s.players.size === 3 && s.players.get(again.id), "the zone's three (itself among them)");
      await newcomer.sees((s) => s.players.size === 4 && s.players.get(again.id) && s.players.get(newcomer.id), "the zone's three and itself");
    } finally {
      room.loop.begin();
    }
  });
});
