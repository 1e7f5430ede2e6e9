/**
 * The bookkeeping of one A* search by tile index: each touched tile's cost so far, the tile it was
 * reached from, and whether it is settled. Kept in typed arrays from search to search, so a search
 * allocates nothing, and the memory is in proportion to the most tiles one search has touched,
 * not to the size of the world.
 *
 * An open-addressing table with linear probing, at most half full (it doubles past that). Each
 * entry is stamped with the number of the search that wrote it, so `begin()` empties the table
 * without touching it. The largest search findPath allows (20,000 tiles expanded, each touching up
 * to 8) leaves it at 2^19 slots, about 11 MB.
 */
export class SearchTable {
  private bits: number;
  private keys: Int32Array;
  private stamps: Uint32Array;
  private costs: Float64Array;
  private parents: Int32Array;
  private settled: Uint8Array;
  private count = 0;
  private search = 0;

  constructor(bits = 10) {
    this.bits = bits;
    const size = 1 << bits;
    this.keys = new Int32Array(size);
    this.stamps = new Uint32Array(size);
    this.costs = new Float64Array(size);
    this.parents = new Int32Array(size);
    this.settled = new Uint8Array(size);
  }

  /** Start a new search: every tile is untouched again. */
  begin(): void {
    this.count = 0;
    if (++this.search > 0xfffffffe) {
      this.stamps.fill(0);
      this.search = 1;
    }
  }

  /** The tile's slot, made (cost Infinity, no parent, not settled) if the search has not touched it yet. */
  slot(key: number): number {
    const mask = (1 << this.bits) - 1;
    let i = Math.imul(key, 0x9e3779b1) >>> (32 - this.bits);
    while (this.stamps[i] === this.search) {
      if (this.keys[i] === key) return i;
      i = (i + 1) & mask;
    }
    if (this.count * 2 >= mask) {
      this.grow();
      return this.slot(key);
    }
    this.count++;
    this.stamps[i] = this.search;
    this.keys[i] = key;
    this.costs[i] = Infinity;
    this.parents[i] = -1;
    this.settled[i] = 0;
    return i;
  }

  cost(slot: number): number {
    return this.costs[slot]!;
  }

  /** Reached at `cost` from the tile `parent` (-1: the start). */
  reach(slot: number, cost: number, parent: number): void {
    this.costs[slot] = cost;
    this.parents[slot] = parent;
  }

  parent(slot: number): number {
    return this.parents[slot]!;
  }

  isSettled(slot: number): boolean {
    return this.settled[slot] === 1;
  }

  settle(slot: number): void {
    this.settled[slot] = 1;
  }

  /** Twice the room, this search's entries carried over. */
  private grow(): void {
    const { keys, stamps, costs, parents, settled, search } = this;
    this.bits++;
    const size = 1 << this.bits;
    this.keys = new Int32Array(size);
    this.stamps = new Uint32Array(size);
    this.costs = new Float64Array(size);
    this.parents = new Int32Array(size);
    this.settled = new Uint8Array(size);
    this.count = 0;
    for (let i = 0; i < keys.length; i++) {
      if (stamps[i] !== search) continue;
      const s = this.slot(keys[i]!);
      this.costs[s] = costs[i]!;
      this.parents[s] = parents[i]!;
      this.settled[s] = settled[i]!;
    }
  }
}
