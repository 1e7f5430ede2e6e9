/**
 * Recipes: one file per kind under recipes/ (cooking, firemaking, smelting, smithing, crafting,
 * fletching, runecrafting, tanning; any other file is read generically), each recipe brought to
 * one shape: inputs, outputs, tools, level, xp.
 */
import type { z } from "zod";
import type { SkillName } from "../protocol/index.js";
import type { LoadContext } from "./context.js";
import { labelOf, rawOf } from "./context.js";
import type { ItemQuantity, Raw } from "./shapes.js";
import { recipeSchemas, recipesFileSchema, type RecipeInputRecord, type RecipeKind } from "./schemasMisc.js";
import { describeIssues } from "./schemas.js";
import { def } from "./util.js";

/** A recipe of any file, in one shape. */
export interface Recipe {
  /** The main product (or the main input, for recipes that make nothing, like firemaking). */
  id: string;
  /** The file it came from without extension, e.g. "cooking". */
  kind: string;
  skill: string;
  level: number;
  xp: number;
  ticks?: number;
  inputs: ItemQuantity[];
  outputs: ItemQuantity[];
  /** Item produced on failure (cooking: the burnt version). */
  failure?: string;
  tools: string[];
  station?: string;
  /** The chance (0..1) an attempt succeeds (smelting's `successRate`); a failed attempt still uses its inputs. */
  successRate?: number;
  /** Items of which any one may stand in for the first input (runecrafting's essence types). */
  inputAlternatives?: string[];
  /** Levels at which each input makes one more of the output (runecrafting's `multiRuneLevels`). */
  extraOutputLevels?: number[];
  /** Coins paid per item made (tanning's `cost`). */
  coins?: number;
  /** Runecrafting: the rune type whose altar it needs (`runeType`). */
  runeType?: string;
  /** Every item id the recipe names (inputs, outputs, tools, alternatives). */
  itemRefs: string[];
  raw: Raw;
}

/** The skill each known recipe file trains (another file's recipes train the skill they name, else one of the file's name). */
export const RECIPE_SKILL: { readonly [K in Exclude<RecipeKind, "other">]: SkillName } = {
  cooking: "cooking",
  firemaking: "firemaking",
  smelting: "smithing",
  smithing: "smithing",
  crafting: "crafting",
  fletching: "fletching",
  runecrafting: "runecrafting",
  tanning: "crafting",
};

/** The skill a known recipe file (a kind of production) trains; undefined for any other name. */
export function recipeKindSkill(kind: string): SkillName | undefined {
  return Object.hasOwn(RECIPE_SKILL, kind) ? RECIPE_SKILL[kind as keyof typeof RECIPE_SKILL] : undefined;
}

function qty(list: RecipeInputRecord[] | null | undefined): ItemQuantity[] {
  return (list ?? []).map((i) => ({ itemId: (i.item ?? i.itemId)!, quantity: i.amount ?? i.quantity ?? 1 }));
}

type Base = Omit<Recipe, "kind" | "raw" | "itemRefs">;

/**
 * How each kind's validated recipe is brought to the common shape, given the skill its file
 * trains. A mapped type: a recipe kind added to recipeSchemas without its reader does not compile.
 */
