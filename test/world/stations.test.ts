import assert from "node:assert/strict";
import { worldSuite } from "../helpers/worldClient.js";
import { place, ticks, tileAway, worldRoomOf } from "../helpers/worldRoom.js";
import { wsConnect } from "../helpers/wsClient.js";
import { AOI_RADIUS } from "../../src/game/spatialGrid.js";
import { ZONE_SIZE } from "../../src/game/world/interest.js";

/** Stations the world's data places are entities: in view within 32 tiles, over the SDK's state and /ws's world:update. */
describe("world room: stations", function () {
  this.timeout(40_000);
  const suite = worldSuite();

  it("the default world's furnace, anvil, range and bank booth are stations, seen in range and gone out of it", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const types = [...room.world.stations.values()].map((s) => s.type).sort();
    // The area stations, the Thornwood Trail's four obstacles (the agility feature places them) and the fish stall (thieving's).
    assert.deepEqual(types, [
      "agility_obstacle",
      "agility_obstacle",
      "agility_obstacle",
      "agility_obstacle",
      "altar",
      "anvil",
      "bank",
      "furnace",
      "range",
      "runecrafting_altar",
      "runecrafting_altar",
      "thieving_stall",
    ]);
    const furnace = [...room.world.stations.values()].find((s) => s.type === "furnace")!;
    assert.equal(furnace.name, room.world.data.stations.get("furnace")!.name);

    place(room, a.id, tileAway(room, furnace.tile, 2));
    await a.sees((s) => s.stations.get(furnace.id), "the furnace in the SDK client's state");
    const seen = a.room.state.stations.get(furnace.id);
    assert.deepEqual({ type: seen.type, x: seen.x, z: seen.z, runeType: seen.runeType }, { type: "furnace", x: furnace.tile.x, z: furnace.tile.z, runeType: "" });

    // Over /ws: the station comes in a world:update, and leaves it in `removed` once out of range.
    const ws = await wsConnect(suite.server.port, `?token=${encodeURIComponent(a.token)}`);
    try {
      await ws.next("authenticated");
      const inView = await ws.next("world:update", (f) => f.data.stations.some((s: { id: string }) => s.id === furnace.id));
      assert.equal(inView.data.stations.find((s: { id: string }) => s.id === furnace.id).name, furnace.name);
      const since = ws.mark();
      // Out of range of any window it could have: its zone's middle is at most ZONE_SIZE / 2 tiles from it.
      place(room, a.id, tileAway(room, furnace.tile, AOI_RADIUS + ZONE_SIZE / 2 + 1));
      await ws.next("world:update", (f) => f.data.removed.includes(furnace.id), { since });
    } finally {
      ws.close();
    }
  });
});
