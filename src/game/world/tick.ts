import { groundItemExpired } from "../drops.js";
import { expireDeathPile } from "./deathPiles.js";
import { DEATH_PILE_TICKS, tickNpcs } from "./npcSystem.js";
import { tickPlayers } from "./playerSystem.js";
import type { World } from "./World.js";
import { chunkKey } from "./worldCore.js";

/**
 * Advance the world's rules by one game tick (600 ms), in order: the clock, players (their
 * orders: walking, gathering, fighting, picking up), npcs, resource nodes, ground items. The room
 * runs the same steps one by one as the phases of its tick.
 */
export function tickWorld(world: World) {
  world.tick++;
  tickPlayers(world);
  tickNpcs(world);
  tickResources(world);
  tickGroundItems(world);
}

export { tickNpcs, tickPlayers };

/** Depleted nodes respawn; temporary nodes (fires) burn out. */
export function tickResources(world: World) {
  for (const r of world.resources.values()) {
    if (r.expiresAtTick !== undefined && world.tick >= r.expiresAtTick) {
      world.resources.delete(r.id);
      world.unplace("resource", r.id);
      continue;
    }
    if (r.depleted && r.respawnAtTick !== null && world.tick >= r.respawnAtTick) {
      r.depleted = false;
      r.respawnAtTick = null;
      world.markChanged("resource", r.id);
      world.dirtyChunks.add(chunkKey(r.tile));
    }
  }
}

/** Ground items and death piles expire. */
export function tickGroundItems(world: World) {
  const expiredDeaths = new Set<string>();
  for (const g of world.groundItems.values()) {
    if (g.deathId) {
      if (world.tick - g.createdTick >= DEATH_PILE_TICKS) expiredDeaths.add(g.deathId);
    } else if (groundItemExpired(g, world.tick)) {
      world.removeGroundItem(g.id);
    }
  }
  for (const deathId of expiredDeaths) expireDeathPile(world, deathId);
}
