/**
 * Randomness for game rules. Rules never call Math.random themselves: they take an `Rng`
 * (Math.random in play, `seededRng` in tests and replays) so every outcome can be reproduced.
 */
import { GameError, type Rng } from "./types.js";

/**
 * A small deterministic generator (mulberry32): 32 bits of state, uniform in [0, 1).
 * The seed is reduced to an unsigned 32-bit integer, so any number gives a stable sequence.
 */
export function seededRng(seed: number): Rng {
  let state = (Number.isFinite(seed) ? Math.trunc(seed) : 0) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One draw, forced into [0, 1) so a misbehaving source cannot push a roll out of range. */
function draw(rng: Rng): number {
  const r = rng();
  if (!Number.isFinite(r) || r < 0) return 0;
  return r >= 1 ? 1 - Number.EPSILON : r;
}

/** A whole number in [min, max], both inclusive. One draw. */
export function randomInt(rng: Rng, min: number, max: number): number {
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max) {
    throw new GameError("INVALID_RANGE", `randomInt needs whole numbers min <= max (got ${min}, ${max})`);
  }
  return min + Math.floor(draw(rng) * (max - min + 1));
}

/**
 * True with probability p (0..1). Always takes exactly one draw, whatever p is, so a
 * sequence of rolls stays aligned when probabilities change.
 */
export function chance(rng: Rng, p: number): boolean {
  if (Number.isNaN(p)) throw new GameError("INVALID_PROBABILITY", "probability must be a number");
  const r = draw(rng);
  if (p <= 0) return false;
  if (p >= 1) return true;
  return r < p;
}
