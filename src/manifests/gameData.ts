/**
 * The indexed, typed view of a world's game data that the rest of the server reads.
 * Every definition keeps the record it came from in `raw` (fields the server does not model yet
 * are still there) and the manifest file it came from in `source`.
 */
import type { AmmoDef, PrayerDef, SpellDef } from "./combat.js";
import type { Recipe } from "./recipes.js";
import type { GatheringSkill } from "../protocol/vocabulary.js";
import type { DialogueDef } from "./dialogue.js";
import type { QuestDef } from "./quests.js";
import type { ItemQuantity, Raw } from "./shapes.js";
export type { QuestDef };

export interface Position {
  x: number;
  y: number;
  z: number;
}

export interface Bounds {
  minX: number;
  maxX: number;
  minZ: number;
  maxZ: number;
}

export interface ItemRequirements {
  level?: number;
  skills: Record<string, number>;
}

export interface ItemDef {
  id: string;
  name: string;
  type: string;
  stackable: boolean;
  maxStackSize?: number;
  value: number;
  /** True unless the data marks the item untradeable. */
  tradeable: boolean;
  weight?: number;
  tier?: string;
  equipSlot?: string;
  bonuses?: Record<string, number>;
  /** Hitpoints restored when eaten (food only, when the data gives it). */
  healAmount?: number;
  requirements?: ItemRequirements;
  weaponType?: string;
  attackType?: string;
  attackSpeed?: number;
  attackRange?: number;
  /** For tools: the skill the tool serves. */
  toolSkill?: string;
  /** An experience lamp (`useEffect` xp_lamp): rubbing it gives this much xp in a skill of the player's choice, and uses it up. */
  lampXp?: number;
  /** Bones: prayer experience for burying one. */
  prayerXp?: number;
  /** An elemental staff: the runes it stands in for (`providesInfiniteRunes`). */
  providesRunes?: string[];
  description?: string;
  examine?: string;
  modelPath?: string;
  iconPath?: string;
  source: string;
  raw: Raw;
}

export interface NpcStats {
  level: number;
  health: number;
  attack: number;
  strength: number;
  defense: number;
  defenseBonus: number;
  ranged: number;
  magic: number;
}

export interface NpcCombat {
  attackable: boolean;
  aggressive: boolean;
  retaliates: boolean;
  aggroRange: number;
  combatRange: number;
  leashRange: number;
  attackSpeedTicks: number;
  respawnTicks: number;
  /** How it fights: melee (the default), ranged (with `arrowId` for show) or magic (casting `spellId`). */
  attackType: NpcAttackType;
  spellId?: string;
  arrowId?: string;
}

export type NpcAttackType = "melee" | "ranged" | "magic";

export interface NpcMovement {
  type: string;
  speed: number;
  wanderRadius: number;
}

export type DropRarity = "always" | "common" | "uncommon" | "rare" | "very_rare";

export interface DropEntry {
  itemId: string;
  minQuantity: number;
  maxQuantity: number;
  /** 0..1 */
  chance: number;
  rarity: DropRarity;
}

export interface NpcDef {
  id: string;
  name: string;
  description?: string;
  /** "mob" for fighting creatures, "neutral" for townsfolk and service npcs. */
  category: string;
  faction?: string;
  level: number;
  stats: NpcStats;
  combat: NpcCombat;
  movement: NpcMovement;
  drops: DropEntry[];
  /** Services offered, e.g. "bank", "store", "quests". */
  services: string[];
  /** What a player can talk about with it (townsfolk). */
  dialogue?: DialogueDef;
  modelPath?: string;
  source: string;
  raw: Raw;
}

export interface NpcPlacement {
  npcId: string;
  type?: string;
  storeId?: string;
  position: Position;
  /** What the placement says of its npc: it defines the npc when npcs.json does not (placementNpc). */
  named?: { name: string; description?: string; services: string[]; greeting?: string };
  raw: Raw;
}

export interface ResourcePlacement {
  /** A gathering id (a key of one of the `gathering` maps). */
  resourceId: string;
  skill: GatheringSkill;
  type?: string;
  position: Position;
  raw: Raw;
}

export interface MobSpawn {
  mobId: string;
  position: Position;
  spawnRadius: number;
  maxCount: number;
  raw: Raw;
}

export interface StationPlacement {
  id: string;
  type: string;
  position: Position;
  bankId?: string;
  /** A runecrafting altar's rune type ("air"). */
  runeType?: string;
  raw: Raw;
}

export interface AreaFishing {
  enabled: boolean;
  spotCount: number;
  spotTypes: string[];
}

export interface WorldArea {
  id: string;
  name: string;
  description?: string;
  /** The world-areas.json group the area came from: starterTowns, level1Areas, ..., specialAreas. */
  group: string;
  isStarterTown: boolean;
  difficultyLevel: number;
  bounds: Bounds;
  biomeType?: string;
  safeZone: boolean;
  pvpEnabled: boolean;
  /** Where new players appear (starter towns); explicit in the data or derived. */
  spawnPoint?: Position;
  npcs: NpcPlacement[];
  resources: ResourcePlacement[];
  mobSpawns: MobSpawn[];
  stations: StationPlacement[];
  fishing?: AreaFishing;
  raw: Raw;
}

export interface VegetationLayer {
  category: string;
  density: number;
  assets: string[];
  raw: Raw;
}

