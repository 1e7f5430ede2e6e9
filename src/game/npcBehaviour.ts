/**
 * What an npc does this tick: pure decisions the world loop asks for, then applies.
 *
 * Each tick the loop calls `decideNpcAction` for every live npc, applies the result with
 * `applyNpcAction` (or its own equivalent) and resolves attacks with combat.ts. Rules:
 *
 * - Dead npcs (deadUntilTick set) idle until `respawnDue`.
 * - Leash: when the target (or the npc itself) is more than `leashRange` tiles from the spawn, the
 *   npc drops the target and walks home ("return"), ignoring everyone until it gets there.
 * - Retaliation: the loop records the last player that hit the npc in `lastAttackerId`; an npc with
 *   no target and `combat.retaliates` takes that player as its target. The hint is consumed by
 *   `applyNpcAction`. An npc already fighting keeps its target.
 * - Aggression (RuneScape's rule): an aggressive npc with no target picks the nearest living player
 *   within `aggroRange` whose combat level is at most twice the npc's level (players above double its
 *   level are ignored) and who stands within the leash range of the spawn.
 * - Chase: one tile per tick, straight towards the target (diagonal first, then along x, then along z;
 *   no corner cutting). Npcs do not path around obstacles, so they can be stuck behind one, as in
 *   RuneScape.
 * - Attack: when 1 <= Chebyshev distance <= combatRange and attackSpeedTicks have passed since the
 *   last attack; in range but cooling down, it holds (idle, keeping the target). Standing on the
 *   target's tile, it first steps off.
 * - Without a target an npc away from its wander area walks home; otherwise a wandering npc picks a
 *   random tile within `wanderRadius` of its spawn now and then (WANDER_CHANCE per idle tick) and
 *   walks there one tile per tick.
 */
import type { NpcDef } from "../manifests/gameData.js";
import { chebyshev } from "./movement.js";
import { canStep, findPath } from "./pathfinding.js";
import type { TileMap } from "./tileMap.js";
import type { Rng, Tile } from "./types.js";

/** Respawn delay when the data gives none. */
export const RESPAWN_DEFAULT_TICKS = 25;
/** Chance per idle tick that a wandering npc sets off for a new spot. */
export const WANDER_CHANCE = 0.1;
/** Node budget of the path search used when a homeward npc is stuck behind an obstacle. */
export const RETURN_PATH_NODES = 400;

export interface NpcInstance {
  id: string;
  defId: string;
  position: Tile;
  spawn: Tile;
  health: number;
  /** The player being fought. */
  target?: string | null;
  lastAttackTick: number;
  /** Set while dead: the tick the npc comes back. */
  deadUntilTick?: number | null;
  /** The last player that hit this npc since the previous decision (set by the world loop). */
  lastAttackerId?: string | null;
  /** Walking home after a leash: ignores players until it reaches its spawn. */
  returning?: boolean;
  /** Where a wandering npc is heading. */
  wanderTo?: Tile | null;
}

export interface NearbyPlayer {
  id: string;
  position: Tile;
  combatLevel: number;
  dead: boolean;
}

/**
 * The decision. After applying it the npc's target is `targetId` (none when absent); "move" and
 * "return" carry the one tile to step onto this tick.
 */
export type NpcAction =
  | { type: "idle"; targetId?: string }
  | { type: "move"; to: Tile; targetId?: string; wanderTo?: Tile }
  | { type: "attack"; targetId: string }
  | { type: "return"; to: Tile };

export interface NpcEnvironment {
  map: TileMap;
  rng: Rng;
}

const sign = (n: number) => (n > 0 ? 1 : n < 0 ? -1 : 0);
const same = (a: Tile, b: Tile) => a.x === b.x && a.z === b.z;

/** One greedy step from `from` towards `to`: diagonal, else along x, else along z; null when stuck. */
export function stepToward(map: TileMap, from: Tile, to: Tile): Tile | null {
  const dx = sign(to.x - from.x);
  const dz = sign(to.z - from.z);
  const tries: Array<[number, number]> = [];
  if (dx !== 0 && dz !== 0) tries.push([dx, dz]);
  if (dx !== 0) tries.push([dx, 0]);
  if (dz !== 0) tries.push([0, dz]);
  for (const [sx, sz] of tries) {
    if (canStep(map, from.x, from.z, sx, sz)) return { x: from.x + sx, z: from.z + sz };
  }
  return null;
}

/** RuneScape's aggression rule: ignore players above double the npc's level. */
export function isAggressiveTowards(def: Pick<NpcDef, "level" | "combat">, player: NearbyPlayer): boolean {
  return def.combat.aggressive && !player.dead && player.combatLevel <= 2 * def.level;
}

export function decideNpcAction(npc: NpcInstance, def: NpcDef, players: readonly NearbyPlayer[], tick: number, env: NpcEnvironment): NpcAction {
  if (npc.deadUntilTick != null) return { type: "idle" };
  if (npc.returning && !same(npc.position, npc.spawn)) return returnHome(npc, env.map);

  const leash = def.combat.leashRange;
  if (def.combat.attackable) {
    let target = aliveAmong(players, npc.target);
    if (!target && def.combat.retaliates) {
      const attacker = aliveAmong(players, npc.lastAttackerId);
      if (attacker && chebyshev(attacker.position, npc.spawn) <= leash) target = attacker;
    }
    if (!target && def.combat.aggressive && def.combat.aggroRange > 0) target = nearestVictim(npc, def, players);
    if (target) return fight(npc, def, target, tick, env.map);
  }

  if (chebyshev(npc.position, npc.spawn) > Math.max(0, def.movement.wanderRadius)) return returnHome(npc, env.map);
  return wander(npc, def, env);
}

