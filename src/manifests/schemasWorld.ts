/**
 * zod schemas for the world's layout: world areas and their placements, biomes, stores and
 * gathering resources (current gathering/*.json and the older resources.json).
 */
import { z } from "zod";
import { boundsSchema, chance, id, nonNeg, num, positionSchema } from "./schemas.js";

// ---- world-areas.json --------------------------------------------------------------------------

/** Top level: groups (starterTowns, level1Areas, ...) of areas keyed by id. */
export const worldAreasFileSchema = z.record(z.string(), z.record(z.string(), z.unknown()));

export const worldAreaSchema = z.looseObject({
  id: id.nullish(),
  name: z.string().min(1),
  description: z.string().nullish(),
  difficultyLevel: num.nullish(),
  bounds: boundsSchema,
  biomeType: z.string().nullish(),
  safeZone: z.boolean().nullish(),
  pvpEnabled: z.boolean().nullish(),
  spawnPoint: positionSchema.nullish(),
  npcs: z.array(z.unknown()).nullish(),
  resources: z.array(z.unknown()).nullish(),
  mobSpawns: z.array(z.unknown()).nullish(),
  stations: z.array(z.unknown()).nullish(),
  fishing: z
    .looseObject({
      enabled: z.boolean().nullish(),
      spotCount: num.int().nonnegative().nullish(),
      spotTypes: z.array(z.string()).nullish(),
    })
    .nullish(),
});

export const npcPlacementSchema = z.looseObject({
  id,
  type: z.string().nullish(),
  storeId: z.string().nullish(),
  position: positionSchema,
  /** A placement that names its npc defines it, when npcs.json does not (the published duel arena's nurse). */
  name: z.string().min(1).nullish(),
  description: z.string().nullish(),
  services: z.array(z.string()).nullish(),
  dialogue: z.looseObject({ greeting: z.string().nullish() }).nullish(),
});

export const resourcePlacementSchema = z.looseObject({
  resourceId: id,
  type: z.string().nullish(),
  position: positionSchema,
});

export const mobSpawnSchema = z.looseObject({
  mobId: id,
  position: positionSchema,
  spawnRadius: nonNeg.nullish(),
  maxCount: num.int().positive().nullish(),
});

export const stationPlacementSchema = z.looseObject({
  id,
  type: z.string().min(1),
  position: positionSchema,
  bankId: z.string().nullish(),
  runeType: z.string().nullish(),
});

// ---- biomes.json -------------------------------------------------------------------------------

export const biomesFileSchema = z.array(z.unknown());

export const vegetationLayerSchema = z.looseObject({
  category: z.string().min(1),
  density: nonNeg.nullish(),
  assets: z.array(z.string()).nullish(),
});

export const biomeSchema = z.looseObject({
  id,
  name: z.string().min(1),
  description: z.string().nullish(),
  difficultyLevel: num.nullish(),
  terrain: z.string().nullish(),
  mobs: z.array(z.string()).nullish(),
  vegetation: z.looseObject({ enabled: z.boolean().nullish(), layers: z.array(z.unknown()).nullish() }).nullish(),
});

// ---- stores.json -------------------------------------------------------------------------------

export const storesFileSchema = z.array(z.unknown());

export const storeSchema = z.looseObject({
  id,
  name: z.string().min(1),
  description: z.string().nullish(),
  buyback: z.boolean().nullish(),
  buybackRate: num.min(0).max(1).nullish(),
  items: z.array(z.unknown()),
});

export const storeItemSchema = z
  .looseObject({
    itemId: id.nullish(),
    id: id.nullish(),
    price: nonNeg,
    stockQuantity: num.int().min(-1).nullish(),
    restockTime: nonNeg.nullish(),
    category: z.string().nullish(),
  })
  .refine((r) => Boolean(r.itemId ?? r.id), { message: "itemId is required" });

// ---- gathering ---------------------------------------------------------------------------------

/** gathering/woodcutting.json: {trees}, mining.json: {rocks}, fishing.json: {spots}. */
export const gatheringFileSchemas = {
  woodcutting: z.looseObject({ trees: z.array(z.unknown()) }),
  mining: z.looseObject({ rocks: z.array(z.unknown()) }),
  fishing: z.looseObject({ spots: z.array(z.unknown()) }),
} as const;
export const gatheringListKey = { woodcutting: "trees", mining: "rocks", fishing: "spots" } as const;

/** The older format's resources.json: one array of resources of every skill. */
export const legacyResourcesFileSchema = z.array(z.unknown());

export const gatheringYieldSchema = z.looseObject({
  itemId: id,
  quantity: num.int().positive().nullish(),
  chance: chance.nullish(),
  xpAmount: nonNeg.nullish(),
  levelRequired: num.int().positive().nullish(),
  catchLow: nonNeg.nullish(),
  catchHigh: nonNeg.nullish(),
});

export const gatheringResourceSchema = z
  .looseObject({
    id,
    name: z.string().min(1),
    type: z.string().nullish(),
    resourceType: z.string().nullish(),
    harvestSkill: z.string().nullish(),
    toolRequired: z.string().nullish(),
    secondaryRequired: z.string().nullish(),
    levelRequired: num.int().positive().nullish(),
    requiredLevel: num.int().positive().nullish(),
    baseCycleTicks: num.positive().nullish(),
    harvestTime: num.positive().nullish(),
    depleteChance: chance.nullish(),
    respawnTicks: nonNeg.nullish(),
    respawnTime: nonNeg.nullish(),
    catchLow: nonNeg.nullish(),
    catchHigh: nonNeg.nullish(),
    harvestYield: z.array(z.unknown()).min(1),
  })
  .refine((r) => r.levelRequired != null || r.requiredLevel != null, { message: "levelRequired is required" });
