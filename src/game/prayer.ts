/**
 * Prayer, pure (prayers.json): prayer points, which prayers may be active together, how fast the
 * active ones drain the points, and what they add to the combat formulas. The old-school rules the
 * community documents:
 *
 *   points          = the prayer level (restored in full at an altar)
 *   drain           = each tick, a counter grows by the sum of the active prayers' `drainEffect`;
 *                     every time it passes the resistance (60 + 2 x the equipment's prayer bonus)
 *                     one point is lost and the resistance is taken off the counter
 *   level bonus     = floor(level x multiplier), the largest multiplier of the active prayers per skill
 *
 * Turning a prayer on turns off the active ones it conflicts with (its `conflicts`, or theirs naming it).
 */
import type { PrayerDef } from "../manifests/combat.js";
import { GameError } from "./types.js";

/** The base resistance to drain, before twice the equipment's prayer bonus. */
export const DRAIN_RESISTANCE_BASE = 60;

export interface PrayerState {
  points: number;
  active: Set<string>;
  /** The drain counter carried from tick to tick. */
  drain: number;
}

/**
 * Turn a prayer on: the level is needed (LEVEL_TOO_LOW), and points (NO_PRAYER_POINTS). Returns the
 * prayers it turned off.
 */
export function activatePrayer(state: PrayerState, prayers: ReadonlyMap<string, PrayerDef>, id: string, prayerLevel: number): string[] {
  const prayer = prayers.get(id);
  if (!prayer) throw new GameError("UNKNOWN_PRAYER", `There is no prayer called ${id}`);
  if (prayerLevel < prayer.level) throw new GameError("LEVEL_TOO_LOW", `You need level ${prayer.level} prayer to use ${prayer.name}`);
  if (state.points <= 0) throw new GameError("NO_PRAYER_POINTS", "You have run out of prayer points; recharge at an altar");
  const off: string[] = [];
  for (const other of [...state.active]) {
    const them = prayers.get(other);
    if (other !== id && (prayer.conflicts.includes(other) || them?.conflicts.includes(id))) {
      state.active.delete(other);
      off.push(other);
    }
  }
  state.active.add(id);
  return off;
}

/** One tick of drain. Returns the points lost; at 0 points every prayer goes off. */
export function drainTick(state: PrayerState, prayers: ReadonlyMap<string, PrayerDef>, prayerBonus: number): number {
  if (state.active.size === 0) return 0;
  let rate = 0;
  for (const id of state.active) rate += prayers.get(id)?.drainEffect ?? 0;
  const resistance = DRAIN_RESISTANCE_BASE + 2 * Math.max(0, prayerBonus);
  state.drain += rate;
  let lost = 0;
  while (state.drain > resistance && state.points > 0) {
    state.drain -= resistance;
    state.points--;
    lost++;
  }
  if (state.points <= 0) {
    state.points = 0;
    state.active.clear();
    state.drain = 0;
  }
  return lost;
}

/**
 * The largest multiplier of a bonus (e.g. "attackMultiplier", or any of several names the data may
 * use for it) among the active prayers; 1 without one.
 */
export function prayerMultiplier(active: Iterable<string>, prayers: ReadonlyMap<string, PrayerDef>, bonus: string | readonly string[]): number {
  const names = typeof bonus === "string" ? [bonus] : bonus;
  let best = 1;
  for (const id of active) {
    for (const name of names) {
      const m = prayers.get(id)?.bonuses[name];
      if (typeof m === "number" && m > best) best = m;
    }
  }
  return best;
}

/** A level as the combat formulas see it under the active prayers: floor(level x multiplier). */
export function boostedLevel(level: number, active: Iterable<string>, prayers: ReadonlyMap<string, PrayerDef>, bonus: string | readonly string[]): number {
  return Math.floor(level * prayerMultiplier(active, prayers, bonus));
}
