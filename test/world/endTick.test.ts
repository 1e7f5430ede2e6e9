import assert from "node:assert/strict";
import { createWorld } from "../../rooms/worldSetup.js";
import { defaultGameData } from "../helpers/server.js";

/** The world's per-tick change tracking: filled by the rules, emptied by endTick, nothing else. */
describe("world: the tick's change tracking", function () {
  it("changes and removals of a tick are kept until endTick; membership versions only grow", async () => {
    const world = createWorld(await defaultGameData(), { rng: () => 0.5 });
    world.endTick();
    const [npcId] = world.npcs.keys();
    const [resourceId] = world.resources.keys();
    const versionBefore = world.membershipVersion.resource;
    world.markChanged("npc", npcId!);
    world.unplace("resource", resourceId!);
    assert.ok(world.changedThisTick.npc.has(npcId!));
    assert.ok(world.removedThisTick.resource.has(resourceId!));
    assert.equal(world.membershipVersion.resource, versionBefore + 1);
    world.endTick();
    for (const kind of ["player", "npc", "resource", "groundItem"] as const) {
      assert.equal(world.changedThisTick[kind].size, 0, kind);
      assert.equal(world.removedThisTick[kind].size, 0, kind);
    }
    assert.equal(world.membershipVersion.resource, versionBefore + 1, "versions are not reset");
  });
});
