import { z } from "zod";

/**
 * The answers of the REST routes a game client draws and names things from, as zod schemas: the
 * server builds them to these types, the OpenAPI document describes them from these schemas, and a
 * client takes its types from here (`z.infer`).
 */

const int = z.number().int();
const Rect = z.object({ minX: int, maxX: int, minZ: int, maxZ: int });
const ItemStack = z.object({ itemId: z.string(), quantity: int });

/** GET /api/v1/world/map: the ground plan, as the world builds its walkability grid. */
export const WorldMapBody = z.object({
  bounds: Rect,
  width: int,
  depth: int,
  blocked: z.string().describe("base64 bitset: bit (z - minZ) * width + (x - minX), least significant bit first, set when blocked"),
  /** Each building's footprint; `type` the data's kind of building ("bank", "store", "house", "workshop", ...), null if it names none. */
  buildings: z.array(Rect.extend({ id: z.string(), name: z.string(), type: z.string().nullable() })),
  areas: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      bounds: z.object({ minX: z.number(), maxX: z.number(), minZ: z.number(), maxZ: z.number() }),
      safeZone: z.boolean(),
      pvpEnabled: z.boolean(),
    }),
  ),
  spawn: z.object({ x: int, z: int }).nullable(),
  /** Where the data places npcs: a townsman's post (`radius` 0) or a spawn of a kind (its radius). For a client's map and quest markers. */
  npcs: z.array(z.object({ npcId: z.string(), x: int, z: int, radius: z.number() })),
  /** Where the data places gathering resources (trees, rocks, fishing spots), by gathering id. */
  resources: z.array(z.object({ resourceId: z.string(), skill: z.string(), x: int, z: int })),
});
export type WorldMapBody = z.infer<typeof WorldMapBody>;

const Recipe = z.object({
  id: z.string(),
  skill: z.string(),
  level: int,
  xp: z.number(),
  inputs: z.array(ItemStack),
  outputs: z.array(ItemStack),
  station: z.string().nullable(),
});

/** GET /api/v1/catalogue: items, npcs, spells, prayers and production recipes by kind. */
export const CatalogueBody = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      type: z.string(),
      stackable: z.boolean(),
      tradeable: z.boolean(),
      value: z.number(),
      equipSlot: z.string().nullable(),
      healAmount: z.number().nullable(),
      /** An experience lamp's xp (`inventory:use` rub), bones' prayer xp (bury). */
      lampXp: z.number().nullable(),
      prayerXp: z.number().nullable(),
      examine: z.string().nullable(),
    }),
  ),
  npcs: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      level: int,
      attackable: z.boolean(),
      talks: z.boolean(),
      services: z.array(z.string()),
      examine: z.string().nullable(),
    }),
  ),
  /** Gathering resources: what each is called, says when examined, and gives (item ids). */
  resources: z.array(
    z.object({ id: z.string(), name: z.string(), skill: z.string(), level: int, examine: z.string().nullable(), yields: z.array(z.string()) }),
  ),
  /** Station kinds (bank, range, furnace, anvil, altars): name and examine text. */
  stations: z.array(z.object({ type: z.string(), name: z.string(), examine: z.string().nullable() })),
  spells: z.array(
    z.object({ id: z.string(), name: z.string(), level: int, maxHit: z.number(), runes: z.array(z.object({ runeId: z.string(), quantity: int })) }),
  ),
  prayers: z.array(z.object({ id: z.string(), name: z.string(), level: int, conflicts: z.array(z.string()) })),
  /** The world's music (music.json): each track's name, its category ("normal", "combat", …), its mood and length in seconds, as the web client plays them. */
  music: z.array(z.object({ id: z.string(), name: z.string(), category: z.string(), mood: z.string().nullable(), seconds: z.number().nullable() })),
  recipes: z.record(z.string(), z.array(Recipe)),
});
export type CatalogueBody = z.infer<typeof CatalogueBody>;

const pageOf = <T extends z.ZodType>(entry: T) => z.object({ page: int, pageSize: int, total: int, pages: int, entries: z.array(entry) });

/** One character's place in a skill's ranking (or the overall one: total level, total xp). */
export const HiscoreEntry = z.object({ rank: int, characterId: z.string(), name: z.string(), level: int, xp: int, isAgent: z.boolean() });
/** GET /api/v1/hiscores: one page of a ranking. */
export const HiscoresPageBody = pageOf(HiscoreEntry).extend({ skill: z.string() });
export type HiscoresPageBody = z.infer<typeof HiscoresPageBody>;

/** One character's place in the duel rankings. */
export const DuelStandingEntry = z.object({
  rank: int,
  characterId: z.string(),
  name: z.string(),
  wins: int,
  losses: int,
  stakesWon: int,
  isAgent: z.boolean(),
});
/** GET /api/v1/hiscores/duels: one page of the duel rankings. */
export const DuelRankingsBody = pageOf(DuelStandingEntry);
export type DuelRankingsBody = z.infer<typeof DuelRankingsBody>;
