/**
 * The walkability grid of a world: which integer tiles a player or npc may stand on.
 *
 * Tiles are addressed by integer (x, z) inside inclusive bounds. Every tile is one bit of a
 * Uint8Array, so a 1000 x 1000 world costs 125 kB. Anything outside the bounds counts as blocked.
 *
 * `buildTileMap` derives the grid from the game data: the union of the world areas plus a margin,
 * with buildings, trees, rocks and stations as obstacles.
 */
import type { GameData } from "../manifests/gameData.js";
import { tileOf } from "../manifests/shapes.js";
import type { Tile } from "./types.js";

/** Inclusive tile bounds. */
export interface TileBounds {
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
}

export class TileMap {
  readonly bounds: Readonly<TileBounds>;
  /** Tiles along x. */
  readonly width: number;
  /** Tiles along z. */
  readonly depth: number;
  private readonly bits: Uint8Array;

  constructor(bounds: TileBounds) {
    const minX = Math.floor(bounds.minX);
    const minZ = Math.floor(bounds.minZ);
    const maxX = Math.ceil(bounds.maxX);
    const maxZ = Math.ceil(bounds.maxZ);
    if (![minX, minZ, maxX, maxZ].every(Number.isFinite) || maxX < minX || maxZ < minZ) {
      throw new RangeError(`invalid tile bounds ${JSON.stringify(bounds)}`);
    }
    this.bounds = Object.freeze({ minX, maxX, minZ, maxZ });
    this.width = maxX - minX + 1;
    this.depth = maxZ - minZ + 1;
    this.bits = new Uint8Array((this.width * this.depth + 7) >> 3);
  }

  /** True when (x, z) is an integer tile inside the bounds. */
  inBounds(x: number, z: number): boolean {
    const b = this.bounds;
    return Number.isInteger(x) && Number.isInteger(z) && x >= b.minX && x <= b.maxX && z >= b.minZ && z <= b.maxZ;
  }

  /** Blocked tiles, and every tile outside the bounds, cannot be stood on. */
  isBlocked(x: number, z: number): boolean {
    if (!this.inBounds(x, z)) return true;
    const i = this.index(x, z);
    return (this.bits[i >> 3]! & (1 << (i & 7))) !== 0;
  }

  isWalkable(x: number, z: number): boolean {
    return !this.isBlocked(x, z);
  }

  /** Mark one tile blocked; tiles outside the bounds are ignored. */
  block(x: number, z: number): void {
    if (!this.inBounds(x, z)) return;
    const i = this.index(x, z);
    this.bits[i >> 3]! |= 1 << (i & 7);
  }

  /** Make one tile walkable again; tiles outside the bounds are ignored. */
  unblock(x: number, z: number): void {
    if (!this.inBounds(x, z)) return;
    const i = this.index(x, z);
    this.bits[i >> 3]! &= ~(1 << (i & 7));
  }

  /** Block every tile of an inclusive rectangle (corners in any order), clipped to the bounds. */
  blockRect(x1: number, z1: number, x2: number, z2: number): void {
    const b = this.bounds;
    const loX = Math.max(b.minX, Math.ceil(Math.min(x1, x2)));
    const hiX = Math.min(b.maxX, Math.floor(Math.max(x1, x2)));
    const loZ = Math.max(b.minZ, Math.ceil(Math.min(z1, z2)));
    const hiZ = Math.min(b.maxZ, Math.floor(Math.max(z1, z2)));
    for (let x = loX; x <= hiX; x++) {
      for (let z = loZ; z <= hiZ; z++) this.block(x, z);
    }
  }

  /** A copy of the bitset: bit `index(x, z)` is set when the tile is blocked (row-major, least significant bit first). */
  toBytes(): Uint8Array {
    return this.bits.slice();
  }

  /** Take the blocked tiles of a map of the same bounds (a content reload placing trees, rocks and stations anew). */
  takeBlocksOf(other: TileMap): void {
    if (!sameBounds(this.bounds, other.bounds)) throw new RangeError("the maps' bounds differ");
    this.bits.set(other.bits);
  }

  /** Bytes held by the bitset. */
  get byteLength(): number {
    return this.bits.byteLength;
  }

  /** How many tiles are blocked (a diagnostic; walks the whole bitset). */
  blockedCount(): number {
    let n = 0;
    for (const byte of this.bits) {
      let v = byte;
      while (v) {
        v &= v - 1;
        n++;
      }
    }
    return n;
  }

