/** Small helpers shared by the record builders. */

import { TICK_MS } from "../protocol/vocabulary.js";

/** null and undefined both mean "absent". */
export function def<T>(value: T | null | undefined): T | undefined {
  return value === null ? undefined : value;
}

/** Milliseconds to whole ticks (at least `min`). */
export function msToTicks(ms: number, min = 0): number {
  return Math.max(min, Math.round(ms / TICK_MS));
}

/** Skill names as the server uses them: lower case, American "defense". */
export function normalizeSkillName(name: string): string {
  const lower = name.trim().toLowerCase();
  return lower === "defence" ? "defense" : lower;
}
