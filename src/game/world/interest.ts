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
 * and its radius for the next tick. `me` is always among them.
 */
export function boundedView(near: Set<string>, tileOf: (id: string) => Tile | undefined, me: { id: string; tile: Tile }, cap: number, radius: PlayerRadius): Set<string> {
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
  // The nearest `cap` (Chebyshev, then the id, so the choice is stable from tick to tick).
  const ranked: Array<{ id: string; d: number }> = [];
  for (const id of near) {
    if (id === me.id) continue;
    const t = tileOf(id);
    if (t) ranked.push({ id, d: Math.max(Math.abs(t.x - me.tile.x), Math.abs(t.z - me.tile.z)) });
  }
  ranked.sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const chosen = new Set<string>([me.id]);
  for (let i = 0; i < cap && i < ranked.length; i++) chosen.add(ranked[i]!.id);
  return chosen;
}
