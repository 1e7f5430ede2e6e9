import assert from "node:assert/strict";
import { checkCast, magicAttackRoll, magicXpForCast, runesNeeded, spellMaxHit } from "../../src/game/magic.js";
import type { SpellDef } from "../../src/manifests/combat.js";
import { code, inv } from "./fixtures.js";

const windStrike: SpellDef = {
  id: "wind_strike",
  name: "Wind Strike",
  book: "standard",
  tier: "strike",
  level: 1,
  baseMaxHit: 2,
  baseXp: 5.5,
  element: "air",
  attackSpeed: 5,
  runes: [
    { runeId: "air_rune", quantity: 1 },
    { runeId: "mind_rune", quantity: 1 },
  ],
};
const earthBolt: SpellDef = {
  id: "earth_bolt",
  name: "Earth Bolt",
  book: "standard",
  tier: "bolt",
  level: 29,
  baseMaxHit: 11,
  baseXp: 19.5,
  element: "earth",
  attackSpeed: 5,
  runes: [
    { runeId: "air_rune", quantity: 2 },
    { runeId: "earth_rune", quantity: 3 },
    { runeId: "chaos_rune", quantity: 1 },
  ],
};

describe("magic rules", () => {
  it("a cast needs the level and every rune the staff does not provide", () => {
    const pack = inv({ 0: ["air_rune", 5], 1: ["mind_rune", 1] });
    assert.deepEqual(checkCast(windStrike, 1, pack, []), windStrike.runes);
    assert.throws(() => checkCast(earthBolt, 28, pack, []), code("LEVEL_TOO_LOW"));
    assert.throws(() => checkCast(windStrike, 1, inv({ 0: ["air_rune", 5] }), []), code("NO_RUNES"));
    // A staff of air stands in for the air runes.
    assert.deepEqual(runesNeeded(windStrike, ["air_rune"]), [{ runeId: "mind_rune", quantity: 1 }]);
    assert.deepEqual(checkCast(windStrike, 1, inv({ 0: ["mind_rune", 1] }), ["air_rune"]), [{ runeId: "mind_rune", quantity: 1 }]);
    assert.throws(() => checkCast(earthBolt, 29, inv({ 0: ["air_rune", 2], 1: ["earth_rune", 2], 2: ["chaos_rune", 1] }), []), code("NO_RUNES"));
  });

  it("attack roll and max hit (known values)", () => {
    assert.equal(magicAttackRoll(1, 0), 9 * 64);
    assert.equal(magicAttackRoll(50, 10, "accurate"), 61 * 74);
    assert.equal(spellMaxHit(windStrike), 2);
    assert.equal(spellMaxHit(earthBolt, 10), 12, "11 x 1.10, floored");
    assert.equal(spellMaxHit(earthBolt, -5), 11, "no negative bonus");
  });

  it("xp: the base per cast, plus 2 per damage to magic and 4/3 to constitution; a splash gives the base alone", () => {
    assert.deepEqual(magicXpForCast(windStrike, 2), { magic: 9.5, constitution: 2.7 });
    assert.deepEqual(magicXpForCast(windStrike, 0), { magic: 5.5 });
    assert.deepEqual(magicXpForCast(earthBolt, 11), { magic: 41.5, constitution: 14.7 });
  });
});
