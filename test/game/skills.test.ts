import assert from "node:assert/strict";
import { addXp, combatLevel, defaultSkillXp, levelForXp, MAX_XP, maxHealth, skillLevels, xpForLevel } from "../../src/game/skills.js";
import { SKILLS, type SkillName } from "../../src/game/types.js";
import { code } from "./fixtures.js";

describe("game/skills", function () {
  it("xpForLevel matches the RuneScape table", function () {
    assert.equal(xpForLevel(1), 0);
    assert.equal(xpForLevel(2), 83);
    assert.equal(xpForLevel(3), 174);
    assert.equal(xpForLevel(10), 1154);
    assert.equal(xpForLevel(50), 101333);
    assert.equal(xpForLevel(92), 6517253);
    assert.equal(xpForLevel(99), 13034431);
    for (let l = 2; l <= 99; l++) assert.ok(xpForLevel(l) > xpForLevel(l - 1));
  });

  it("xpForLevel refuses levels outside 1..99", function () {
    for (const bad of [0, 100, 1.5, NaN, Infinity, -1]) assert.throws(() => xpForLevel(bad), code("INVALID_LEVEL"));
  });

  it("levelForXp at the boundaries", function () {
    assert.equal(levelForXp(0), 1);
    assert.equal(levelForXp(82), 1);
    assert.equal(levelForXp(83), 2);
    assert.equal(levelForXp(1153), 9);
    assert.equal(levelForXp(1154), 10);
    assert.equal(levelForXp(13034430), 98);
    assert.equal(levelForXp(13034431), 99);
    assert.equal(levelForXp(MAX_XP), 99);
    for (let l = 1; l <= 99; l++) assert.equal(levelForXp(xpForLevel(l)), l);
  });

  it("levelForXp clamps what is out of range", function () {
    assert.equal(levelForXp(-500), 1);
    assert.equal(levelForXp(NaN), 1);
    assert.equal(levelForXp(Infinity), 99);
    assert.equal(levelForXp(-Infinity), 1);
    assert.equal(levelForXp(1e12), 99);
  });

  it("defaultSkillXp: all 0 except constitution level 10", function () {
    const xp = defaultSkillXp();
    assert.deepEqual(Object.keys(xp).sort(), [...SKILLS].sort());
    for (const s of SKILLS) assert.equal(xp[s], s === "constitution" ? 1154 : 0);
    const levels = skillLevels(xp);
    for (const s of SKILLS) assert.equal(levels[s], s === "constitution" ? 10 : 1);
    assert.notEqual(defaultSkillXp(), defaultSkillXp(), "a fresh object each time");
  });

  it("combat level: fresh character 3, maxed 126, and a few mixes", function () {
    assert.equal(combatLevel(skillLevels(defaultSkillXp())), 3);
    assert.equal(combatLevel({ attack: 1, strength: 1, defense: 1, constitution: 10, prayer: 1, ranged: 1, magic: 1 }), 3);
    assert.equal(combatLevel({ attack: 99, strength: 99, defense: 99, constitution: 99, prayer: 99, ranged: 99, magic: 99 }), 126);
    // Pure ranger: base 0.25 * (1 + 10 + 0) = 2.75, range 0.325 * floor(3 * 99 / 2) = 0.325 * 148 = 48.1.
    assert.equal(combatLevel({ attack: 1, strength: 1, defense: 1, constitution: 10, prayer: 1, ranged: 99, magic: 1 }), 50);
    // 40/40/40/40, prayer 1: base 0.25 * 80 = 20, melee 0.325 * 80 = 26 -> 46 exactly.
    assert.equal(combatLevel({ attack: 40, strength: 40, defense: 40, constitution: 40, prayer: 1, ranged: 1, magic: 1 }), 46);
    // floor(prayer / 2): 0.25 * (3 + 10 + 0) + 0.65 = 3.9, not 0.25 * 13.5 + 0.65 = 4.025.
    assert.equal(combatLevel({ attack: 1, strength: 1, defense: 3, constitution: 10, prayer: 1, ranged: 1, magic: 1 }), 3);
    assert.equal(combatLevel({ attack: 1, strength: 1, defense: 3, constitution: 10, prayer: 2, ranged: 1, magic: 1 }), 4);
    assert.equal(combatLevel({}), 3, "missing levels count as a new character's");
  });

  it("addXp returns a new object and detects level-ups", function () {
    const xp = defaultSkillXp();
    const copy = structuredClone(xp);
    const r = addXp(xp, "woodcutting", 83);
    assert.deepEqual(xp, copy, "input unchanged");
    assert.equal(r.xp.woodcutting, 83);
    assert.equal(r.gained, 83);
    assert.equal(r.oldLevel, 1);
    assert.equal(r.newLevel, 2);
    assert.equal(r.leveledUp, true);
    const r2 = addXp(r.xp, "woodcutting", 10);
    assert.equal(r2.leveledUp, false);
    assert.equal(r2.newLevel, 2);
    assert.equal(r2.xp.woodcutting, 93);
    assert.equal(r2.xp.attack, 0);
    const many = addXp(xp, "attack", 13034431);
    assert.deepEqual([many.oldLevel, many.newLevel, many.leveledUp], [1, 99, true]);
  });

  it("addXp rounds fractional awards to whole points and allows 0", function () {
    const xp = defaultSkillXp();
    assert.equal(addXp(xp, "firemaking", 157.5).xp.firemaking, 158);
    assert.equal(addXp(xp, "firemaking", 303.4).xp.firemaking, 303);
    const zero = addXp(xp, "firemaking", 0);
    assert.equal(zero.gained, 0);
    assert.equal(zero.leveledUp, false);
  });

  it("addXp caps at MAX_XP", function () {
    const xp = { ...defaultSkillXp(), mining: MAX_XP - 10 };
    const r = addXp(xp, "mining", 1000);
    assert.equal(r.xp.mining, MAX_XP);
    assert.equal(r.gained, 10);
    const r2 = addXp(r.xp, "mining", 5);
    assert.equal(r2.xp.mining, MAX_XP);
    assert.equal(r2.gained, 0);
    assert.equal(r2.leveledUp, false);
  });

  it("addXp refuses bad amounts and unknown skills, leaving the input alone", function () {
    const xp = defaultSkillXp();
    const copy = structuredClone(xp);
    for (const bad of [-1, NaN, Infinity, -Infinity]) assert.throws(() => addXp(xp, "attack", bad), code("INVALID_XP"));
    assert.throws(() => addXp(xp, "slayer" as SkillName, 10), code("UNKNOWN_SKILL"));
    assert.throws(() => addXp(xp, "attack", "5" as unknown as number), code("INVALID_XP"));
    assert.deepEqual(xp, copy);
  });

  it("maxHealth is 10 per constitution level", function () {
    assert.equal(maxHealth(10), 100);
    assert.equal(maxHealth(1), 10);
    assert.equal(maxHealth(99), 990);
    for (const bad of [0, 100, 9.5, NaN]) assert.throws(() => maxHealth(bad), code("INVALID_LEVEL"));
  });
});
