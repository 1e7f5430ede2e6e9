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

// Cell coordinates are packed into one number, (cx + OFFSET) * STRIDE + (cz + OFFSET), small enough
// to be a V8 small integer: a Map keyed by it hashes it at once, where a key past 2^30 is a heap
// number (bench:world's spread map at 2,000 players: its queries took a third longer). Cells run
// from -OFFSET to OFFSET - 1 on each axis (±131,072 tiles at 16 tiles a cell).
const OFFSET = 2 ** 13;
const STRIDE = 2 ** 14;

interface Entry {
  x: number;
  z: number;
  cell: number;
}

export class SpatialGrid<T extends string = string> {
  /** Each cell's entities with their entries, so a query reads positions without a second lookup. */
  private readonly cells = new Map<number, Map<T, Entry>>();
  private readonly entries = new Map<T, Entry>();
  /**
   * What moved since `clearMoves`, by cell: for each entity put, moved or removed, its position
   * before and after (NaN where it had none), four numbers a move, and its id, noted in the cells of both.
   */
  private readonly moves = new Map<number, Moves<T>>();

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
    this.noteMove(cell, id, NaN, NaN, x, z);
    this.entries.set(id, entry);
    this.bucket(cell).set(id, entry);
  }

  /** Update an entity's position (inserting it when absent). */
  move(id: T, x: number, z: number): void {
    this.put(id, x, z);
  }

  /** Put an entity where it stands now, moving it or inserting it: true when it was not in the grid. */
  put(id: T, x: number, z: number): boolean {
    const e = this.entries.get(id);
    if (!e) {
      this.insert(id, x, z);
      return true;
    }
    if (x === e.x && z === e.z) return false;
    const cell = this.cellKey(x, z);
    this.noteMove(e.cell, id, e.x, e.z, x, z);
    if (cell !== e.cell) {
      this.noteMove(cell, id, e.x, e.z, x, z);
      this.unbucket(e.cell, id);
      this.bucket(cell).set(id, e);
      e.cell = cell;
    }
    e.x = x;
    e.z = z;
    return false;
  }

  /** Remove an entity; false when it was not there. */
  remove(id: T): boolean {
    const e = this.entries.get(id);
    if (!e) return false;
    this.noteMove(e.cell, id, e.x, e.z, NaN, NaN);
    this.unbucket(e.cell, id);
    this.entries.delete(id);
    return true;
  }

  /**
   * Note an entity as if it had just been put where it stands (who may see it changed, though it
   * did not move): `crossedWithin` lists it for every square it stands in.
   */
  seenAnew(id: T): void {
    const e = this.entries.get(id);
    if (e) this.noteMove(e.cell, id, NaN, NaN, e.x, e.z);
  }

  /** Every entity within `radius` tiles (Chebyshev, inclusive) of (x, z): into `out` (cleared first) when given. */
  queryRadius(x: number, z: number, radius: number, out = new Set<T>()): Set<T> {
    out.clear();
    const r = Math.max(0, radius);
    const [cx0, cx1, cz0, cz1] = this.cellRange(x, z, r);
    if ((cx1 - cx0 + 1) * (cz1 - cz0 + 1) > this.cells.size) {
      // A square over more cells than hold anything: each entity is checked instead.
      for (const [id, e] of this.entries) if (Math.abs(e.x - x) <= r && Math.abs(e.z - z) <= r) out.add(id);
      return out;
    }
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
   * The entities that were put in the square `radius` around (x, z), removed from it, or moved
   * into or out of it (at any step, if one moved more than once) since `clearMoves`: into `out`
   * (cleared first). Moves within the square or outside it do not count. What else
   * `queryRadius(x, z, radius)` returns is as it was when the moves were cleared.
   */
  crossedWithin(x: number, z: number, radius: number, out = new Set<T>()): Set<T> {
    out.clear();
    if (this.moves.size === 0) return out;
    const r = Math.max(0, radius);
    const [cx0, cx1, cz0, cz1] = this.cellRange(x, z, r);
    if ((cx1 - cx0 + 1) * (cz1 - cz0 + 1) > this.moves.size) {
      // A square over more cells than saw moves: each cell's moves are checked instead.
      for (const moves of this.moves.values()) crossed(moves, x, z, r, out);
      return out;
    }
    for (let cx = cx0; cx <= cx1; cx++) {
      for (let cz = cz0; cz <= cz1; cz++) {
        const moves = this.moves.get((cx + OFFSET) * STRIDE + (cz + OFFSET));
        if (moves) crossed(moves, x, z, r, out);
      }
    }
    return out;
  }

  /** Is the entity in the grid within `radius` tiles (Chebyshev, inclusive) of (x, z)? */
  within(id: T, x: number, z: number, radius: number): boolean {
    const e = this.entries.get(id);
    return e !== undefined && Math.abs(e.x - x) <= radius && Math.abs(e.z - z) <= radius;
  }

  /** Start noting moves afresh (once a tick, after every view is brought up to date). */
  clearMoves(): void {
    this.moves.clear();
  }

  private noteMove(cell: number, id: T, fromX: number, fromZ: number, toX: number, toZ: number): void {
    const moves = this.moves.get(cell);
    if (moves) {
      moves.at.push(fromX, fromZ, toX, toZ);
      moves.ids.push(id);
    } else this.moves.set(cell, { at: [fromX, fromZ, toX, toZ], ids: [id] });
  }

  /** The cells a query square overlaps (first and last on each axis), clipped to the cells there can be. */
  private cellRange(x: number, z: number, r: number): [number, number, number, number] {
    const size = this.cellSize;
    return [
      clipCell(Math.floor((x - r) / size)),
      clipCell(Math.floor((x + r) / size)),
      clipCell(Math.floor((z - r) / size)),
      clipCell(Math.floor((z + r) / size)),
    ];
  }

  private cellKey(x: number, z: number): number {
    const cx = Math.floor(x / this.cellSize);
    const cz = Math.floor(z / this.cellSize);
    if (!(cx >= -OFFSET && cx < OFFSET && cz >= -OFFSET && cz < OFFSET)) throw new RangeError(`position (${x}, ${z}) is outside the grid`);
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

/** A cell coordinate brought within the range there are cells in. */
function clipCell(c: number): number {
  return Math.min(OFFSET - 1, Math.max(-OFFSET, c));
}

/** A cell's moves: from x, z to x, z (four numbers each), and whose. */
interface Moves<T> {
  at: number[];
  ids: T[];
}

/** Those of a cell's moves that crossed the edge of the square `r` around (x, z), into `out`. */
function crossed<T>(moves: Moves<T>, x: number, z: number, r: number, out: Set<T>): void {
  const at = moves.at;
  for (let i = 0; i < at.length; i += 4) {
    // NaN (no position) is never within the square.
    const before = Math.abs(at[i] - x) <= r && Math.abs(at[i + 1] - z) <= r;
    const after = Math.abs(at[i + 2] - x) <= r && Math.abs(at[i + 3] - z) <= r;
    if (before !== after) out.add(moves.ids[i / 4]);
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
