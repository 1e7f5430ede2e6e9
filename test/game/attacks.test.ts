import assert from "node:assert/strict";
import {
  blowOdds,
  checkStyle,
  defenceRollAgainst,
  NO_GEAR,
  rollBlow,
  styleAfterSwitch,
  stylesFor,
  type Fighter,
  type FighterLevels,
} from "../../src/game/attacks.js";
import { boostedLevel } from "../../src/game/prayer.js";
import type { PrayerDef } from "../../src/manifests/combat.js";
import { code, item } from "./fixtures.js";
import { fixedRng, seededRng } from "./rng.js";

const close = (a: number, b: number, eps = 1e-12) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);
const levels = (n: number, over: Partial<FighterLevels> = {}): FighterLevels => ({ attack: n, strength: n, defense: n, ranged: n, magic: n, ...over });
const fighter = (n: number, over: Partial<Fighter> = {}): Fighter => ({ levels: levels(n), gear: { ...NO_GEAR }, ...over });
/** The hit chance formula, written out. */
const chanceOf = (att: number, def: number) => (att > def ? 1 - (def + 2) / (2 * (att + 1)) : att / (2 * (def + 1)));

const bow = item("shortbow", { name: "Shortbow", weaponType: "BOW", attackType: "RANGED", equipSlot: "2h" });
const sword = item("sword", { name: "Sword", weaponType: "SWORD", attackType: "MELEE", equipSlot: "weapon" });

