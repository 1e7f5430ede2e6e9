import { chebyshev } from "../game/movement.js";
import { itemName } from "../manifests/gameData.js";
import { attemptsPossible, checkMake, inputsFor, outputsAt, toolsOf, type Maker } from "../game/production.js";
import { COINS } from "../game/types.js";
import { GameError, type Tile } from "../game/types.js";
import type { GatheringResource, Recipe } from "../manifests/index.js";
import { PRODUCTION_KINDS, type ProductionKind } from "../protocol/index.js";
import { resourceDef, type WorldKnowledge } from "../game/world/knowledge.js";
import { coinsOf, equippedOf, hasBankable, inventoryOf, unlockedCountOf } from "./pack.js";
import { gatherNeeds, offersOf, type Skip } from "./storePlans.js";
import type { AgentView } from "./view.js";

/**
 * How an agent goes about making things (smelting, smithing, crafting, fletching, runecrafting,
 * tanning): whether it can make a recipe here at all (its level, a station of the recipe's type,
 * tools and inputs it has, can gather, make or buy), and the next step toward making it. Inputs it
 * lacks are taken from the bank, made by another recipe (ore into bars for smithing: a chain),
 * gathered, or bought; tools are bought first. Pure.
 */

export { isProductionKind } from "../game/production.js";

/** At most this many attempts are planned at once (a pack's worth). */
export const MAX_BATCH = 28;
/** Npcs dropping an item less often than this are not hunted for it. */
const MIN_DROP_CHANCE = 0.25;
/** How deep a chain of recipes may go. */
const MAX_DEPTH = 6;

/** Where a recipe is made: a station (furnace, anvil, altar) or the tanner (an npc instance). */
export interface Place {
  id: string;
  name: string;
  tile: Tile;
}

export type ProductionStep =
  | { kind: "buy"; itemId: string; quantity: number }
  | { kind: "withdraw"; itemId: string; quantity: number }
  | { kind: "gather"; itemId: string; resource: GatheringResource }
  /** Fight npcs of this definition for the item they drop, and pick it up. */
  | { kind: "hunt"; itemId: string; npcId: string }
  /** Make `count` (or "all" the inputs allow) at `place` (null: anywhere, tools are enough). */
  | { kind: "make"; recipe: Recipe; count: number | "all"; place: Place | null }
  /** The pack has no room for the inputs: bank first. */
  | { kind: "bank" }
  | { kind: "done" }
  | { kind: "stuck"; reason: string };

export type Availability = { ok: true } | { ok: false; reason: string };

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** "a dagger", "an iron bar", "leather boots" (a plural takes none). */
const article = (name: string) => (/s$/i.test(name) ? name : `${/^[aeiou]/i.test(name) ? "an" : "a"} ${name}`);
const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** The kind's recipes in this world. */
export const recipesOf = (k: WorldKnowledge, kind: ProductionKind): Recipe[] => k.data.recipes[kind] ?? [];

/** What a recipe's station is called ("a furnace", "an air altar", "a tanner"). */
export function stationLabel(recipe: Recipe): string {
  if (recipe.station === "runecrafting_altar")
    return recipe.runeType ? `an ${recipe.runeType} altar`.replace(/^an ([^aeiou])/, "a $1") : "a runecrafting altar";
  return article((recipe.station ?? "station").replace(/_/g, " "));
}

/** Every place in the world where the recipe is made ([] when none; null when it needs none). */
export function placesFor(k: WorldKnowledge, recipe: Recipe): Place[] | null {
  if (!recipe.station) return null;
  if (recipe.station === "tanner") return k.tanners.map((t) => ({ id: t.id, name: t.name, tile: t.tile }));
  return k.stations
    .filter((s) => s.type === recipe.station && (!recipe.runeType || s.runeType === recipe.runeType))
    .map((s) => ({ id: s.id, name: s.name, tile: s.tile }));
}

/** What the planner knows of the agent, made once per question. */
class Planner {
  readonly self;
  readonly coins: number;
  private readonly items = new Map<string, Availability>();
  private readonly recipes = new Map<string, Availability>();

