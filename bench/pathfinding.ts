/**
 * Pathfinding benchmark: findPath (src/game/pathfinding.ts) over the shipped world's map and the
 * spread map of bench:world (its areas copied side by side), for the walks players ask for: a
 * step or two (a /ws client's moves in bench:ws), about 20 tiles (bench:world's walks, a click on
 * the screen), and about 60 tiles (across a town). Per class it prints the microseconds a path
 * takes (median of --rounds rounds, each every query once), the tiles of the paths found, and the
 * queries that found none (an unreachable tile within the search's budget).
 *
 * Usage: npm run bench:pathfinding [-- --queries 400 --rounds 15 --seed 1 --copies 16]
 */
import { findPath } from "../src/game/pathfinding.js";
import { seededRng } from "../src/game/random.js";
import { buildTileMap, type TileMap } from "../src/game/tileMap.js";
import type { Tile } from "../src/game/types.js";
import { defaultGameData } from "../test/helpers/server.js";
import { benchArgs } from "./args.js";
import { spreadGameData } from "./spreadWorld.js";
import { median } from "./stats.js";

const a = benchArgs("npm run bench:pathfinding", { queries: "400", rounds: "15", seed: "1", copies: "16" });
const queries = Number(a.queries);
const rounds = Number(a.rounds);
const copies = Number(a.copies);

function walkable(map: TileMap, rnd: () => number): Tile {
  const { minX, minZ } = map.bounds;
  for (;;) {
    const t = { x: minX + Math.floor(rnd() * map.width), z: minZ + Math.floor(rnd() * map.depth) };
    if (!map.isBlocked(t.x, t.z)) return t;
  }
}

/** `n` walks of `min`–`max` tiles (Chebyshev) between walkable tiles. */
function walks(map: TileMap, rnd: () => number, n: number, min: number, max: number): Array<[Tile, Tile]> {
  const out: Array<[Tile, Tile]> = [];
  while (out.length < n) {
    const from = walkable(map, rnd);
    const d = min + Math.floor(rnd() * (max - min + 1));
    const angle = rnd() * 2 * Math.PI;
    const to = { x: from.x + Math.round(Math.cos(angle) * d), z: from.z + Math.round(Math.sin(angle) * d) };
    if (map.inBounds(to.x, to.z) && !map.isBlocked(to.x, to.z) && (to.x !== from.x || to.z !== from.z)) out.push([from, to]);
  }
  return out;
}

function measure(map: TileMap, pairs: Array<[Tile, Tile]>) {
  const perPath: number[] = [];
  let tiles = 0;
  let none = 0;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (const [from, to] of pairs) {
      const path = findPath(map, from, to);
      if (r === 0) {
        if (path) tiles += path.length;
        else none++;
      }
    }
    perPath.push(((performance.now() - t0) * 1000) / pairs.length);
  }
  // The first rounds compile the search: the median is of the rounds after them.
  return { us: median(perPath.slice(Math.min(3, rounds - 1))), tiles: tiles / Math.max(1, pairs.length - none), none };
}

const base = await defaultGameData();
const maps: Array<[string, TileMap]> = [
  ["default", buildTileMap(base)],
  [`spread (${copies} copies)`, buildTileMap(spreadGameData(base, copies))],
];
const classes: Array<[string, number, number]> = [
  ["1-2 tiles", 1, 2],
  ["15-25 tiles", 15, 25],
  ["50-70 tiles", 50, 70],
];
console.log(`findPath, ${queries} queries a class, median µs a path over ${rounds} rounds (the first 3 left out); node ${process.version}`);
console.log("map                  walk          µs/path  tiles/path  not found");
for (const [name, map] of maps) {
  const rnd = seededRng(Number(a.seed));
  for (const [label, min, max] of classes) {
    const r = measure(map, walks(map, rnd, queries, min, max));
    console.log(`${name.padEnd(20)} ${label.padEnd(12)} ${r.us.toFixed(2).padStart(8)}  ${r.tiles.toFixed(1).padStart(10)}  ${String(r.none).padStart(9)}`);
  }
}
