/**
 * Pathfinding benchmark: findPath (src/game/pathfinding.ts) against the field's router,
 * @2004scape/rsmod-pathfinder (bench/rsmodRoutes.ts), over the shipped world's map and the spread
 * map of bench:world (its areas copied side by side), for the walks players ask for: a step or two
 * (a /ws client's moves in bench:ws), about 20 tiles (bench:world's walks, a click on the screen),
 * about 60 tiles (across a town), and about 20 tiles up to something to stand next to (an npc).
 * Both routers get the same walks. Per class and router it prints the microseconds a path takes
 * (median of --rounds rounds, each every query once) and its ratio to findPath's in this run, the
 * tiles of the paths found, the queries that found none (unreachable within the search's budget or
 * window), and the steps the server's walking rules would refuse (a check that both routers play
 * by the same map).
 *
 * Usage: npm run bench:pathfinding [-- --queries 400 --rounds 15 --seed 1 --copies 16]
 */
import { canStep, findPath } from "../src/game/pathfinding.js";
import { seededRng } from "../src/game/random.js";
import { buildTileMap, type TileMap } from "../src/game/tileMap.js";
import type { Tile } from "../src/game/types.js";
import { defaultGameData } from "../test/helpers/server.js";
import { benchArgs } from "./args.js";
import { spreadGameData } from "./spreadWorld.js";
import { RsmodRoutes } from "./rsmodRoutes.js";
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

type Router = (from: Tile, to: Tile, nextTo: boolean) => Tile[] | null;

/** Per-path µs (median of the rounds after the first 3, which compile the search), tiles a found path, paths not found, steps no walker could take. */
function measure(map: TileMap, pairs: Array<[Tile, Tile]>, nextTo: boolean, router: Router) {
  const perPath: number[] = [];
  let tiles = 0;
  let none = 0;
  let badSteps = 0;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (const [from, to] of pairs) {
      const path = router(from, to, nextTo);
      if (r === 0) {
        if (path) {
          tiles += path.length;
          badSteps += invalidSteps(map, from, path);
        } else none++;
      }
    }
    perPath.push(((performance.now() - t0) * 1000) / pairs.length);
  }
  return { us: median(perPath.slice(Math.min(3, rounds - 1))), tiles: tiles / Math.max(1, pairs.length - none), none, badSteps };
}

/** Steps of `path` the server's walking rules refuse (a blocked tile, a cut corner, a jump). */
function invalidSteps(map: TileMap, from: Tile, path: Tile[]): number {
  let bad = 0;
  let at = from;
  for (const t of path) {
    const dx = t.x - at.x;
    const dz = t.z - at.z;
    if (Math.max(Math.abs(dx), Math.abs(dz)) !== 1 || !canStep(map, at.x, at.z, dx, dz)) bad++;
    at = t;
  }
  return bad;
}

const base = await defaultGameData();
const maps: Array<[string, TileMap]> = [
  ["default", buildTileMap(base)],
  [`spread (${copies} copies)`, buildTileMap(spreadGameData(base, copies))],
];
const classes: Array<[string, number, number, boolean]> = [
  ["1-2 tiles", 1, 2, false],
  ["15-25 tiles", 15, 25, false],
  ["50-70 tiles", 50, 70, false],
  ["next to, 15-25", 15, 25, true],
];
console.log(`${queries} queries a class, median µs a path over ${rounds} rounds (the first 3 left out); node ${process.version}`);
console.log("findPath: this server's A* (src/game/pathfinding.ts); rsmod: @2004scape/rsmod-pathfinder 5 (WebAssembly BFS), its waypoints expanded to tiles");
console.log("map                  walk             router    µs/path  ratio  tiles/path  not found  bad steps");
for (const [name, map] of maps) {
  const rs = new RsmodRoutes(map);
  const routers: Array<[string, Router]> = [
    ["findPath", (from, to, nextTo) => findPath(map, from, to, nextTo ? { adjacent: true } : {})],
    ["rsmod", (from, to, nextTo) => rs.route(from, to, nextTo)],
  ];
  const rnd = seededRng(Number(a.seed));
  for (const [label, min, max, nextTo] of classes) {
    const pairs = walks(map, rnd, queries, min, max);
    let base = 0;
    for (const [router, route] of routers) {
      const r = measure(map, pairs, nextTo, route);
      base ||= r.us;
      console.log(
        `${name.padEnd(20)} ${label.padEnd(16)} ${router.padEnd(9)} ${r.us.toFixed(2).padStart(8)}  ${(r.us / base).toFixed(2).padStart(5)}  ${r.tiles.toFixed(1).padStart(10)}  ${String(r.none).padStart(9)}  ${String(r.badSteps).padStart(9)}`,
      );
    }
  }
  rs.release();
}
