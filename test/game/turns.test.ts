import assert from "node:assert/strict";
import { turnOf } from "../../src/game/turns.js";

describe("turns by id", () => {
  it("an id's turn is the same on every call, within 0..turns-1, and ids share the turns about evenly", () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `c${i.toString(36)}-${(i * 7919).toString(16)}`);
    const counts = new Array(10).fill(0);
    for (const id of ids) {
      const turn = turnOf(id, 10);
      assert.ok(Number.isInteger(turn) && turn >= 0 && turn < 10, `turn ${turn}`);
      assert.equal(turnOf(id, 10), turn);
      counts[turn]++;
    }
    assert.ok(Math.min(...counts) > 120 && Math.max(...counts) < 280, `turns of ${counts}`);
  });

  it("one turn (or none) is turn 0 for every id", () => {
    assert.equal(turnOf("anyone", 1), 0);
    assert.equal(turnOf("anyone", 0), 0);
  });
});
