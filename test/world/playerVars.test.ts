import assert from "node:assert/strict";
import { VarRegistry } from "../../src/game/world/playerVars.js";
import { World, type WorldFeature } from "../../src/game/world/World.js";
import { defaultGameData } from "../helpers/server.js";

describe("player variables (the engine's registry of the features' state)", () => {
  const registry = () => {
    const r = new VarRegistry();
    r.declare("a", { flag: { initial: true, saved: true, settable: true }, count: { initial: 0, min: 0, max: 10, saved: true }, scratch: { initial: 3, synced: true } });
    return r;
  };

  it("loads what was saved when it fits its declaration, else the initial value; carries what no one declares", () => {
    const r = registry();
    assert.deepEqual(r.load(undefined), { flag: true, count: 0, scratch: 3 });
    assert.deepEqual(r.load({ flag: false, count: 7, scratch: 9, other: 2 }), { other: 2, flag: false, count: 7, scratch: 3 });
    assert.deepEqual(r.load({ flag: "yes", count: 11, other: "text" }), { flag: true, count: 0, scratch: 3 }, "wrong kinds and bounds fall back; a carried non-value is dropped");
    assert.deepEqual(r.load({ count: 2.5 }).count, 0);
    assert.deepEqual([r.kept("flag"), r.kept("scratch"), r.kept("other")], [true, false, true]);
    assert.deepEqual(r.synced({ flag: false, count: 1, scratch: 4 }), { scratch: 4 });
  });

  it("a setting must be settable and of its kind", () => {
    const r = registry();
    assert.equal(r.checkSetting("flag", false), false);
    assert.throws(() => r.checkSetting("count", 1), /UNKNOWN_SETTING|no setting/);
    assert.throws(() => r.checkSetting("flag", 0), /true or false/);
    assert.throws(() => r.checkSetting("toString", true), /no setting/);
  });

  it("two features may not declare the same variable, play the same npc service, or take the engine's own variable", async () => {
    const data = await defaultGameData();
    const world = (features: WorldFeature[]) => new World(data, { rng: Math.random, newId: () => "x", features });
    assert.throws(() => world([{ name: "one", vars: { v: { initial: 0 } } }, { name: "two", vars: { v: { initial: 1 } } }]), /v of two is already declared by one/);
    assert.throws(() => world([{ name: "one", vars: { autoRetaliate: { initial: false } } }]), /already declared by combat/);
    const heal = () => {};
    assert.throws(() => world([{ name: "one", npcServices: { healer: heal } }, { name: "two", npcServices: { healer: heal } }]), /npc service healer of two/);
  });
});
