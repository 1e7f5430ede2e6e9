import assert from "node:assert/strict";
import { AOI_RADIUS } from "../../src/game/spatialGrid.js";
import {
  boundedView,
  CALM_TICKS,
  MIN_PLAYER_RADIUS,
  nearZone,
  ZONE_MARGIN,
  ZONE_SIZE,
  zoneCentre,
  zoneOf,
  type PlayerRadius,
} from "../../src/game/world/interest.js";
import type { Tile } from "../../src/game/types.js";

describe("bounded interest: at most the cap of players, the view radius adapting", () => {
  const me = { id: "me", tile: { x: 0, z: 0 } };
  /** Players on a line east of the viewer, at distances 1..n. */
  const line = (n: number) => {
    const tiles = new Map<string, Tile>([["me", me.tile]]);
    for (let d = 1; d <= n; d++) tiles.set(`p${String(d).padStart(4, "0")}`, { x: d, z: 0 });
    return tiles;
  };

  it("under the cap: everyone within the radius, and the radius grows back a tile every CALM_TICKS ticks", () => {
    const tiles = line(5);
    const r: PlayerRadius = { playerRadius: 10, calmTicks: 0 };
    for (let t = 1; t < CALM_TICKS; t++) {
      assert.equal(boundedView(new Set(tiles.keys()), new Set(), (id) => tiles.get(id), me, 5, r).size, 6);
      assert.equal(r.playerRadius, 10);
    }
    boundedView(new Set(tiles.keys()), new Set(), (id) => tiles.get(id), me, 5, r);
    assert.equal(r.playerRadius, 11);
    r.playerRadius = AOI_RADIUS;
    for (let t = 0; t < CALM_TICKS * 2; t++) boundedView(new Set(tiles.keys()), new Set(), (id) => tiles.get(id), me, 5, r);
    assert.equal(r.playerRadius, AOI_RADIUS, "never beyond the full radius");
  });

  it("over the cap: the nearest `cap` and the viewer, and the radius shrinks a tile a tick down to the minimum", () => {
    const tiles = line(300);
    const r: PlayerRadius = { playerRadius: AOI_RADIUS, calmTicks: 7 };
    const seen = boundedView(new Set(tiles.keys()), new Set(), (id) => tiles.get(id), me, 250, r);
    assert.equal(seen.size, 251);
    assert.ok(seen.has("me"));
    assert.ok(seen.has("p0250") && !seen.has("p0251"), "the nearest 250");
    assert.equal(r.playerRadius, AOI_RADIUS - 1);
    assert.equal(r.calmTicks, 0);
    for (let t = 0; t < AOI_RADIUS * 2; t++) boundedView(new Set(tiles.keys()), new Set(), (id) => tiles.get(id), me, 250, r);
    assert.equal(r.playerRadius, MIN_PLAYER_RADIUS);
  });

  it("ties at the same distance are broken by id, so the same players stay in view from tick to tick", () => {
    const tiles = new Map<string, Tile>([["me", me.tile]]);
    for (const id of ["d", "b", "a", "c"]) tiles.set(id, { x: 1, z: 1 });
    const r: PlayerRadius = { playerRadius: AOI_RADIUS, calmTicks: 0 };
    assert.deepEqual([...boundedView(new Set(tiles.keys()), new Set(), (id) => tiles.get(id), me, 2, r)].sort(), ["a", "b", "me"]);
  });

  it("over the cap, those already in view stay while within the radius; newcomers only fill the room left", () => {
    const tiles = line(10);
    const r: PlayerRadius = { playerRadius: AOI_RADIUS, calmTicks: 0 };
    // p0009 and p0010 were in view; three nearer players arrive: the two seen stay, one newcomer joins them.
    const seen = new Set(["me", "p0009", "p0010"]);
    const chosen = boundedView(new Set(["me", "p0001", "p0002", "p0003", "p0009", "p0010"]), seen, (id) => tiles.get(id), me, 3, r);
    assert.deepEqual([...chosen].sort(), ["me", "p0001", "p0009", "p0010"]);
    // The radius shrank under the kept ones (more of them than the cap): the farthest go.
    const shrunk = boundedView(new Set(tiles.keys()), new Set(tiles.keys()), (id) => tiles.get(id), me, 3, r);
    assert.deepEqual([...shrunk].sort(), ["me", "p0001", "p0002", "p0003"]);
  });
});

describe("zone margin", () => {
  it("a tile is near a zone inside it and up to ZONE_MARGIN tiles out on each side, not one tile further", () => {
    const zone = zoneOf({ x: 40, z: 40 }); // tiles 32..47 on each axis
    const c = zoneCentre(zone);
    const first = c.x - ZONE_SIZE / 2;
    const last = c.x + ZONE_SIZE / 2 - 1;
    for (const x of [first, last, first - ZONE_MARGIN, last + ZONE_MARGIN]) assert.ok(nearZone({ x, z: c.z }, zone), `x=${x}`);
    for (const z of [first - ZONE_MARGIN, last + ZONE_MARGIN]) assert.ok(nearZone({ x: c.x, z }, zone), `z=${z}`);
    for (const t of [
      { x: first - ZONE_MARGIN - 1, z: c.z },
      { x: last + ZONE_MARGIN + 1, z: c.z },
      { x: c.x, z: first - ZONE_MARGIN - 1 },
      { x: c.x, z: last + ZONE_MARGIN + 1 },
    ])
      assert.ok(!nearZone(t, zone), JSON.stringify(t));
  });
});
