/**
 * Cooking raw food on a fire or a range. The caller checks the player stands by one.
 *
 * Burning: at the recipe's level the food burns with BURN_CHANCE_AT_REQUIREMENT[station]; the
 * chance falls linearly to 0 at the stop-burn level and stays 0 above it. The stop-burn level
 * comes from the recipe data (`stopBurnLevel`, a number or {fire, range}) or defaults to the
 * recipe level + DEFAULT_STOP_BURN_MARGIN. A range burns less than a fire at every level.
 */
import type { Recipe } from "../manifests/recipes.js";
import { GameError, type Inventory, type Rng } from "./types.js";
import { addItemAll, assertSlot, copyInventory, itemDef, removeFromSlot, type ItemIndex } from "./inventory.js";
import { assertLevel } from "./skills.js";
import { chance } from "./random.js";

export type CookingStation = "fire" | "range";
export const COOKING_STATIONS: readonly CookingStation[] = ["fire", "range"];

export const BURN_CHANCE_AT_REQUIREMENT: Record<CookingStation, number> = { fire: 0.6, range: 0.5 };
export const DEFAULT_STOP_BURN_MARGIN = 30;

/** The cooking recipe for this raw item, if any. */
export function cookingRecipe(recipes: readonly Recipe[], rawId: string): Recipe | undefined {
  return recipes.find((r) => r.inputs[0]?.itemId === rawId);
}

function positiveNumber(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : undefined;
}

/** The level at which this food stops burning on this station. */
export function stopBurnLevel(recipe: Recipe, station: CookingStation): number {
  const data = recipe.raw?.stopBurnLevel;
  let stop: number | undefined;
  if (typeof data === "number") stop = positiveNumber(data);
  else if (data && typeof data === "object") {
    const byStation = data as Record<string, unknown>;
    stop = positiveNumber(byStation[station]) ?? positiveNumber(byStation.fire) ?? positiveNumber(byStation.range);
  }
  return stop ?? recipe.level + DEFAULT_STOP_BURN_MARGIN;
}

/** The chance (0..1) to burn the food: 1 below the recipe level, 0 at and above the stop level. */
export function burnChance(level: number, recipe: Recipe, station: CookingStation): number {
  if (!COOKING_STATIONS.includes(station)) throw new GameError("INVALID_STATION", `cannot cook on ${String(station)}`);
  if (!Number.isFinite(level)) throw new GameError("INVALID_LEVEL", `level must be a number (got ${level})`);
  if (level < recipe.level) return 1;
  const stop = stopBurnLevel(recipe, station);
  if (level >= stop) return 0;
  const p = (BURN_CHANCE_AT_REQUIREMENT[station] * (stop - level)) / (stop - recipe.level);
  return Math.min(1, Math.max(0, p));
}

export interface CookResult {
  inventory: Inventory;
  /** True when cooked, false when burnt. */
  cooked: boolean;
  /** Cooking XP earned (0 when burnt). */
  xp: number;
  /** What the raw food became: the cooked item, the burnt item, or null when burnt food has no item. */
  itemId: string | null;
  rawId: string;
}

/**
 * Cook one raw item from `rawSlot`. CANNOT_COOK for anything the recipes do not know,
 * LEVEL_TOO_LOW below the recipe level. Success: the cooked item and the recipe's XP;
 * failure: the recipe's burnt item (when it exists in the item data) and no XP. The result takes
 * the raw food's slot (a stack of raw food gives up one and the result goes in a free slot).
 */
export function cook(
  inv: Inventory,
  rawSlot: number,
  cookingLevel: number,
  station: CookingStation,
  recipes: readonly Recipe[],
  items: ItemIndex,
  rng: Rng,
): CookResult {
  assertSlot(rawSlot);
  assertLevel(cookingLevel);
  if (!COOKING_STATIONS.includes(station)) throw new GameError("INVALID_STATION", `cannot cook on ${String(station)}`);
  const stack = inv[rawSlot];
  if (!stack) throw new GameError("EMPTY_SLOT", `slot ${rawSlot} is empty`);
  itemDef(stack.itemId, items);
  const recipe = cookingRecipe(recipes, stack.itemId);
  const cookedId = recipe?.outputs[0]?.itemId;
  if (!recipe || !cookedId) throw new GameError("CANNOT_COOK", `${stack.itemId} cannot be cooked`);
  if (recipe.station && recipe.station !== station && recipe.station !== "fire_or_range") {
    throw new GameError("WRONG_STATION", `${stack.itemId} must be cooked on a ${recipe.station}`);
  }
  if (cookingLevel < recipe.level) throw new GameError("LEVEL_TOO_LOW", `cooking ${stack.itemId} needs cooking ${recipe.level}`);
  itemDef(cookedId, items);

  const burnt = chance(rng, burnChance(cookingLevel, recipe, station));
  const resultId = burnt ? (recipe.failure && items.has(recipe.failure) ? recipe.failure : null) : cookedId;

  let inventory: Inventory;
  if (stack.quantity === 1) {
    inventory = copyInventory(inv);
    inventory[rawSlot] = resultId ? { itemId: resultId, quantity: 1 } : null;
  } else {
    inventory = removeFromSlot(inv, rawSlot, 1).inventory;
    if (resultId) inventory = addItemAll(inventory, resultId, 1, items).inventory;
  }
  return { inventory, cooked: !burnt, xp: burnt ? 0 : recipe.xp, itemId: resultId, rawId: stack.itemId };
}