  constructor(
    readonly view: AgentView,
    readonly k: WorldKnowledge,
    readonly skip: Skip,
  ) {
    this.self = view.self!;
    this.coins = coinsOf(this.self);
  }

  level(skill: string) {
    return this.self.skills[skill]?.level ?? 1;
  }
  held(itemId: string) {
    return unlockedCountOf(this.self, itemId);
  }
  /** What it saw in its bank (an item that was not there after all is skipped a while). */
  banked(itemId: string) {
    if (this.skip(`bank:${itemId}`)) return 0;
    return (this.view.banked ?? []).filter((s) => s.itemId === itemId).reduce((n, s) => n + s.quantity, 0);
  }
  hasTool(itemId: string) {
    return this.held(itemId) > 0 || equippedOf(this.self).includes(itemId);
  }
  maker(recipe: Recipe): Maker {
    return {
      level: this.level(recipe.skill),
      inventory: inventoryOf(this.self),
      lockedSlots: new Set(this.self.inventory.filter((s) => s.locked).map((s) => s.slot)),
      equipped: equippedOf(this.self),
    };
  }
  /** How many of its output one attempt makes. */
  perAttempt(recipe: Recipe, itemId = recipe.id) {
    return outputsAt(recipe, this.level(recipe.skill)).find((o) => o.itemId === itemId)?.quantity ?? 1;
  }
  /** The recipe (of a production kind) that makes the item, if the agent could make it here. */
  producer(itemId: string, seen: ReadonlySet<string>): Recipe | undefined {
    for (const kind of PRODUCTION_KINDS) {
      for (const r of recipesOf(this.k, kind)) {
        if (seen.has(r.id) || !r.outputs.some((o) => o.itemId === itemId)) continue;
        if (this.recipe(r, seen).ok) return r;
      }
    }
    return undefined;
  }
  /** Why the first recipe making the item cannot be used, if there is one. */
  private unusableProducer(itemId: string, seen: ReadonlySet<string>): string | undefined {
    for (const kind of PRODUCTION_KINDS) {
      const r = recipesOf(this.k, kind).find((x) => !seen.has(x.id) && x.outputs.some((o) => o.itemId === itemId));
      const can = r && this.recipe(r, seen);
      if (can && !can.ok) return can.reason;
    }
    return undefined;
  }
  /** The nearest place to make the recipe that was not refused lately. */
  place(recipe: Recipe): Place | null | undefined {
    const places = placesFor(this.k, recipe);
    if (places === null) return null;
    const open = places.filter((p) => !this.skip(`station:${p.id}`));
    return open.sort((a, b) => chebyshev(this.self.tile, a.tile) - chebyshev(this.self.tile, b.tile))[0];
  }

  /** May it make this recipe here: the level, a station, its tools, and inputs it has or can get. */
  recipe(recipe: Recipe, seen: ReadonlySet<string> = new Set()): Availability {
    const known = this.recipes.get(recipe.id);
    if (known) return known;
    const inner = new Set([...seen, recipe.id]);
    const why = this.recipeWhy(recipe, inner);
    const answer: Availability = why ? { ok: false, reason: why } : { ok: true };
    // Answers made inside a chain may depend on the chain: only the outermost is kept.
    if (seen.size === 0) this.recipes.set(recipe.id, answer);
    return answer;
  }

