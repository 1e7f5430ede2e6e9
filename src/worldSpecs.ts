/**
 * The worlds a server (or a cluster) offers, as players think of them: "world 301, 1,843 players".
 * Each world is one WorldRoom on one process; its rows (chunks, store shelves, death piles,
 * sessions) are kept under its id.
 */
export interface WorldSpec {
  /** 1 to 9999. */
  id: number;
  /** What players see: "World 301" unless named. */
  name: string;
  /** Most players (and agents) the world holds at once. */
  capacity: number;
}

export const MAX_WORLDS = 100;
export const MAX_WORLD_ID = 9999;
export const MAX_WORLD_NAME = 40;
export const DEFAULT_WORLD_CAPACITY = 2000;
export const MAX_WORLD_CAPACITY = 10_000;

/** The world of that id among `worlds` (the first when none is given); throws for an id not among them. */
export function worldSpecOf(worlds: WorldSpec[], worldId?: number): WorldSpec {
  const spec = worldId === undefined ? worlds[0] : worlds.find((w) => w.id === worldId);
  if (!spec) throw new Error(`World ${worldId} is not one of WORLDS (${worlds.map((w) => w.id).join(", ")})`);
  return spec;
}

/** The key of a world's rows in the database. */
export const worldKey = (id: number) => String(id);

/**
 * WORLDS: unset or blank is one world (id 1); a bare whole number is how many (ids 1..n); anything
 * else is a comma-separated list of `id[:name[:capacity]]` (a single world with a chosen id:
 * `301:` or `301:Trade world`). Throws an Error whose message names what is wrong.
 */
export function parseWorlds(value: string | undefined, defaultCapacity = DEFAULT_WORLD_CAPACITY): WorldSpec[] {
  const text = (value ?? "").trim();
  const world = (id: number, name?: string, capacity?: number): WorldSpec => ({ id, name: name || `World ${id}`, capacity: capacity ?? defaultCapacity });
  if (text === "") return [world(1)];
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    if (n < 1 || n > MAX_WORLDS) throw new Error(`WORLDS as a count must be from 1 to ${MAX_WORLDS}, got "${value}"`);
    return Array.from({ length: n }, (_, i) => world(i + 1));
  }
  const worlds: WorldSpec[] = [];
  for (const entry of text.split(",").map((s) => s.trim())) {
    if (entry === "") continue;
    const [idText = "", name = "", capacityText = "", ...rest] = entry.split(":").map((s) => s.trim());
    if (rest.length) throw new Error(`WORLDS: "${entry}" has more than id:name:capacity`);
    const id = Number(idText);
    if (!/^\d+$/.test(idText) || id < 1 || id > MAX_WORLD_ID)
      throw new Error(`WORLDS: a world id must be a whole number from 1 to ${MAX_WORLD_ID}, got "${idText}"`);
    if (worlds.some((w) => w.id === id)) throw new Error(`WORLDS: world ${id} is listed twice`);
    if (name.length > MAX_WORLD_NAME) throw new Error(`WORLDS: the name of world ${id} is longer than ${MAX_WORLD_NAME} characters`);
    let capacity: number | undefined;
    if (capacityText !== "") {
      capacity = Number(capacityText);
      if (!/^\d+$/.test(capacityText) || capacity < 1 || capacity > MAX_WORLD_CAPACITY)
        throw new Error(`WORLDS: the capacity of world ${id} must be a whole number from 1 to ${MAX_WORLD_CAPACITY}, got "${capacityText}"`);
    }
    worlds.push(world(id, name, capacity));
  }
  if (worlds.length === 0) throw new Error(`WORLDS lists no world: "${value}"`);
  if (worlds.length > MAX_WORLDS) throw new Error(`WORLDS lists ${worlds.length} worlds; at most ${MAX_WORLDS}`);
  return worlds;
}

/** What a world room lists in the matchmaker (every process of a cluster reads it). */
export interface WorldMetadata {
  worldId: number;
  name: string;
  capacity: number;
  /** Set while the world moves to another process (a drain): listed as starting, not joinable here. */
  moving?: boolean;
}

export const worldMetadata = (spec: WorldSpec): WorldMetadata => ({ worldId: spec.id, name: spec.name, capacity: spec.capacity });

export type WorldStatus = "online" | "starting" | "offline";

/** A world as GET /api/v1/worlds lists it. */
export interface WorldEntry {
  id: number;
  name: string;
  capacity: number;
  /** Players (and agents) in it now, seats being taken included. */
  players: number;
  status: WorldStatus;
  full: boolean;
  /** Where it runs while online: its room id (for `joinById`), its process and that process's public address. */
  roomId: string | null;
  processId: string | null;
  publicAddress: string | null;
}

/** Why no world can be joined: a status and a code for the documented error body. */
export class WorldChoiceError extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 503,
    readonly code: "INVALID_WORLD" | "WORLD_NOT_FOUND" | "WORLD_FULL" | "WORLD_UNAVAILABLE",
    message: string,
  ) {
    super(message);
  }
}

/**
 * The world a join goes to: the one asked for (by id), or the least full online world (by share
 * of its capacity, then by id). Throws WorldChoiceError: an unknown id (404), a full world or all
 * worlds full (409), the world asked for or every world not running now (503).
 */
export function chooseWorld(entries: WorldEntry[], wanted?: number): WorldEntry {
  if (wanted !== undefined) {
    const w = entries.find((e) => e.id === wanted);
    if (!w) throw new WorldChoiceError(404, "WORLD_NOT_FOUND", `There is no world ${wanted} (worlds: ${entries.map((e) => e.id).join(", ")})`);
    if (w.status !== "online")
      throw new WorldChoiceError(503, "WORLD_UNAVAILABLE", `World ${wanted} is not running right now (${w.status}); try again shortly`);
    if (w.full) throw new WorldChoiceError(409, "WORLD_FULL", `World ${wanted} is full (${w.players} of ${w.capacity}); choose another world`);
    return w;
  }
  const open = entries.filter((e) => e.status === "online");
  if (open.length === 0) throw new WorldChoiceError(503, "WORLD_UNAVAILABLE", "No world is running right now; try again shortly");
  const free = open.filter((e) => !e.full).sort((a, b) => a.players / a.capacity - b.players / b.capacity || a.id - b.id);
  if (free.length === 0) throw new WorldChoiceError(409, "WORLD_FULL", "Every world is full; try again shortly");
  return free[0]!;
}

/** A world id as a client names it (a number, or a string of digits), undefined when absent; throws on anything else. */
export function worldIdOption(value: unknown): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_WORLD_ID)
    throw new WorldChoiceError(400, "INVALID_WORLD", `A world id is a whole number from 1 to ${MAX_WORLD_ID}, got ${JSON.stringify(value).slice(0, 40)}`);
  return n;
}
