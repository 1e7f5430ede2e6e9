import assert from "node:assert/strict";
import { AOI_RADIUS, diffInterest, SpatialGrid } from "../../src/game/spatialGrid.js";
import { seededRng } from "./rng.js";

const sorted = (s: Iterable<string>) => [...s].sort();
/** Has what a query of the square finds changed since clearMoves (something came into or left it)? */
const anyCrossed = (grid: SpatialGrid, x: number, z: number, r: number) => grid.crossedWithin(x, z, r).size > 0;

type Query = readonly [x: number, z: number, r: number];

/**
 * 200 entities put in `grid`, then 20 rounds of random moves, inserts and removes of 10 of them
 * (each moves at most once a round: a round trip would count as a change), the moves cleared after
 * each: after a round's moves, `check` is given each of 200 random queries with its answer before them.
 */
function churnRounds(grid: SpatialGrid, seed: number, check: (query: Query, before: Set<string>, round: number, q: number) => void) {
  const rng = seededRng(seed);
  const at = (n: number) => Math.floor(rng() * n);
  for (let i = 0; i < 200; i++) grid.insert(`e${i}`, at(300), at(300));
  grid.clearMoves();
  const queries: Query[] = Array.from({ length: 200 }, () => [at(300), at(300), at(40)] as const);
  for (let round = 0; round < 20; round++) {
    const before = queries.map(([x, z, r]) => grid.queryRadius(x, z, r));
    const ids = new Set<string>();
    while (ids.size < 10) ids.add(`e${at(220)}`);
    for (const id of ids) {
      const step = at(10);
      if (step === 0) grid.remove(id);
      else if (grid.has(id) && step < 8) grid.move(id, Math.max(0, grid.positionOf(id)!.x + at(17) - 8), Math.max(0, grid.positionOf(id)!.z + at(17) - 8));
      else grid.insert(id, at(300), at(300));
    }
    queries.forEach((query, q) => check(query, before[q], round, q));
    grid.clearMoves();
  }
}

