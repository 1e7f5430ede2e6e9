import assert from "node:assert/strict";
import type { NpcDef } from "../../src/manifests/gameData.js";
import {
  applyNpcAction,
  decideNpcAction,
  isAggressiveTowards,
  RESPAWN_DEFAULT_TICKS,
  respawnDue,
  respawnNpc,
  respawnTick,
  stepToward,
  type NearbyPlayer,
  type NpcInstance,
} from "../../src/game/npcBehaviour.js";
import { TileMap } from "../../src/game/tileMap.js";
import type { Rng } from "../../src/game/types.js";
import { fixedRng } from "./rng.js";

function npcDef(over: { combat?: Partial<NpcDef["combat"]>; movement?: Partial<NpcDef["movement"]>; level?: number } = {}): NpcDef {
  const level = over.level ?? 10;
  return {
    id: "brute",
    name: "Brute",
    category: "mob",
    level,
    stats: { level, health: 20, attack: 10, strength: 10, defense: 10, defenseBonus: 0, ranged: 1, magic: 1 },
    combat: {
      attackable: true,
      aggressive: false,
      retaliates: true,
      aggroRange: 4,
      combatRange: 1,
      leashRange: 8,
      attackSpeedTicks: 4,
      respawnTicks: 30,
      attackType: "melee",
      ...over.combat,
    },
    movement: { type: "wander", speed: 3, wanderRadius: 3, ...over.movement },
    drops: [],
    services: [],
    source: "test",
    raw: {},
  };
}

const spawn = { x: 50, z: 50 };
function npcAt(x = 50, z = 50, over: Partial<NpcInstance> = {}): NpcInstance {
  return { id: "n1", defId: "brute", position: { x, z }, spawn: { ...spawn }, health: 20, lastAttackTick: -100, ...over };
}
const player = (id: string, x: number, z: number, combatLevel = 3, dead = false): NearbyPlayer => ({ id, position: { x, z }, combatLevel, dead });
const noRandom: Rng = () => assert.fail("rng must not be used");

