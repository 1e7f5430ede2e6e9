/**
 * Eating: food (any item with a healAmount) restores health points, up to the maximum.
 */
import { GameError, type Inventory } from "./types.js";
import { assertSlot, itemDef, removeFromSlot, type ItemIndex } from "./inventory.js";
import { HEALTH_PER_LEVEL } from "./skills.js";

/** Ticks a player waits after eating before eating again or attacking (the caller enforces it). */
export const EAT_DELAY_TICKS = 3;

export interface EatResult {
  inventory: Inventory;
  health: number;
  /** Health actually restored (0 at full health). */
  healed: number;
  itemId: string;
}

function assertHealth(health: number, maxHealth: number): void {
  if (!Number.isSafeInteger(maxHealth) || maxHealth < 1) {
    throw new GameError("INVALID_HEALTH", `max health must be a whole number >= 1 (got ${maxHealth})`);
  }
  if (!Number.isSafeInteger(health) || health < 0) {
    throw new GameError("INVALID_HEALTH", `health must be a whole number >= 0 (got ${health})`);
  }
}

/**
 * Eat one of the food in `slot`. Health (life points) rises by the food's healAmount (hitpoints)
 * times HEALTH_PER_LEVEL, capped at `maxHealth`;
 * health already above the maximum (a boost) is never lowered. Eating at full health is allowed
 * and still uses the food. NOT_EDIBLE for anything without a healAmount.
 */
export function eat(inv: Inventory, slot: number, health: number, maxHealth: number, items: ItemIndex): EatResult {
  assertSlot(slot);
  assertHealth(health, maxHealth);
  const stack = inv[slot];
  if (!stack) throw new GameError("EMPTY_SLOT", `slot ${slot} is empty`);
  const def = itemDef(stack.itemId, items);
  const heal = def.healAmount;
  if (typeof heal !== "number" || !Number.isFinite(heal) || heal <= 0) {
    throw new GameError("NOT_EDIBLE", `${def.name} cannot be eaten`);
  }
  const { inventory } = removeFromSlot(inv, slot, 1);
  const newHealth = Math.max(health, Math.min(maxHealth, health + Math.floor(heal) * HEALTH_PER_LEVEL));
  return { inventory, health: newHealth, healed: newHealth - health, itemId: stack.itemId };
}
