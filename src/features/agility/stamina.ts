import type { PlayerEntity } from "../../game/world/entities.js";
import type { World } from "../../game/world/World.js";

/**
 * Run energy (`vars.runEnergy`, in hundredths of a percent: 10000 is full), as the game does it:
 * each tick spent running drains 64 + the weight carried and worn (kg, up to 64) units; each tick
 * not running (walking or standing) restores RESTORE_UNITS x (1 + agility level / 100) units (the
 * skill unlocks' "+1% per level"). At 0 the player walks (`running` off, notice OUT_OF_RUN_ENERGY).
 * Kept with the character; `player:sync` carries it each time it passes a 5% step.
 */
export const FULL_ENERGY = 10_000;
export const RESTORE_UNITS = 20;
const STEP = 500;

export const STAMINA_VARS = {
  runEnergy: { initial: FULL_ENERGY, min: 0, max: FULL_ENERGY, saved: true, synced: true },
};

/** The weight a player carries and wears, in kg. */
export function carriedWeight(world: World, p: PlayerEntity): number {
  let kg = 0;
  for (const s of p.inventory) {
    const def = s && world.data.items.get(s.itemId);
    // A stack (coins, arrows) weighs nothing, as in the game.
    if (def && !def.stackable) kg += (def.weight ?? 0) * s!.quantity;
  }
  for (const s of Object.values(p.equipment)) if (s) kg += world.data.items.get(s.itemId)?.weight ?? 0;
  return kg;
}

export const drainPerTick = (kg: number) => 64 + Math.min(64, Math.max(0, Math.floor(kg)));
export const restorePerTick = (agility: number) => Math.round(RESTORE_UNITS * (1 + agility / 100));

export function tickStamina(world: World, p: PlayerEntity) {
  const was = p.vars.runEnergy as number;
  let now = was;
  if (p.running && p.path.length > 0) {
    if (was <= 0) {
      p.running = false;
      world.events.push({
        kind: "notice",
        playerId: p.id,
        code: "OUT_OF_RUN_ENERGY",
        message: "You are out of run energy: you walk until you get your breath back",
      });
      world.touchPlayer(p);
      return;
    }
    now = Math.max(0, was - drainPerTick(carriedWeight(world, p)));
  } else if (was < FULL_ENERGY) {
    now = Math.min(FULL_ENERGY, was + restorePerTick(p.levels.agility));
  }
  if (now === was) return;
  p.vars.runEnergy = now;
  if (Math.floor(now / STEP) !== Math.floor(was / STEP) || now === 0 || now === FULL_ENERGY) world.touchPlayer(p);
}
