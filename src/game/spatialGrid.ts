/**
 * Area of interest: a uniform grid of square cells that answers "who is near (x, z)?" by touching
 * only the cells overlapping the query square, so thousands of entities cost little per tick.
 *
 * Insert, move and remove are O(1). Distance is Chebyshev (a square window, as RuneScape's viewport
 * of 32 tiles around the player).
 */

/** How far (tiles, Chebyshev) a player sees other entities. */
export const AOI_RADIUS = 32;
export const DEFAULT_CELL_SIZE = 16;

// Cell coordinates are packed into one number: (cx + OFFSET) * STRIDE + (cz + OFFSET).
const OFFSET = 2 ** 20;
const STRIDE = 2 ** 21;

interface Entry {
  x: number;
  z: number;
  cell: number;
}

export class SpatialGrid<T extends string = string> {
  /** Each cell's entities with their entries, so a query reads positions without a second lookup. */
  private readonly cells = new Map<number, Map<T, Entry>>();
  private readonly entries = new Map<T, Entry>();
  /** Cells an entity was put in, moved in, into or out of, or removed from since `clearTouched`. */
  private readonly touched = new Set<number>();

  constructor(readonly cellSize = DEFAULT_CELL_SIZE) {
    if (!(cellSize > 0) || !Number.isFinite(cellSize)) throw new RangeError(`invalid cell size ${cellSize}`);
  }

  get size(): number {
    return this.entries.size;
  }

  has(id: T): boolean {
    return this.entries.has(id);
  }

  /** Where an entity was last put, if it is in the grid. */
  positionOf(id: T): { x: number; z: number } | undefined {
    const e = this.entries.get(id);
    return e ? { x: e.x, z: e.z } : undefined;
  }

  ids(): IterableIterator<T> {
    return this.entries.keys();
  }

  /** Add an entity, or move it when it is already there. */
  insert(id: T, x: number, z: number): void {
    if (this.entries.has(id)) {
      this.move(id, x, z);
      return;
    }
    const cell = this.cellKey(x, z);
    const entry = { x, z, cell };
    this.touched.add(cell);
    this.entries.set(id, entry);
    this.bucket(cell).set(id, entry);
  }

  /** Update an entity's position (inserting it when absent). */
  move(id: T, x: number, z: number): void {
    const e = this.entries.get(id);
    if (!e) {
      this.insert(id, x, z);
      return;
    }
    const cell = this.cellKey(x, z);
    this.touched.add(e.cell);
    this.touched.add(cell);
    if (cell !== e.cell) {
      this.unbucket(e.cell, id);
      this.bucket(cell).set(id, e);
      e.cell = cell;
    }
    e.x = x;
    e.z = z;
  }

  /** Remove an entity; false when it was not there. */
  remove(id: T): boolean {
    const e = this.entries.get(id);
    if (!e) return false;
    this.touched.add(e.cell);
    this.unbucket(e.cell, id);
    this.entries.delete(id);
    return true;
  }

  /** Every entity within `radius` tiles (Chebyshev, inclusive) of (x, z): into `out` (cleared first) when given. */
  queryRadius(x: number, z: number, radius: number, out = new Set<T>()): Set<T> {
    out.clear();
    const r = Math.max(0, radius);
    const cx0 = Math.floor((x - r) / this.cellSize);
    const cx1 = Math.floor((x + r) / this.cellSize);
    const cz0 = Math.floor((z - r) / this.cellSize);
    const cz1 = Math.floor((z + r) / this.cellSize);
    const size = this.cellSize;
    for (let cx = cx0; cx <= cx1; cx++) {
      // A cell holds positions in [c·size, (c+1)·size): wholly inside the query square when that
      // interval is within [x - r, x + r], and then its entities need no check one by one.
      const insideX = cx * size >= x - r && (cx + 1) * size <= x + r;
      for (let cz = cz0; cz <= cz1; cz++) {
        const cell = this.cells.get((cx + OFFSET) * STRIDE + (cz + OFFSET));
        if (!cell) continue;
        if (insideX && cz * size >= z - r && (cz + 1) * size <= z + r) {
          for (const id of cell.keys()) out.add(id);
          continue;
        }
        for (const [id, e] of cell) {
          if (Math.abs(e.x - x) <= r && Math.abs(e.z - z) <= r) out.add(id);
        }
      }
    }
    return out;
  }

  /**
   * Could what `queryRadius(x, z, radius)` returns have changed since `clearTouched`? False when no
   * entity was put, moved or removed in any cell the query square overlaps.
   */
  touchedWithin(x: number, z: number, radius: number): boolean {
    if (this.touched.size === 0) return false;
    const r = Math.max(0, radius);
    const cz0 = Math.floor((z - r) / this.cellSize);
    const cz1 = Math.floor((z + r) / this.cellSize);
    for (let cx = Math.floor((x - r) / this.cellSize), cx1 = Math.floor((x + r) / this.cellSize); cx <= cx1; cx++) {
      for (let cz = cz0; cz <= cz1; cz++) if (this.touched.has((cx + OFFSET) * STRIDE + (cz + OFFSET))) return true;
    }
    return false;
  }

  /** Start noting touched cells afresh (once a tick, after every view is brought up to date). */
  clearTouched(): void {
    this.touched.clear();
  }

  private cellKey(x: number, z: number): number {
    const cx = Math.floor(x / this.cellSize);
    const cz = Math.floor(z / this.cellSize);
    return (cx + OFFSET) * STRIDE + (cz + OFFSET);
  }

  private bucket(cell: number): Map<T, Entry> {
    let ids = this.cells.get(cell);
    if (!ids) {
      ids = new Map();
      this.cells.set(cell, ids);
    }
    return ids;
  }

  private unbucket(cell: number, id: T): void {
    const ids = this.cells.get(cell);
    if (!ids) return;
    ids.delete(id);
    if (ids.size === 0) this.cells.delete(cell);
  }
}

/** What changed between two interest sets: ids that came into view and ids that went out of it. */
export function diffInterest<T extends string>(previous: ReadonlySet<T>, current: ReadonlySet<T>): { entered: T[]; left: T[] } {
  const entered: T[] = [];
  const left: T[] = [];
  for (const id of current) if (!previous.has(id)) entered.push(id);
  for (const id of previous) if (!current.has(id)) left.push(id);
  return { entered, left };
}
