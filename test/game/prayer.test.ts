import assert from "node:assert/strict";
import { activatePrayer, boostedLevel, drainTick, prayerMultiplier, type PrayerState } from "../../src/game/prayer.js";
import type { PrayerDef } from "../../src/manifests/combat.js";
import { code } from "./fixtures.js";

const prayer = (id: string, level: number, drainEffect: number, bonuses: Record<string, number>, conflicts: string[] = []): PrayerDef => ({
  id,
  name: id,
  level,
  drainEffect,
  bonuses,
  conflicts,
});
const prayers = new Map<string, PrayerDef>(
  [
    prayer("thick_skin", 1, 1, { defenseMultiplier: 1.05 }, ["rock_skin"]),
    prayer("rock_skin", 10, 6, { defenseMultiplier: 1.1 }, ["thick_skin"]),
    prayer("burst_of_strength", 4, 1, { strengthMultiplier: 1.05 }),
    prayer("clarity_of_thought", 7, 1, { attackMultiplier: 1.05 }),
  ].map((p) => [p.id, p]),
);
const state = (points: number, active: string[] = []): PrayerState => ({ points, active: new Set(active), drain: 0 });

describe("prayer rules", () => {
  it("activating needs the level and points; a conflicting prayer goes off (either side naming the other)", () => {
    const s = state(10);
    assert.throws(() => activatePrayer(s, prayers, "rock_skin", 9), code("LEVEL_TOO_LOW"));
    assert.throws(() => activatePrayer(s, prayers, "smite", 99), code("UNKNOWN_PRAYER"));
    assert.deepEqual(activatePrayer(s, prayers, "thick_skin", 10), []);
    assert.deepEqual(activatePrayer(s, prayers, "burst_of_strength", 10), []);
    assert.deepEqual(activatePrayer(s, prayers, "rock_skin", 10), ["thick_skin"]);
    assert.deepEqual([...s.active].sort(), ["burst_of_strength", "rock_skin"]);
    assert.throws(() => activatePrayer(state(0), prayers, "thick_skin", 10), code("NO_PRAYER_POINTS"));
  });

  it("drain: a drain-1 prayer costs a point every 60 ticks at prayer bonus 0 (the first after 61), every 90 at bonus 15", () => {
    const s = state(10, ["thick_skin"]);
    const lostAt: number[] = [];
    for (let tick = 1; tick <= 181; tick++) if (drainTick(s, prayers, 0) > 0) lostAt.push(tick);
    assert.deepEqual(lostAt, [61, 121, 181]);
    assert.equal(s.points, 7);
    const geared = state(10, ["thick_skin"]);
    let lost = 0;
    for (let tick = 1; tick <= 91; tick++) lost += drainTick(geared, prayers, 15);
    assert.equal(lost, 1);
    assert.equal(drainTick(state(5), prayers, 0), 0, "nothing active: no drain");
  });

  it("drain adds up over the active prayers, and at 0 points every prayer goes off", () => {
    const s = state(1, ["rock_skin", "burst_of_strength", "clarity_of_thought"]);
    let ticks = 0;
    while (s.points > 0) {
      drainTick(s, prayers, 0);
      ticks++;
    }
    assert.equal(ticks, 8, "6 + 1 + 1 a tick passes 60 on the 8th tick");
    assert.equal(s.active.size, 0);
  });

  it("bonuses: the largest multiplier of the active prayers per skill, applied as floor(level x multiplier)", () => {
    assert.equal(prayerMultiplier(["thick_skin", "rock_skin"], prayers, "defenseMultiplier"), 1.1);
    assert.equal(prayerMultiplier([], prayers, "defenseMultiplier"), 1);
    assert.equal(boostedLevel(70, ["thick_skin"], prayers, "defenseMultiplier"), 73);
    assert.equal(boostedLevel(70, ["rock_skin"], prayers, "defenseMultiplier"), 77);
    assert.equal(boostedLevel(70, ["burst_of_strength"], prayers, "defenseMultiplier"), 70);
  });
});
