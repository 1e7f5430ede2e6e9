import assert from "node:assert/strict";
import { FrameBudget } from "../../src/ws/frameBudget.js";

describe("a /ws connection's frame budget", () => {
  it("takes the budget's frames in a second, drops the rest and counts them per second, and starts again a second after the window began", () => {
    let now = 10_000;
    const budget = new FrameBudget(3, () => now);
    assert.deepEqual([budget.take(), budget.take(), budget.take()], [true, true, true]);
    now += 400;
    assert.deepEqual([budget.take(), budget.take()], [false, false]);
    assert.equal(budget.dropped, 2);
    // Still the same window: dropped until a second after its first frame.
    now = 10_999;
    assert.equal(budget.take(), false);
    assert.equal(budget.dropped, 3);
    now = 11_000;
    assert.deepEqual([budget.take(), budget.take(), budget.take(), budget.take()], [true, true, true, false]);
    // A new second of drops counts from one.
    assert.equal(budget.dropped, 1);
  });
});
