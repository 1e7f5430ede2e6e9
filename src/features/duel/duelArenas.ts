/**
 * duel-arenas.json: the arenas duels are fought in (a square around a centre, two spawn points, the
 * trapdoors), and the duel arena's lobby and hospital. Positions become tiles by the world's one
 * rounding rule (tileOf). An arena that cannot be played (fewer than two spawn points, a spawn
 * point outside its square, an id used twice) is skipped with a warning; `constants` (the look of
 * the walls and floor) is the client's business and is not read. The file is the duel feature's
 * (WorldFeature.manifests): the game data keeps it in `extras`, and `arenasOf` reads it once per
 * game data.
 */
import { z } from "zod";
import { silentLogger } from "../../logger.js";
import { LoadContext, rawOf } from "../../manifests/context.js";
import type { GameData } from "../../manifests/index.js";
import { tileOf, type Raw, type Tile } from "../../manifests/shapes.js";

export interface DuelArena {
  /** `arenaId` in the data. */
  id: number;
  center: Tile;
  /** The side of the square, in tiles: the arena spans center ± size / 2 on both axes. */
  size: number;
  /** Where the two duellists start. */
  spawnPoints: [Tile, Tile];
  trapdoors: Tile[];
  raw: Raw;
}

/** A rectangle around a centre: the lobby or the hospital. */
export interface DuelArea {
  center: Tile;
  width: number;
  depth: number;
  /** Where a player is put: after a duel (hospital) or when leaving an arena (lobby). */
  spawnPoint?: Tile;
}

/** The duel arena's lobby and hospital, when the data has them. */
export interface DuelPlaces {
  lobby?: DuelArea;
  hospital?: DuelArea;
}

export interface DuelArenaData {
  arenas: DuelArena[];
  places: DuelPlaces;
}

const coord = z.number().finite().min(-1_000_000).max(1_000_000);
const point = z.looseObject({ x: coord, y: coord.nullish(), z: coord });
const extent = z.number().finite().positive().max(10_000);

const arenaSchema = z.looseObject({
  arenaId: z.number().int().min(0).max(1_000_000_000),
  center: point,
  size: extent,
  spawnPoints: z.array(point),
  trapdoorPositions: z.array(point).nullish(),
});

const areaSchema = z.looseObject({
  center: point,
  size: z.looseObject({ width: extent, depth: extent }),
  spawnPoint: point.nullish(),
});

const fileSchema = z.looseObject({ arenas: z.array(z.unknown()) });

/** Whether a tile lies in the arena's square (edges included). */
export function inArena(arena: Pick<DuelArena, "center" | "size">, tile: Tile): boolean {
  const half = arena.size / 2;
  return Math.abs(tile.x - arena.center.x) <= half && Math.abs(tile.z - arena.center.z) <= half;
}

function arenaLabel(value: unknown, index: number): string {
  const id = value && typeof value === "object" ? (value as Record<string, unknown>).arenaId : undefined;
  return `arena ${typeof id === "number" || typeof id === "string" ? String(id) : `#${index}`}`;
}

function readArena(ctx: LoadContext, file: string, value: unknown, label: string): DuelArena | undefined {
  const r = ctx.record(arenaSchema, value, file, label);
  if (!r) return undefined;
  const center = tileOf(r.center);
  const spawns = r.spawnPoints.map(tileOf);
  if (spawns.length < 2) {
    ctx.warn(file, `${label} has ${spawns.length} spawn point(s), a duel needs 2; skipped`);
    return undefined;
  }
  if (spawns.length > 2) ctx.warn(file, `${label} has ${spawns.length} spawn points; only the first 2 are used`);
  const arena = { center, size: r.size };
  const outside = spawns.slice(0, 2).find((s) => !inArena(arena, s));
  if (outside) {
    ctx.warn(file, `${label}: spawn point (${outside.x}, ${outside.z}) is outside its ${r.size}-tile square around (${center.x}, ${center.z}); skipped`);
    return undefined;
  }
  return {
    id: r.arenaId,
    center,
    size: r.size,
    spawnPoints: [spawns[0]!, spawns[1]!],
    trapdoors: (r.trapdoorPositions ?? []).map(tileOf),
    raw: rawOf(value),
  };
}

function readArea(ctx: LoadContext, file: string, value: unknown, label: string): DuelArea | undefined {
  if (value === undefined || value === null) return undefined;
  const r = ctx.record(areaSchema, value, file, label);
  if (!r) return undefined;
  return { center: tileOf(r.center), width: r.size.width, depth: r.size.depth, ...(r.spawnPoint ? { spawnPoint: tileOf(r.spawnPoint) } : {}) };
}

export function buildDuelArenas(ctx: LoadContext, file: string, json: unknown): DuelArenaData {
  const top = ctx.topLevel(fileSchema, json, file, false);
  if (!top) return { arenas: [], places: {} };
  const arenas: DuelArena[] = [];
  top.arenas.forEach((value, i) => {
    const label = arenaLabel(value, i);
    const arena = readArena(ctx, file, value, label);
    if (!arena) return;
    if (arenas.some((a) => a.id === arena.id)) ctx.warn(file, `${label} is defined twice; duplicate skipped`);
    else arenas.push(arena);
  });
  const lobby = readArea(ctx, file, top.lobby, "lobby");
  const hospital = readArea(ctx, file, top.hospital, "hospital");
  return { arenas, places: { ...(lobby ? { lobby } : {}), ...(hospital ? { hospital } : {}) } };
}

export const DUEL_ARENAS_FILE = "duel-arenas.json";

const readOnce = new WeakMap<GameData, DuelArenaData & { warnings: readonly string[] }>();

/**
 * The game data's arenas, lobby and hospital (none without the file), read once per game data (a
 * content reload's new data is read anew), with the warnings of what was skipped.
 */
export function arenasOf(data: GameData): DuelArenaData & { warnings: readonly string[] } {
  let read = readOnce.get(data);
  if (!read) {
    const raw = data.extras[DUEL_ARENAS_FILE.replace(/\.json$/, "")];
    const ctx = new LoadContext(data.dir, silentLogger, true);
    const built = raw === undefined ? { arenas: [], places: {} } : buildDuelArenas(ctx, DUEL_ARENAS_FILE, raw);
    read = { ...built, warnings: ctx.warnings };
    readOnce.set(data, read);
  }
  return read;
}
