import assert from "node:assert/strict";
import { agilityFailChance, startCrossing } from "../../src/features/agility/agility.js";
import { obstacleOf } from "../../src/features/agility/agilityCourses.js";
import { drainPerTick, FULL_ENERGY, restorePerTick } from "../../src/features/agility/stamina.js";
import { WORLD_FEATURES } from "../../src/features/index.js";
import { WALK_TILES_PER_TICK } from "../../src/game/movement.js";
import { movePlayer } from "../../src/game/world/commands.js";
import type { PlayerEntity } from "../../src/game/world/entities.js";
import { tickWorld } from "../../src/game/world/tick.js";
import type { World } from "../../src/game/world/World.js";
import { refreshLevels } from "../../src/game/world/xp.js";
import { xpForLevel } from "../../src/game/skills.js";
import type { GameData } from "../../src/manifests/index.js";
import { createWorld } from "../../rooms/worldSetup.js";
import { addStarter } from "../helpers/handPlaced.js";
import { defaultGameData } from "../helpers/server.js";
import { codeOf } from "../game/fixtures.js";
import { worldSuite } from "../helpers/worldClient.js";
import { place, setRng, worldRoomOf } from "../helpers/worldRoom.js";

const LOG = "obstacle:thornwood_trail:mossy_log";
const ROPE = "obstacle:thornwood_trail:rope_swing";

function withAgility(p: PlayerEntity, level: number) {
  p.xp.agility = xpForLevel(level);
  refreshLevels(p);
}

/** Tick until the player has no action (at most `limit` ticks). */
function untilIdle(world: World, p: PlayerEntity, limit = 40) {
  for (let i = 0; i < limit && p.action; i++) tickWorld(world);
}

