import type { Held, LedgerEvent } from "../ledger.js";
import type { DialogueState } from "../dialogue.js";
import type { PrayerState } from "../prayer.js";
import type { NpcInstance } from "../npcBehaviour.js";
import type { QuestJournal, QuestProgress } from "../quests.js";
import type { Bank, Equipment, Inventory, ItemStack, SkillName, SkillXp, Tile } from "../types.js";
import type { CombatStyle, GatheringSkill, ProductionKind } from "../../protocol/vocabulary.js";
import type { PlayerVars } from "./playerVars.js";

/** What a player is busy with; advanced by the tick until it ends or is replaced. */
export type PlayerAction =
  | { type: "gather"; targetId: string; nextTick: number }
  /** Fight a target: with the weapon (or the autocast spell of a staff), or one cast of `spellId`. */
  | { type: "attack"; targetId: string; spellId?: string }
  /** Walk to an altar and pray there (prayer points restored). */
  | { type: "pray"; stationId: string }
  | { type: "pickup"; targetId: string }
  /** Walk up to an npc and talk to it (or, with `store`, open its store). */
  | { type: "talk"; targetId: string; store?: boolean }
  /** Make `remaining` more of a recipe (Infinity: all the inputs allow), at a station when it needs one. */
  | { type: "make"; kind: ProductionKind; recipeId: string; remaining: number; stationId?: string; nextTick: number }
  /** An action a feature plays (WorldFeature.actions), on a target, its own step and timer. */
  | { type: "feature"; feature: string; targetId: string; step: number; untilTick: number };

/** A character in the world. The id is the character id: stable across logins. */
export interface PlayerEntity {
  id: string;
  accountId: string;
  name: string;
  isAgent: boolean;
  tile: Tile;
  /** Tiles still to walk, nearest first. */
  path: Tile[];
  running: boolean;
  xp: SkillXp;
  levels: Record<SkillName, number>;
  combatLevel: number;
  health: number;
  inventory: Inventory;
  equipment: Equipment;
  bank: Bank;
  action: PlayerAction | null;
  combatStyle: CombatStyle;
  /** The spell a staff casts on every attack (null: the staff is swung). */
  autocast: string | null;
  /** Prayer points, the active prayers and their drain counter. */
  prayer: PrayerState;
  lastAttackTick: number;
  /** The tick it was last hit (a player counts as in combat for IN_COMBAT_TICKS after a blow given or taken). */
  lastHitTick: number;
  /** Its player variables (playerVars.ts): the features' settings, timers and counters. */
  vars: PlayerVars;
  /** Which of them a save keeps (the world's VarRegistry.kept). */
  varKept: (name: string) => boolean;
  /** In a duel's arena: where the player stood before, where they walk back to, and the tile a save records. */
  returnTile?: Tile;
  /** Who hit this player last, for npc retaliation and kill credit. */
  lastHitBy: string | null;
  /** Inventory slots offered in a trade: no drop, use, bank or equip while locked. */
  lockedSlots: Set<number>;
  /**
   * A trade, a store deal or a feature's settlement (a duel's) of this player is being committed:
   * until the transaction is done nothing else may change the inventory (commands are refused, the
   * tick leaves the player's action and npcs' blows waiting) and no other save captures the
   * character. A feature's freeze carries the refusal its player's item commands get.
   */
  inventoryFrozen: false | "trade" | "store" | { code: string; message: string };
  /** The conversation the player is in: the node it was shown last. */
  dialogue: DialogueState | null;
  /** The store the player has open (buying and selling need it). */
  store: { storeId: string; npcInstanceId: string } | null;
  /** The quest journal, by quest id. */
  quests: QuestJournal;
  /** Fingerprint of the journal the database holds (kept by the saver). */
  persistedQuests?: string;
  /** Kills not yet written to npc_kills. */
  pendingKills: Map<string, number>;
  /**
   * Deaths and reclaimed death piles not yet written. A save of this character writes them in the
   * same transaction as its inventory, so no saved inventory ever disagrees with its death locks.
   */
  pendingDeaths: PendingDeath[];
  pendingReclaims: string[];
  /** Changed since the last save. */
  dirty: boolean;
  /** Fingerprint of the items the database holds for this character (kept by the saver). */
  persistedItems?: string;
  /** What the database holds for this character (a snapshot's items, kept by the saver, for the item ledger). */
  persistedHeld?: Held;
  /** Changes of its holdings told by their causes since the last save (src/game/ledger.ts). */
  ledgerEvents: LedgerEvent[];
  /** Fingerprint of the stats and place its characters row holds (kept by the saver). */
  persistedStats?: string;
  /** Changed since the last player:sync. */
  privateDirty: boolean;
}

export interface PendingDeath {
  id: string;
  at: Tile;
  items: ItemStack[];
  killedBy: string | null;
}

/** An npc: the behaviour's instance (position, spawn, target, death timer) plus what the world needs. */
export interface NpcEntity extends NpcInstance {
  name: string;
  level: number;
  maxHealth: number;
  /** Townsfolk (bank clerks, shopkeepers) cannot be attacked. */
  attackable: boolean;
  services: string[];
  /** The store it keeps (world-areas placement `storeId`, else the only store of a one-store world). */
  storeId?: string;
  /** Damage dealt per player since it last spawned, for loot ownership. */
  damageBy: Map<string, number>;
}

export interface ResourceEntity {
  id: string;
  resourceId: string;
  /** A gathering skill, or firemaking for a fire someone lit. */
  skill: GatheringSkill | "firemaking";
  name: string;
  tile: Tile;
  depleted: boolean;
  respawnAtTick: number | null;
  /** Fires only: the tick the fire burns out. */
  expiresAtTick?: number;
}

export interface GroundItemEntity {
  id: string;
  itemId: string;
  quantity: number;
  tile: Tile;
  /** Seen only by this player until the private window ends (the dropper or the killer). */
  ownerId: string | null;
  createdTick: number;
  /** Death piles: only the owner may take them, once, through the death lock. */
  deathId?: string;
}

/** A station the world's data places: an anvil, a furnace, a range, an altar, a bank booth. */
export interface StationEntity {
  id: string;
  /** The stations.json type: "anvil", "furnace", "range", "runecrafting_altar", "bank", ... */
  type: string;
  name: string;
  tile: Tile;
  /** A runecrafting altar's rune type. */
  runeType?: string;
}

export type Entity = PlayerEntity | NpcEntity | ResourceEntity | GroundItemEntity | StationEntity;
export type EntityKind = "player" | "npc" | "resource" | "groundItem" | "station";

/** A character as the database hands it to the world, and as the world hands it back to save. */
export interface CharacterSnapshot {
  id: string;
  accountId: string;
  name: string;
  isAgent: boolean;
  tile: Tile;
  xp: SkillXp;
  health: number;
  /** Prayer points (absent: full, the prayer level). */
  prayerPoints?: number;
  inventory: Inventory;
  equipment: Equipment;
  bank: Bank;
  /** The quest journal (absent: nothing started). */
  quests?: QuestProgress[];
  /** Its player variables as last saved (absent: none; playerVars.ts). */
  vars?: PlayerVars;
}

export function stacksOf(inv: Inventory): ItemStack[] {
  return inv.filter((s): s is ItemStack => s !== null);
}
