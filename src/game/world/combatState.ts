import type { PlayerEntity } from "./entities.js";
import type { PlayerVarDef } from "./playerVars.js";

/**
 * The fighting's own player variables. `autoRetaliate` (on unless its player turns it off with
 * `player:setting`, kept with the character): a player hit while idle fights back.
 */
export const COMBAT_VARS = {
  autoRetaliate: { initial: true, saved: true, synced: true, settable: true },
} as const satisfies Record<string, PlayerVarDef>;

/** Ticks after a blow given or taken during which a player counts as in combat (10 seconds, as the game's logout rule). */
export const IN_COMBAT_TICKS = 17;

/** Has the player given or taken a blow in the last IN_COMBAT_TICKS ticks? */
export const inCombat = (p: PlayerEntity, tick: number) => tick - Math.max(p.lastHitTick, p.lastAttackTick) < IN_COMBAT_TICKS;

/** A player hit while idle fights back, unless its player turned auto-retaliate off. */
export function retaliate(p: PlayerEntity, attackerId: string) {
  if (p.vars.autoRetaliate !== false && !p.action && p.path.length === 0) p.action = { type: "attack", targetId: attackerId };
}
