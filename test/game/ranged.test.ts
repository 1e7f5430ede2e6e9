import assert from "node:assert/strict";
import {
  arrowFate,
  bowTierLevel,
  checkAmmo,
  isBow,
  rangedAttackRoll,
  rangedMaxHit,
  rangedReach,
  rangedSpeedTicks,
  rangedXpForDamage,
} from "../../src/game/ranged.js";
import type { AmmoDef } from "../../src/manifests/combat.js";
import { code, item } from "./fixtures.js";
import { fixedRng, seededRng } from "./rng.js";

const shortbow = item("shortbow", { name: "Shortbow", weaponType: "BOW", attackType: "RANGED", tier: "normal", attackSpeed: 4, attackRange: 7 });
const willow = item("willow_shortbow", { name: "Willow shortbow", weaponType: "BOW", tier: "willow", requirements: { skills: { ranged: 20 } } });
const ammo = new Map<string, AmmoDef>(
  [
    { id: "bronze_arrow", rangedStrength: 7, requiredRangedLevel: 1, requiredBowTier: 1 },
    { id: "mithril_arrow", rangedStrength: 22, requiredRangedLevel: 20, requiredBowTier: 20 },
  ].map((a) => [a.id, a]),
);

describe("ranged rules", () => {
  it("bows and their tier level (the ranged requirement, else the tier's usual level)", () => {
    assert.equal(isBow(shortbow), true);
    assert.equal(isBow(item("bronze_sword", { weaponType: "SWORD" })), false);
    assert.equal(bowTierLevel(shortbow), 1);
    assert.equal(bowTierLevel(willow), 20);
    assert.equal(bowTierLevel(item("oak_shortbow", { weaponType: "BOW", tier: "oak" })), 5);
  });

  it("arrows must be worn, be arrows, fit the bow's tier and the player's level", () => {
    assert.equal(checkAmmo(shortbow, "bronze_arrow", ammo, 1).rangedStrength, 7);
    assert.throws(() => checkAmmo(shortbow, undefined, ammo, 1), code("NO_AMMO"));
    assert.throws(() => checkAmmo(shortbow, "rune_essence", ammo, 1), code("WRONG_AMMO"));
    assert.throws(() => checkAmmo(shortbow, "mithril_arrow", ammo, 99), code("WRONG_AMMO"), "a normal bow can't fire mithril");
    assert.throws(() => checkAmmo(willow, "mithril_arrow", ammo, 19), code("LEVEL_TOO_LOW"));
    assert.equal(checkAmmo(willow, "mithril_arrow", ammo, 20).id, "mithril_arrow");
  });

  it("max hit and attack roll by the documented formulas (known values)", () => {
    // Level 1, bronze arrows (7), rapid: floor(0.5 + 9 * 71 / 640) = 1; accurate: floor(0.5 + 12 * 71 / 640) = 1.
    assert.equal(rangedMaxHit(1, 7, "rapid"), 1);
    // Level 99, rapid, rune arrows (49): floor(0.5 + 107 * 113 / 640) = 19; accurate: floor(0.5 + 110 * 113 / 640) = 19.
    assert.equal(rangedMaxHit(99, 49, "rapid"), 19);
    assert.equal(rangedMaxHit(99, 49, "accurate"), 19);
    // Level 70, accurate, mithril (22): floor(0.5 + 81 * 86 / 640) = 11.
    assert.equal(rangedMaxHit(70, 22, "accurate"), 11);
    assert.equal(rangedAttackRoll(70, 69, "accurate"), 81 * 133);
    assert.equal(rangedAttackRoll(70, 69, "longrange"), 78 * 133);
  });

  it("rapid is a tick faster; longrange reaches two tiles farther, up to 10", () => {
    assert.equal(rangedSpeedTicks(4, "rapid"), 3);
    assert.equal(rangedSpeedTicks(4, "accurate"), 4);
    assert.equal(rangedSpeedTicks(1, "rapid"), 1);
    assert.equal(rangedReach(7, "accurate"), 7);
    assert.equal(rangedReach(7, "longrange"), 9);
    assert.equal(rangedReach(9, "longrange"), 10);
    assert.equal(rangedReach(undefined, "rapid"), 7);
  });

  it("an arrow breaks with the break chance, else lands under the target; about a fifth break over many shots", () => {
    assert.equal(arrowFate(fixedRng(0.1)), "broken");
    assert.equal(arrowFate(fixedRng(0.5)), "dropped");
    const rng = seededRng(7);
    let broken = 0;
    for (let i = 0; i < 1000; i++) if (arrowFate(rng) === "broken") broken++;
    assert.ok(broken > 160 && broken < 240, `${broken} of 1000`);
  });

  it("xp: 4 per damage to ranged, or 2 and 2 to ranged and defence with longrange; 4/3 to constitution", () => {
    assert.deepEqual(rangedXpForDamage(3, "rapid"), { ranged: 12, constitution: 4 });
    assert.deepEqual(rangedXpForDamage(3, "longrange"), { ranged: 6, defense: 6, constitution: 4 });
    assert.deepEqual(rangedXpForDamage(1, "accurate"), { ranged: 4, constitution: 1.3 });
    assert.deepEqual(rangedXpForDamage(0, "accurate"), {});
  });
});
