import assert from "node:assert/strict";
import { REGEN_TICKS } from "../../src/features/regeneration/regeneration.js";
import { WORLD_FEATURES } from "../../src/features/index.js";
import { tickWorld } from "../../src/game/world/tick.js";
import { refreshLevels } from "../../src/game/world/xp.js";
import type { World } from "../../src/game/world/World.js";
import { createWorld } from "../../rooms/worldSetup.js";
import { addStarter } from "../helpers/handPlaced.js";
import { defaultGameData } from "../helpers/server.js";
import { worldSuite } from "../helpers/worldClient.js";
import { ticks, worldRoomOf } from "../helpers/worldRoom.js";

/** Ticks until the player's health rises above `from` (at most `limit`). */
function ticksToHeal(world: World, playerId: string, from: number, limit: number): number {
  const p = world.players.get(playerId)!;
  for (let n = 1; n <= limit; n++) {
    tickWorld(world);
    if (p.health > from) return n;
  }
  return Infinity;
}

describe("feature: health regeneration", () => {
  let world: World;
  beforeEach(async () => {
    world = createWorld(await defaultGameData(), { rng: () => 0.5, features: WORLD_FEATURES.list });
  });

  it(`gives one hitpoint (10 life points) back every ${REGEN_TICKS} ticks, up to the maximum and no further`, () => {
    const p = addStarter(world, "Mender");
    p.health = 75;
    assert.equal(ticksToHeal(world, p.id, 75, 1000), REGEN_TICKS);
    assert.equal(p.health, 85);
    assert.equal(ticksToHeal(world, p.id, 85, 1000), REGEN_TICKS);
    assert.equal(ticksToHeal(world, p.id, 95, 1000), REGEN_TICKS);
    assert.equal(p.health, 100, "capped at the maximum");
    assert.equal(ticksToHeal(world, p.id, 100, 3 * REGEN_TICKS), Infinity, "full health stays full");
  });

  it("twice as fast under Mending Breath (healthRegenMultiplier 2 in prayers.json)", () => {
    const p = addStarter(world, "Breather");
    p.xp.prayer = 1_500; // level 11: Mending Breath needs 9
    refreshLevels(p);
    p.prayer.points = 11;
    p.prayer.active.add("mending_breath");
    p.health = 50;
    assert.equal(ticksToHeal(world, p.id, 50, 1000), REGEN_TICKS / 2);
  });

  it("nothing comes back to the dead, and a world without the feature does not regenerate", async () => {
    const p = addStarter(world, "Fallen");
    p.health = 0;
    for (let i = 0; i < REGEN_TICKS * 2; i++) tickWorld(world);
    assert.equal(p.health, 0);
    const plain = createWorld(await defaultGameData(), { rng: () => 0.5 });
    const q = addStarter(plain, "Plain");
    q.health = 50;
    assert.equal(ticksToHeal(plain, q.id, 50, REGEN_TICKS * 2), Infinity);
  });
});

describe("feature: health regeneration over the protocol", function () {
  this.timeout(30_000);
  const suite = worldSuite();

  it("the healed hitpoint reaches the player in player:sync", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    p.health = 40;
    p.vars.regenCount = REGEN_TICKS - 2; // two ticks from the next hitpoint
    room.world.touchPlayer(p);
    const since = a.mark();
    await ticks(room, 3);
    const sync = await a.next("player:sync", (s) => s.health === 50, { since });
    assert.equal(sync.health, 50);
  });
});
