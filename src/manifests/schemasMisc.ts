/**
 * zod schemas for recipes, skill unlocks, tools, quests, the starter kit, character templates,
 * buildings, music, stations and vegetation.
 */
import { z } from "zod";
import { id, itemQuantitySchema, nonNeg, num, positionSchema } from "./schemas.js";

// ---- recipes/*.json ------------------------------------------------------------------------------

export const recipesFileSchema = z.looseObject({ recipes: z.array(z.unknown()) });

const recipeInput = z
  .looseObject({
    item: id.nullish(),
    itemId: id.nullish(),
    amount: num.int().positive().nullish(),
    quantity: num.int().positive().nullish(),
  })
  .refine((r) => Boolean(r.item ?? r.itemId), { message: "item is required" });

const level = num.int().min(1).max(120);

export const recipeSchemas = {
  cooking: z.looseObject({
    raw: id,
    cooked: id,
    burnt: id.nullish(),
    level,
    xp: nonNeg,
    ticks: num.positive().nullish(),
  }),
  firemaking: z.looseObject({ log: id, level, xp: nonNeg, ticks: num.positive().nullish() }),
  smelting: z.looseObject({
    output: id,
    inputs: z.array(recipeInput).min(1),
    level,
    xp: nonNeg,
    ticks: num.positive().nullish(),
    successRate: num.min(0).max(1).nullish(),
  }),
  smithing: z.looseObject({
    output: id,
    bar: id,
    barsRequired: num.int().positive().nullish(),
    outputQuantity: num.int().positive().nullish(),
    level,
    xp: nonNeg,
    ticks: num.positive().nullish(),
  }),
  crafting: z.looseObject({
    output: id,
    outputQuantity: num.int().positive().nullish(),
    inputs: z.array(recipeInput).min(1),
    tools: z.array(id).nullish(),
    consumables: z.array(recipeInput).nullish(),
    level,
    xp: nonNeg,
    ticks: num.positive().nullish(),
    station: z.string().nullish(),
  }),
  fletching: z.looseObject({
    output: id,
    outputQuantity: num.int().positive().nullish(),
    inputs: z.array(recipeInput).min(1),
    tools: z.array(id).nullish(),
    level,
    xp: nonNeg,
    ticks: num.positive().nullish(),
  }),
  runecrafting: z.looseObject({
    runeType: z.string().nullish(),
    runeItemId: id,
    levelRequired: level,
    xpPerEssence: nonNeg,
    essenceTypes: z.array(id).min(1),
    multiRuneLevels: z.array(level).nullish(),
  }),
  tanning: z.looseObject({ input: id, output: id, cost: nonNeg.nullish(), name: z.string().nullish() }),
  /** Any other recipe file: whatever it names is kept, nothing is required beyond an object. */
  other: z.looseObject({
    output: id.nullish(),
    outputQuantity: num.int().positive().nullish(),
    inputs: z.array(recipeInput).nullish(),
    tools: z.array(id).nullish(),
    level: level.nullish(),
    xp: nonNeg.nullish(),
    ticks: num.positive().nullish(),
    skill: z.string().nullish(),
  }),
} as const;
export type RecipeKind = keyof typeof recipeSchemas;
export type RecipeInputRecord = z.infer<typeof recipeInput>;

// ---- skill-unlocks.json --------------------------------------------------------------------------

export const skillUnlocksFileSchema = z.looseObject({ skills: z.record(z.string(), z.array(z.unknown())) });

export const SKILL_UNLOCK_TYPES = ["item", "ability", "area", "quest", "activity"] as const;

export const skillUnlockSchema = z.looseObject({
  level,
  description: z.string().min(1),
  type: z.enum(SKILL_UNLOCK_TYPES),
});

// ---- tools.json ------------------------------------------------------------------------------------

export const toolsFileSchema = z.array(z.unknown());

export const toolSchema = z.looseObject({
  itemId: id,
  skill: z.string().min(1),
  tier: z.string().nullish(),
  levelRequired: level.nullish(),
  priority: num.nullish(),
  rollTicks: num.positive().nullish(),
});

export { itemQuantitySchema };

// ---- starter-kit.json / character-templates.json -------------------------------------------------

/** Either a bare list of `{itemId, quantity}` or `{items: [...]}`. */
export const starterKitFileSchema = z.union([z.array(z.unknown()), z.looseObject({ items: z.array(z.unknown()) })]);

export const starterKitEntrySchema = z.looseObject({ itemId: id, quantity: num.int().positive() });

/** Either a bare list of templates or `{templates: [...]}`. */
export const templatesFileSchema = z.union([z.array(z.unknown()), z.looseObject({ templates: z.array(z.unknown()) })]);

export const templateSchema = z.looseObject({
  id,
  name: z.string().min(1),
  description: z.string().nullish(),
  skills: z.record(z.string(), num.int().min(1).max(99)).nullish(),
  items: z.array(z.unknown()).nullish(),
});

// ---- buildings.json --------------------------------------------------------------------------------

export const buildingsFileSchema = z.array(z.unknown());

export const buildingSchema = z.looseObject({
  id,
  name: z.string().nullish(),
  type: z.string().nullish(),
  areaId: z.string().nullish(),
  position: positionSchema,
  footprint: z.looseObject({ width: num.positive(), depth: num.positive() }),
  rotation: num.nullish(),
});

// ---- music.json, stations.json, vegetation.json ---------------------------------------------------

export const musicFileSchema = z.array(z.unknown());

export const musicTrackSchema = z.looseObject({
  id,
  name: z.string().min(1),
  category: z.string().nullish(),
  path: z.string().min(1),
});

export const stationsFileSchema = z.looseObject({ stations: z.array(z.unknown()) });

export const stationSchema = z.looseObject({
  type: id,
  name: z.string().min(1),
  model: z.string().nullish(),
});

export const vegetationFileSchema = z.looseObject({ assets: z.array(z.unknown()) });

export const vegetationAssetSchema = z.looseObject({
  id,
  model: z.string().nullish(),
  category: z.string().nullish(),
});