  private recipeWhy(recipe: Recipe, seen: ReadonlySet<string>): string | null {
    const name = itemName(this.k.data, recipe.id);
    const level = this.level(recipe.skill);
    if (level < recipe.level) return `I need ${capital(recipe.skill)} level ${recipe.level} to make ${article(name)}; I have ${level}`;
    const places = placesFor(this.k, recipe);
    if (places && places.length === 0) return `There is no ${stationLabel(recipe).replace(/^(a|an) /, "")} here to make ${article(name)}`;
    for (const tool of toolsOf(recipe, this.k.data.items)) {
      if (this.hasTool(tool)) continue;
      const offer = offersOf(this.k, tool, this.self.tile, this.skip)[0];
      if (!offer) return `I need ${article(itemName(this.k.data, tool))} to make ${article(name)}, and no store here sells one`;
      if (offer.price > this.coins)
        return `I need ${article(itemName(this.k.data, tool))}: ${offer.storeName} wants ${offer.price} coins and I have ${this.coins}`;
    }
    if (recipe.coins && this.coins < recipe.coins) return `Making ${article(name)} costs ${recipe.coins} coins; I have ${this.coins}`;
    const [first, ...rest] = recipe.inputs;
    if (first) {
      const options = [first.itemId, ...(recipe.inputAlternatives ?? [])].map((id) => this.item(id, seen));
      if (!options.some((o) => o.ok)) return (options[0] as { reason: string }).reason;
    }
    for (const input of rest) {
      const got = this.item(input.itemId, seen);
      if (!got.ok) return got.reason;
    }
    return null;
  }

  /** Can it come by the item: in the pack or the bank, made, gathered, or bought. */
  item(itemId: string, seen: ReadonlySet<string>): Availability {
    const known = this.items.get(itemId);
    if (known) return known;
    let answer: Availability = { ok: true };
    if (this.held(itemId) === 0 && this.banked(itemId) === 0 && !this.producer(itemId, seen)) {
      const source = this.leaf(itemId, 1);
      // Why a recipe making it cannot be used says more than "nothing yields it".
      const made = this.unusableProducer(itemId, seen);
      if ("reason" in source) answer = { ok: false, reason: made ? `${itemName(this.k.data, itemId)}: ${lower(made)}` : source.reason };
    }
    if (seen.size <= 1) this.items.set(itemId, answer);
    return answer;
  }

  /** Where to get `quantity` of an item it cannot make: gathered (no purchase needed first, then nearest), else bought. */
  leaf(itemId: string, quantity: number): ProductionStep | { reason: string } {
    const name = itemName(this.k.data, itemId);
    if (itemId === COINS) return { reason: `I need ${quantity} more coins` };
    const rated = (this.k.yieldsOf.get(itemId) ?? [])
      .filter((id) => this.k.resourceSpots.has(id))
      .flatMap((id) => {
        const def = resourceDef(this.k, id);
        if (!def) return [];
        // A full pack is no reason it could not gather there (it banks first).
        const found = gatherNeeds(this.view, this.k, def, this.skip);
        const needs: typeof found = !found.ok && found.code === "INVENTORY_FULL" ? { ok: true, buy: [] } : found;
        return [{ def, needs, distance: spotDistance(this.k, id, this.self.tile) }];
      });
    const buys = (r: (typeof rated)[number]) => (r.needs.ok ? r.needs.buy.length : Infinity);
    const usable = rated.filter((r) => r.needs.ok).sort((a, b) => buys(a) - buys(b) || a.distance - b.distance);
    if (usable.length) return { kind: "gather", itemId, resource: usable[0].def };
    const offer = offersOf(this.k, itemId, this.self.tile, this.skip)[0];
    const affordable = offer ? Math.min(quantity, Math.floor(this.coins / Math.max(1, offer.price))) : 0;
    if (offer && affordable >= 1) return { kind: "buy", itemId, quantity: affordable };
    // Something it can fight drops it (hides from cows): the weakest, then the nearest.
    const prey = [...this.k.npcSpawns]
      .filter(
        ([id, s]) =>
          s.level <= this.self.combatLevel + 5 && (this.k.data.npcs.get(id)?.drops ?? []).some((d) => d.itemId === itemId && d.chance >= MIN_DROP_CHANCE),
      )
      .sort(([, a], [, b]) => a.level - b.level || spotsDistance(a.tiles, this.self.tile) - spotsDistance(b.tiles, this.self.tile))[0];
    if (prey) return { kind: "hunt", itemId, npcId: prey[0] };
    if (offer) return { reason: `${offer.storeName} sells ${name} for ${offer.price} coins; I have ${this.coins}` };
    const failed = rated.find((r) => !r.needs.ok)?.needs;
    if (failed && !failed.ok) return { reason: failed.reason };
    return { reason: `Nothing here yields ${name}, no store sells it, and I have none` };
  }
}

