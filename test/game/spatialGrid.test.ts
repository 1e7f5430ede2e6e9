import assert from "node:assert/strict";
import { AOI_RADIUS, diffInterest, SpatialGrid } from "../../src/game/spatialGrid.js";
import { seededRng } from "./rng.js";

const sorted = (s: Iterable<string>) => [...s].sort();

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

  it("touchedWithin: whether a query's answer could have changed since clearTouched, by the cells the query square overlaps", () => {
    const grid = new SpatialGrid(16);
    grid.insert("a", 10, 10);
    grid.insert("b", 200, 200);
    assert.equal(grid.touchedWithin(10, 10, 5), true, "an insert touches its cell");
    grid.clearTouched();
    assert.equal(grid.touchedWithin(10, 10, 32), false, "nothing since");
    grid.move("a", 11, 10);
    assert.equal(grid.touchedWithin(40, 10, 32), true, "a move inside one cell (the query square cuts that cell)");
    assert.equal(grid.touchedWithin(120, 120, 32), false, "far away");
    grid.clearTouched();
    grid.move("b", 200, 230);
    assert.equal(grid.touchedWithin(200, 200, 2), true, "the cell it left");
    assert.equal(grid.touchedWithin(200, 232, 2), true, "the cell it entered");
    assert.equal(grid.touchedWithin(200, 215, 2), false, "not the cells between");
    grid.clearTouched();
    grid.remove("a");
    assert.equal(grid.touchedWithin(0, 0, 15), true, "a removal");
    grid.clearTouched();
    // Agrees with the answers: whenever a query's answer changed, its square was touched.
    const rng = seededRng(5);
    const at = (n: number) => Math.floor(rng() * n);
    for (let i = 0; i < 200; i++) grid.insert(`e${i}`, at(300), at(300));
    grid.clearTouched();
    const queries = Array.from({ length: 100 }, () => [at(300), at(300), at(40)] as const);
    const before = queries.map(([x, z, r]) => sorted(grid.queryRadius(x, z, r)).join());
    for (let i = 0; i < 20; i++) grid.move(`e${at(200)}`, at(300), at(300));
    queries.forEach(([x, z, r], q) => {
      if (sorted(grid.queryRadius(x, z, r)).join() !== before[q]) assert.equal(grid.touchedWithin(x, z, r), true, `query ${q} changed`);
    });
  });
});
