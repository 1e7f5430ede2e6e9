/**
 * Firemaking: use a tinderbox on logs to light a fire where the player stands. The caller places
 * the fire (and leaves ashes when it burns out after FIRE_DURATION_TICKS).
 */
import type { Recipe } from "../manifests/recipes.js";
import { GameError, type Inventory, type Rng } from "./types.js";
import { assertSlot, copyInventory, itemDef, removeFromSlot, type ItemIndex } from "./inventory.js";
import { assertLevel } from "./skills.js";
import { chance } from "./random.js";

/** How long a lit fire burns, in game ticks (600 ms each): one minute. */
export const FIRE_DURATION_TICKS = 100;
/** The item a burnt-out fire leaves on the ground. */
export const ASHES_ITEM_ID = "ashes";
export const TINDERBOX_ITEM_ID = "tinderbox";

/** Chance of lighting on one try at exactly the recipe's level ... */
export const LIGHT_CHANCE_AT_REQUIREMENT = 0.5;
/** ... rising by this much per level above it, so it is certain 30 levels above. */
export const LIGHT_CHANCE_PER_LEVEL = 0.5 / 30;

/** Whether the item lights fires: the tinderbox, or any tool the data assigns to firemaking. */
export function isTinderbox(itemId: string, items: ItemIndex): boolean {
  return itemId === TINDERBOX_ITEM_ID || items.get(itemId)?.toolSkill === "firemaking";
}

/** The firemaking recipe that burns these logs, if any. */
export function firemakingRecipe(recipes: readonly Recipe[], logsId: string): Recipe | undefined {
  return recipes.find((r) => r.inputs[0]?.itemId === logsId);
}

/** The chance (0..1) that one attempt lights the logs; 0 below the recipe's level. */
export function lightChance(level: number, recipe: Recipe): number {
  if (level < recipe.level) return 0;
  return Math.min(1, LIGHT_CHANCE_AT_REQUIREMENT + (level - recipe.level) * LIGHT_CHANCE_PER_LEVEL);
}

export interface LightResult {
  inventory: Inventory;
  /** False when this try failed: the logs stay and the player may try again next cycle. */
  lit: boolean;
  /** Firemaking XP earned (0 on a failed try). */
  xp: number;
  logsId: string;
  /** Ticks before the fire burns out (0 when not lit). */
  durationTicks: number;
}

/**
 * One attempt to light the logs. The two slots may be given either way round; one must hold a
 * tinderbox (NEED_TINDERBOX), the other logs the recipes know (CANNOT_LIGHT). LEVEL_TOO_LOW
 * below the recipe's level. A lit fire consumes one log and grants the recipe's XP.
 */
export function lightFire(
  inv: Inventory,
  tinderboxSlot: number,
  logsSlot: number,
  firemakingLevel: number,
  recipes: readonly Recipe[],
  items: ItemIndex,
  rng: Rng,
): LightResult {
  assertSlot(tinderboxSlot);
  assertSlot(logsSlot);
  assertLevel(firemakingLevel);
  if (tinderboxSlot === logsSlot) throw new GameError("INVALID_SLOT", "the tinderbox and the logs must be in different slots");
  const a = inv[tinderboxSlot];
  const b = inv[logsSlot];
  if (!a || !b) throw new GameError("EMPTY_SLOT", `slot ${!a ? tinderboxSlot : logsSlot} is empty`);
  itemDef(a.itemId, items);
  itemDef(b.itemId, items);

  let logs = logsSlot;
  if (!isTinderbox(a.itemId, items)) {
    if (!isTinderbox(b.itemId, items)) throw new GameError("NEED_TINDERBOX", "a tinderbox is needed to light a fire");
    logs = tinderboxSlot;
  }
  const logsId = inv[logs]!.itemId;
  const recipe = firemakingRecipe(recipes, logsId);
  if (!recipe) throw new GameError("CANNOT_LIGHT", `${logsId} cannot be lit`);
  if (firemakingLevel < recipe.level) {
    throw new GameError("LEVEL_TOO_LOW", `lighting ${logsId} needs firemaking ${recipe.level}`);
  }
  if (!chance(rng, lightChance(firemakingLevel, recipe))) {
    return { inventory: copyInventory(inv), lit: false, xp: 0, logsId, durationTicks: 0 };
  }
  const { inventory } = removeFromSlot(inv, logs, 1);
  return { inventory, lit: true, xp: recipe.xp, logsId, durationTicks: FIRE_DURATION_TICKS };
}
