import assert from "node:assert/strict";
import { chooseWorld, WorldChoiceError, worldIdOption, type WorldEntry } from "../src/worldSpecs.js";

const entry = (id: number, players: number, capacity: number, status: WorldEntry["status"] = "online"): WorldEntry => ({
  id,
  name: `World ${id}`,
  capacity,
  players,
  status,
  full: status === "online" && players >= capacity,
  roomId: status === "online" ? `world-${id}` : null,
  processId: status === "online" ? "p" : null,
  publicAddress: null,
});

const refusal = (fn: () => unknown): [number, string] => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof WorldChoiceError, String(err));
    return [err.status, err.code];
  }
  assert.fail("not refused");
};

describe("choosing a world", () => {
  it("the one asked for, or the least full online one by share of its capacity, then by id", () => {
    const worlds = [entry(301, 50, 100), entry(302, 10, 100), entry(303, 5, 10), entry(304, 0, 100, "offline")];
    assert.equal(chooseWorld(worlds, 301).id, 301);
    assert.equal(chooseWorld(worlds).id, 302, "10% full beats 50% and 50%; an offline world is never chosen");
    assert.equal(chooseWorld([entry(2, 1, 10), entry(1, 1, 10)]).id, 1);
  });

  it("refuses an unknown world (404), a full one (409), one not running (503), and none left (409 / 503)", () => {
    const worlds = [entry(301, 100, 100), entry(302, 0, 100, "starting"), entry(303, 0, 100, "offline")];
    assert.deepEqual(
      refusal(() => chooseWorld(worlds, 999)),
      [404, "WORLD_NOT_FOUND"],
    );
    assert.deepEqual(
      refusal(() => chooseWorld(worlds, 301)),
      [409, "WORLD_FULL"],
    );
    assert.deepEqual(
      refusal(() => chooseWorld(worlds, 302)),
      [503, "WORLD_UNAVAILABLE"],
    );
    assert.deepEqual(
      refusal(() => chooseWorld(worlds)),
      [409, "WORLD_FULL"],
    );
    assert.deepEqual(
      refusal(() => chooseWorld(worlds.slice(1))),
      [503, "WORLD_UNAVAILABLE"],
    );
  });

  it("reads a world id from a number or a string of digits; anything else is INVALID_WORLD", () => {
    assert.equal(worldIdOption(undefined), undefined);
    assert.equal(worldIdOption(""), undefined);
    assert.equal(worldIdOption(301), 301);
    assert.equal(worldIdOption("302"), 302);
    for (const bad of [0, -1, 1.5, 10_000, "3a", " 3", "1e3", true, {}, [1], Number.NaN, Infinity])
      assert.deepEqual(
        refusal(() => worldIdOption(bad)),
        [400, "INVALID_WORLD"],
        JSON.stringify(bad),
      );
  });
});
