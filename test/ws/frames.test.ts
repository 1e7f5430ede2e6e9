import assert from "node:assert/strict";
import { frameOf } from "../../src/ws/protocol.js";

describe("/ws frames", () => {
  it("a world:update's frame is the message's JSON, the same for every socket it goes to (made once), with or without a reply id", () => {
    const update = {
      tick: 7,
      players: [{ id: "p1", name: 'Ann "the" Bold', x: 3, z: 4 }],
      npcs: [],
      resources: [],
      groundItems: [],
      stations: [],
      removed: ["n2"],
    };
    const first = frameOf("world:update", update);
    assert.equal(first, JSON.stringify({ type: "world:update", data: update }));
    assert.deepEqual(JSON.parse(first), { type: "world:update", data: update });
    assert.equal(frameOf("world:update", update), first, "the same text for the next socket");
    assert.equal(frameOf("world:update", update, "r-1"), JSON.stringify({ type: "world:update", data: update, id: "r-1" }));
    const other = { ...update, tick: 8 };
    assert.equal(frameOf("world:update", other), JSON.stringify({ type: "world:update", data: other }), "another update has its own text");
    assert.equal(frameOf("player:sync", { id: "p1" }, "x"), JSON.stringify({ type: "player:sync", data: { id: "p1" }, id: "x" }));
  });
});
