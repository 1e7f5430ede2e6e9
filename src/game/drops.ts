/**
 * Loot: rolling an npc's drop table, and how long dropped items lie on the ground.
 *
 * Ground items (RuneScape timings, 600 ms ticks): for the first GROUND_ITEM_PRIVATE_TICKS (60 s)
 * only the owner (the killer, or the player who dropped it) sees an item; then everyone does, until
 * it disappears GROUND_ITEM_DESPAWN_TICKS (3 min) after it appeared. Untradeable items never become
 * public. An item with no owner is public from the start.
 */
import type { DropEntry } from "../manifests/gameData.js";
import type { ItemStack, Rng } from "./types.js";

export const GROUND_ITEM_PRIVATE_TICKS = 100;
export const GROUND_ITEM_DESPAWN_TICKS = 300;

/** A uniform integer in [min, max] (bounds in any order; one draw unless they are equal). */
export function rollQuantity(rng: Rng, min: number, max: number): number {
  const lo = Math.ceil(Math.min(min, max));
  const hi = Math.floor(Math.max(min, max));
  if (hi <= lo) return lo;
  return lo + Math.min(hi - lo, Math.floor(rng() * (hi - lo + 1)));
}

/**
 * Roll a drop table. "always" entries (and any with chance >= 1) always drop; every other entry
 * rolls its own chance independently (one draw each, in table order), then its quantity, uniform in
 * [minQuantity, maxQuantity]. Stacks of the same item are merged, in first-dropped order; quantities
 * of 0 or less are left out.
 */
export function rollDrops(rng: Rng, drops: readonly DropEntry[]): ItemStack[] {
  const out = new Map<string, number>();
  for (const d of drops) {
    const always = d.rarity === "always" || d.chance >= 1;
    if (!always && !(rng() < d.chance)) continue;
    const quantity = rollQuantity(rng, d.minQuantity, d.maxQuantity);
    if (quantity <= 0) continue;
    out.set(d.itemId, (out.get(d.itemId) ?? 0) + quantity);
  }
  return [...out].map(([itemId, quantity]) => ({ itemId, quantity }));
}

export interface GroundItemTiming {
  /** Who sees it first; absent or null for an item everyone sees. */
  ownerId?: string | null;
  createdTick: number;
  /** False keeps the item private to its owner until it despawns. */
  tradeable?: boolean;
}

/** True once the item has been on the ground for GROUND_ITEM_DESPAWN_TICKS. */
export function groundItemExpired(item: Pick<GroundItemTiming, "createdTick">, tick: number): boolean {
  return tick - item.createdTick >= GROUND_ITEM_DESPAWN_TICKS;
}

/** The tick an item becomes visible to everyone (its creation tick when it has no owner). */
export function groundItemPublicTick(item: GroundItemTiming): number {
  return item.ownerId ? item.createdTick + GROUND_ITEM_PRIVATE_TICKS : item.createdTick;
}

/** Whether `playerId` sees (and may pick up) the item at `tick`. */
export function groundItemVisibleTo(item: GroundItemTiming, playerId: string, tick: number): boolean {
  if (groundItemExpired(item, tick)) return false;
  if (!item.ownerId || item.ownerId === playerId) return true;
  if (item.tradeable === false) return false;
  return tick >= groundItemPublicTick(item);
}
