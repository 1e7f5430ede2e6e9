import assert from "node:assert/strict";
import { SearchTable } from "../../src/game/searchTable.js";

describe("game: a search's bookkeeping table", function () {
  it("keeps each tile's cost, parent and settling; a new search starts with every tile untouched", function () {
    const t = new SearchTable(2);
    t.begin();
    // Past its first room of 4 slots many times over: it grows, every entry carried over.
    for (let key = 0; key < 5000; key += 7) {
      const s = t.slot(key);
      assert.equal(t.cost(s), Infinity);
      t.reach(s, key / 2, key - 1);
      if (key % 2 === 0) t.settle(s);
    }
    for (let key = 0; key < 5000; key += 7) {
      const s = t.slot(key);
      assert.deepEqual([t.cost(s), t.parent(s), t.isSettled(s)], [key / 2, key - 1, key % 2 === 0]);
    }
    t.begin();
    const s = t.slot(14);
    assert.deepEqual([t.cost(s), t.parent(s), t.isSettled(s)], [Infinity, -1, false]);
  });
});
