import assert from "node:assert/strict";
import { tileDistance, zoneOf } from "../../src/game/world/interest.js";
import type { EntityKind } from "../../src/game/world/entities.js";
import type { Tile } from "../../src/game/types.js";
import type { Zone } from "../../rooms/interest/viewWindows.js";
import { worldSuite, type WorldPlayer } from "../helpers/worldClient.js";
import { leaveAndSettle, place, ticks, worldRoomOf } from "../helpers/worldRoom.js";
import { sharedViewsOf } from "../helpers/viewChecks.js";

/**
 * A join into a zone whose window was worked out last tick, under the cap, sees that window
 * (rooms/interest/worldWindows.ts, refreshViewer): no spatial query, so the first view costs what the window
 * holds however many are online, and the joins into one zone before the next tick are sent the
 * same bytes of it. Into a crowd over the cap it sees the zone's window cut to the cap, then its own
 * window of the nearest from the next tick (and so does a /ws client: viewCap.test.ts).
 */
describe("world room: a join's first view", function () {
  this.timeout(60_000);
  const suite = worldSuite({ env: { VIEW_PLAYER_CAP: "3" } });

  /**
   * `count` players joined and put near the spawn tile (the i-th at `at(spawn, i)`), then ticks (at
   * least one after the last join, so a zone's adds are made afresh for the next) until its zone's
   * window is `ready`.
   */
  async function crowdAtSpawn(count: number, at: (spawn: Tile, i: number) => Tile, ready: (zone: Zone, crowd: WorldPlayer[]) => boolean) {
    const crowd: WorldPlayer[] = [];
    for (let i = 0; i < count; i++) crowd.push(await suite.join());
    const room = worldRoomOf(crowd[0]);
    const spawn = room.world.spawnTile;
    crowd.forEach((p, i) => place(room, p.id, at(spawn, i)));
    const zone = () => sharedViewsOf(room).zones.get(zoneOf(spawn))!;
    do await ticks(room, 1);
    while (!zone() || !ready(zone(), crowd));
    return { crowd, room, zone };
  }

  it("is its zone's window and itself, found without a spatial query", async () => {
    // Three, the cap, stand in the spawn tile's zone, a few tiles apart.
    const { room, zone } = await crowdAtSpawn(
      3,
      (spawn, i) => ({ x: spawn.x + i, z: spawn.z + 2 * i }),
      (z) => z.visible.player.size === 3,
    );

    const queried: EntityKind[] = [];
    const near = room.world.near.bind(room.world);
    room.world.near = (kind, tile, radius, out) => {
      queried.push(kind);
      return near(kind, tile, radius, out);
    };
    let firstWindow: Record<EntityKind, Set<string>> | undefined;
    let zoneWindow: Record<EntityKind, Set<string>> | undefined;
    const views = sharedViewsOf(room);
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
    // Five in the spawn tile's zone, over the cap of three: its window shows four (the cap and one).
    const { room, zone } = await crowdAtSpawn(
      5,
      (spawn, i) => ({ x: spawn.x + 1 + i, z: spawn.z + i }),
      (z) => z.visible.player.size === 4,
    );

    const frames = (sharedViewsOf(room) as unknown as { frames: { addsBody(moves: Array<{ added: object[] }>): Uint8Array } }).frames;
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
      assert.deepEqual([...room.interest.seenBy(me.id)!.player].filter((id) => id !== me.id).sort(), nearest.sort(), "the nearest three");
    }
  });

  it("a character back in the tick it left is in its zone's window still: it and the next join into the zone both hold it", async () => {
    const { crowd, room, zone } = await crowdAtSpawn(
      3,
      (spawn, i) => ({ x: spawn.x + 1 + i, z: spawn.z + i }),
      (z, all) => all.every((p) => z.visible.player.has(p.id)),
    );
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
