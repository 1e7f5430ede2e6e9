import assert from "node:assert/strict";
import { loadGameData, type GameData } from "../../src/manifests/index.js";
import { silentLogger } from "../../src/logger.js";
import { canStep, findPath, octile } from "../../src/game/pathfinding.js";
import { chebyshev } from "../../src/game/movement.js";
import { buildTileMap, TileMap } from "../../src/game/tileMap.js";
import { tileOf } from "../../src/manifests/shapes.js";
import type { Tile } from "../../src/game/types.js";

/** Every step is one legal 8-connected move (no blocked tile, no corner cutting). */
function assertLegal(map: TileMap, from: Tile, path: Tile[]): void {
  let at = from;
  for (const t of path) {
    const dx = t.x - at.x;
    const dz = t.z - at.z;
    assert.ok(Math.max(Math.abs(dx), Math.abs(dz)) === 1, `step ${JSON.stringify(at)} -> ${JSON.stringify(t)}`);
    assert.ok(canStep(map, at.x, at.z, dx, dz), `illegal step ${JSON.stringify(at)} -> ${JSON.stringify(t)}`);
    assert.equal(map.isBlocked(t.x, t.z), false);
    at = t;
  }
}

function cost(from: Tile, path: Tile[]): number {
  let c = 0;
  let at = from;
  for (const t of path) {
    c += t.x !== at.x && t.z !== at.z ? Math.SQRT2 : 1;
    at = t;
  }
  return c;
}

/** Reference: plain Dijkstra over the whole (small) map, no heuristic, no heap. */
function referenceCost(map: TileMap, from: Tile, to: Tile): number {
  const dist = new Map<string, number>([[`${from.x},${from.z}`, 0]]);
  const done = new Set<string>();
  for (;;) {
    let best: string | undefined;
    for (const [k, d] of dist) if (!done.has(k) && (best === undefined || d < dist.get(best)!)) best = k;
    if (best === undefined) return Infinity;
    const [x, z] = best.split(",").map(Number) as [number, number];
    if (x === to.x && z === to.z) return dist.get(best)!;
    done.add(best);
    for (let dx = -1; dx <= 1; dx++)
      for (let dz = -1; dz <= 1; dz++) {
        if ((dx || dz) && canStep(map, x, z, dx, dz)) {
          const k = `${x + dx},${z + dz}`;
          const nd = dist.get(best)! + (dx && dz ? Math.SQRT2 : 1);
          if (!done.has(k) && nd < (dist.get(k) ?? Infinity)) dist.set(k, nd);
        }
      }
  }
}

const open = (size = 20) => new TileMap({ minX: 0, maxX: size, minZ: 0, maxZ: size });

