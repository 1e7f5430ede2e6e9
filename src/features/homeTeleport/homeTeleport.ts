import { GameError } from "../../game/types.js";
import { pvpAreaAt } from "../../game/world/areas.js";
import { inCombat } from "../../game/world/combatState.js";
import type { PlayerEntity } from "../../game/world/entities.js";
import type { World } from "../../game/world/World.js";
import { playerOf } from "../../game/world/worldCore.js";

/**
 * The home teleport: `player:homeTeleport` starts a cast of CAST_TICKS ticks (about 10 s), after
 * which the player stands on the world's spawn tile. Moving, any other order, or a blow taken
 * interrupts it. It may not be started in combat (IN_COMBAT), from a duel's arena or a PvP area of
 * difficulty DEEP_PVP_LEVEL or more (NO_TELEPORT_HERE), or within COOLDOWN_MS of the last one
 * that arrived (TELEPORT_COOLDOWN; the end is kept with the character, in wall-clock time, so a
 * logout does not shorten it).
 */
export const CAST_TICKS = 16;
export const COOLDOWN_MS = 30 * 60_000;
export const DEEP_PVP_LEVEL = 1;

export const HOME_TELEPORT_VARS = {
  /** When the next home teleport may be cast (epoch milliseconds; 0: now). Kept with the character, shown to its player. */
  homeTeleportReadyAt: { initial: 0, min: 0, max: Number.MAX_SAFE_INTEGER, saved: true, synced: true },
  /** The tick the cast under way lands on (0: none). Shown to its player; starts again at each login. */
  homeTeleportAtTick: { initial: 0, min: 0, max: Number.MAX_SAFE_INTEGER, synced: true },
};

/** `player:homeTeleport`: checked now, finished by the tick. */
export function startHomeTeleport(world: World, playerId: string) {
  const p = playerOf(world, playerId);
  if (p.inventoryFrozen) throw new GameError("PLAYER_UNAVAILABLE", "Wait until your trade or purchase is completed");
  if (inCombat(p, world.tick)) throw new GameError("IN_COMBAT", "You can't teleport during a fight; wait 10 seconds after it");
  if (world.engaged(p.id)) throw new GameError("NO_TELEPORT_HERE", "You can't teleport out of a duel");
  const wild = pvpAreaAt(world, p.tile);
  if (wild && wild.difficultyLevel >= DEEP_PVP_LEVEL) throw new GameError("NO_TELEPORT_HERE", `The magic of ${wild.name} is too strong to teleport out of`);
  const left = (p.vars.homeTeleportReadyAt as number) - world.now();
  if (left > 0) throw new GameError("TELEPORT_COOLDOWN", `You can cast the home teleport again in ${minutesAndSeconds(left)}`);
  p.path = [];
  p.action = null;
  p.vars.homeTeleportAtTick = world.tick + CAST_TICKS;
  world.markChanged("player", p.id);
  world.touchPlayer(p);
  world.events.push({ kind: "notice", playerId: p.id, code: "HOME_TELEPORT_STARTED", message: "You begin the home teleport..." });
}

/** Each tick: a cast under way is interrupted, or after CAST_TICKS arrives. */
export function tickHomeTeleport(world: World, p: PlayerEntity) {
  const at = p.vars.homeTeleportAtTick as number;
  if (!at) return;
  if (p.action || p.path.length > 0 || p.lastHitTick > at - CAST_TICKS) {
    p.vars.homeTeleportAtTick = 0;
    world.touchPlayer(p);
    world.events.push({ kind: "notice", playerId: p.id, code: "HOME_TELEPORT_INTERRUPTED", message: "Your home teleport was interrupted" });
    return;
  }
  if (world.tick < at) return;
  p.vars.homeTeleportAtTick = 0;
  p.vars.homeTeleportReadyAt = world.now() + COOLDOWN_MS;
  p.tile = { ...world.spawnTile };
  world.place("player", p.id, p.tile);
  world.touchPlayer(p, true);
  world.events.push({ kind: "notice", playerId: p.id, code: "HOME_TELEPORTED", message: "You arrive home" });
}

function minutesAndSeconds(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}