export interface BiomeDef {
  id: string;
  name: string;
  description?: string;
  difficultyLevel: number;
  terrain?: string;
  mobs: string[];
  vegetationEnabled: boolean;
  vegetation: VegetationLayer[];
  raw: Raw;
}

export interface StoreItem {
  itemId: string;
  price: number;
  /** -1 = unlimited */
  stockQuantity: number;
  /** Seconds between two restocks of a finite stock (0: never). */
  restockTime: number;
  /** The same in game ticks. */
  restockTicks: number;
  category?: string;
}

export interface StoreDef {
  id: string;
  name: string;
  description?: string;
  buyback: boolean;
  buybackRate: number;
  items: StoreItem[];
  raw: Raw;
}

export type { GatheringSkill };

export interface GatheringYield {
  itemId: string;
  quantity: number;
  /** 0..1: chance this yield is the one rolled when a cycle succeeds. */
  chance: number;
  xp: number;
  levelRequired?: number;
  /** Success-chance curve (out of 256) at level 1 and level 99, when the data gives it. */
  catchLow?: number;
  catchHigh?: number;
}

export interface GatheringResource {
  id: string;
  name: string;
  type: string;
  skill: GatheringSkill;
  levelRequired: number;
  /** The tool as the data names it: an item id or a tool category such as "pickaxe". */
  toolRequired?: string;
  /** Item ids of every tool that satisfies `toolRequired`. */
  toolItemIds: string[];
  /** A consumable needed per catch (e.g. bait), when the data names one. */
  secondaryRequired?: string;
  cycleTicks: number;
  /** 0..1: chance the resource depletes after a successful harvest. */
  depleteChance: number;
  respawnTicks: number;
  /** Success-chance curve of the resource (or of its first yield), when the data gives it. */
  successChance?: { low: number; high: number };
  yields: GatheringYield[];
  source: string;
  raw: Raw;
}

export type SkillUnlockType = "item" | "ability" | "area" | "quest" | "activity";

export interface SkillUnlock {
  level: number;
  description: string;
  type: SkillUnlockType;
}

export interface ToolDef {
  itemId: string;
  skill: string;
  tier?: string;
  levelRequired: number;
  priority: number;
  rollTicks?: number;
  raw: Raw;
}

export interface CharacterTemplate {
  id: string;
  name: string;
  description?: string;
  /** Skill levels that differ from the defaults. */
  skills: Record<string, number>;
  items: ItemQuantity[];
  raw: Raw;
}

export interface BuildingDef {
  id: string;
  name?: string;
  type?: string;
  areaId?: string;
  position: Position;
  /** Tiles covered, centred on `position`. */
  footprint: { width: number; depth: number };
  rotation: number;
  raw: Raw;
}

export interface MusicTrack {
  id: string;
  name: string;
  category: string;
  path: string;
  raw: Raw;
}

export interface StationDef {
  type: string;
  name: string;
  model?: string;
  raw: Raw;
}

export interface VegetationAsset {
  id: string;
  model?: string;
  category?: string;
  raw: Raw;
}

/** An item's name as the data gives it (its id when the data has none). */
export const itemName = (data: Pick<GameData, "items">, itemId: string): string => data.items.get(itemId)?.name ?? itemId;

export interface GameData {
  /** The manifest directory the data was read from. */
  dir: string;
  /** Whether items came split under items/ or from one items.json. */
  itemLayout: "split" | "single";
  items: Map<string, ItemDef>;
  npcs: Map<string, NpcDef>;
  worldAreas: Map<string, WorldArea>;
  biomes: Map<string, BiomeDef>;
  stores: Map<string, StoreDef>;
  gathering: Record<GatheringSkill, Map<string, GatheringResource>>;
  /** Recipes by file name without extension: cooking, firemaking, smelting, ... */
  recipes: Record<string, Recipe[]>;
  /** Skill -> unlocks sorted by level. Skill names are lower case; "defence" is read as "defense". */
  skillUnlocks: Record<string, SkillUnlock[]>;
  tools: Map<string, ToolDef>;
  quests: Map<string, QuestDef>;
  /** prayers.json, by prayer id. */
  prayers: Map<string, PrayerDef>;
  /** combat-spells.json, by spell id (every spellbook and tier). */
  spells: Map<string, SpellDef>;
  /** ammunition.json's arrows, by item id. */
  ammunition: Map<string, AmmoDef>;
  starterKit: ItemQuantity[];
  templates: Map<string, CharacterTemplate>;
  buildings: BuildingDef[];
  music: MusicTrack[];
  stations: Map<string, StationDef>;
  vegetation: Map<string, VegetationAsset>;
  /** Where new players appear: the first starter town's spawn point. */
  spawn: { areaId: string; position: Position } | null;
  /** Every other manifest, parsed but not modelled, keyed by path without ".json" (e.g. "prayers"). */
  extras: Record<string, unknown>;
  /** A hash of the manifests' files as read: the same files give the same version (a content reload compares them). */
  version: string;
  /** One line per skipped record or reference: names the file and the record. */
  warnings: string[];
  /** Relative paths of the manifests that were read. */
  files: string[];
}

/** Find a gathering resource by id in any skill. */
export function findGatheringResource(data: Pick<GameData, "gathering">, id: string): GatheringResource | undefined {
  return data.gathering.woodcutting.get(id) ?? data.gathering.mining.get(id) ?? data.gathering.fishing.get(id);
}
