/**
 * The shapes every game rule shares. Pure data: no I/O, no Colyseus.
 */

// The words and limits the wire carries live in the protocol; the rules use the same ones.
import type { EquipmentSlot, SkillName } from "../protocol/vocabulary.js";
export { EQUIPMENT_SLOTS, INVENTORY_SIZE, MAX_STACK, SKILLS, type EquipmentSlot, type SkillName } from "../protocol/vocabulary.js";

/** The item id of the world's money: stores, fares and stakes are paid in it. */
export const COINS = "coins";

/** Experience per skill; levels are derived from it (see skills.ts). */
export type SkillXp = Record<SkillName, number>;

export interface ItemStack {
  itemId: string;
  quantity: number;
}

/** 28 slots, null where empty. */
export type Inventory = (ItemStack | null)[];

export type Equipment = Partial<Record<EquipmentSlot, ItemStack>>;

/** Bank: one stack per item id, in insertion order. */
/** A bank stack: its tab (absent: 0, the main tab); a quantity of 0 is a placeholder (src/game/bank.ts). */
export interface BankStack extends ItemStack {
  tab?: number;
}
export type Bank = BankStack[];

// A tile is where the game data's positions stand (src/manifests/shapes.ts); the rules use the same.
export type { Tile } from "../manifests/shapes.js";

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
