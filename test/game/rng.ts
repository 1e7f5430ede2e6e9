/**
 * Deterministic randomness for the game tests: the game's own seeded generator, and a generator
 * that replays fixed values.
 */
import type { Rng } from "../../src/game/types.js";

export { seededRng } from "../../src/game/random.js";

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
