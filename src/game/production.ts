/**
 * Production, pure: making one item of a recipe (smelting, smithing, crafting, fletching,
 * runecrafting, tanning). What a recipe needs: the level, its tools (in the pack or worn; a hammer
 * at an anvil when the data has hammers), its inputs (never from slots offered in a trade), coins
 * for tanning, and room in the pack for what it makes. One attempt takes the inputs and, when it
 * succeeds (`successRate`, rolled with the world's randomness), gives the outputs; a failed attempt
 * has still used its inputs. The caller checks the player stands at the recipe's station.
 */
import type { Recipe } from "../manifests/recipes.js";
import { addItemAll, countItem, takeUnlocked, unlockedView, type ItemIndex } from "./inventory.js";
import { chance } from "./random.js";
import { GameError, type Inventory, type ItemStack, type Rng } from "./types.js";

import { PRODUCTION_KINDS, type ProductionKind } from "../protocol/vocabulary.js";

export const isProductionKind = (kind: string): kind is ProductionKind => (PRODUCTION_KINDS as readonly string[]).includes(kind);

/** Ticks one attempt takes when the recipe does not say (runecrafting and tanning are quick). */
export const DEFAULT_MAKE_TICKS: Record<ProductionKind, number> = { smelting: 4, smithing: 4, crafting: 3, fletching: 3, runecrafting: 1, tanning: 1 };

/** The coins tanning is paid with. */
const COINS = "coins";

/** The recipes of a kind making `id` (several when the data makes one item from different inputs), or UNKNOWN_RECIPE. */
export function findRecipes(recipes: Record<string, Recipe[]>, kind: string, id: string): Recipe[] {
  const found = isProductionKind(kind) ? (recipes[kind] ?? []).filter((r) => r.id === id) : [];
  if (found.length === 0) throw new GameError("UNKNOWN_RECIPE", `There is no ${kind} recipe for ${id}`);
  return found;
}

/** The first recipe of a kind making `id` (unit tests and callers that need one). */
export function findRecipe(recipes: Record<string, Recipe[]>, kind: string, id: string): Recipe {
  return findRecipes(recipes, kind, id)[0]!;
}

/**
 * Of the recipes making `id` (arrow shafts from logs, oak logs, ...), the first the maker can make
 * now, in the data's order; when none can, the refusal of the first whose level the maker has (else
 * of the first).
 */
export function chooseRecipe(recipes: Record<string, Recipe[]>, kind: string, id: string, makerOf: (r: Recipe) => Maker, items: ItemIndex): Recipe {
  const candidates = findRecipes(recipes, kind, id);
  let refusal: unknown;
  for (const r of candidates) {
    try {
      checkMake(r, makerOf(r), items);
      return r;
    } catch (err) {
      if (!(err instanceof GameError)) throw err;
      if (refusal === undefined || (err.code !== "LEVEL_TOO_LOW" && (refusal as GameError).code === "LEVEL_TOO_LOW")) refusal = err;
    }
  }
  throw refusal;
}

export function ticksOf(recipe: Recipe): number {
  const kind = recipe.kind as ProductionKind;
  return Math.max(1, Math.round(recipe.ticks ?? DEFAULT_MAKE_TICKS[kind] ?? 3));
}

/** The tools a recipe needs: its own, and a hammer at an anvil when the data knows hammers. */
export function toolsOf(recipe: Recipe, items: ItemIndex): string[] {
  return recipe.station === "anvil" && items.has("hammer") && !recipe.tools.includes("hammer") ? [...recipe.tools, "hammer"] : recipe.tools;
}

/** How many of each output one attempt makes at this level (runecrafting makes more at its extra levels). */
export function outputsAt(recipe: Recipe, level: number): ItemStack[] {
  const extra = (recipe.extraOutputLevels ?? []).filter((l) => level >= l).length;
  return recipe.outputs.map((o) => ({ itemId: o.itemId, quantity: o.quantity * (1 + extra) }));
}

/** The inputs one attempt takes from this pack: the first input may be any of its alternatives the pack holds. */
export function inputsFor(recipe: Recipe, available: Inventory): ItemStack[] {
  const [first, ...rest] = recipe.inputs;
  if (!first) return [];
  const options = [first.itemId, ...(recipe.inputAlternatives ?? [])];
  const held = options.find((id) => countItem(available, id) >= first.quantity) ?? first.itemId;
  const inputs = [{ itemId: held, quantity: first.quantity }, ...rest.map((i) => ({ ...i }))];
  if (recipe.coins) inputs.push({ itemId: COINS, quantity: recipe.coins });
  return inputs;
}

/** What the maker has that a recipe asks about. */
export interface Maker {
  level: number;
  inventory: Inventory;
  /** Slots offered in a trade: never used. */
  lockedSlots: ReadonlySet<number>;
  /** Item ids worn. */
  equipped: readonly string[];
}

/**
 * Refuses (with the reason) when the maker cannot make one now: LEVEL_TOO_LOW, NO_TOOL,
 * MISSING_MATERIALS (inputs or tanning's coins), INVENTORY_FULL (no room for the outputs once the
 * inputs are taken). Returns the inputs it would take.
 */
export function checkMake(recipe: Recipe, who: Maker, items: ItemIndex): ItemStack[] {
  if (who.level < recipe.level) throw new GameError("LEVEL_TOO_LOW", `You need level ${recipe.level} ${recipe.skill} to make that`);
  const open = unlockedView(who.inventory, who.lockedSlots);
  for (const tool of toolsOf(recipe, items)) {
    if (countItem(open, tool) === 0 && !who.equipped.includes(tool)) throw new GameError("NO_TOOL", `You need a ${items.get(tool)?.name ?? tool}`);
  }
  const inputs = inputsFor(recipe, open);
  for (const i of inputs) {
    const have = countItem(open, i.itemId);
    if (have < i.quantity) throw new GameError("MISSING_MATERIALS", `You need ${i.quantity} x ${items.get(i.itemId)?.name ?? i.itemId} (you have ${have})`);
  }
  return inputs;
}

export interface Attempt {
  inventory: Inventory;
  success: boolean;
  /** What was made (nothing on a failed attempt). */
  made: ItemStack[];
  /** What was used up. */
  used: ItemStack[];
  xp: number;
}

/** One attempt, all or nothing: the inputs go, and on success the outputs come (or nothing changes and it is refused). */
export function makeOnce(recipe: Recipe, who: Maker, items: ItemIndex, rng: Rng): Attempt {
  const inputs = checkMake(recipe, who, items);
  let inv = who.inventory;
  for (const i of inputs) inv = takeUnlocked(inv, i.itemId, i.quantity, undefined, who.lockedSlots);
  const outputs = outputsAt(recipe, who.level);
  // Room for the outputs is needed whether or not this attempt succeeds.
  let made = inv;
  for (const o of outputs) made = addItemAll(made, o.itemId, o.quantity, items).inventory;
  const success = recipe.successRate === undefined || chance(rng, recipe.successRate);
  return { inventory: success ? made : inv, success, made: success ? outputs : [], used: inputs, xp: success ? recipe.xp : 0 };
}

/** How many attempts the pack can pay for (inputs only; room is checked at each attempt). */
export function attemptsPossible(recipe: Recipe, who: Maker): number {
  const open = unlockedView(who.inventory, who.lockedSlots);
  let n = Infinity;
  for (const i of inputsFor(recipe, open)) n = Math.min(n, Math.floor(countItem(open, i.itemId) / i.quantity));
  return n === Infinity ? 0 : n;
}