describe("game: spatialGrid", function () {
  it("exports a 32-tile area of interest", function () {
    assert.equal(AOI_RADIUS, 32);
  });

  it("inserts, moves and removes", function () {
    const grid = new SpatialGrid<string>(16);
    grid.insert("a", 0, 0);
    grid.insert("b", 20, 0);
    assert.equal(grid.size, 2);
    assert.equal(grid.has("a"), true);
    assert.deepEqual(sorted(grid.queryRadius(0, 0, 5)), ["a"]);
    grid.move("a", 19, 1); // into b's cell
    assert.deepEqual(grid.positionOf("a"), { x: 19, z: 1 });
    assert.deepEqual(sorted(grid.queryRadius(20, 0, 1)), ["a", "b"]);
    assert.deepEqual(sorted(grid.queryRadius(0, 0, 5)), []);
    assert.equal(grid.remove("a"), true);
    assert.equal(grid.remove("a"), false);
    assert.equal(grid.has("a"), false);
    assert.deepEqual(sorted(grid.queryRadius(20, 0, 1)), ["b"]);
    grid.insert("b", -40, -40); // insert of a present id moves it
    assert.equal(grid.size, 1);
    assert.deepEqual(sorted(grid.queryRadius(-40, -40, 0)), ["b"]);
  });

  it("uses an inclusive Chebyshev window, across negative cells", function () {
    const grid = new SpatialGrid(16);
    grid.insert("edge", -32, 32);
    grid.insert("out", -33, 0);
    grid.insert("corner", 32, -32);
    assert.deepEqual(sorted(grid.queryRadius(0, 0, 32)), ["corner", "edge"]);
  });

  it("answers exactly like a brute-force scan for 2 000 moving entities", function () {
    const rng = seededRng(7);
    const grid = new SpatialGrid(16);
    const pos = new Map<string, [number, number]>();
    const rand = () => Math.floor(rng() * 600) - 300;
    for (let i = 0; i < 2000; i++) {
      const id = `e${i}`;
      pos.set(id, [rand(), rand()]);
      grid.insert(id, ...pos.get(id)!);
    }
    for (let round = 0; round < 20; round++) {
      for (const [id, [x, z]] of pos) {
        if (rng() < 0.3) {
          const next: [number, number] = [x + Math.floor(rng() * 9) - 4, z + Math.floor(rng() * 9) - 4];
          pos.set(id, next);
          grid.move(id, ...next);
        }
      }
      for (let q = 0; q < 10; q++) {
        const qx = rand();
        const qz = rand();
        const expected = [...pos].filter(([, [x, z]]) => Math.abs(x - qx) <= AOI_RADIUS && Math.abs(z - qz) <= AOI_RADIUS).map(([id]) => id);
        assert.deepEqual(sorted(grid.queryRadius(qx, qz, AOI_RADIUS)), expected.sort());
      }
    }
  });

  it("diffs interest sets", function () {
    const d = diffInterest(new Set(["a", "b", "c"]), new Set(["b", "c", "d", "e"]));
    assert.deepEqual(d, { entered: ["d", "e"], left: ["a"] });
    assert.deepEqual(diffInterest(new Set(["a"]), new Set(["a"])), { entered: [], left: [] });
  });

  it("queries agree with a brute-force scan, with whole and fractional positions, cells inside the square or cut by it", () => {
    const rng = seededRng(11);
    for (let round = 0; round < 200; round++) {
      const grid = new SpatialGrid(16);
      const at = new Map<string, { x: number; z: number }>();
      for (let i = 0; i < 300; i++) {
        const p = { x: Math.floor(rng() * 200) - 50 + (round % 2 ? rng() : 0), z: Math.floor(rng() * 200) - 50 };
        at.set(`e${i}`, p);
        grid.insert(`e${i}`, p.x, p.z);
      }
      const [x, z, r] = [Math.floor(rng() * 200) - 50, Math.floor(rng() * 200) - 50, Math.floor(rng() * 40)];
      const want = [...at].filter(([, p]) => Math.abs(p.x - x) <= r && Math.abs(p.z - z) <= r).map(([id]) => id);
      assert.deepEqual(sorted(grid.queryRadius(x, z, r)), sorted(want), `round ${round}: (${x}, ${z}) r ${r}`);
    }
  });

  it("crossedWithin: whether a query's answer changed since clearMoves (something came into or left its square)", () => {
    const grid = new SpatialGrid(16);
    grid.insert("a", 10, 10);
    grid.insert("b", 200, 200);
    assert.equal(anyCrossed(grid, 10, 10, 5), true, "an insert within the square");
    assert.equal(anyCrossed(grid, 40, 10, 5), false, "an insert outside it");
    grid.clearMoves();
    assert.equal(anyCrossed(grid, 10, 10, 32), false, "nothing since");
    grid.move("a", 11, 10);
    assert.equal(anyCrossed(grid, 40, 10, 32), false, "a move within the square");
    assert.equal(anyCrossed(grid, 43, 10, 32), true, "a move into it (11 is its first column)");
    assert.equal(anyCrossed(grid, 44, 10, 32), false, "a move outside it (its first column is 12)");
    grid.clearMoves();
    grid.move("b", 200, 230);
    assert.equal(anyCrossed(grid, 200, 200, 2), true, "it left that square");
    assert.equal(anyCrossed(grid, 200, 232, 2), true, "it came into that one");
    assert.equal(anyCrossed(grid, 200, 215, 2), false, "it only passed over that one");
    assert.equal(anyCrossed(grid, 200, 215, 20), false, "it moved within that one");
    grid.clearMoves();
    grid.move("b", 200, 260);
    grid.move("b", 200, 230);
    assert.equal(anyCrossed(grid, 200, 260, 2), true, "in and out of a square in one round counts: each step is checked, not only where it ended");
    grid.move("b", 200, 230);
    assert.equal(anyCrossed(grid, 200, 230, 100), false, "a move to where it stands is no move");
    grid.clearMoves();
    grid.remove("a");
    assert.equal(anyCrossed(grid, 0, 0, 15), true, "a removal within the square");
    assert.equal(anyCrossed(grid, 50, 50, 15), false, "a removal outside it");
    grid.clearMoves();
    // Agrees with the answers both ways, over rounds of moves, inserts and removes.
    let changed = 0;
    churnRounds(grid, 5, ([x, z, r], before, round, q) => {
      const differs = sorted(grid.queryRadius(x, z, r)).join() !== sorted(before).join();
      if (differs) changed++;
      assert.equal(anyCrossed(grid, x, z, r), differs, `round ${round}, query ${q} (${x}, ${z}) r ${r}`);
    });
    assert.ok(changed > 100, `the rounds changed answers (${changed})`);
  });

  it("crossedWithin: the entities that came into or left a query's square since clearMoves; within: whether one stands in a square", () => {
    const grid = new SpatialGrid(16);
    grid.insert("a", 10, 10);
    grid.insert("b", 200, 200);
    grid.clearMoves();
    grid.move("a", 11, 10);
    grid.move("b", 200, 260);
    grid.move("b", 200, 230);
    assert.deepEqual(sorted(grid.crossedWithin(43, 10, 32)), ["a"], "a came into it");
    assert.deepEqual(sorted(grid.crossedWithin(40, 10, 32)), [], "a moved within it");
    assert.deepEqual(sorted(grid.crossedWithin(200, 260, 2)), ["b"], "b went in and out of it in one round");
    assert.equal(grid.within("b", 200, 260, 2), false, "b does not stand in it");
    assert.equal(grid.within("b", 200, 231, 1), true, "b stands in that one");
    assert.equal(grid.within("c", 0, 0, 1000), false, "c is not in the grid");
    grid.remove("a");
    assert.deepEqual(sorted(grid.crossedWithin(0, 0, 15)), ["a"], "a removal within the square");
    const out = new Set(["stale"]);
    assert.equal(grid.crossedWithin(500, 500, 5, out), out, "filled into the set given");
    assert.deepEqual([...out], [], "cleared first");
    // Over rounds of moves, inserts and removes: exactly those whose answer changed.
    let crossed = 0;
    churnRounds(grid, 9, ([x, z, r], before, round, q) => {
      const now = grid.queryRadius(x, z, r);
      const meant = [...new Set([...now, ...before])].filter((id) => now.has(id) !== before.has(id));
      crossed += meant.length;
      assert.deepEqual(sorted(grid.crossedWithin(x, z, r)), sorted(meant), `round ${round}, query ${q} (${x}, ${z}) r ${r}`);
      for (const id of meant) assert.equal(grid.within(id, x, z, r), now.has(id), `round ${round}: ${id} within (${x}, ${z}) r ${r}`);
    });
    assert.ok(crossed > 100, `the rounds moved entities across squares' edges (${crossed})`);
  });

  it("seenAnew: an entity that did not move counts as come into every square it stands in (who may see it changed)", () => {
    const grid = new SpatialGrid(16);
    grid.insert("a", 40, 40);
    grid.clearMoves();
    grid.seenAnew("a");
    grid.seenAnew("nobody");
    assert.equal(anyCrossed(grid, 40, 40, 0), true, "the square of its own tile");
    assert.equal(anyCrossed(grid, 10, 10, 32), true, "a square it stands at the edge of");
    assert.equal(anyCrossed(grid, 10, 10, 29), false, "a square it is not in");
    assert.deepEqual(grid.positionOf("a"), { x: 40, z: 40 }, "it stays where it is");
  });

  it("keeps positions within its cells' range, and a query far out of it finds nothing and ends", () => {
    const grid = new SpatialGrid(16);
    grid.insert("a", 0, 0);
    assert.throws(() => grid.insert("far", 16 * 2 ** 13, 0), RangeError);
    assert.throws(() => grid.move("a", 0, -16 * 2 ** 13 - 1), RangeError);
    assert.deepEqual(grid.positionOf("a"), { x: 0, z: 0 }, "a refused move leaves it where it was");
    assert.equal(grid.has("far"), false);
    assert.deepEqual([...grid.queryRadius(0, 0, 1e12)], ["a"], "a huge radius is clipped to the cells there can be");
    assert.equal(grid.queryRadius(1e12, 1e12, 3).size, 0);
    assert.equal(anyCrossed(grid, 1e12, 0, 1e12), true, "the insert of a is within that square");
  });
});
