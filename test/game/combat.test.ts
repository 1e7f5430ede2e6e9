import assert from "node:assert/strict";
import { attackRoll, combatXpForDamage, defenceRoll, effectiveLevel, hitChance, maxHit, STYLE_BONUS } from "../../src/game/combat.js";

const close = (a: number, b: number, eps = 1e-12) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);

describe("game: combat", function () {
  it("computes effective levels, max hits and rolls", function () {
    assert.equal(effectiveLevel(1), 9);
    assert.equal(effectiveLevel(40, 3), 51);
    assert.equal(maxHit(1, 0), 1); // 0.5 + 9 * 64 / 640 = 1.4
    assert.equal(maxHit(10, 0), 2); // 0.5 + 18 * 64 / 640 = 2.3
    assert.equal(maxHit(99, 0), 11); // 0.5 + 107 * 64 / 640 = 11.2
    assert.equal(maxHit(99, 100, 3), 28); // 0.5 + 110 * 164 / 640 = 28.6875
    assert.equal(attackRoll(1, 0), 576);
    assert.equal(attackRoll(60, 20, 3), 71 * 84);
    assert.equal(defenceRoll(16, 4), 24 * 68);
    assert.deepEqual(STYLE_BONUS.controlled, { attack: 1, strength: 1, defense: 1 });
  });

  it("computes the hit chance on both sides of the formula", function () {
    close(hitChance(576, 576), 576 / 1154);
    close(hitChance(1000, 500), 1 - 502 / 2002);
    close(hitChance(0, 100), 0);
    assert.ok(hitChance(10_000, 100) > 0.99);
  });

  it("grants 4 xp per damage to the style skill and 4/3 to constitution, in tenths", function () {
    assert.deepEqual(combatXpForDamage(3, "accurate"), { attack: 12, constitution: 4 });
    assert.deepEqual(combatXpForDamage(3, "aggressive"), { strength: 12, constitution: 4 });
    assert.deepEqual(combatXpForDamage(2, "defensive"), { defense: 8, constitution: 2.7 });
    assert.deepEqual(combatXpForDamage(1, "controlled"), { attack: 1.3, strength: 1.3, defense: 1.3, constitution: 1.3 });
    assert.deepEqual(combatXpForDamage(0, "accurate"), {});
  });
});