function spotDistance(k: WorldKnowledge, resourceId: string, from: Tile) {
  return spotsDistance(k.resourceSpots.get(resourceId)?.tiles ?? [], from);
}
const spotsDistance = (tiles: Tile[], from: Tile) => Math.min(Infinity, ...tiles.map((t) => chebyshev(from, t)));

/** What `attempts` attempts of a recipe need beyond the pack: bank withdrawals, recipes to run first, items to get, tools. */
interface Needs {
  withdraw: Map<string, number>;
  /** Recipes of the chain to run first (parents before children), with their attempts. */
  makes: Array<{ recipe: Recipe; attempts: number }>;
  leaves: Map<string, number>;
  tools: string[];
}

function needsOf(m: Planner, recipe: Recipe, attempts: number): Needs {
  const pack = new Map<string, number>();
  for (const s of m.self.inventory) if (!s.locked) pack.set(s.itemId, (pack.get(s.itemId) ?? 0) + s.quantity);
  const bank = new Map<string, number>();
  for (const s of m.view.banked ?? []) bank.set(s.itemId, m.banked(s.itemId));
  const out: Needs = { withdraw: new Map(), makes: [], leaves: new Map(), tools: [] };
  const add = (map: Map<string, number>, id: string, n: number) => map.set(id, (map.get(id) ?? 0) + n);
  const take = (map: Map<string, number>, id: string, want: number) => {
    const n = Math.min(map.get(id) ?? 0, want);
    map.set(id, (map.get(id) ?? 0) - n);
    return n;
  };
  const expand = (r: Recipe, n: number, seen: Set<string>) => {
    if (n <= 0) return;
    for (const tool of toolsOf(r, m.k.data.items)) if (!m.hasTool(tool) && !out.tools.includes(tool)) out.tools.push(tool);
    for (const input of inputsFor(r, inventoryOf(m.self))) {
      const id = input.itemId;
      let want = input.quantity * n;
      want -= take(pack, id, want);
      if (want === 0) continue;
      const fromBank = id === COINS ? 0 : take(bank, id, want);
      if (fromBank) add(out.withdraw, id, fromBank);
      want -= fromBank;
      if (want === 0) continue;
      const sub = id !== COINS && seen.size < MAX_DEPTH ? m.producer(id, seen) : undefined;
      if (!sub) {
        add(out.leaves, id, want);
        continue;
      }
      const subAttempts = Math.ceil(want / m.perAttempt(sub, id));
      const known = out.makes.find((x) => x.recipe.id === sub.id);
      if (known) known.attempts += subAttempts;
      else out.makes.push({ recipe: sub, attempts: subAttempts });
      expand(sub, subAttempts, new Set([...seen, sub.id]));
    }
  };
  expand(recipe, attempts, new Set([recipe.id]));
  return out;
}

/** Pack slots the needs take: each unstackable item one a piece, a stackable one a slot unless held; one per tool. */
function slotsOf(m: Planner, needs: Needs): number {
  let n = needs.tools.length;
  const counted = new Set<string>();
  for (const [id, q] of [...needs.withdraw, ...needs.leaves]) {
    if (id === COINS) continue;
    if (!m.k.data.items.get(id)?.stackable) n += q;
    else if (m.held(id) === 0 && !counted.has(id)) n++;
    counted.add(id);
  }
  return n;
}

/** How many attempts it could make with what it holds now, at a place it can reach (0 when it may not make it now). */
function possibleNow(m: Planner, recipe: Recipe): number {
  if (m.place(recipe) === undefined) return 0;
  try {
    checkMake(recipe, m.maker(recipe), m.k.data.items);
  } catch (err) {
    if (err instanceof GameError) return 0;
    throw err;
  }
  return attemptsPossible(recipe, m.maker(recipe));
}