describe("game: pathfinding", function () {
  it("walks straight and diagonally on an open grid, excluding from and including to", function () {
    const map = open();
    const straight = findPath(map, { x: 2, z: 2 }, { x: 7, z: 2 })!;
    assert.deepEqual(
      straight,
      [3, 4, 5, 6, 7].map((x) => ({ x, z: 2 })),
    );
    const mixed = findPath(map, { x: 0, z: 0 }, { x: 5, z: 3 })!;
    assert.equal(mixed.length, 5);
    assert.deepEqual(mixed.at(-1), { x: 5, z: 3 });
    assert.ok(Math.abs(cost({ x: 0, z: 0 }, mixed) - octile(0, 0, 5, 3)) < 1e-9);
    assertLegal(map, { x: 0, z: 0 }, mixed);
    assert.deepEqual(findPath(map, { x: 4, z: 4 }, { x: 4, z: 4 }), []);
  });

  it("goes around a wall by the shortest legal route", function () {
    const map = open();
    map.blockRect(10, 0, 10, 15); // a wall along x = 10, open from z = 16
    const from = { x: 5, z: 5 };
    const to = { x: 15, z: 5 };
    const path = findPath(map, from, to)!;
    assert.ok(path);
    assertLegal(map, from, path);
    assert.deepEqual(path.at(-1), to);
    assert.ok(
      path.some((t) => t.x === 10 && t.z >= 16),
      "crosses through the gap",
    );
    // 11 steps up to (9, 16), through (10, 16) and (11, 16) (no diagonal past the wall's end),
    // 11 steps back down: 24 tiles, of optimal octile cost.
    assert.equal(path.length, 24);
    assert.ok(Math.abs(cost(from, path) - referenceCost(map, from, to)) < 1e-9);
  });

  it("never cuts a corner between two blocked tiles", function () {
    const map = new TileMap({ minX: -3, maxX: 3, minZ: -3, maxZ: 3 });
    map.block(1, 0);
    map.block(0, 1);
    const path = findPath(map, { x: 0, z: 0 }, { x: 1, z: 1 })!;
    assertLegal(map, { x: 0, z: 0 }, path);
    assert.ok(path.length > 1);
    assert.ok(Math.abs(cost({ x: 0, z: 0 }, path) - referenceCost(map, { x: 0, z: 0 }, { x: 1, z: 1 })) < 1e-9);
  });

  it("returns null when the goal is enclosed, blocked or outside the map", function () {
    const map = open();
    map.blockRect(12, 12, 16, 12);
    map.blockRect(12, 16, 16, 16);
    map.blockRect(12, 13, 12, 15);
    map.blockRect(16, 13, 16, 15);
    assert.equal(findPath(map, { x: 2, z: 2 }, { x: 14, z: 14 }), null, "goal enclosed");
    assert.equal(findPath(map, { x: 14, z: 14 }, { x: 2, z: 2 }), null, "start enclosed");
    assert.equal(findPath(map, { x: 2, z: 2 }, { x: 12, z: 12 }), null, "goal blocked");
    assert.equal(findPath(map, { x: 2, z: 2 }, { x: 21, z: 2 }), null, "goal outside");
  });

  it("gives up past the node budget", function () {
    const map = open(100);
    assert.ok(findPath(map, { x: 0, z: 0 }, { x: 100, z: 100 }));
    map.blockRect(50, 0, 50, 99); // gap only at z = 100: a long detour
    assert.equal(findPath(map, { x: 49, z: 0 }, { x: 51, z: 0 }, { maxNodes: 50 }), null);
    const detour = findPath(map, { x: 49, z: 0 }, { x: 51, z: 0 })!;
    // 100 up, across (50, 100) and (51, 100) without cutting the wall's corner, 100 down.
    assert.equal(detour.length, 202);
  });

  it("searches one after another share nothing: a wide one, then many small ones on another map, each as cheap as the reference's", function () {
    const wide = open(150);
    wide.blockRect(75, 0, 75, 149);
    // Around the wall: thousands of tiles touched, past the bookkeeping's first room.
    assert.equal(cost({ x: 0, z: 0 }, findPath(wide, { x: 0, z: 0 }, { x: 150, z: 0 })!) > 290, true);
    const map = open(30);
    let seed = 5;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const tile = () => ({ x: Math.floor(rnd() * 31), z: Math.floor(rnd() * 31) });
    for (let i = 0; i < 150; i++) {
      const t = tile();
      map.block(t.x, t.z);
    }
    let found = 0;
    for (let q = 0; q < 40; q++) {
      const [from, to] = [tile(), tile()];
      if (map.isBlocked(from.x, from.z) || map.isBlocked(to.x, to.z)) continue;
      const path = findPath(map, from, to);
      const reference = referenceCost(map, from, to);
      if (reference === Infinity) {
        assert.equal(path, null);
        continue;
      }
      assertLegal(map, from, path!);
      assert.ok(Math.abs(cost(from, path!) - reference) < 1e-9, `${JSON.stringify(from)} -> ${JSON.stringify(to)}`);
      found++;
    }
    assert.ok(found > 15, `paths found: ${found}`);
  });

  it("with allowAdjacentGoal ends next to a blocked goal, by the cheapest tile", function () {
    const map = open();
    map.block(10, 10);
    const from = { x: 2, z: 10 };
    const path = findPath(map, from, { x: 10, z: 10 }, { allowAdjacentGoal: true })!;
    assert.deepEqual(path.at(-1), { x: 9, z: 10 });
    assert.equal(path.length, 7);
    assertLegal(map, from, path);
    assert.deepEqual(findPath(map, { x: 9, z: 9 }, { x: 10, z: 10 }, { allowAdjacentGoal: true }), []);
    // A blocked goal with no walkable neighbour is unreachable.
    map.blockRect(9, 9, 11, 11);
    assert.equal(findPath(map, from, { x: 10, z: 10 }, { allowAdjacentGoal: true }), null);
    // Walkable goal: allowAdjacentGoal walks onto it.
    assert.deepEqual(findPath(map, from, { x: 5, z: 10 }, { allowAdjacentGoal: true })!.at(-1), { x: 5, z: 10 });
  });

  it("with adjacent stops next to a walkable goal (walking up to an npc)", function () {
    const map = open();
    const path = findPath(map, { x: 2, z: 2 }, { x: 8, z: 2 }, { adjacent: true })!;
    assert.deepEqual(path.at(-1), { x: 7, z: 2 });
    assert.equal(path.length, 5);
    assert.deepEqual(findPath(map, { x: 7, z: 3 }, { x: 8, z: 2 }, { adjacent: true }), []);
  });

  describe("on the default world", function () {
    let data: GameData;
    before(async function () {
      data = await loadGameData("world/manifests", silentLogger);
    });

    it("finds a path from the starter town spawn to a tile next to a Thornwood tree", function () {
      const map = buildTileMap(data);
      const from = tileOf(data.spawn!.position);
      const tree = data.worldAreas.get("thornwood")!.resources.find((r) => r.resourceId === "tree_normal")!;
      const to = tileOf(tree.position);
      assert.equal(map.isBlocked(to.x, to.z), true);
      const path = findPath(map, from, to, { allowAdjacentGoal: true })!;
      assert.ok(path, "a path exists");
      assertLegal(map, from, path);
      assert.equal(chebyshev(path.at(-1)!, to), 1);
      assert.equal(path.length, chebyshev(from, to) - 1, "open ground: as many steps as tiles to cover");
    });

    it("walks from behind the bank to its front, around the building", function () {
      const map = buildTileMap(data);
      const from = { x: 94, z: 114 }; // behind the bank
      const path = findPath(map, from, { x: 94, z: 106 })!;
      assertLegal(map, from, path);
      assert.ok(Math.abs(cost(from, path) - referenceCost(map, from, { x: 94, z: 106 })) < 1e-9);
    });
  });
});
