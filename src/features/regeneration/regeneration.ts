import { prayerMultiplier } from "../../game/prayer.js";
import { HEALTH_PER_LEVEL, maxHealth } from "../../game/skills.js";
import type { PlayerEntity } from "../../game/world/entities.js";
import type { World } from "../../game/world/World.js";

/**
 * Health regeneration, as the game does it: a living player below its maximum health gets one
 * hitpoint (HEALTH_PER_LEVEL life points) back every REGEN_TICKS ticks (60 s), in a fight or out of
 * one. An active prayer with a `healthRegenMultiplier` bonus (the default world's Mending Breath:
 * 2) makes the wait that many times shorter. The count restarts once health is full.
 */
export const REGEN_TICKS = 100;

/** The prayers.json bonus that speeds regeneration up. */
export const REGEN_BONUS = "healthRegenMultiplier";

export const REGEN_VARS = {
  /** Ticks counted towards the next hitpoint (times the prayer's multiplier); starts again at each login. */
  regenCount: { initial: 0, min: 0, max: REGEN_TICKS * 100 },
};

export function regenerate(world: World, p: PlayerEntity) {
  const max = maxHealth(p.levels.constitution);
  if (p.health >= max) {
    if (p.vars.regenCount !== 0) p.vars.regenCount = 0;
    return;
  }
  const count = (p.vars.regenCount as number) + prayerMultiplier(p.prayer.active, world.data.prayers, REGEN_BONUS);
  if (count < REGEN_TICKS) {
    p.vars.regenCount = count;
    return;
  }
  p.vars.regenCount = count - REGEN_TICKS;
  p.health = Math.min(max, p.health + HEALTH_PER_LEVEL);
  world.touchPlayer(p, true);
}
