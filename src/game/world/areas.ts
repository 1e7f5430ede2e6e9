import type { WorldArea } from "../../manifests/gameData.js";
import type { Tile } from "../types.js";
import type { WorldCore } from "./worldCore.js";

/** The world-areas.json areas whose bounds hold the tile (areas may overlap: a safe town inside a wild one). */
export function areasAt(world: WorldCore, tile: Tile): WorldArea[] {
  const out: WorldArea[] = [];
  for (const a of world.data.worldAreas.values()) {
    const b = a.bounds;
    if (tile.x >= b.minX && tile.x <= b.maxX && tile.z >= b.minZ && tile.z <= b.maxZ) out.push(a);
  }
  return out;
}

/**
 * The PvP area (`pvpEnabled`) a tile is in, unless a safe zone (`safeZone`) holds it too: a safe zone
 * wins. The deepest (highest `difficultyLevel`) when several hold it.
 */
export function pvpAreaAt(world: WorldCore, tile: Tile): WorldArea | undefined {
  const here = areasAt(world, tile);
  if (here.some((a) => a.safeZone)) return undefined;
  let deepest: WorldArea | undefined;
  for (const a of here) if (a.pvpEnabled && (!deepest || a.difficultyLevel > deepest.difficultyLevel)) deepest = a;
  return deepest;
}

/** Is the tile in a safe zone (`safeZone`)? */
export const inSafeZone = (world: WorldCore, tile: Tile) => areasAt(world, tile).some((a) => a.safeZone);
