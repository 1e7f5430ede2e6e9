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
 * in and out every tick. `me` is always among them.
 */
export function boundedView(
  near: Set<string>,
  seen: ReadonlySet<string>,
  tileOf: (id: string) => Tile | undefined,
  me: { id: string; tile: Tile },
  cap: number,
  radius: PlayerRadius,
): Set<string> {
  const others = near.size - (near.has(me.id) ? 1 : 0);
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
    return t ? Math.max(Math.abs(t.x - me.tile.x), Math.abs(t.z - me.tile.z)) : Infinity;
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
  const chosen = new Set<string>([me.id]);
  for (const id of kept.length > cap ? nearestFirst(kept).slice(0, cap) : kept) chosen.add(id);
  if (chosen.size <= cap) for (const id of nearestFirst(newcomers).slice(0, cap + 1 - chosen.size)) chosen.add(id);
  return chosen;
}
