/**
 * The shapes every game rule shares. Pure data: no I/O, no Colyseus.
 */

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
] as const;
export type SkillName = (typeof SKILLS)[number];

/** Experience per skill; levels are derived from it (see skills.ts). */
export type SkillXp = Record<SkillName, number>;

export const INVENTORY_SIZE = 28;
/** The largest stack an inventory slot, a bank stack or an offer may hold. */
export const MAX_STACK = 2_147_483_647;

export interface ItemStack {
  itemId: string;
  quantity: number;
}

/** 28 slots, null where empty. */
export type Inventory = (ItemStack | null)[];

export const EQUIPMENT_SLOTS = ["weapon", "shield", "helmet", "body", "legs", "boots", "gloves", "cape", "amulet", "ring", "arrows"] as const;
export type EquipmentSlot = (typeof EQUIPMENT_SLOTS)[number];
export type Equipment = Partial<Record<EquipmentSlot, ItemStack>>;

/** Bank: one stack per item id, in insertion order. */
export type Bank = ItemStack[];

/** A tile on the ground plane (integers). */
export interface Tile {
  x: number;
  z: number;
}

/** A source of randomness in [0, 1): Math.random in play, seeded in tests. */
export type Rng = () => number;

/** A rule's refusal: a stable code for clients and a sentence for people. */
export class GameError extends Error {
  constructor(
    public readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "GameError";
  }
}
