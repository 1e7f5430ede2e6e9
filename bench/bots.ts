import { canGather } from "../src/game/gathering.js";
import type { PlayerEntity } from "../src/game/world/entities.js";
import type { World } from "../src/game/world/World.js";

/**
 * What a simulated player does, decided from what its own client would know (its position, its
 * inventory and levels from player:sync, the nodes in view). Every few seconds it either walks to a
 * random tile within WANDER_RADIUS tiles or starts gathering the nearest node it can work.
 */

export const WANDER_RADIUS = 20;
/** How far (tiles) a player looks for a node to gather. */
export const GATHER_RADIUS = 20;
/** A decision every 5..10 ticks (3..6 s). */
export const DECIDE_MIN_TICKS = 5;
export const DECIDE_MAX_TICKS = 10;
/** Chance that a decision is "gather" (when a node is near), else "walk". */
export const GATHER_CHANCE = 0.4;
/** Chance that a player already gathering keeps at it instead of deciding anew. */
export const KEEP_GATHERING_CHANCE = 0.5;

export type Command =
  { type: "player:move"; payload: { x: number; z: number; run?: boolean } } | { type: "player:action"; payload: { action: "gather"; targetId: string } };

/** The game's seeded generator, so runs are comparable. */
export { seededRng as seededRandom } from "../src/game/random.js";

const randInt = (rnd: () => number, lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));

export function nextDecisionTick(rnd: () => number, now: number): number {
  return now + randInt(rnd, DECIDE_MIN_TICKS, DECIDE_MAX_TICKS);
}

/** A walkable tile within `radius` of `from` (Chebyshev), or undefined after a few misses. */
export function randomTileNear(world: World, rnd: () => number, from: { x: number; z: number }, radius: number) {
  for (let i = 0; i < 12; i++) {
    const x = from.x + randInt(rnd, -radius, radius);
    const z = from.z + randInt(rnd, -radius, radius);
    if ((x !== from.x || z !== from.z) && !world.map.isBlocked(x, z)) return { x, z };
  }
  return undefined;
}

/** A walkable tile anywhere in the world (to spread a new player out from the spawn). */
export function randomWorldTile(world: World, rnd: () => number) {
  const b = world.map.bounds;
  for (let i = 0; i < 50; i++) {
    const x = randInt(rnd, b.minX, b.maxX);
    const z = randInt(rnd, b.minZ, b.maxZ);
    if (!world.map.isBlocked(x, z)) return { x, z };
  }
  return undefined;
}

/** The nearest node within GATHER_RADIUS the player can work now. */
export function nearestGatherable(world: World, p: PlayerEntity): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const id of world.near("resource", p.tile, GATHER_RADIUS)) {
    const r = world.resources.get(id);
    if (!r || r.depleted || r.skill === "firemaking") continue;
    const def = world.data.gathering[r.skill]?.get(r.resourceId);
    if (!def || !canGather(def, p.levels[r.skill], p.inventory, world.data.items).ok) continue;
    const d = Math.max(Math.abs(r.tile.x - p.tile.x), Math.abs(r.tile.z - p.tile.z));
    if (d < bestD) {
      bestD = d;
      best = id;
    }
  }
  return best;
}

/** One decision: what to send now, or nothing (keep doing what it does). */
export function decide(world: World, p: PlayerEntity, rnd: () => number, walkOnly: boolean): Command | undefined {
  if (p.health <= 0) return undefined;
  if (!walkOnly && p.action?.type === "gather" && rnd() < KEEP_GATHERING_CHANCE) return undefined;
  if (!walkOnly && rnd() < GATHER_CHANCE) {
    const target = nearestGatherable(world, p);
    if (target) return { type: "player:action", payload: { action: "gather", targetId: target } };
  }
  const to = randomTileNear(world, rnd, p.tile, WANDER_RADIUS);
  return to ? { type: "player:move", payload: { x: to.x, z: to.z } } : undefined;
}