describe("game: npcBehaviour", function () {
  const map = new TileMap({ minX: 0, maxX: 100, minZ: 0, maxZ: 100 });
  const env = (rng: Rng = noRandom) => ({ map, rng });

  it("idles while dead, and respawns on time", function () {
    const def = npcDef({ combat: { aggressive: true } });
    const npc = npcAt(50, 50, { deadUntilTick: 130 });
    assert.deepEqual(decideNpcAction(npc, def, [player("p", 51, 50)], 100, env()), { type: "idle" });
    assert.equal(respawnTick(def, 100), 130);
    assert.equal(respawnTick(npcDef({ combat: { respawnTicks: 0 } }), 100), 100 + RESPAWN_DEFAULT_TICKS);
    assert.equal(respawnDue(npc, 129), false);
    assert.equal(respawnDue(npc, 130), true);
    assert.equal(respawnDue(npcAt(), 130), false);
    npc.position = { x: 55, z: 55 };
    npc.health = 0;
    npc.target = "p";
    respawnNpc(npc, def);
    assert.deepEqual(npc.position, spawn);
    assert.equal(npc.health, 20);
    assert.equal(npc.deadUntilTick, null);
    assert.equal(npc.target, null);
  });

  it("aggressive npcs pick the nearest eligible living player in range", function () {
    const def = npcDef({ level: 10, combat: { aggressive: true, aggroRange: 4 } });
    const players = [player("far", 55, 50), player("dead", 51, 50, 3, true), player("strong", 51, 51, 21), player("near", 47, 50), player("edge", 50, 54, 20)];
    // "near" at 3 tiles beats "edge" at 4; "strong" (above 2 x 10) and "dead" are ignored; "far" is out of range.
    assert.deepEqual(decideNpcAction(npcAt(), def, players, 0, env()), { type: "move", to: { x: 49, z: 50 }, targetId: "near" });
    assert.equal(isAggressiveTowards(def, player("x", 0, 0, 20)), true, "at most twice the npc's level");
    assert.equal(isAggressiveTowards(def, player("x", 0, 0, 21)), false);
    assert.equal(isAggressiveTowards(npcDef(), player("x", 0, 0, 1)), false, "not aggressive at all");
  });

  it("non-aggressive npcs leave players alone until hit, then retaliate", function () {
    const def = npcDef({ movement: { type: "stationary", wanderRadius: 0 } });
    const players = [player("p", 52, 50)];
    assert.deepEqual(decideNpcAction(npcAt(), def, players, 0, env()), { type: "idle" });
    const hit = npcAt(50, 50, { lastAttackerId: "p" });
    const action = decideNpcAction(hit, def, players, 0, env());
    assert.deepEqual(action, { type: "move", to: { x: 51, z: 50 }, targetId: "p" });
    applyNpcAction(hit, action, 0);
    assert.equal(hit.target, "p");
    assert.equal(hit.lastAttackerId, null, "the hint is consumed");
    const passive = npcDef({ combat: { retaliates: false }, movement: { type: "stationary", wanderRadius: 0 } });
    assert.deepEqual(decideNpcAction(npcAt(50, 50, { lastAttackerId: "p" }), passive, players, 0, env()), { type: "idle" });
  });

  it("chases one tile per tick, diagonally first", function () {
    const def = npcDef();
    const npc = npcAt(50, 50, { target: "p" });
    const players = [player("p", 54, 53)];
    const a = decideNpcAction(npc, def, players, 0, env());
    assert.deepEqual(a, { type: "move", to: { x: 51, z: 51 }, targetId: "p" });
    applyNpcAction(npc, a, 0);
    assert.deepEqual(npc.position, { x: 51, z: 51 });
  });

  it("attacks in range once its attack speed has passed, holding in between", function () {
    const def = npcDef({ combat: { attackSpeedTicks: 4 } });
    const npc = npcAt(50, 50, { target: "p", lastAttackTick: 10 });
    const players = [player("p", 51, 51)]; // diagonal: Chebyshev 1
    assert.deepEqual(decideNpcAction(npc, def, players, 13, env()), { type: "idle", targetId: "p" });
    const attack = decideNpcAction(npc, def, players, 14, env());
    assert.deepEqual(attack, { type: "attack", targetId: "p" });
    applyNpcAction(npc, attack, 14);
    assert.equal(npc.lastAttackTick, 14);
    assert.deepEqual(npc.position, { x: 50, z: 50 });
  });

  it("steps off the target's tile before fighting", function () {
    const a = decideNpcAction(npcAt(50, 50, { target: "p" }), npcDef(), [player("p", 50, 50)], 0, env());
    assert.deepEqual(a, { type: "move", to: { x: 51, z: 50 }, targetId: "p" });
  });

  it("drops a dead or vanished target", function () {
    const def = npcDef({ movement: { type: "stationary", wanderRadius: 0 } });
    assert.deepEqual(decideNpcAction(npcAt(50, 50, { target: "p" }), def, [player("p", 51, 50, 3, true)], 0, env()), { type: "idle" });
    assert.deepEqual(decideNpcAction(npcAt(50, 50, { target: "p" }), def, [], 0, env()), { type: "idle" });
  });

  it("leashes home when the target leaves the leash range, ignoring players until home", function () {
    const def = npcDef({ combat: { aggressive: true, leashRange: 8, aggroRange: 4 } });
    const npc = npcAt(57, 50, { target: "p" });
    const players = [player("p", 59, 50)]; // 9 tiles from spawn
    const first = decideNpcAction(npc, def, players, 0, env());
    assert.deepEqual(first, { type: "return", to: { x: 56, z: 50 } });
    applyNpcAction(npc, first, 0);
    assert.equal(npc.target, null);
    assert.equal(npc.returning, true);
    // The player steps back into aggro range: still walking home.
    const close = [player("p", 54, 50)];
    let steps = 1;
    while (npc.returning) {
      const a = decideNpcAction(npc, def, close, steps, env());
      assert.equal(a.type, "return");
      applyNpcAction(npc, a, steps);
      steps++;
    }
    assert.deepEqual(npc.position, spawn);
    assert.equal(steps, 7);
    // Home again, it may aggress anew.
    assert.deepEqual(decideNpcAction(npc, def, close, steps, env()), { type: "move", to: { x: 51, z: 50 }, targetId: "p" });
  });

  it("does not chase through walls: stuck behind one, it holds", function () {
    const walled = new TileMap({ minX: 0, maxX: 100, minZ: 0, maxZ: 100 });
    walled.blockRect(51, 45, 51, 55);
    const a = decideNpcAction(npcAt(50, 50, { target: "p" }), npcDef(), [player("p", 53, 50)], 0, { map: walled, rng: noRandom });
    assert.deepEqual(a, { type: "idle", targetId: "p" });
    assert.equal(stepToward(walled, { x: 50, z: 50 }, { x: 53, z: 50 }), null);
    assert.deepEqual(stepToward(walled, { x: 50, z: 50 }, { x: 53, z: 57 }), { x: 50, z: 51 }, "slides along z");
  });

  it("walks home after a fight that ended away from its wander area", function () {
    const def = npcDef({ movement: { wanderRadius: 3 } });
    assert.deepEqual(decideNpcAction(npcAt(45, 50), def, [], 0, env()), { type: "return", to: { x: 46, z: 50 } });
  });

  it("wanders now and then within its radius", function () {
    const def = npcDef({ movement: { wanderRadius: 3 } });
    assert.deepEqual(decideNpcAction(npcAt(), def, [], 0, env(fixedRng(0.5))), { type: "idle" });
    // 0.05 < WANDER_CHANCE: go; x = 50 + floor(0.99 * 7) - 3 = 53, z = 50 + floor(0 * 7) - 3 = 47.
    const npc = npcAt();
    const a = decideNpcAction(npc, def, [], 0, env(fixedRng(0.05, 0.99, 0)));
    assert.deepEqual(a, { type: "move", to: { x: 51, z: 49 }, wanderTo: { x: 53, z: 47 } });
    applyNpcAction(npc, a, 0);
    const b = decideNpcAction(npc, def, [], 1, env()); // keeps going, no new draw
    assert.deepEqual(b, { type: "move", to: { x: 52, z: 48 }, wanderTo: { x: 53, z: 47 } });
    applyNpcAction(npc, b, 1);
    const c = decideNpcAction(npc, def, [], 2, env());
    assert.deepEqual(c, { type: "move", to: { x: 53, z: 47 } });
    applyNpcAction(npc, c, 2);
    assert.equal(npc.wanderTo, null);
    const stationary = npcDef({ movement: { type: "stationary", wanderRadius: 3 } });
    assert.deepEqual(decideNpcAction(npcAt(), stationary, [], 0, env()), { type: "idle" });
  });

  it("never fights when not attackable", function () {
    const def = npcDef({ combat: { attackable: false, aggressive: true }, movement: { type: "stationary", wanderRadius: 0 } });
    assert.deepEqual(decideNpcAction(npcAt(50, 50, { lastAttackerId: "p" }), def, [player("p", 51, 50)], 0, env()), { type: "idle" });
  });
});