describe("game: attacks", function () {
  it("melee: style bonuses on both sides, strength decides the max hit", function () {
    const odds = blowOdds("melee", fighter(1, { style: "accurate" }), fighter(1, { style: "defensive" }));
    assert.equal(odds.maxHit, 1);
    close(odds.chance, chanceOf(12 * 64, 12 * 64)); // 12 * 64 against 12 * 64: the lower branch
    assert.equal(blowOdds("melee", fighter(1, { levels: levels(1, { strength: 99 }), style: "aggressive" }), fighter(1)).maxHit, 11); // 0.5 + 110 * 64 / 640
  });

  it("ranged: the ranged level, the bow's accuracy and the arrows' strength; longrange defends better", function () {
    const archer = fighter(1, { levels: levels(1, { ranged: 40 }), gear: { ...NO_GEAR, ranged: 8, rangedStrength: 7 }, style: "accurate" });
    const goblin = fighter(1, { isNpc: true });
    const odds = blowOdds("ranged", archer, goblin);
    assert.equal(odds.maxHit, Math.floor(0.5 + (51 * 71) / 640)); // effRanged 40 + 8 + 3 = 51: 6
    close(odds.chance, chanceOf(51 * 72, 9 * 64));
    assert.equal(blowOdds("ranged", { ...archer, style: "rapid" }, goblin).maxHit, Math.floor(0.5 + (48 * 71) / 640)); // 5
    // Against ranged, the defender's ranged defence bonus counts, and longrange's +3.
    assert.equal(defenceRollAgainst("ranged", fighter(10, { gear: { ...NO_GEAR, defense: 50, defenseRanged: 6 }, style: "longrange" })), 21 * 70);
  });

  it("magic: the spell's max hit; a player defends with 70% magic and 30% defence, an npc with its magic", function () {
    const mage = fighter(1, { levels: levels(1, { magic: 30 }), gear: { ...NO_GEAR, magic: 10 } });
    const odds = blowOdds("magic", mage, fighter(1, { isNpc: true, levels: levels(1, { magic: 20 }) }), 8);
    assert.equal(odds.maxHit, 8);
    close(odds.chance, chanceOf(38 * 74, 28 * 64));
    assert.equal(defenceRollAgainst("magic", fighter(1, { levels: levels(1, { magic: 50, defense: 20 }) })), (41 + 8) * 64); // floor(35 + 6) = 41
  });

  it("prayer boosts raise the levels the formulas see", function () {
    const prayers = new Map<string, PrayerDef>([
      ["piety", { id: "piety", name: "Piety", level: 1, drainEffect: 1, bonuses: { attackMultiplier: 1.1 }, conflicts: [] }],
    ]);
    const boosted = boostedLevel(60, ["piety"], prayers, "attackMultiplier");
    assert.equal(boosted, 66);
    const plain = blowOdds("melee", fighter(60), fighter(60)).chance;
    const prayed = blowOdds("melee", fighter(60, { levels: levels(60, { attack: boosted }) }), fighter(60)).chance;
    close(prayed, chanceOf(74 * 64, 68 * 64));
    assert.ok(prayed > plain);
  });

  it("reads a prayer's split boosts: ranged strength apart from accuracy, magic defence apart from magic", function () {
    const prayers = new Map<string, PrayerDef>([
      [
        "eagle_eye",
        {
          id: "eagle_eye",
          name: "Eagle Eye",
          level: 1,
          drainEffect: 1,
          bonuses: { rangedAttackMultiplier: 1.1, rangedStrengthMultiplier: 1.2 },
          conflicts: [],
        },
      ],
    ]);
    assert.equal(boostedLevel(50, ["eagle_eye"], prayers, ["rangedMultiplier", "rangedAttackMultiplier"]), 55);
    assert.equal(boostedLevel(50, ["eagle_eye"], prayers, ["rangedMultiplier", "rangedStrengthMultiplier"]), 60);
    const archer = fighter(1, { levels: levels(1, { ranged: 55, rangedStrength: 60 }), gear: { ...NO_GEAR, rangedStrength: 10 } });
    assert.equal(blowOdds("ranged", archer, fighter(1)).maxHit, Math.floor(0.5 + (71 * 74) / 640)); // 60 + 8 + 3 accurate
    assert.equal(defenceRollAgainst("magic", fighter(1, { levels: levels(1, { magic: 10, magicDefense: 40, defense: 10 }) })), (31 + 8) * 64); // 28 + 3
  });

  it("rolls a miss with one draw and a hit with two, damage uniform over 0..max", function () {
    const strong = fighter(99);
    const weak = fighter(1);
    const miss = fixedRng(0.999);
    assert.deepEqual(rollBlow(miss, "melee", strong, weak), { damage: 0, missed: true });
    assert.equal(miss.used(), 1);
    assert.deepEqual(rollBlow(fixedRng(0.1, 0.999), "melee", strong, weak), { damage: 11, missed: false });
    assert.deepEqual(rollBlow(fixedRng(0.1, 0), "melee", strong, weak), { damage: 0, missed: false });
    assert.equal(rollBlow(fixedRng(0.1, 0.5), "melee", strong, weak).damage, 6);
    assert.equal(rollBlow(fixedRng(0.1, 0.999), "magic", strong, weak, 8).damage, 8);
  });

  it("hits as often as the formula says over 20 000 blows of each kind, never above max", function () {
    const rng = seededRng(42);
    let draws = 0;
    const counting = () => {
      draws++;
      return rng();
    };
    const a = fighter(20, { gear: { ...NO_GEAR, attack: 10, strength: 8, ranged: 12, rangedStrength: 10, magic: 6 } });
    const d = fighter(15, { gear: { ...NO_GEAR, defense: 12, defenseRanged: 4, defenseMagic: 3 } });
    for (const kind of ["melee", "ranged", "magic"] as const) {
      draws = 0;
      const { maxHit: max, chance } = blowOdds(kind, a, d, 6);
      const n = 20_000;
      const seen = new Set<number>();
      for (let i = 0; i < n; i++) {
        const { damage } = rollBlow(counting, kind, a, d, 6);
        assert.ok(Number.isInteger(damage) && damage >= 0 && damage <= max);
        seen.add(damage);
      }
      const hits = draws - n; // a hit draws twice
      assert.ok(Math.abs(hits / n - chance) < 0.015, `${kind}: hit rate ${hits / n} vs ${chance}`);
      assert.equal(seen.size, max + 1, `${kind}: every damage value 0..max occurs`);
    }
  });

  it("offers the styles of the weapon and keeps a style across a switch when it can", function () {
    assert.deepEqual(stylesFor(undefined), ["accurate", "aggressive", "defensive", "controlled"]);
    assert.deepEqual(stylesFor(bow), ["accurate", "rapid", "longrange"]);
    assert.equal(checkStyle(bow, "rapid"), "rapid");
    assert.throws(() => checkStyle(sword, "rapid"), code("STYLE_NOT_AVAILABLE"));
    assert.throws(() => checkStyle(bow, "aggressive"), code("STYLE_NOT_AVAILABLE"));
    assert.throws(() => checkStyle(bow, "nonsense" as never), code("STYLE_NOT_AVAILABLE"));
    assert.equal(styleAfterSwitch(bow, "aggressive"), "accurate");
    assert.equal(styleAfterSwitch(sword, "rapid"), "accurate");
    assert.equal(styleAfterSwitch(sword, "defensive"), "defensive");
    assert.equal(styleAfterSwitch(bow, "accurate"), "accurate");
  });
});
