import assert from "node:assert/strict";
import { zoneOf } from "../../src/game/world/interest.js";
import type { EntityKind } from "../../src/game/world/entities.js";
import { worldSuite } from "../helpers/worldClient.js";
import { place, ticks, worldRoomOf } from "../helpers/worldRoom.js";

/**
 * A join into a zone whose window was worked out last tick, under the cap, sees that window
 * (rooms/worldViews.ts, refreshViewer): no spatial query, so the first view costs what the window
 * holds however many are online. (Into a crowd over the cap, it sees the nearest: viewCap.test.ts.)
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
});