const READERS: { [K in RecipeKind]: (r: z.infer<(typeof recipeSchemas)[K]>, skill: string) => Base } = {
  cooking: (r, skill) => ({
    id: r.cooked,
    skill,
    level: r.level,
    xp: r.xp,
    ticks: def(r.ticks),
    inputs: [{ itemId: r.raw, quantity: 1 }],
    outputs: [{ itemId: r.cooked, quantity: 1 }],
    failure: def(r.burnt),
    tools: [],
  }),
  firemaking: (r, skill) => ({
    id: r.log,
    skill,
    level: r.level,
    xp: r.xp,
    ticks: def(r.ticks),
    inputs: [{ itemId: r.log, quantity: 1 }],
    outputs: [],
    tools: [],
  }),
  smelting: (r, skill) => ({
    id: r.output,
    skill,
    level: r.level,
    xp: r.xp,
    ticks: def(r.ticks),
    inputs: qty(r.inputs),
    outputs: [{ itemId: r.output, quantity: 1 }],
    tools: [],
    station: "furnace",
    ...(r.successRate != null && r.successRate < 1 ? { successRate: r.successRate } : {}),
  }),
  smithing: (r, skill) => ({
    id: r.output,
    skill,
    level: r.level,
    xp: r.xp,
    ticks: def(r.ticks),
    inputs: [{ itemId: r.bar, quantity: r.barsRequired ?? 1 }],
    outputs: [{ itemId: r.output, quantity: r.outputQuantity ?? 1 }],
    tools: [],
    station: "anvil",
  }),
  crafting: (r, skill) => ({
    id: r.output,
    skill,
    level: r.level,
    xp: r.xp,
    ticks: def(r.ticks),
    inputs: [...qty(r.inputs), ...qty(r.consumables)],
    outputs: [{ itemId: r.output, quantity: r.outputQuantity ?? 1 }],
    tools: [...(r.tools ?? [])],
    station: r.station && r.station !== "none" ? r.station : undefined,
  }),
  fletching: (r, skill) => ({
    id: r.output,
    skill,
    level: r.level,
    xp: r.xp,
    ticks: def(r.ticks),
    inputs: qty(r.inputs),
    outputs: [{ itemId: r.output, quantity: r.outputQuantity ?? 1 }],
    tools: [...(r.tools ?? [])],
  }),
  runecrafting: (r, skill) => ({
    id: r.runeItemId,
    skill,
    level: r.levelRequired,
    xp: r.xpPerEssence,
    inputs: [{ itemId: r.essenceTypes[0]!, quantity: 1 }],
    inputAlternatives: r.essenceTypes.slice(1),
    outputs: [{ itemId: r.runeItemId, quantity: 1 }],
    extraOutputLevels: [...(r.multiRuneLevels ?? [])].sort((a, b) => a - b),
    tools: [],
    station: "runecrafting_altar",
    ...(r.runeType ? { runeType: r.runeType } : {}),
  }),
  tanning: (r, skill) => ({
    id: r.output,
    skill,
    level: 1,
    xp: 0,
    inputs: [{ itemId: r.input, quantity: 1 }],
    outputs: [{ itemId: r.output, quantity: 1 }],
    tools: [],
    station: "tanner",
    coins: r.cost ?? 0,
  }),
  other: (r, skill) => {
    const outputs = r.output ? [{ itemId: r.output, quantity: r.outputQuantity ?? 1 }] : [];
    const inputs = qty(r.inputs);
    const id = r.output ?? inputs[0]?.itemId ?? "";
    return { id, skill: r.skill ?? skill, level: r.level ?? 1, xp: r.xp ?? 0, ticks: def(r.ticks), inputs, outputs, tools: [...(r.tools ?? [])] };
  },
};

/** Validate one recipe of a known kind (once) and bring it to the common shape. */
function normalize<K extends RecipeKind>(kind: K, fileKind: string, value: unknown): Base | { error: string } {
  const parsed = recipeSchemas[kind].safeParse(value);
  if (!parsed.success) return { error: describeIssues(parsed.error) };
  return READERS[kind](parsed.data as z.infer<(typeof recipeSchemas)[K]>, recipeKindSkill(fileKind) ?? fileKind);
}

/** Every item id a recipe names, including alternatives (e.g. other essence types). */
function itemRefsOf(base: Base, value: Record<string, unknown>): string[] {
  const refs = new Set<string>();
  for (const q of [...base.inputs, ...base.outputs]) refs.add(q.itemId);
  for (const t of base.tools) refs.add(t);
  if (base.failure) refs.add(base.failure);
  const essences = value.essenceTypes;
  if (Array.isArray(essences)) for (const e of essences) if (typeof e === "string") refs.add(e);
  return [...refs];
}

function kindOf(fileKind: string): RecipeKind {
  return fileKind in recipeSchemas && fileKind !== "other" ? (fileKind as RecipeKind) : "other";
}

/** Read one recipes/<kind>.json file into `recipes[kind]`. */
export function readRecipeFile(ctx: LoadContext, recipes: Record<string, Recipe[]>, file: string, json: unknown): void {
  const fileKind = file.replace(/^recipes\//, "").replace(/\.json$/, "");
  const top = ctx.topLevel(recipesFileSchema, json, file, false);
  if (!top) return;
  const kind = kindOf(fileKind);
  const out: Recipe[] = [];
  top.recipes.forEach((value, i) => {
    const label = `recipe ${labelOf(value, i, ["output", "cooked", "log", "runeItemId", "id"])}`;
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      ctx.warn(file, `${label} is not an object; skipped`);
      return;
    }
    const base = normalize(kind, fileKind, value);
    if ("error" in base) {
      ctx.warn(file, `${label} is invalid (${base.error}); skipped`);
      return;
    }
    const raw = rawOf(value);
    out.push({ ...base, kind: fileKind, itemRefs: itemRefsOf(base, raw), raw });
  });
  recipes[fileKind] = out;
}
