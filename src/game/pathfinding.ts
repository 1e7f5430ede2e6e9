/**
 * A* over the tile grid.
 *
 * - 8-connected: a straight step costs 1, a diagonal step costs sqrt(2); the heuristic is the
 *   octile distance, which never overestimates those costs.
 * - No corner cutting: a diagonal step is allowed only when both straight tiles it passes between
 *   are walkable, so nobody slips through the gap between two touching obstacles.
 * - The search is bounded by `maxNodes` expanded tiles; past that budget it gives up (null), so a
 *   click on an unreachable tile costs a bounded amount of work.
 * - Bookkeeping lives in a table keyed by the tile's row-major index (src/game/searchTable.ts),
 *   kept from search to search with the open list: a search allocates nothing but its path, and
 *   costs memory in proportion to the tiles it touches, not to the size of the world.
 */
import type { TileMap } from "./tileMap.js";
import type { Tile } from "./types.js";
import { SearchTable } from "./searchTable.js";

export const DEFAULT_MAX_NODES = 20_000;

export interface PathOptions {
  /** Most tiles expanded before giving up (default 20 000). */
  maxNodes?: number;
  /**
   * When `to` is blocked (a tree, a rock, a station), end on the cheapest-to-reach walkable tile
   * adjacent to it (8 neighbours) instead of failing.
   */
  allowAdjacentGoal?: boolean;
  /**
   * Always end adjacent to `to` (Chebyshev distance 1), never on it, blocked or not: walking up to an
   * npc or a player. An empty path when already adjacent.
   */
  adjacent?: boolean;
}

const SQRT2 = Math.SQRT2;
/** The eight steps, straight ones first: (DX[k], DZ[k]). Plain arrays walked by index (the search makes no iterator per tile). */
const DX = [1, -1, 0, 0, 1, 1, -1, -1] as const;
const DZ = [0, 0, 1, -1, 1, -1, 1, -1] as const;

/** Octile distance: the cheapest cost between two tiles on an open grid. */
export function octile(ax: number, az: number, bx: number, bz: number): number {
  const dx = Math.abs(ax - bx);
  const dz = Math.abs(az - bz);
  return dx > dz ? dx + (SQRT2 - 1) * dz : dz + (SQRT2 - 1) * dx;
}

/** True when a single step from (x, z) by (dx, dz) (each -1..1) is allowed. */
export function canStep(map: TileMap, x: number, z: number, dx: number, dz: number): boolean {
  if (map.isBlocked(x + dx, z + dz)) return false;
  if (dx !== 0 && dz !== 0) return !map.isBlocked(x + dx, z) && !map.isBlocked(x, z + dz);
  return true;
}

/** A binary min-heap of tile indices ordered by f, ties broken towards the larger g. */
class OpenHeap {
  private readonly nodes: number[] = [];
  private readonly f: number[] = [];
  private readonly g: number[] = [];

  get size(): number {
    return this.nodes.length;
  }

  clear(): void {
    this.nodes.length = 0;
    this.f.length = 0;
    this.g.length = 0;
  }

  push(node: number, f: number, g: number): void {
    this.nodes.push(node);
    this.f.push(f);
    this.g.push(g);
    this.up(this.nodes.length - 1);
  }

  pop(): number {
    const top = this.nodes[0]!;
    const lastNode = this.nodes.pop()!;
    const lastF = this.f.pop()!;
    const lastG = this.g.pop()!;
    if (this.nodes.length > 0) {
      this.nodes[0] = lastNode;
      this.f[0] = lastF;
      this.g[0] = lastG;
      this.down(0);
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    const fa = this.f[a]!;
    const fb = this.f[b]!;
    return fa < fb || (fa === fb && this.g[a]! > this.g[b]!);
  }

  private swap(a: number, b: number): void {
    swapAt(this.nodes, a, b);
    swapAt(this.f, a, b);
    swapAt(this.g, a, b);
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.nodes.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < n && this.less(l, best)) best = l;
      if (r < n && this.less(r, best)) best = r;
      if (best === i) return;
      this.swap(i, best);
      i = best;
    }
  }
}

