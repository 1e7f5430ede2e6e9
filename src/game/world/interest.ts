import { AOI_RADIUS } from "../spatialGrid.js";
import type { Tile } from "../types.js";

/**
 * Bounded interest, as the classic player-update protocol does it: a viewer sees at most `cap`
 * other players. While more than that stand within its view radius, the radius shrinks by a tile a
 * tick (down to MIN_PLAYER_RADIUS) and only the nearest `cap` are shown; after CALM_TICKS ticks in a
 * row under the cap it grows back by a tile (up to AOI_RADIUS), and again every CALM_TICKS ticks.
 */
export const MIN_PLAYER_RADIUS = 4;
export const CALM_TICKS = 10;

/**
 * Zones: the world is cut into ZONE_SIZE×ZONE_SIZE squares of tiles. The clients standing in one
 * zone share one window on the world, centred on the zone's middle tile, so what they are sent is
 * worked out and encoded once for all of them (see rooms/interest/worldViews.ts). 32 rather than the classic
 * 8: every doubling cut the tick of bench:world at 2,000 players (fewer windows to work out and
 * encode, fewer hand-overs between them, and each one shared by more clients): from 16 to 32 the
 * crowded default world went from ~150 to ~100 ms median and the spread map from ~165 to ~100 ms.
 * A client still sees at least 14 tiles around itself, about the classic 15 (16 within its zone,
 * less by ZONE_MARGIN while it stands just outside).
 */
export const ZONE_SIZE = 32;

/**
 * How far (tiles) a client may stand outside the zone whose window it shares before it is handed
 * to the zone it stands in. Without it, a player pacing along a zone's edge was handed back and
 * forth, each time sent a 16-tile strip of what comes into view (bench:world at 2,000 players: one
 * player in seven handed over every tick). With it, a hand-over happens only once a player is this
 * far past the edge, and the next one only after it walks this far back past the same edge and as
 * far again. A sharer still sees at least AOI_RADIUS - ZONE_SIZE / 2 - ZONE_MARGIN tiles around it
 * (14): 2 rather than 4 keeps that near the classic 15, for a fifth more hand-overs in bench:world.
 */
export const ZONE_MARGIN = 2;

/** Does a tile lie in a zone, or within ZONE_MARGIN tiles of it? */
export function nearZone(tile: Tile, zone: number): boolean {
  const c = zoneCentre(zone);
  const reach = ZONE_SIZE / 2 + ZONE_MARGIN;
  // The zone's tiles run from centre - ZONE_SIZE/2 to centre + ZONE_SIZE/2 - 1.
  return tile.x >= c.x - reach && tile.x < c.x + reach && tile.z >= c.z - reach && tile.z < c.z + reach;
}

/** The zone a tile lies in, as a number (tiles are never negative). */
export function zoneOf(tile: Tile): number {
  return Math.floor(tile.x / ZONE_SIZE) * 65536 + Math.floor(tile.z / ZONE_SIZE);
}

/** The middle tile of a zone (what its window is centred on). */
export function zoneCentre(zone: number): Tile {
  const half = ZONE_SIZE / 2;
  return { x: Math.floor(zone / 65536) * ZONE_SIZE + half, z: (zone % 65536) * ZONE_SIZE + half };
}

/** Chebyshev distance between two tiles (the view radius is a square). */
export function tileDistance(a: Tile, b: Tile): number {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z));
}

/** What a viewer's radius adapts with (kept from tick to tick). */
export interface PlayerRadius {
  playerRadius: number;
  calmTicks: number;
}

/**
 * The players a viewer sees this tick out of `near` (those within its radius, itself included),
 * and its radius for the next tick. Like the classic protocol, the ones it already sees stay while
 * they are within the radius (the farthest go first if the radius shrank under them), and newcomers
 * fill what room is left under the cap, nearest first: a crowd milling at the edge does not swap
 * in and out every tick. A viewer (`me` with an id) is always among them, over the cap; a zone's
 * window (`me` with only its centre tile) holds at most `cap` in all.
 */
export function boundedView(
  near: Set<string>,
  seen: ReadonlySet<string>,
  tileOf: (id: string) => Tile | undefined,
  me: { id?: string; tile: Tile },
  cap: number,
  radius: PlayerRadius,
): Set<string> {
  const self = me.id !== undefined && near.has(me.id);
  const others = near.size - (self ? 1 : 0);
  if (others <= cap) {
    if (radius.playerRadius < AOI_RADIUS && ++radius.calmTicks >= CALM_TICKS) {
      radius.playerRadius++;
      radius.calmTicks = 0;
    }
    return near;
  }
  radius.calmTicks = 0;
  if (radius.playerRadius > MIN_PLAYER_RADIUS) radius.playerRadius--;
  const distance = (id: string) => {
    const t = tileOf(id);
    return t ? tileDistance(t, me.tile) : Infinity;
  };
  // Nearest first, then by id, so the choice is stable from tick to tick.
  const nearestFirst = (ids: string[]) =>
    ids
      .map((id) => ({ id, d: distance(id) }))
      .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((r) => r.id);
  const kept: string[] = [];
  const newcomers: string[] = [];
  for (const id of near) {
    if (id === me.id) continue;
    (seen.has(id) ? kept : newcomers).push(id);
  }
  const chosen = new Set<string>(me.id !== undefined ? [me.id] : []);
  const limit = cap + chosen.size;
  for (const id of kept.length > cap ? nearestFirst(kept).slice(0, cap) : kept) chosen.add(id);
  if (chosen.size < limit) for (const id of nearestFirst(newcomers).slice(0, limit - chosen.size)) chosen.add(id);
  return chosen;
}