describe("feature: agility and run energy, tick by tick", () => {
  let world: World;
  let roll: number;
  beforeEach(async () => {
    roll = 0.5;
    world = createWorld(await defaultGameData(), { rng: () => roll, features: WORLD_FEATURES.list });
    for (const npc of world.npcs.values()) if (npc.attackable) npc.deadUntilTick = 1e9;
  });

  it("running drains run energy by the weight carried; walking and standing restore it, faster with agility", () => {
    const p = addStarter(world, "Runner", { x: 100, z: 60 });
    p.inventory = new Array(28).fill(null);
    movePlayer(world, p.id, { x: 120, z: 60 }, true);
    tickWorld(world);
    assert.equal(p.vars.runEnergy, FULL_ENERGY - drainPerTick(0), "0 kg: 64 units a tick");
    p.equipment.body = { itemId: "steel_platebody", quantity: 1 }; // heavy armour
    const kg = world.data.items.get("steel_platebody")!.weight!;
    const before = p.vars.runEnergy as number;
    tickWorld(world);
    assert.equal(p.vars.runEnergy, before - drainPerTick(kg));
    assert.ok(drainPerTick(kg) > drainPerTick(0));
    // Walking restores.
    movePlayer(world, p.id, { x: 85, z: 60 }, false);
    const walking = p.vars.runEnergy as number;
    tickWorld(world);
    assert.equal(p.vars.runEnergy, walking + restorePerTick(1));
    // At agility 99 the restore is +99%.
    withAgility(p, 99);
    p.path = [];
    const resting = p.vars.runEnergy as number;
    tickWorld(world);
    assert.equal(p.vars.runEnergy, resting + restorePerTick(99));
    assert.deepEqual([restorePerTick(1), restorePerTick(50), restorePerTick(99)], [20, 30, 40], "+1% a level");
  });

  it("out of run energy, a runner walks (WALK_TILES_PER_TICK a tick) and is told once", () => {
    const p = addStarter(world, "Breathless", { x: 100, z: 60 });
    p.vars.runEnergy = 0;
    movePlayer(world, p.id, { x: 110, z: 60 }, true);
    const x0 = p.tile.x;
    tickWorld(world);
    assert.equal(p.running, false);
    assert.equal(p.tile.x - x0, WALK_TILES_PER_TICK, "walked");
    const told = world.events.drain().filter((e) => e.kind === "notice" && e.code === "OUT_OF_RUN_ENERGY");
    assert.equal(told.length, 1);
  });

  it("an obstacle fails at level 1 on a low roll: the damage taken, no xp, left where it started", () => {
    const p = addStarter(world, "Clumsy", { x: 136, z: 122 });
    const o = obstacleOf(world, LOG)!;
    assert.ok(agilityFailChance(o, 1) > 0 && agilityFailChance(o, 1) === o.failChance);
    assert.equal(agilityFailChance(o, o.safeLevel!), 0);
    roll = 0;
    startCrossing(world, p.id, LOG);
    untilIdle(world, p);
    assert.deepEqual(p.tile, o.from);
    assert.equal(p.health, 100 - 10 * o.failDamage);
    assert.equal(p.xp.agility, 0);
    assert.ok(world.events.drain().some((e) => e.kind === "notice" && e.code === "OBSTACLE_FAILED"));
  });

  it("a crossing at a good roll ends on the far tile with the xp; a lap in order gives the lap's xp; a move stops a crossing", () => {
    const p = addStarter(world, "Nimble", { x: 136, z: 122 });
    withAgility(p, 5);
    const xp0 = p.xp.agility;
    roll = 0.99;
    const ids = ["mossy_log", "bramble_hedge", "rope_swing", "stepping_stones"].map((id) => `obstacle:thornwood_trail:${id}`);
    const gained: number[] = [];
    for (const id of ids) {
      const before = p.xp.agility;
      startCrossing(world, p.id, id);
      untilIdle(world, p);
      assert.deepEqual(p.tile, obstacleOf(world, id)!.to, id);
      gained.push(p.xp.agility - before);
    }
    assert.deepEqual(gained, [8, 7, 12, 10 + 40], "the last obstacle's xp and the lap's");
    assert.equal(p.xp.agility - xp0, 77);
    // A move before the crossing ends stops it.
    place2(world, p, { x: 136, z: 122 });
    startCrossing(world, p.id, LOG);
    for (let i = 0; i < 3; i++) tickWorld(world);
    movePlayer(world, p.id, { x: 136, z: 118 });
    for (let i = 0; i < 8; i++) tickWorld(world);
    assert.notDeepEqual(p.tile, obstacleOf(world, LOG)!.to);
  });

  it("refuses an unknown obstacle and one above the level; the manifest's bad obstacles are skipped with a warning", async () => {
    const p = addStarter(world, "Novice", { x: 136, z: 122 });
    assert.equal(
      codeOf(() => startCrossing(world, p.id, "obstacle:nowhere")),
      "UNKNOWN_TARGET",
    );
    assert.equal(
      codeOf(() => startCrossing(world, p.id, ROPE)),
      "LEVEL_TOO_LOW",
    );
    assert.equal(p.action, null);
    const data = await defaultGameData();
    const broken: GameData = {
      ...data,
      extras: {
        ...data.extras,
        agility: {
          courses: [
            {
              id: "test",
              name: "Test",
              obstacles: [
                { id: "fine", name: "Fine", position: { x: 140, z: 122 }, from: { x: 138, z: 122 }, to: { x: 142, z: 122 }, level: 1, xp: 1 },
                { id: "nolevel", name: "No level", position: { x: 140, z: 122 }, from: { x: 138, z: 122 }, to: { x: 142, z: 122 }, xp: 1 },
                { id: "offmap", name: "Off the map", position: { x: 140, z: 122 }, from: { x: 9999, z: 122 }, to: { x: 142, z: 122 }, level: 1, xp: 1 },
              ],
            },
          ],
        },
      },
    };
    const w = createWorld(broken, { features: WORLD_FEATURES.list });
    const warnings = w.events.drain().flatMap((e) => (e.kind === "contentWarning" ? [e.message] : []));
    assert.equal(warnings.length, 2, warnings.join("\n"));
    assert.match(warnings[0], /obstacle 1: level/);
    assert.match(warnings[1], /offmap: its from tile is outside the map/);
    assert.ok(obstacleOf(w, "obstacle:test:fine"));
  });
});

/** Put a player on a tile at once. */
function place2(world: World, p: PlayerEntity, tile: { x: number; z: number }) {
  p.tile = { ...tile };
  p.path = [];
  p.action = null;
  world.place("player", p.id, p.tile);
}

describe("feature: agility over the protocol", function () {
  this.timeout(30_000);
  const suite = worldSuite();

  it("agility:cross crosses the log (player:sync there, agility xp); player:sync carries run energy; bad payloads change nothing", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    assert.equal(a.sync().vars.runEnergy, FULL_ENERGY);
    setRng(room, 0.99);
    place(room, a.id, { x: 136, z: 122 });
    let since = a.mark();
    a.send("agility:cross", { obstacleId: 7 });
    assert.equal((await a.next("error", () => true, { since })).code, "INVALID_PAYLOAD");
    since = a.mark();
    a.send("agility:cross", { obstacleId: "obstacle:thornwood_trail:rope_swing" });
    assert.equal((await a.next("error", () => true, { since })).code, "LEVEL_TOO_LOW");
    since = a.mark();
    a.send("agility:cross", { obstacleId: LOG });
    const xp = await a.next("skill:xp", (m) => m.skill === "agility", { since });
    assert.equal(xp.gained, 8);
    const sync = await a.next("player:sync", (s) => s.position.x === 142 && s.position.z === 122, { since });
    assert.equal(sync.skills.agility.xp, 8);
    // Obstacles are stations every client sees.
    await a.sees((s) => s.stations?.get?.(LOG)?.type === "agility_obstacle", "the log as a station");
  });
});
