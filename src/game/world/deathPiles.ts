import { heldOf, noteChange } from "../ledger.js";
import { groundItemVisibleTo } from "../drops.js";
import { addItemAll, canAdd } from "../inventory.js";
import { GameError } from "../types.js";
import { stacksOf, type PlayerEntity } from "./entities.js";
import type { GroundItemEntity } from "./entities.js";
import type { World } from "./World.js";

/** Who sees a ground item: a death pile only its owner, for as long as it lasts; others by the drop rules. */
export function canSeeGroundItem(g: GroundItemEntity, playerId: string, tick: number): boolean {
  return g.deathId ? g.ownerId === playerId : groundItemVisibleTo(g, playerId, tick);
}

/** Remove every death pile a player still has on the ground (a new death replaces the old pile). */
export function clearDeathPilesOf(world: World, p: PlayerEntity) {
  const deathIds = new Set<string>();
  for (const g of world.groundItems.values()) if (g.deathId && g.ownerId === p.id) deathIds.add(g.deathId);
  for (const id of deathIds) {
    for (const g of pileOf(world, id)) world.removeGroundItem(g.id);
    // Not yet written: it simply lapses. Written: the next death's record resolves it as expired.
    const pending = p.pendingDeaths.findIndex((d) => d.id === id);
    if (pending >= 0) p.pendingDeaths.splice(pending, 1);
  }
}

function pileOf(world: World, deathId: string) {
  return [...world.groundItems.values()].filter((g) => g.deathId === deathId);
}

/** A death pile nobody took back in time is gone; its lock is resolved as expired. */
export function expireDeathPile(world: World, deathId: string) {
  const pile = pileOf(world, deathId);
  for (const g of pile) world.removeGroundItem(g.id);
  const owner = pile[0] ? world.players.get(pile[0].ownerId ?? "") : undefined;
  const pending = owner?.pendingDeaths.findIndex((d) => d.id === deathId) ?? -1;
  // Never written yet: nothing to resolve, the death simply lapses.
  if (owner && pending >= 0) owner.pendingDeaths.splice(pending, 1);
  else world.events.push({ kind: "deathExpired", deathId });
}

/**
 * The owner takes a death pile back: all of it or nothing. The lock is resolved in the same
 * transaction that saves the inventory holding the items (see WorldSaver), so it happens once.
 */
export function reclaimDeathPile(world: World, p: PlayerEntity, deathId: string) {
  const pile = pileOf(world, deathId);
  if (pile.length === 0 || pile[0].ownerId !== p.id) throw new GameError("GONE", "The items are gone");
  const stacks = pile.map((g) => ({ itemId: g.itemId, quantity: g.quantity }));
  if (!canAdd(p.inventory, stacks, world.data.items)) throw new GameError("INVENTORY_FULL", "You need more free inventory space to take your items back");
  const before = heldOf(p);
  for (const s of stacks) p.inventory = addItemAll(p.inventory, s.itemId, s.quantity, world.data.items).inventory;
  noteChange(p, before, "reclaimed", deathId);
  for (const g of pile) world.removeGroundItem(g.id);
  const pending = p.pendingDeaths.findIndex((d) => d.id === deathId);
  if (pending >= 0) p.pendingDeaths.splice(pending, 1);
  else p.pendingReclaims.push(deathId);
  world.touchPlayer(p);
  world.events.push({ kind: "notice", playerId: p.id, code: "RECLAIMED", message: `You take back your items (${stacksOf(p.inventory).length} stacks in your pack).` });
}