/** Make whatever of the chain it can now, the deepest recipe first (bars before daggers); null when nothing. */
function makeable(m: Planner, recipe: Recipe, attempts: number): ProductionStep | null {
  const needs = needsOf(m, recipe, Math.min(attempts, MAX_BATCH));
  const chain = [...needs.makes.reverse(), { recipe, attempts }];
  for (const { recipe: r, attempts: wanted } of chain) {
    const possible = possibleNow(m, r);
    if (possible < 1 || wanted < 1) continue;
    return { kind: "make", recipe: r, count: wanted >= possible ? "all" : wanted, place: m.place(r) ?? null };
  }
  return null;
}

/**
 * May the agent make this recipe here (its level, a station of its type in the world, its tools
 * held or sold, its inputs held, banked, made, gathered or sold), else why not.
 */
export function recipeAvailability(view: AgentView, k: WorldKnowledge, recipe: Recipe, skip: Skip = () => false): Availability {
  return new Planner(view, k, skip).recipe(recipe);
}

/** The best recipe of a kind it can make here: the highest level, then the most experience. */
export function bestRecipe(view: AgentView, k: WorldKnowledge, kind: ProductionKind, skip: Skip = () => false): Recipe | undefined {
  const m = new Planner(view, k, skip);
  return recipesOf(k, kind)
    .filter((r) => m.recipe(r).ok)
    .sort((a, b) => b.level - a.level || b.xp - a.xp)[0];
}

/**
 * The next step toward `attempts` more attempts of `recipe`. `making`: it is in the middle of
 * making (it goes on making what it can before gathering again); otherwise it gets what a batch
 * needs (as many attempts as its pack has room for) and makes once it has it all.
 */
export function productionStep(
  view: AgentView,
  k: WorldKnowledge,
  recipe: Recipe,
  attempts: number,
  making: boolean,
  skip: Skip = () => false,
): ProductionStep {
  if (attempts <= 0) return { kind: "done" };
  const m = new Planner(view, k, skip);
  const can = m.recipe(recipe);
  if (!can.ok) return { kind: "stuck", reason: can.reason };
  if (making) {
    const make = makeable(m, recipe, attempts);
    if (make) return make;
  }
  // The biggest batch whose inputs fit in the pack.
  const free = view.freeSlots();
  let n = Math.min(attempts, MAX_BATCH);
  let needs = needsOf(m, recipe, n);
  while (n > 0 && slotsOf(m, needs) > free) needs = needsOf(m, recipe, --n);
  if (n === 0)
    return makeable(m, recipe, attempts) ?? (hasBankable(k, m.self) ? { kind: "bank" } : { kind: "stuck", reason: "My pack is too full to make anything" });
  for (const tool of needs.tools) {
    const offer = offersOf(k, tool, m.self.tile, skip)[0];
    if (!offer || offer.price > m.coins) return { kind: "stuck", reason: `I need ${article(itemName(k.data, tool))}, and I can't get one` };
    return { kind: "buy", itemId: tool, quantity: 1 };
  }
  for (const [itemId, quantity] of needs.withdraw) return { kind: "withdraw", itemId, quantity };
  for (const [itemId, quantity] of needs.leaves) {
    const source = m.leaf(itemId, quantity);
    if (!("reason" in source)) return source;
    // Cannot get more: make what it can with what it has.
    return makeable(m, recipe, attempts) ?? { kind: "stuck", reason: source.reason };
  }
  const make = makeable(m, recipe, attempts);
  if (make) return make;
  const away = [...needs.makes.map((x) => x.recipe), recipe].find((r) => m.place(r) === undefined);
  if (away) return { kind: "stuck", reason: `I can't get to ${stationLabel(away)} to make ${article(itemName(k.data, away.id))}` };
  return { kind: "stuck", reason: `I have what ${article(itemName(k.data, recipe.id))} needs, and yet I can't make it` };
}