/** The player of that id among those nearby, if it is alive. */
function aliveAmong(players: readonly NearbyPlayer[], id: string | null | undefined): NearbyPlayer | undefined {
  if (!id) return undefined;
  for (const p of players) if (p.id === id && !p.dead) return p;
  return undefined;
}

function nearestVictim(npc: NpcInstance, def: NpcDef, players: readonly NearbyPlayer[]): NearbyPlayer | undefined {
  let best: NearbyPlayer | undefined;
  let bestDistance = Infinity;
  for (const p of players) {
    if (!isAggressiveTowards(def, p)) continue;
    const d = chebyshev(npc.position, p.position);
    if (d > def.combat.aggroRange || chebyshev(p.position, npc.spawn) > def.combat.leashRange) continue;
    if (d < bestDistance || (d === bestDistance && best !== undefined && p.id < best.id)) {
      best = p;
      bestDistance = d;
    }
  }
  return best;
}

function fight(npc: NpcInstance, def: NpcDef, target: NearbyPlayer, tick: number, map: TileMap): NpcAction {
  const { leashRange, combatRange, attackSpeedTicks } = def.combat;
  if (chebyshev(target.position, npc.spawn) > leashRange || chebyshev(npc.position, npc.spawn) > leashRange) {
    return returnHome(npc, map);
  }
  const targetId = target.id;
  const d = chebyshev(npc.position, target.position);
  if (d === 0) {
    for (const [dx, dz] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ] as const) {
      if (canStep(map, npc.position.x, npc.position.z, dx, dz)) {
        return { type: "move", to: { x: npc.position.x + dx, z: npc.position.z + dz }, targetId };
      }
    }
    return { type: "idle", targetId };
  }
  if (d <= Math.max(1, combatRange)) {
    return tick - npc.lastAttackTick >= attackSpeedTicks ? { type: "attack", targetId } : { type: "idle", targetId };
  }
  // Both ends lie within the leash square, so a step towards the target stays inside it.
  const step = stepToward(map, npc.position, target.position);
  if (!step) return { type: "idle", targetId };
  return { type: "move", to: step, targetId };
}

/** One step home: greedy, else along a short searched path, else straight back onto the spawn tile. */
function returnHome(npc: NpcInstance, map: TileMap): NpcAction {
  if (same(npc.position, npc.spawn)) return { type: "idle" };
  const step = stepToward(map, npc.position, npc.spawn);
  if (step) return { type: "return", to: step };
  const path = findPath(map, npc.position, npc.spawn, { maxNodes: RETURN_PATH_NODES });
  return { type: "return", to: path?.[0] ?? { x: npc.spawn.x, z: npc.spawn.z } };
}

function wander(npc: NpcInstance, def: NpcDef, env: NpcEnvironment): NpcAction {
  const radius = Math.floor(def.movement.wanderRadius);
  if (def.movement.type === "stationary" || radius <= 0) return { type: "idle" };
  let goal = npc.wanderTo ?? undefined;
  if (goal && same(goal, npc.position)) goal = undefined;
  if (!goal) {
    if (env.rng() >= WANDER_CHANCE) return { type: "idle" };
    const x = npc.spawn.x + Math.floor(env.rng() * (2 * radius + 1)) - radius;
    const z = npc.spawn.z + Math.floor(env.rng() * (2 * radius + 1)) - radius;
    if (env.map.isBlocked(x, z) || (x === npc.position.x && z === npc.position.z)) return { type: "idle" };
    goal = { x, z };
  }
  const step = stepToward(env.map, npc.position, goal);
  if (!step) return { type: "idle" };
  return same(step, goal) ? { type: "move", to: step } : { type: "move", to: step, wanderTo: goal };
}

/** Apply a decision to the npc (the loop may do this itself): position, target, attack time, flags. */
export function applyNpcAction(npc: NpcInstance, action: NpcAction, tick: number): void {
  npc.lastAttackerId = null;
  npc.target = action.type === "return" ? null : (action.targetId ?? null);
  npc.wanderTo = action.type === "move" ? (action.wanderTo ?? null) : null;
  if (action.type === "move" || action.type === "return") npc.position = { x: action.to.x, z: action.to.z };
  npc.returning = action.type === "return" && !same(npc.position, npc.spawn);
  if (action.type === "attack") npc.lastAttackTick = tick;
}

/** The tick an npc that died at `deathTick` comes back. */
export function respawnTick(def: Pick<NpcDef, "combat">, deathTick: number): number {
  const delay = def.combat.respawnTicks > 0 ? def.combat.respawnTicks : RESPAWN_DEFAULT_TICKS;
  return deathTick + delay;
}

/** True when a dead npc should come back this tick. */
export function respawnDue(npc: Pick<NpcInstance, "deadUntilTick">, tick: number): boolean {
  return npc.deadUntilTick != null && tick >= npc.deadUntilTick;
}

/** Bring a dead npc back: at its spawn, at full health, with a clean slate. */
export function respawnNpc(npc: NpcInstance, def: Pick<NpcDef, "stats">): void {
  npc.position = { x: npc.spawn.x, z: npc.spawn.z };
  npc.health = def.stats.health;
  npc.deadUntilTick = null;
  npc.target = null;
  npc.lastAttackerId = null;
  npc.returning = false;
  npc.wanderTo = null;
}
