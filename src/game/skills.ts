/**
 * Skills and experience: the RuneScape experience table (levels 1-99), levels derived from XP,
 * the combat level formula and health points.
 *
 * XP is kept in whole numbers (the database stores it as integers): fractional awards such as
 * 157.5 are rounded to the nearest whole point when added.
 */
import { GameError, SKILLS, type SkillName, type SkillXp } from "./types.js";

export const MIN_LEVEL = 1;
export const MAX_LEVEL = 99;
export const MAX_XP = 200_000_000;

/**
 * XP_TABLE[L] is the experience needed for level L (index 0 unused):
 * floor( sum_{n=1}^{L-1} floor(n + 300 * 2^(n/7)) / 4 ).
 */
const XP_TABLE: readonly number[] = (() => {
  const table = [0, 0];
  let points = 0;
  for (let level = 2; level <= MAX_LEVEL; level++) {
    const n = level - 1;
    points += Math.floor(n + 300 * Math.pow(2, n / 7));
    table.push(Math.floor(points / 4));
  }
  return table;
})();

/** Throws INVALID_LEVEL unless `level` is a whole number in 1..99. */
export function assertLevel(level: number): void {
  if (!Number.isInteger(level) || level < MIN_LEVEL || level > MAX_LEVEL) {
    throw new GameError("INVALID_LEVEL", `level must be a whole number from ${MIN_LEVEL} to ${MAX_LEVEL} (got ${level})`);
  }
}

export function isSkillName(name: unknown): name is SkillName {
  return typeof name === "string" && (SKILLS as readonly string[]).includes(name);
}

/** The experience at which `level` starts (1 -> 0, 2 -> 83, 99 -> 13 034 431). */
export function xpForLevel(level: number): number {
  assertLevel(level);
  return XP_TABLE[level]!;
}

/** XP forced into 0..MAX_XP; anything that is not a number counts as 0. */
export function clampXp(xp: number): number {
  if (Number.isNaN(xp)) return 0;
  return Math.min(MAX_XP, Math.max(0, xp));
}

/** The level reached with `xp` experience, 1..99. */
export function levelForXp(xp: number): number {
  const value = clampXp(xp);
  // Largest level whose threshold is <= value (binary search over the table).
  let lo = MIN_LEVEL;
  let hi = MAX_LEVEL;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (XP_TABLE[mid]! <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A new character: every skill at 0 XP except constitution, which starts at level 10. */
export function defaultSkillXp(): SkillXp {
  const xp = {} as SkillXp;
  for (const skill of SKILLS) xp[skill] = 0;
  xp.constitution = XP_TABLE[10]!;
  return xp;
}

export function skillLevels(xp: SkillXp): Record<SkillName, number> {
  const levels = {} as Record<SkillName, number>;
  for (const skill of SKILLS) levels[skill] = levelForXp(xp[skill] ?? 0);
  return levels;
}

export type CombatLevels = Pick<Record<SkillName, number>, "attack" | "strength" | "defense" | "constitution" | "ranged" | "prayer" | "magic">;

/**
 * RuneScape combat level:
 *   base  = 0.25 * (defense + constitution + floor(prayer / 2))
 *   melee = 0.325 * (attack + strength)
 *   range = 0.325 * floor(3 * ranged / 2)
 *   mage  = 0.325 * floor(3 * magic / 2)
 *   level = floor(base + max(melee, range, mage))
 * A new character (all 1, constitution 10) is 3; all 99 is 126.
 */
export function combatLevel(levels: Partial<CombatLevels>): number {
  const lv = (skill: keyof CombatLevels, fallback: number): number => {
    const v = levels[skill];
    return typeof v === "number" && Number.isFinite(v) ? v : fallback;
  };
  const base = 0.25 * (lv("defense", 1) + lv("constitution", 10) + Math.floor(lv("prayer", 1) / 2));
  const melee = 0.325 * (lv("attack", 1) + lv("strength", 1));
  const range = 0.325 * Math.floor((3 * lv("ranged", 1)) / 2);
  const mage = 0.325 * Math.floor((3 * lv("magic", 1)) / 2);
  // The small epsilon keeps products like 0.325 * 40 from landing just under a whole number.
  return Math.floor(base + Math.max(melee, range, mage) + 1e-9);
}

export interface XpGain {
  /** A new object; the input is not changed. */
  xp: SkillXp;
  /** XP actually added (0 at the cap). */
  gained: number;
  oldLevel: number;
  newLevel: number;
  leveledUp: boolean;
}

/** Add experience to one skill, capped at MAX_XP. `amount` must be finite and >= 0. */
export function addXp(xp: SkillXp, skill: SkillName, amount: number): XpGain {
  if (!isSkillName(skill)) throw new GameError("UNKNOWN_SKILL", `unknown skill: ${String(skill)}`);
  if (typeof amount !== "number" || !Number.isFinite(amount) || amount < 0) {
    throw new GameError("INVALID_XP", `xp amount must be a finite number >= 0 (got ${amount})`);
  }
  const before = Math.round(clampXp(xp[skill] ?? 0));
  const after = Math.min(MAX_XP, Math.round(before + amount));
  const oldLevel = levelForXp(before);
  const newLevel = levelForXp(after);
  return {
    xp: { ...xp, [skill]: after },
    gained: after - before,
    oldLevel,
    newLevel,
    leveledUp: newLevel > oldLevel,
  };
}

/**
 * Players count health in life points: HEALTH_PER_LEVEL per constitution level (a level-10
 * character has 100). The game data counts npc health, hits and food in hitpoints (a goblin has
 * 5, a shrimp heals 3), so whatever reaches a player's health is scaled by the same factor.
 */
export const HEALTH_PER_LEVEL = 10;

/** Life points for a constitution level. */
export function maxHealth(constitutionLevel: number): number {
  assertLevel(constitutionLevel);
  return constitutionLevel * HEALTH_PER_LEVEL;
}
