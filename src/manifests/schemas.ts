/**
 * zod schemas for the manifest records the server relies on: common pieces, items and npcs.
 * Objects are loose: records may carry any number of fields the server does not read.
 * Optional fields accept null as "absent" (the published data writes null for missing models).
 */
import { z } from "zod";

export const num = z.number().finite();
export const nonNeg = num.nonnegative();
export const id = z.string().min(1);
export const chance = num.min(0).max(1);

export const positionSchema = z.looseObject({ x: num, y: num.nullish(), z: num });

export const boundsSchema = z.looseObject({ minX: num, maxX: num, minZ: num, maxZ: num });

/** `{itemId, quantity}` as used by starter kits, quests and templates. */
export const itemQuantitySchema = z.looseObject({
  itemId: id,
  quantity: num.int().positive().nullish(),
});

// ---- items ----------------------------------------------------------------------------------

export const itemSchema = z.looseObject({
  id,
  name: z.string().min(1),
  type: z.string().nullish(),
  stackable: z.boolean().nullish(),
  maxStackSize: num.int().positive().nullish(),
  value: nonNeg.nullish(),
  weight: num.nullish(),
  tradeable: z.boolean().nullish(),
  untradeable: z.boolean().nullish(),
  tier: z.string().nullish(),
  equipSlot: z.string().nullish(),
  bonuses: z.record(z.string(), num).nullish(),
  healAmount: nonNeg.nullish(),
  requirements: z.looseObject({ level: num.nullish(), skills: z.record(z.string(), num).nullish() }).nullish(),
  weaponType: z.string().nullish(),
  attackType: z.string().nullish(),
  attackSpeed: nonNeg.nullish(),
  attackRange: nonNeg.nullish(),
  tool: z.looseObject({ skill: z.string(), priority: num.nullish() }).nullish(),
  useEffect: z.looseObject({ type: z.string(), xpAmount: nonNeg.max(200_000_000).nullish() }).nullish(),
  prayerXp: nonNeg.max(200_000_000).nullish(),
  providesInfiniteRunes: z.array(z.string()).nullish(),
  description: z.string().nullish(),
  examine: z.string().nullish(),
  modelPath: z.string().nullish(),
  iconPath: z.string().nullish(),
});
export type ItemRecord = z.infer<typeof itemSchema>;

// ---- npcs (npcs.json, and the older format's mobs.json) --------------------------------------

export const dropSchema = z.looseObject({
  itemId: id,
  minQuantity: num.int().nonnegative().nullish(),
  maxQuantity: num.int().nonnegative().nullish(),
  quantity: num.int().nonnegative().nullish(),
  chance: chance.nullish(),
  rarity: z.string().nullish(),
});
export type DropRecord = z.infer<typeof dropSchema>;

const dropList = z.array(z.unknown()).nullish();

/** Current format: drops grouped by rarity, plus a default drop (usually bones). */
export const dropTableSchema = z.looseObject({
  defaultDrop: z.looseObject({ enabled: z.boolean().nullish(), itemId: z.string().nullish(), quantity: num.nullish() }).nullish(),
  always: dropList,
  common: dropList,
  uncommon: dropList,
  rare: dropList,
  veryRare: dropList,
});

/** Older format: a loot table with guaranteed/common/uncommon/rare lists. */
export const lootTableSchema = z.looseObject({
  guaranteedDrops: dropList,
  commonDrops: dropList,
  uncommonDrops: dropList,
  rareDrops: dropList,
});

export const npcSchema = z.looseObject({
  id,
  name: z.string().min(1),
  description: z.string().nullish(),
  category: z.string().nullish(),
  type: z.string().nullish(),
  npcType: z.string().nullish(),
  faction: z.string().nullish(),
  level: num.nullish(),
  health: num.nullish(),
  levelRange: z.array(num).nullish(),
  stats: z
    .looseObject({
      level: num.nullish(),
      health: num.nullish(),
      constitution: num.nullish(),
      attack: num.nullish(),
      strength: num.nullish(),
      defense: num.nullish(),
      defenseBonus: num.nullish(),
      ranged: num.nullish(),
      magic: num.nullish(),
    })
    .nullish(),
  combat: z
    .looseObject({
      attackable: z.boolean().nullish(),
      aggressive: z.boolean().nullish(),
      retaliates: z.boolean().nullish(),
      aggroRange: nonNeg.nullish(),
      combatRange: nonNeg.nullish(),
      leashRange: nonNeg.nullish(),
      attackSpeedTicks: num.positive().nullish(),
      respawnTicks: nonNeg.nullish(),
      attackType: z.string().nullish(),
      spellId: z.string().nullish(),
      arrowId: z.string().nullish(),
    })
    .nullish(),
  behavior: z.looseObject({ aggressive: z.boolean().nullish(), aggroRange: nonNeg.nullish(), chaseRange: nonNeg.nullish() }).nullish(),
  attackSpeed: num.positive().nullish(),
  combatRange: nonNeg.nullish(),
  respawnTime: nonNeg.nullish(),
  movement: z.looseObject({ type: z.string().nullish(), speed: nonNeg.nullish(), wanderRadius: nonNeg.nullish() }).nullish(),
  moveSpeed: nonNeg.nullish(),
  drops: z.union([z.array(z.unknown()), dropTableSchema]).nullish(),
  lootTable: lootTableSchema.nullish(),
  services: z.union([z.array(z.string()), z.looseObject({ enabled: z.boolean().nullish(), types: z.array(z.string()).nullish() })]).nullish(),
  /** Checked by dialogueOf (src/manifests/dialogue.ts). */
  dialogue: z.unknown().nullish(),
  appearance: z.looseObject({ modelPath: z.string().nullish() }).nullish(),
  modelPath: z.string().nullish(),
});
export type NpcRecord = z.infer<typeof npcSchema>;

// ---- helpers ---------------------------------------------------------------------------------

/** A short, single-line account of what failed validation. */
export function describeIssues(error: z.ZodError, max = 3): string {
  const parts = error.issues.slice(0, max).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join(".") : "(record)";
    return `${where}: ${issue.message}`;
  });
  if (error.issues.length > max) parts.push(`... ${error.issues.length - max} more`);
  return parts.join("; ");
}
