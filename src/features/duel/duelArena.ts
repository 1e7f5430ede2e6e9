import type { DuelArena } from "./duelArenas.js";
import type { DuelRules } from "./duelRules.js";
import { maxHealth } from "../../game/skills.js";
import type { Tile } from "../../game/types.js";
import type { PlayerEntity } from "../../game/world/entities.js";
import { prayersOff, type WorldCore } from "../../game/world/worldCore.js";

/**
 * Moving duellists in and out of an arena (the duel book decides when): in, each at a
 * spawn point with the tile they left from kept (where they walk back to, and the tile a save
 * records); out, back there with full health and prayers off. A duel death is not a world death.
 */

/** The arena's spawn points; rooted (noMovement), the two start side by side. */
export function spawnsFor(world: WorldCore, arena: DuelArena, rules: DuelRules): [Tile, Tile] {
  const [first, second] = arena.spawnPoints;
  if (!rules.noMovement) return [first, second];
  const beside = { x: first.x + Math.sign(second.x - first.x), z: first.z + Math.sign(second.z - first.z) };
  return world.map.inBounds(beside.x, beside.z) && !world.map.isBlocked(beside.x, beside.z) ? [first, beside] : [first, second];
}

/** Both into the arena (prayers off under noPrayer). */
export function walkIn(world: WorldCore, players: [PlayerEntity, PlayerEntity], arena: DuelArena, rules: DuelRules) {
  const spawns = spawnsFor(world, arena, rules);
  players.forEach((p, i) => {
    p.returnTile = { ...p.tile };
    if (rules.noPrayer) prayersOff(world, p);
    moveTo(world, p, spawns[i]!);
  });
}

/** Out of the arena: back where they stood, full health, prayers off, nothing to do. */
export function walkOut(world: WorldCore, players: Array<PlayerEntity | undefined>) {
  for (const p of players) {
    if (!p) continue;
    p.health = maxHealth(p.levels.constitution);
    prayersOff(world, p);
    if (p.returnTile) moveTo(world, p, p.returnTile);
    delete p.returnTile;
  }
}

function moveTo(world: WorldCore, p: PlayerEntity, tile: Tile) {
  p.tile = { ...tile };
  p.path = [];
  p.action = null;
  world.place("player", p.id, p.tile);
  world.touchPlayer(p, true);
}
