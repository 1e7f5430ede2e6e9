/**
 * The game's words and limits as the wire carries them: the bounds of every slot and quantity a
 * client sends, the skill names, equipment slots and combat styles the messages name. src/game
 * takes these from here, so the rules and the message schemas cannot disagree.
 */

/** Inventory slots, numbered 0 to INVENTORY_SIZE - 1. */
export const INVENTORY_SIZE = 28;
/** The largest stack an inventory slot, a bank stack or an offer may hold. */
export const MAX_STACK = 2_147_483_647;
/** Bank tabs: 0 (the main tab) to BANK_TABS - 1. */
export const BANK_TABS = 10;

export const SKILLS = [
  "attack",
  "strength",
  "defense",
  "constitution",
  "ranged",
  "prayer",
  "magic",
  "woodcutting",
  "mining",
  "fishing",
  "firemaking",
  "cooking",
  "smithing",
  "agility",
  "crafting",
  "fletching",
  "runecrafting",
  "thieving",
] as const;
export type SkillName = (typeof SKILLS)[number];

/** The gathering skills: a resource's skill (`world:update` `skill`), an agent's gathering goals and commands. */
export const GATHERING_SKILLS = ["woodcutting", "mining", "fishing"] as const satisfies readonly SkillName[];
export type GatheringSkill = (typeof GATHERING_SKILLS)[number];

/** The recipe files production plays (`production:make`'s `kind`); cooking and firemaking have actions of their own. */
export const PRODUCTION_KINDS = ["smelting", "smithing", "crafting", "fletching", "runecrafting", "tanning"] as const;
export type ProductionKind = (typeof PRODUCTION_KINDS)[number];

export const EQUIPMENT_SLOTS = ["weapon", "shield", "helmet", "body", "legs", "boots", "gloves", "cape", "amulet", "ring", "arrows"] as const;
export type EquipmentSlot = (typeof EQUIPMENT_SLOTS)[number];

/**
 * Combat styles (`player:action` `style`, `combat:style`; `combatStyle` in `player:sync`). Which
 * ones a player may use follows the weapon: melee weapons and bare hands the first four, bows
 * accurate, rapid and longrange, staves the melee ones (their spells are cast, not styled).
 */
export const COMBAT_STYLES = ["accurate", "aggressive", "defensive", "controlled", "rapid", "longrange"] as const;
export type CombatStyle = (typeof COMBAT_STYLES)[number];

/**
 * The rules two duellists agree on (`duel:rules`): each one, when on, forbids what it names for the
 * whole fight. Melee, ranged and magic may not all be forbidden at once.
 */
export const DUEL_RULES = ["noMelee", "noRanged", "noMagic", "noPrayer", "noFood", "noMovement", "noForfeit"] as const;
export type DuelRule = (typeof DUEL_RULES)[number];

/** The world's tick, in milliseconds: every world advances once a tick, and a client moves a figure one step over one. */
export const TICK_MS = 600;

/** Chat channels (`player:chat`, `chat:message`): `private` is one player to another, in any world. */
export const CHAT_CHANNELS = ["local", "world", "private"] as const;
export type ChatChannel = (typeof CHAT_CHANNELS)[number];