/**
 * The tiles to walk from `from` to `to`, excluding `from` and including the last tile reached
 * (`to` itself, or the tile next to it with `allowAdjacentGoal` / `adjacent`). An empty array when
 * already there. Null when `to` is outside the map, blocked (without `allowAdjacentGoal`),
 * unreachable, or the search exceeds `maxNodes`. `from` itself may be blocked (it is only left).
 */
export function findPath(map: TileMap, from: Tile, to: Tile, options: PathOptions = {}): Tile[] | null {
  const maxNodes = options.maxNodes ?? DEFAULT_MAX_NODES;
  if (!map.inBounds(from.x, from.z) || !map.inBounds(to.x, to.z)) return null;

  const adjacentGoal = options.adjacent === true || (options.allowAdjacentGoal === true && map.isBlocked(to.x, to.z));
  if (!adjacentGoal && map.isBlocked(to.x, to.z)) return null;

  if (isGoal(from.x, from.z, to, adjacentGoal)) return [];
  if (adjacentGoal && !hasWalkableNeighbour(map, to)) return null;

  const { minX, minZ } = map.bounds;
  const width = map.width;
  const start = map.index(from.x, from.z);
  table.begin();
  open.clear();
  table.reach(table.slot(start), 0, -1);
  open.push(start, estimate(from.x, from.z, to, adjacentGoal), 0);

  let expanded = 0;
  while (open.size > 0) {
    const current = open.pop();
    const here = table.slot(current);
    if (table.isSettled(here)) continue; // a stale entry superseded by a cheaper one
    const x = minX + (current % width);
    const z = minZ + Math.floor(current / width);
    if (isGoal(x, z, to, adjacentGoal)) return rebuild(map, start, current);
    table.settle(here);
    if (++expanded > maxNodes) return null;

    const g = table.cost(here);
    for (let k = 0; k < 8; k++) {
      const dx = DX[k]!;
      const dz = DZ[k]!;
      if (!canStep(map, x, z, dx, dz)) continue;
      const next = current + dz * width + dx;
      const there = table.slot(next);
      if (table.isSettled(there)) continue;
      const ng = g + (dx !== 0 && dz !== 0 ? SQRT2 : 1);
      if (table.cost(there) <= ng) continue;
      table.reach(there, ng, current);
      open.push(next, ng + estimate(x + dx, z + dz, to, adjacentGoal), ng);
    }
  }
  return null;
}

/** One search's bookkeeping and open list, kept for the next (a search runs to its end before another starts). */
const table = new SearchTable();
const open = new OpenHeap();

/** The search's goal: `to` itself, or (adjacentGoal) any tile next to it. */
function isGoal(x: number, z: number, to: Tile, adjacentGoal: boolean): boolean {
  return adjacentGoal ? Math.max(Math.abs(x - to.x), Math.abs(z - to.z)) === 1 : x === to.x && z === to.z;
}

/** The heuristic: octile distance to `to`; any tile next to `to` is at most sqrt(2) closer, still admissible. */
function estimate(x: number, z: number, to: Tile, adjacentGoal: boolean): number {
  const d = octile(x, z, to.x, to.z);
  return adjacentGoal ? Math.max(0, d - SQRT2) : d;
}

function swapAt(a: number[], i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

function hasWalkableNeighbour(map: TileMap, t: Tile): boolean {
  for (let k = 0; k < 8; k++) if (!map.isBlocked(t.x + DX[k]!, t.z + DZ[k]!)) return true;
  return false;
}

function rebuild(map: TileMap, start: number, end: number): Tile[] {
  const path: Tile[] = [];
  for (let node = end; node !== start; node = table.parent(table.slot(node))) path.push(map.tileAt(node));
  return path.reverse();
}
