import assert from "node:assert/strict";
import { chance, randomInt, seededRng } from "../../src/game/random.js";
import { type Rng } from "../../src/game/types.js";
import { code } from "./fixtures.js";

const fixed = (...values: number[]): Rng => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

describe("game/random", function () {
  it("seededRng is deterministic per seed and differs between seeds", function () {
    const a = seededRng(42);
    const b = seededRng(42);
    const c = seededRng(43);
    const seqA = Array.from({ length: 20 }, () => a());
    const seqB = Array.from({ length: 20 }, () => b());
    const seqC = Array.from({ length: 20 }, () => c());
    assert.deepEqual(seqA, seqB);
    assert.notDeepEqual(seqA, seqC);
  });

  it("seededRng produces the mulberry32 sequence", function () {
    const rng = seededRng(1);
    assert.equal(rng(), 0.6270739405881613);
    assert.equal(rng(), 0.002735721180215478);
  });

  it("seededRng stays in [0, 1) and spreads over the range", function () {
    const rng = seededRng(7);
    let low = 0;
    for (let i = 0; i < 10_000; i++) {
      const r = rng();
      assert.ok(r >= 0 && r < 1, `out of range: ${r}`);
      if (r < 0.5) low++;
    }
    assert.ok(low > 4_800 && low < 5_200, `unbalanced: ${low}`);
  });

  it("seededRng accepts any number as a seed", function () {
    assert.equal(seededRng(NaN)(), seededRng(0)());
    assert.equal(seededRng(2 ** 32 + 5)(), seededRng(5)());
  });

  it("randomInt is inclusive at both ends", function () {
    assert.equal(randomInt(fixed(0), 3, 9), 3);
    assert.equal(randomInt(fixed(0.999999999), 3, 9), 9);
    assert.equal(randomInt(fixed(1), 3, 9), 9, "a source returning 1 stays in range");
    assert.equal(randomInt(fixed(0.5), 5, 5), 5);
    const seen = new Set<number>();
    const rng = seededRng(3);
    for (let i = 0; i < 1000; i++) seen.add(randomInt(rng, -2, 2));
    assert.deepEqual(
      [...seen].sort((x, y) => x - y),
      [-2, -1, 0, 1, 2],
    );
  });

  it("randomInt refuses bad ranges", function () {
    const rng = seededRng(1);
    assert.throws(() => randomInt(rng, 5, 4), code("INVALID_RANGE"));
    assert.throws(() => randomInt(rng, 0.5, 4), code("INVALID_RANGE"));
    assert.throws(() => randomInt(rng, 0, Infinity), code("INVALID_RANGE"));
    assert.throws(() => randomInt(rng, NaN, 1), code("INVALID_RANGE"));
  });

  it("chance compares one draw with p and always takes exactly one draw", function () {
    let draws = 0;
    const counting: Rng = () => {
      draws++;
      return 0.3;
    };
    assert.equal(chance(counting, 0.5), true);
    assert.equal(chance(counting, 0.3), false, "strictly below p");
    assert.equal(chance(counting, 0), false);
    assert.equal(chance(counting, 1), true);
    assert.equal(chance(counting, -1), false);
    assert.equal(chance(counting, 2), true);
    assert.equal(draws, 6);
    assert.throws(() => chance(counting, NaN), code("INVALID_PROBABILITY"));
  });
});
