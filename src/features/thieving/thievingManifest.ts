import { z } from "zod";
import { describeIssues } from "../../manifests/schemas.js";
import type { Tile } from "../../game/types.js";
import type { StationEntity } from "../../game/world/entities.js";
import type { World } from "../../game/world/World.js";

/**
 * What a world's thieves may steal: its `thieving.json` manifest (optional; read from the game
 * data's files that no other part models).
 *
 * - `pickpocket`: the npcs whose pockets may be picked, by npc id (the npc's manifest entry names
 *   the `pickpocket` service, which is how clients know to offer it): the thieving `level` needed,
 *   the `xp` a success gives, the `loot` (one entry drawn by `weight`, a quantity from `min` to
 *   `max`), and a failure's cost: the chance `failChance` at the npc's own level, falling evenly to
 *   none at `safeLevel` (default: level + 40), a stun of `stunTicks` ticks and `stunDamage` hitpoints.
 * - `stalls`: stalls standing at `position` (stations of type `thieving_stall` every client sees):
 *   the `level`, the `xp`, the `loot`, and the ticks an emptied stall takes to restock (`restockTicks`).
 *
 * An entry that does not fit the schema, names an unknown npc or item, or stands outside the map is
 * skipped with a warning in the log.
 */
const tile = z.object({ x: z.number().int(), z: z.number().int() }).loose();
const lootSchema = z
  .object({
    itemId: z.string().min(1),
    min: z.number().int().min(1).max(1_000_000).default(1),
    max: z.number().int().min(1).max(1_000_000).optional(),
    weight: z.number().positive().max(1_000_000).default(1),
  })
  .loose()
  .refine((l) => l.max === undefined || l.max >= l.min, { message: "max is below min" });
const pickpocketSchema = z
  .object({
    npcId: z.string().min(1),
    level: z.number().int().min(1).max(99),
    xp: z.number().min(0).max(10_000),
    loot: z.array(lootSchema).min(1),
    failChance: z.number().min(0).max(1).default(0.4),
    safeLevel: z.number().int().min(1).max(140).optional(),
    stunTicks: z.number().int().min(1).max(50).default(8),
    stunDamage: z.number().int().min(0).max(99).default(1),
  })
  .loose();
const stallSchema = z
  .object({
    id: z.string().min(1).max(100),
    name: z.string().min(1),
    position: tile,
    level: z.number().int().min(1).max(99),
    xp: z.number().min(0).max(10_000),
    loot: z.array(lootSchema).min(1),
    restockTicks: z.number().int().min(1).max(1_000).default(10),
  })
  .loose();
const fileSchema = z.object({ pickpocket: z.array(z.unknown()).default([]), stalls: z.array(z.unknown()).default([]) }).loose();

export type Loot = z.infer<typeof lootSchema>;
export type Pickpocket = z.infer<typeof pickpocketSchema>;
export type Stall = z.infer<typeof stallSchema> & { stationId: string };

/** The service an npc's manifest entry names for clients to offer "Pickpocket". */
export const PICKPOCKET_SERVICE = "pickpocket";
/** The station type a stall is placed as. */
export const STALL_TYPE = "thieving_stall";

interface Thievery {
  pickpockets: Map<string, Pickpocket>;
  stalls: Map<string, Stall>;
  /** The tick each emptied stall restocks on, by station id. */
  restocks: Map<string, number>;
}

const thieveryOf = new WeakMap<World, Thievery>();
const empty = (): Thievery => ({ pickpockets: new Map(), stalls: new Map(), restocks: new Map() });

export const thieveryIn = (world: World): Thievery => thieveryOf.get(world) ?? empty();

/** WorldFeature.reloaded: the pockets and stalls the new data gives (stalls emptied before are full again). */
export function reloadThievery(world: World, scratch: World) {
  thieveryOf.set(world, thieveryIn(scratch));
}

/** WorldFeature.populate: read the manifest, place each stall as a station. */
export function placeThievery(world: World) {
  const t = empty();
  const warn = (message: string) => world.events.push({ kind: "contentWarning", message: `thieving.json: ${message}; skipped` });
  const raw = world.data.extras["thieving"];
  const file = raw === undefined ? undefined : fileSchema.safeParse(raw);
  if (file && !file.success) warn("not an object with pickpocket and stalls lists");
  const data = file?.success ? file.data : { pickpocket: [], stalls: [] };
  for (const [i, entry] of data.pickpocket.entries()) {
    const parsed = pickpocketSchema.safeParse(entry);
    if (!parsed.success) {
      warn(`pickpocket ${i}: ${describeIssues(parsed.error)}`);
      continue;
    }
    const bad = badLoot(world, parsed.data.loot);
    if (!world.data.npcs.has(parsed.data.npcId)) warn(`pickpocket ${i}: no npc ${parsed.data.npcId}`);
    else if (bad) warn(`pickpocket ${parsed.data.npcId}: no item ${bad}`);
    else t.pickpockets.set(parsed.data.npcId, parsed.data);
  }
  for (const npc of world.data.npcs.values())
    if (npc.services.includes(PICKPOCKET_SERVICE) && !t.pickpockets.has(npc.id)) warn(`npc ${npc.id} names the pickpocket service but has no pickpocket entry`);
  for (const [i, entry] of data.stalls.entries()) {
    const parsed = stallSchema.safeParse(entry);
    if (!parsed.success) {
      warn(`stall ${i}: ${describeIssues(parsed.error)}`);
      continue;
    }
    const bad = badLoot(world, parsed.data.loot);
    if (bad) warn(`stall ${parsed.data.id}: no item ${bad}`);
    else if (!world.map.inBounds(parsed.data.position.x, parsed.data.position.z)) warn(`stall ${parsed.data.id}: its position is outside the map`);
    else {
      const stall: Stall = { ...parsed.data, stationId: `stall:${parsed.data.id}` };
      const station: StationEntity = { id: stall.stationId, type: STALL_TYPE, name: stall.name, tile: at(stall.position) };
      world.stations.set(station.id, station);
      world.place("station", station.id, station.tile);
      t.stalls.set(station.id, stall);
    }
  }
  thieveryOf.set(world, t);
}

const at = (t: Tile): Tile => ({ x: t.x, z: t.z });
const badLoot = (world: World, loot: readonly Loot[]) => loot.find((l) => !world.data.items.has(l.itemId))?.itemId;
