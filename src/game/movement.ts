/**
 * Movement rules: validating a requested destination, and advancing along a path tick by tick.
 *
 * Distances between tiles are Chebyshev (a diagonal step counts as one tile), as in RuneScape:
 * walking covers 2 tiles per 600 ms tick, running 4.
 */
import { tileOf } from "../manifests/shapes.js";
import type { TileMap } from "./tileMap.js";
import { GameError, type Tile } from "./types.js";

/** The farthest tile a single move request may target (Chebyshev). */
export const MAX_MOVE_DISTANCE = 200;
export const WALK_TILES_PER_TICK = 2;
export const RUN_TILES_PER_TICK = 4;

/** Tiles covered per tick. */
export function tilesPerTick(running: boolean): number {
  return running ? RUN_TILES_PER_TICK : WALK_TILES_PER_TICK;
}

/** Chebyshev distance: the number of 8-connected steps on an open grid. */
export function chebyshev(a: Tile, b: Tile): number {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z));
}

/** True when `b` is at most `range` tiles from `a` (Chebyshev). */
export function withinRange(a: Tile, b: Tile, range: number): boolean {
  return chebyshev(a, b) <= range;
}

export interface MoveTargetOptions {
  /** Accept a blocked target (the caller paths to a tile next to it). */
  allowBlocked?: boolean;
}

/**
 * Validate a client's requested destination and return its tile. Coordinates are rounded to the
 * nearest tile with Math.round (x.5 goes up), the same rounding as `tileOf`.
 * Checked in order, each a GameError:
 *   INVALID_TARGET  x or z is not a finite number (strings, NaN, Infinity, missing)
 *   OUT_OF_BOUNDS   the tile lies outside the world
 *   TOO_FAR         more than MAX_MOVE_DISTANCE tiles from `from` (Chebyshev)
 *   BLOCKED         the tile cannot be stood on (unless `allowBlocked`)
 */
export function validateMoveTarget(map: TileMap, from: Tile, target: { x: unknown; z: unknown }, options: MoveTargetOptions = {}): Tile {
  const { x, z } = target ?? ({} as { x: unknown; z: unknown });
  if (typeof x !== "number" || typeof z !== "number" || !Number.isFinite(x) || !Number.isFinite(z)) {
    throw new GameError("INVALID_TARGET", "The destination must have finite numeric x and z.");
  }
  const tile = tileOf({ x, z });
  if (!map.inBounds(tile.x, tile.z)) {
    throw new GameError("OUT_OF_BOUNDS", `(${tile.x}, ${tile.z}) is outside the world.`);
  }
  if (chebyshev(from, tile) > MAX_MOVE_DISTANCE) {
    throw new GameError("TOO_FAR", `You can only move up to ${MAX_MOVE_DISTANCE} tiles at a time.`);
  }
  if (!options.allowBlocked && map.isBlocked(tile.x, tile.z)) {
    throw new GameError("BLOCKED", `(${tile.x}, ${tile.z}) cannot be walked on.`);
  }
  return tile;
}

export interface StepResult {
  /** Where the walker stands after this tick. */
  position: Tile;
  /** The rest of the path, not yet walked. */
  remaining: Tile[];
  /** Tiles walked this tick. */
  moved: number;
}

/**
 * Walk up to `tilesPerTick` tiles of `path` (tiles still to walk, excluding the current one).
 * `from` is the walker's current tile: the position reported when nothing is walked; without it,
 * an empty path (or tilesPerTick <= 0) is a GameError "NO_PATH".
 */
export function stepAlong(path: readonly Tile[], tilesPerTick: number, from?: Tile): StepResult {
  const n = Math.max(0, Math.min(path.length, Math.floor(tilesPerTick)));
  if (n === 0) {
    if (!from) throw new GameError("NO_PATH", "There is nothing to walk.");
    return { position: { x: from.x, z: from.z }, remaining: path.slice(), moved: 0 };
  }
  const last = path[n - 1]!;
  return { position: { x: last.x, z: last.z }, remaining: path.slice(n), moved: n };
}
