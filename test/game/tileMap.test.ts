import assert from "node:assert/strict";
import { loadGameData, type GameData } from "../../src/manifests/index.js";
import { silentLogger } from "../../src/logger.js";
import { buildTileMap, footprintRect, quarterTurns, TileMap, worldBounds } from "../../src/game/tileMap.js";
import { tileOf } from "../../src/manifests/shapes.js";

describe("game: tileMap", function () {
  describe("TileMap", function () {
    it("starts all walkable inside its bounds, blocked outside", function () {
      const map = new TileMap({ minX: -5, maxX: 4, minZ: 10, maxZ: 19 });
      assert.equal(map.width, 10);
      assert.equal(map.depth, 10);
      assert.equal(map.isBlocked(-5, 10), false);
      assert.equal(map.isBlocked(4, 19), false);
      assert.equal(map.isBlocked(-6, 10), true);
      assert.equal(map.isBlocked(5, 10), true);
      assert.equal(map.isBlocked(0, 9), true);
      assert.equal(map.isBlocked(0, 20), true);
      assert.equal(map.inBounds(0.5, 12), false, "fractional tiles are not tiles");
      assert.equal(map.blockedCount(), 0);
    });

    it("blocks and unblocks single tiles without touching neighbours", function () {
      const map = new TileMap({ minX: 0, maxX: 9, minZ: 0, maxZ: 9 });
      map.block(3, 4);
      assert.equal(map.isBlocked(3, 4), true);
      for (const [x, z] of [
        [2, 4],
        [4, 4],
        [3, 3],
        [3, 5],
      ] as const)
        assert.equal(map.isBlocked(x, z), false);
      assert.equal(map.blockedCount(), 1);
      map.block(100, 100); // ignored
      assert.equal(map.blockedCount(), 1);
      map.unblock(3, 4);
      assert.equal(map.isBlocked(3, 4), false);
      assert.equal(map.blockedCount(), 0);
    });

    it("blockRect covers an inclusive rectangle, clipped to the bounds", function () {
      const map = new TileMap({ minX: 0, maxX: 9, minZ: 0, maxZ: 9 });
      map.blockRect(7, 8, 12, 5); // corners in any order, clipped at x = 9
      assert.equal(map.blockedCount(), 3 * 4);
      assert.equal(map.isBlocked(7, 5), true);
      assert.equal(map.isBlocked(9, 8), true);
      assert.equal(map.isBlocked(6, 5), false);
      assert.equal(map.isBlocked(7, 4), false);
    });

    it("stores a 1000 x 1000 world in a 125 kB bitset", function () {
      const map = new TileMap({ minX: 0, maxX: 999, minZ: 0, maxZ: 999 });
      assert.equal(map.byteLength, 125_000);
      map.block(999, 999);
      map.block(0, 0);
      assert.equal(map.isBlocked(999, 999), true);
      assert.equal(map.isBlocked(998, 999), false);
      assert.equal(map.blockedCount(), 2);
      assert.deepEqual(map.tileAt(map.index(123, 456)), { x: 123, z: 456 });
    });

    it("tileOf rounds to the nearest tile and never gives -0", function () {
      assert.deepEqual(tileOf({ x: 10.5, z: 10.49 }), { x: 11, z: 10 });
      assert.ok(Object.is(tileOf({ x: -0.4, z: 0 }).x, 0));
    });
  });

  describe("footprints", function () {
    it("centres even and odd footprints on the position", function () {
      assert.deepEqual(footprintRect({ x: 94, z: 110 }, { width: 8, depth: 4 }), { minX: 90, maxX: 97, minZ: 108, maxZ: 111 });
      assert.deepEqual(footprintRect({ x: 38, z: 114 }, { width: 4, depth: 3 }), { minX: 36, maxX: 39, minZ: 113, maxZ: 115 });
    });

    it("swaps width and depth on a quarter turn, in degrees or radians", function () {
      const turned = { minX: 92, maxX: 95, minZ: 106, maxZ: 113 };
      assert.deepEqual(footprintRect({ x: 94, z: 110 }, { width: 8, depth: 4 }, 90), turned);
      assert.deepEqual(footprintRect({ x: 94, z: 110 }, { width: 8, depth: 4 }, Math.PI / 2), turned);
      assert.deepEqual(footprintRect({ x: 94, z: 110 }, { width: 8, depth: 4 }, 180), { minX: 90, maxX: 97, minZ: 108, maxZ: 111 });
      assert.deepEqual([0, 90, 180, 270, 360, -90, Math.PI, 1.5 * Math.PI].map(quarterTurns), [0, 1, 2, 3, 0, 3, 2, 3]);
    });
  });

  describe("buildTileMap on the default world", function () {
    let data: GameData;
    before(async function () {
      data = await loadGameData("world/manifests", silentLogger);
    });

    it("spans the union of the areas plus the margin", function () {
      assert.deepEqual(worldBounds(data, 10), { minX: 25, maxX: 208, minZ: 25, maxZ: 175 });
      const map = buildTileMap(data);
      assert.deepEqual({ ...map.bounds }, { minX: 25, maxX: 208, minZ: 25, maxZ: 175 });
      assert.deepEqual({ ...buildTileMap(data, 0).bounds }, { minX: 35, maxX: 198, minZ: 35, maxZ: 165 });
    });

    it("blocks buildings, trees, rocks and stations, not fishing spots or the spawn", function () {
      const map = buildTileMap(data);
      // Bank of Brindlemere: 8 x 4 at (94, 110).
      for (let x = 90; x <= 97; x++) for (let z = 108; z <= 111; z++) assert.equal(map.isBlocked(x, z), true, `bank ${x},${z}`);
      assert.equal(map.isBlocked(89, 110), false);
      assert.equal(map.isBlocked(98, 110), false);
      assert.equal(map.isBlocked(94, 112), false);
      assert.equal(map.isBlocked(84, 84), true, "tree");
      assert.equal(map.isBlocked(42, 92), true, "copper rock");
      assert.equal(map.isBlocked(94, 107), true, "bank booth");
      assert.equal(map.isBlocked(115, 92), true, "anvil");
      assert.equal(map.isBlocked(92, 150), false, "fishing spot");
      assert.equal(map.isBlocked(100, 100), false, "spawn");
      assert.equal(map.isBlocked(94, 104), false, "npcs do not block");
      // 140 building tiles + 22 trees and rocks + 7 stations, none overlapping.
      assert.equal(map.blockedCount(), 169);
    });
  });
});