  /** Row-major index of an in-bounds tile; also a compact key for per-tile maps. */
  index(x: number, z: number): number {
    return (z - this.bounds.minZ) * this.width + (x - this.bounds.minX);
  }

  /** The tile of an index produced by `index`. */
  tileAt(index: number): Tile {
    return { x: this.bounds.minX + (index % this.width), z: this.bounds.minZ + Math.floor(index / this.width) };
  }
}

/**
 * Quarter turns of a rotation. The data does not say whether rotations are degrees or radians:
 * a value that is a whole multiple of 90 is read as degrees, anything else as radians.
 * Angles between right angles snap to the nearest quarter turn.
 */
export function quarterTurns(rotation: number): number {
  if (!Number.isFinite(rotation) || rotation === 0) return 0;
  const turns = Number.isInteger(rotation / 90) ? rotation / 90 : Math.round(rotation / (Math.PI / 2));
  return ((turns % 4) + 4) % 4;
}

/**
 * The tiles a footprint covers, centred on `position`: `width` tiles along x and `depth` along z,
 * swapped by an odd number of quarter turns. Covers [centre - size/2, centre + size/2) on each axis,
 * so an 8-wide building at x = 94 spans x 90..97 and a 3-wide one at x = 38 spans 37..39.
 */
export function footprintRect(position: { x: number; z: number }, footprint: { width: number; depth: number }, rotation = 0): TileBounds {
  const odd = quarterTurns(rotation) % 2 === 1;
  const w = Math.max(1, Math.round(odd ? footprint.depth : footprint.width));
  const d = Math.max(1, Math.round(odd ? footprint.width : footprint.depth));
  const minX = Math.round(position.x - w / 2);
  const minZ = Math.round(position.z - d / 2);
  return { minX, maxX: minX + w - 1, minZ, maxZ: minZ + d - 1 };
}

/** The world bounds: the union of every area's bounds grown by `margin` tiles. */
export const sameBounds = (a: TileBounds, b: TileBounds) => a.minX === b.minX && a.maxX === b.maxX && a.minZ === b.minZ && a.maxZ === b.maxZ;

export function worldBounds(data: Pick<GameData, "worldAreas" | "spawn">, margin = 10): TileBounds {
  let minX = Infinity;
  let maxX = -Infinity;
  let minZ = Infinity;
  let maxZ = -Infinity;
  for (const area of data.worldAreas.values()) {
    minX = Math.min(minX, area.bounds.minX, area.bounds.maxX);
    maxX = Math.max(maxX, area.bounds.minX, area.bounds.maxX);
    minZ = Math.min(minZ, area.bounds.minZ, area.bounds.maxZ);
    maxZ = Math.max(maxZ, area.bounds.minZ, area.bounds.maxZ);
  }
  if (minX === Infinity) {
    // No areas at all: a square around the spawn point (or the origin).
    const c = data.spawn ? tileOf(data.spawn.position) : { x: 0, z: 0 };
    minX = maxX = c.x;
    minZ = maxZ = c.z;
  }
  return {
    minX: Math.floor(minX) - margin,
    maxX: Math.ceil(maxX) + margin,
    minZ: Math.floor(minZ) - margin,
    maxZ: Math.ceil(maxZ) + margin,
  };
}

/**
 * The walkability grid of a world. Obstacles:
 *  - every building's footprint (see `footprintRect`), doors are not modelled;
 *  - trees and rocks (woodcutting and mining placements) block their own tile;
 *  - stations (bank booths, ranges, furnaces, anvils) block their own tile.
 * Fishing spots stay walkable (they sit at the water's edge and are walked up to), and npcs never
 * block: they move, so occupancy is the world loop's business.
 */
export function buildTileMap(data: Pick<GameData, "worldAreas" | "buildings" | "spawn">, margin = 10): TileMap {
  const map = new TileMap(worldBounds(data, margin));
  for (const building of data.buildings) {
    const r = footprintRect(building.position, building.footprint, building.rotation);
    map.blockRect(r.minX, r.minZ, r.maxX, r.maxZ);
  }
  for (const area of data.worldAreas.values()) {
    for (const resource of area.resources) {
      if (resource.skill === "fishing") continue;
      const t = tileOf(resource.position);
      map.block(t.x, t.z);
    }
    for (const station of area.stations) {
      const t = tileOf(station.position);
      map.block(t.x, t.z);
    }
  }
  return map;
}
