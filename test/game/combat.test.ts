import assert from "node:assert/strict";
import {
  attackRoll,
  combatXpForDamage,
  defenceRoll,
  effectiveLevel,
  hitChance,
  maxHit,
  meleeOdds,
  npcAttackStats,
  rollHit,
  STYLE_BONUS,
  type AttackerStats,
  type DefenderStats,
} from "../../src/game/combat.js";
import { fixedRng, seededRng } from "./rng.js";

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

  it("adds style bonuses in meleeOdds", function () {
    const a: AttackerStats = { attack: 1, strength: 1, attackBonus: 0, strengthBonus: 0, style: "accurate" };
    const d: DefenderStats = { defense: 1, defenseBonus: 0, style: "defensive" };
    const odds = meleeOdds(a, d);
    assert.equal(odds.maxHit, 1);
    close(odds.chance, (12 * 64) / (2 * (12 * 64 + 1))); // 12 * 64 against 12 * 64: the lower branch
    assert.equal(meleeOdds({ ...a, strength: 99, style: "aggressive" }, d).maxHit, 11); // 0.5 + 110 * 64 / 640 = 11.5
  });

  it("rolls a miss with one draw and a hit with two, damage uniform over 0..max", function () {
    const strong: AttackerStats = { attack: 99, strength: 99, attackBonus: 0, strengthBonus: 0 };
    const weak: DefenderStats = { defense: 1, defenseBonus: 0 };
    const miss = fixedRng(0.999);
    assert.equal(rollHit(miss, strong, weak), 0);
    assert.equal(miss.used(), 1);
    assert.equal(rollHit(fixedRng(0.1, 0.999), strong, weak), 11);
    assert.equal(rollHit(fixedRng(0.1, 0), strong, weak), 0);
    assert.equal(rollHit(fixedRng(0.1, 0.5), strong, weak), 6);
  });

  it("hits as often as the formula says over 20 000 swings, never above max", function () {
    const rng = seededRng(42);
    let draws = 0;
    const counting = () => {
      draws++;
      return rng();
    };
    const a: AttackerStats = { attack: 20, strength: 20, attackBonus: 10, strengthBonus: 8 };
    const d: DefenderStats = { defense: 15, defenseBonus: 12 };
    const { maxHit: max, chance } = meleeOdds(a, d);
    const n = 20_000;
    const seen = new Set<number>();
    for (let i = 0; i < n; i++) {
      const dmg = rollHit(counting, a, d);
      assert.ok(Number.isInteger(dmg) && dmg >= 0 && dmg <= max);
      seen.add(dmg);
    }
    const hits = draws - n; // a hit draws twice
    assert.ok(Math.abs(hits / n - chance) < 0.015, `hit rate ${hits / n} vs ${chance}`);
    assert.equal(seen.size, max + 1, "every damage value 0..max occurs");
  });

  it("grants 4 xp per damage to the style skill and 4/3 to constitution, in tenths", function () {
    assert.deepEqual(combatXpForDamage(3, "accurate"), { attack: 12, constitution: 4 });
    assert.deepEqual(combatXpForDamage(3, "aggressive"), { strength: 12, constitution: 4 });
    assert.deepEqual(combatXpForDamage(2, "defensive"), { defense: 8, constitution: 2.7 });
    assert.deepEqual(combatXpForDamage(1, "controlled"), { attack: 1.3, strength: 1.3, defense: 1.3, constitution: 1.3 });
    assert.deepEqual(combatXpForDamage(0, "accurate"), {});
  });

  it("maps npc stats onto the attacker and defender shapes", function () {
    const stats = { level: 24, health: 32, attack: 22, strength: 24, defense: 18, defenseBonus: 6, ranged: 1, magic: 1 };
    assert.deepEqual(npcAttackStats({ stats }), {
      attacker: { attack: 22, strength: 24, attackBonus: 0, strengthBonus: 0 },
      defender: { defense: 18, defenseBonus: 6 },
    });
  });
});
