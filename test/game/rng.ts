/**
 * Deterministic randomness for the game tests: a small seeded generator (mulberry32) and a
 * generator that replays fixed values.
 */
import type { Rng } from "../../src/game/types.js";

/** A seeded generator of numbers in [0, 1): the same seed gives the same sequence. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Replays `values` in order, then fails the test if asked for more. */
export function fixedRng(...values: number[]): Rng & { used: () => number } {
  let i = 0;
  const rng = (() => {
    if (i >= values.length) throw new Error(`fixedRng: asked for value #${i + 1}, only ${values.length} given`);
    return values[i++]!;
  }) as Rng & { used: () => number };
  rng.used = () => i;
  return rng;
}
