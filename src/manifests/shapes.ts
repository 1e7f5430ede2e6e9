/**
 * The small shapes the records of the game data share, and the game uses too: a record as it was
 * read, an item and quantity, and a tile with the world's one rule that makes a position a tile.
 */

/** A record as the manifest had it. */
export type Raw = Record<string, unknown>;

export interface ItemQuantity {
  itemId: string;
  quantity: number;
}

/** A tile on the ground plane (integers). */
export interface Tile {
  x: number;
  z: number;
}

/** Round a coordinate to its tile: Math.round (x.5 goes up), never -0. */
export function roundTile(v: number): number {
  return Math.round(v) + 0;
}

/** The tile a world position stands on: coordinates are rounded to the nearest integer. */
export function tileOf(position: { x: number; z: number }): Tile {
  return { x: roundTile(position.x), z: roundTile(position.z) };
}
