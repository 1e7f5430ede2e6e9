import rsmod from "@2004scape/rsmod-pathfinder";
import type { TileMap } from "../src/game/tileMap.js";
import type { Tile } from "../src/game/types.js";

/**
 * The field's router, @2004scape/rsmod-pathfinder (breadth-first search on collision flags, in
 * WebAssembly), on one of the server's tile maps, for bench:pathfinding to set against findPath.
 *
 * Its collision map is one per process, addressed 0..16383 on each axis: the tile map is copied
 * into it shifted so its corner sits at (ORIGIN, ORIGIN), a blocked tile as a blocked floor. Its
 * search is a 128 x 128 window centred on the walker, and it answers with waypoints (the tiles
 * where the walk turns), so `route` also expands them into tiles, as walking them needs.
 */
const ORIGIN = 64;
const LEVEL = 0;
const NO_SHAPE = -1; // reach the tile itself
const NEXT_TO = -2; // stand beside it (north, south, east or west), as for an npc
const MAX_WAYPOINTS = 25;

export class RsmodRoutes {
  private readonly dx: number;
  private readonly dz: number;

  constructor(private readonly map: TileMap) {
    const { minX, minZ, maxX, maxZ } = map.bounds;
    this.dx = ORIGIN - minX;
    this.dz = ORIGIN - minZ;
    for (let x = minX; x <= maxX; x += 8) for (let z = minZ; z <= maxZ; z += 8) rsmod.allocateIfAbsent(x + this.dx, z + this.dz, LEVEL);
    for (let x = minX; x <= maxX; x++) for (let z = minZ; z <= maxZ; z++) if (map.isBlocked(x, z)) rsmod.changeFloor(x + this.dx, z + this.dz, LEVEL, true);
  }

  /** Forget the copied map (the collision map is the process's, not this object's). */
  release(): void {
    const { minX, minZ, maxX, maxZ } = this.map.bounds;
    for (let x = minX; x <= maxX; x += 8) for (let z = minZ; z <= maxZ; z += 8) rsmod.deallocateIfPresent(x + this.dx, z + this.dz, LEVEL);
  }

  /** The waypoints rsmod answers, packed as it packs them (z in bits 0-13, x in 14-27). */
  waypoints(from: Tile, to: Tile, nextTo = false): Uint32Array {
    return rsmod.findPath(
      LEVEL,
      from.x + this.dx,
      from.z + this.dz,
      to.x + this.dx,
      to.z + this.dz,
      1,
      1,
      1,
      0,
      nextTo ? NEXT_TO : NO_SHAPE,
      false,
      0,
      MAX_WAYPOINTS,
      rsmod.CollisionType.NORMAL,
    );
  }

  /** The tiles walked from `from` (left out) along rsmod's route; null when it found none. */
  route(from: Tile, to: Tile, nextTo = false): Tile[] | null {
    const points = this.waypoints(from, to, nextTo);
    if (points.length === 0) return null;
    const tiles: Tile[] = [];
    let x = from.x;
    let z = from.z;
    for (const p of points) {
      const wx = ((p >> 14) & 0x3fff) - this.dx;
      const wz = (p & 0x3fff) - this.dz;
      while (x !== wx || z !== wz) {
        x += Math.sign(wx - x);
        z += Math.sign(wz - z);
        tiles.push({ x, z });
      }
    }
    return tiles;
  }
}
