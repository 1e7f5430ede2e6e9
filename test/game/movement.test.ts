import assert from "node:assert/strict";
import {
  chebyshev,
  MAX_MOVE_DISTANCE,
  RUN_TILES_PER_TICK,
  stepAlong,
  tilesPerTick,
  validateMoveTarget,
  WALK_TILES_PER_TICK,
  withinRange,
} from "../../src/game/movement.js";
import { findPath } from "../../src/game/pathfinding.js";
import { TileMap } from "../../src/game/tileMap.js";
import { GameError } from "../../src/game/types.js";

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof GameError, `not a GameError: ${String(e)}`);
    return e.code;
  }
  assert.fail("did not throw");
}

describe("game: movement", function () {
  const map = new TileMap({ minX: -300, maxX: 300, minZ: -300, maxZ: 300 });
  map.block(5, 5);
  const from = { x: 0, z: 0 };

  it("has RuneScape's speeds and the 200-tile limit", function () {
    assert.equal(MAX_MOVE_DISTANCE, 200);
    assert.equal(WALK_TILES_PER_TICK, 2);
    assert.equal(RUN_TILES_PER_TICK, 4);
    assert.equal(tilesPerTick(false), 2);
    assert.equal(tilesPerTick(true), 4);
  });

  it("measures Chebyshev distance", function () {
    assert.equal(chebyshev({ x: 0, z: 0 }, { x: 3, z: -7 }), 7);
    assert.equal(withinRange({ x: 0, z: 0 }, { x: 1, z: 1 }, 1), true);
    assert.equal(withinRange({ x: 0, z: 0 }, { x: 2, z: 1 }, 1), false);
  });

  it("rejects non-numeric, NaN and infinite coordinates", function () {
    for (const bad of [{ x: "1", z: 2 }, { x: 1, z: null }, { x: NaN, z: 0 }, { x: 0, z: Infinity }, { x: undefined, z: 0 }, {}]) {
      assert.equal(
        code(() => validateMoveTarget(map, from, bad as { x: unknown; z: unknown })),
        "INVALID_TARGET",
        JSON.stringify(bad),
      );
    }
    assert.equal(
      code(() => validateMoveTarget(map, from, null as unknown as { x: unknown; z: unknown })),
      "INVALID_TARGET",
    );
  });

  it("rejects tiles outside the world, then those too far, then blocked ones", function () {
    assert.equal(
      code(() => validateMoveTarget(map, from, { x: 301, z: 0 })),
      "OUT_OF_BOUNDS",
    );
    assert.equal(
      code(() => validateMoveTarget(map, from, { x: 0, z: -300.6 })),
      "OUT_OF_BOUNDS",
    );
    assert.equal(
      code(() => validateMoveTarget(map, from, { x: 201, z: 0 })),
      "TOO_FAR",
    );
    assert.equal(
      code(() => validateMoveTarget(map, from, { x: -150, z: 200.5 })),
      "TOO_FAR",
    );
    assert.equal(
      code(() => validateMoveTarget(map, from, { x: 5, z: 5 })),
      "BLOCKED",
    );
    assert.deepEqual(validateMoveTarget(map, from, { x: 5, z: 5 }, { allowBlocked: true }), { x: 5, z: 5 });
  });

  it("accepts exactly 200 tiles away, and the path there walks 200 tiles", function () {
    const to = validateMoveTarget(map, from, { x: 200, z: -200 });
    assert.deepEqual(to, { x: 200, z: -200 });
    assert.equal(findPath(map, from, to)!.length, 200);
  });

  it("rounds fractional coordinates with Math.round", function () {
    assert.deepEqual(validateMoveTarget(map, from, { x: 10.5, z: -10.5 }), { x: 11, z: -10 });
    assert.deepEqual(validateMoveTarget(map, from, { x: 10.49, z: -0.2 }), { x: 10, z: 0 });
    assert.ok(Object.is(validateMoveTarget(map, from, { x: 1, z: -0.2 }).z, 0));
  });

  it("steps along a path up to the tiles per tick", function () {
    const path = [1, 2, 3, 4, 5].map((x) => ({ x, z: 0 }));
    assert.deepEqual(stepAlong(path, 2), { position: { x: 2, z: 0 }, remaining: path.slice(2), moved: 2 });
    assert.deepEqual(stepAlong(path, 4), { position: { x: 4, z: 0 }, remaining: path.slice(4), moved: 4 });
    assert.deepEqual(stepAlong(path.slice(3), 4), { position: { x: 5, z: 0 }, remaining: [], moved: 2 });
    assert.equal(path.length, 5, "the input path is left alone");
  });

  it("stays put on an empty path when given the current tile, and refuses without it", function () {
    assert.deepEqual(stepAlong([], 2, { x: 7, z: 8 }), { position: { x: 7, z: 8 }, remaining: [], moved: 0 });
    assert.equal(
      code(() => stepAlong([], 2)),
      "NO_PATH",
    );
  });
});
