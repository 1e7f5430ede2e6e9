import type { World } from "../src/game/world/World.js";

/**
 * What a load client knows of the world's ground: the bounds, the blocked tiles and the spawn,
 * read once from the server's World and handed to the client process (a few hundred numbers).
 */
export interface MapInfo {
  bounds: { minX: number; maxX: number; minZ: number; maxZ: number };
  /** Blocked tiles inside the bounds, as x0, z0, x1, z1, ... */
  blocked: number[];
  spawn: { x: number; z: number };
}

export function mapInfoOf(world: World): MapInfo {
  const b = world.map.bounds;
  const blocked: number[] = [];
  for (let x = b.minX; x <= b.maxX; x++) for (let z = b.minZ; z <= b.maxZ; z++) if (world.map.isBlocked(x, z)) blocked.push(x, z);
  return { bounds: { ...b }, blocked, spawn: { ...world.spawnTile } };
}

/** The client side's copy of the map: where a player may stand, and tiles to walk to. */
export class TileGrid {
  private readonly blocked = new Set<number>();

  constructor(readonly info: MapInfo) {
    for (let i = 0; i < info.blocked.length; i += 2) this.blocked.add(this.key(info.blocked[i], info.blocked[i + 1]));
  }

  private key(x: number, z: number) {
    return (x - this.info.bounds.minX) * 100_000 + (z - this.info.bounds.minZ);
  }

  walkable(x: number, z: number): boolean {
    const b = this.info.bounds;
    return x >= b.minX && x <= b.maxX && z >= b.minZ && z <= b.maxZ && !this.blocked.has(this.key(x, z));
  }

  /** A walkable tile 1–2 tiles (Chebyshev) from `from`: one tick's walk. */
  step(from: { x: number; z: number }, rnd: () => number): { x: number; z: number } | undefined {
    for (let i = 0; i < 16; i++) {
      const x = from.x + Math.floor(rnd() * 5) - 2;
      const z = from.z + Math.floor(rnd() * 5) - 2;
      if ((x !== from.x || z !== from.z) && this.walkable(x, z)) return { x, z };
    }
    return undefined;
  }

  /** A walkable tile anywhere in the world within `maxDistance` of `from` (to spread out from the spawn). */
  anywhere(from: { x: number; z: number }, rnd: () => number, maxDistance: number): { x: number; z: number } | undefined {
    const b = this.info.bounds;
    for (let i = 0; i < 50; i++) {
      const x = b.minX + Math.floor(rnd() * (b.maxX - b.minX + 1));
      const z = b.minZ + Math.floor(rnd() * (b.maxZ - b.minZ + 1));
      if (Math.max(Math.abs(x - from.x), Math.abs(z - from.z)) <= maxDistance && this.walkable(x, z)) return { x, z };
    }
    return undefined;
  }
}
