import { heldOf, noteChange } from "../ledger.js";
import type { Recipe } from "../../manifests/recipes.js";
import type { ProductionKind } from "../../protocol/vocabulary.js";
import { chooseRecipe, findRecipes, makeOnce, ticksOf, type Maker } from "../production.js";
import { GameError, type SkillName, type Tile } from "../types.js";
import { adjacent, itemHolderOf, walkTowards } from "./commands.js";
import type { NpcEntity, PlayerEntity } from "./entities.js";
import { questDeed } from "./questing.js";
import { grantXp } from "./xp.js";
import type { World } from "./World.js";

/**
 * `production:make`: making items at a station (a furnace, an anvil, an altar of the recipe's rune,
 * the tanner) or with tools alone. The request is checked at once; the tick walks to the station
 * named and makes one item every recipe's ticks until `count` are made, the inputs or the room
 * run out, or the player does something else.
 */

export type MakeAction = Extract<PlayerEntity["action"], { type: "make" }>;

/** The tanner: an npc whose services or dialogue offer tanning. */
export function isTanner(world: World, npc: NpcEntity): boolean {
  const def = world.data.npcs.get(npc.defId);
  if (!def) return false;
  if (def.services.includes("tanner") || def.services.includes("tanning")) return true;
  for (const node of def.dialogue?.nodes.values() ?? []) if (node.effect === "openTanner" || node.responses.some((r) => r.effect === "openTanner")) return true;
  return false;
}

/** Where a recipe is made: its station's tile (an npc's for tanning), or null when tools are enough. */
function stationTile(world: World, recipe: Recipe, stationId: string): Tile | undefined {
  if (recipe.station === "tanner") {
    const npc = world.npcs.get(stationId);
    return npc && npc.deadUntilTick == null && isTanner(world, npc) ? npc.position : undefined;
  }
  const station = world.stations.get(stationId);
  if (!station || station.type !== recipe.station) return undefined;
  if (recipe.runeType && station.runeType !== recipe.runeType) return undefined;
  return station.tile;
}

/** The station of the recipe the player stands beside, if any. */
function stationBeside(world: World, recipe: Recipe, p: PlayerEntity): string | undefined {
  const candidates = recipe.station === "tanner" ? world.near("npc", p.tile, 1) : world.near("station", p.tile, 1);
  for (const id of candidates) {
    const tile = stationTile(world, recipe, id);
    if (tile && adjacent(tile, p.tile)) return id;
  }
  return undefined;
}

function stationName(recipe: Recipe): string {
  if (recipe.station === "runecrafting_altar") return recipe.runeType ? `the ${recipe.runeType} altar` : "a runecrafting altar";
  return `a ${recipe.station}`;
}

function makerOf(p: PlayerEntity, recipe: Recipe): Maker {
  return { level: p.levels[recipe.skill as SkillName] ?? 1, inventory: p.inventory, lockedSlots: p.lockedSlots, equipped: Object.values(p.equipment).map((s) => s!.itemId) };
}

/** Start making: the recipe, the station and what one attempt needs are checked now. */
export function startMaking(world: World, id: string, m: { kind: ProductionKind; recipeId: string; count?: number | "all"; stationId?: string }) {
  const p = itemHolderOf(world, id);
  // The station is the same for every recipe making the item (one file, one station).
  const recipe = findRecipes(world.data.recipes, m.kind, m.recipeId)[0]!;
  let stationId: string | undefined;
  let walkTo: Tile | undefined;
  if (recipe.station) {
    if (m.stationId !== undefined) {
      walkTo = stationTile(world, recipe, m.stationId);
      if (!walkTo) throw new GameError("WRONG_STATION", `That is not ${stationName(recipe)}`);
      stationId = m.stationId;
    } else {
      stationId = stationBeside(world, recipe, p);
      if (!stationId) throw new GameError("NOT_AT_STATION", `You need to stand beside ${stationName(recipe)}`);
    }
  }
  // Everything is checked before the player sets off: a refusal changes nothing, the path included.
  makeOnceCheck(world, p, chooseRecipe(world.data.recipes, m.kind, m.recipeId, (r) => makerOf(p, r), world.data.items));
  if (walkTo) walkTowards(world, p, walkTo);
  else p.path = [];
  p.action = { type: "make", kind: m.kind, recipeId: recipe.id, remaining: m.count === "all" ? Infinity : (m.count ?? 1), stationId, nextTick: world.tick + ticksOf(recipe) };
  world.markChanged("player", p.id);
}

/** What one attempt needs (the level, tools, inputs, room): a dry run (makeOnce changes nothing it is given). */
function makeOnceCheck(world: World, p: PlayerEntity, recipe: Recipe) {
  makeOnce(recipe, makerOf(p, recipe), world.data.items, () => 0);
}

/** The tick's part: walk to the station, then one attempt every recipe's ticks. */
export function tickMaking(world: World, p: PlayerEntity) {
  const action = p.action as MakeAction;
  const recipe = findRecipes(world.data.recipes, action.kind, action.recipeId)[0]!;
  if (p.path.length > 0) return;
  if (action.stationId) {
    const tile = stationTile(world, recipe, action.stationId);
    if (!tile || !adjacent(tile, p.tile)) throw new GameError("TOO_FAR", `You need to stand beside ${stationName(recipe)}`);
  }
  if (world.tick < action.nextTick) return;
  action.nextTick = world.tick + ticksOf(recipe);
  let attempt;
  let made = recipe;
  try {
    made = chooseRecipe(world.data.recipes, action.kind, action.recipeId, (r) => makerOf(p, r), world.data.items);
    attempt = makeOnce(made, makerOf(p, made), world.data.items, world.rng);
  } catch (err) {
    // "Make all" ends quietly when the inputs run out; a count not reached says why.
    if (err instanceof GameError && err.code === "MISSING_MATERIALS" && action.remaining === Infinity) {
      p.action = null;
      world.markChanged("player", p.id);
      world.touchPlayer(p);
      return;
    }
    throw err;
  }
  const before = heldOf(p);
  p.inventory = attempt.inventory;
  noteChange(p, before, "made", recipe.id);
  world.touchPlayer(p);
  action.remaining--;
  world.events.push({ kind: "made", playerId: p.id, recipeKind: action.kind, recipeId: recipe.id, success: attempt.success, made: attempt.made, remaining: action.remaining });
  if (attempt.success) {
    grantXp(world, p, made.skill as SkillName, attempt.xp);
    for (const o of attempt.made) questDeed(world, p, { type: "interact", target: o.itemId, count: o.quantity });
  }
  if (action.remaining <= 0) {
    p.action = null;
    world.markChanged("player", p.id);
  }
}
