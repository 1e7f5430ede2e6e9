import assert from "node:assert/strict";
import {
  attemptsPossible,
  checkMake,
  chooseRecipe,
  findRecipe,
  inputsFor,
  makeOnce,
  outputsAt,
  ticksOf,
  toolsOf,
  type Maker,
} from "../../src/game/production.js";
import { countItem } from "../../src/game/inventory.js";
import { INVENTORY_SIZE, MAX_STACK } from "../../src/game/types.js";
import type { ItemDef } from "../../src/manifests/gameData.js";
import type { Recipe } from "../../src/manifests/recipes.js";
import { code, inv, item } from "./fixtures.js";
import { fixedRng, seededRng } from "./rng.js";

const items = new Map<string, ItemDef>(
  [
    item("copper_ore"),
    item("tin_ore"),
    item("iron_ore"),
    item("bronze_bar"),
    item("iron_bar"),
    item("bronze_dagger"),
    item("hammer"),
    item("knife"),
    item("logs"),
    item("oak_logs"),
    item("arrow_shaft", { stackable: true }),
    item("rune_essence", { stackable: false }),
    item("pure_essence", { stackable: false }),
    item("air_rune", { stackable: true }),
    item("cowhide"),
    item("leather"),
    item("coins", { stackable: true }),
  ].map((i) => [i.id, i]),
);

const recipe = (r: Partial<Recipe> & Pick<Recipe, "id" | "kind" | "inputs" | "outputs">): Recipe => ({
  skill: "smithing",
  level: 1,
  xp: 10,
  tools: [],
  itemRefs: [],
  raw: {},
  ...r,
});

const bronzeBar = recipe({
  id: "bronze_bar",
  kind: "smelting",
  inputs: [
    { itemId: "copper_ore", quantity: 1 },
    { itemId: "tin_ore", quantity: 1 },
  ],
  outputs: [{ itemId: "bronze_bar", quantity: 1 }],
  station: "furnace",
  xp: 6,
});
const ironBar = recipe({
  id: "iron_bar",
  kind: "smelting",
  level: 15,
  inputs: [{ itemId: "iron_ore", quantity: 1 }],
  outputs: [{ itemId: "iron_bar", quantity: 1 }],
  station: "furnace",
  successRate: 0.5,
});
const dagger = recipe({
  id: "bronze_dagger",
  kind: "smithing",
  inputs: [{ itemId: "bronze_bar", quantity: 1 }],
  outputs: [{ itemId: "bronze_dagger", quantity: 1 }],
  station: "anvil",
  ticks: 5,
});
const shafts = recipe({
  id: "arrow_shaft",
  kind: "fletching",
  skill: "fletching",
  inputs: [{ itemId: "logs", quantity: 1 }],
  outputs: [{ itemId: "arrow_shaft", quantity: 15 }],
  tools: ["knife"],
});
const airRune = recipe({
  id: "air_rune",
  kind: "runecrafting",
  skill: "runecrafting",
  inputs: [{ itemId: "rune_essence", quantity: 1 }],
  inputAlternatives: ["pure_essence"],
  outputs: [{ itemId: "air_rune", quantity: 1 }],
  extraOutputLevels: [11, 22],
  station: "runecrafting_altar",
});
const leather = recipe({
  id: "leather",
  kind: "tanning",
  skill: "crafting",
  inputs: [{ itemId: "cowhide", quantity: 1 }],
  outputs: [{ itemId: "leather", quantity: 1 }],
  coins: 2,
  station: "tanner",
  xp: 0,
});

const maker = (inventory = inv(), extra: Partial<Maker> = {}): Maker => ({ level: 1, inventory, lockedSlots: new Set(), equipped: [], ...extra });

describe("production rules", () => {
  it("finds recipes by kind and output; other kinds and unknown outputs are UNKNOWN_RECIPE", () => {
    const recipes = { smelting: [bronzeBar, ironBar], cooking: [recipe({ id: "shrimp", kind: "cooking", inputs: [], outputs: [] })] };
    assert.equal(findRecipe(recipes, "smelting", "iron_bar"), ironBar);
    assert.throws(() => findRecipe(recipes, "smelting", "gold_bar"), code("UNKNOWN_RECIPE"));
    assert.throws(() => findRecipe(recipes, "cooking", "shrimp"), code("UNKNOWN_RECIPE"), "cooking has its own rule");
    assert.throws(() => findRecipe(recipes, "smithing", "bronze_bar"), code("UNKNOWN_RECIPE"));
  });

  it("an attempt takes the inputs and gives the outputs and the xp; the given pack is not changed", () => {
    const pack = inv({ 0: ["copper_ore", 1], 1: ["tin_ore", 1], 2: ["copper_ore", 1] });
    const before = JSON.stringify(pack);
    const r = makeOnce(bronzeBar, maker(pack), items, seededRng(1));
    assert.equal(r.success, true);
    assert.equal(r.xp, 6);
    assert.deepEqual(r.made, [{ itemId: "bronze_bar", quantity: 1 }]);
    assert.deepEqual(r.used, [
      { itemId: "copper_ore", quantity: 1 },
      { itemId: "tin_ore", quantity: 1 },
    ]);
    assert.equal(countItem(r.inventory, "bronze_bar"), 1);
    assert.equal(countItem(r.inventory, "copper_ore"), 1);
    assert.equal(countItem(r.inventory, "tin_ore"), 0);
    assert.equal(JSON.stringify(pack), before);
  });

  it("refuses without the level, the tools or the inputs, and changes nothing", () => {
    assert.throws(() => checkMake(ironBar, maker(inv({ 0: ["iron_ore", 1] }), { level: 14 }), items), code("LEVEL_TOO_LOW"));
    assert.throws(() => checkMake(shafts, maker(inv({ 0: ["logs", 1] })), items), code("NO_TOOL"));
    assert.doesNotThrow(() => checkMake(shafts, maker(inv({ 0: ["logs", 1] }), { equipped: ["knife"] }), items), "a worn tool counts");
    assert.throws(() => checkMake(bronzeBar, maker(inv({ 0: ["copper_ore", 1] })), items), code("MISSING_MATERIALS"));
  });

  it("an anvil needs a hammer when the data has hammers", () => {
    assert.deepEqual(toolsOf(dagger, items), ["hammer"]);
    assert.throws(() => checkMake(dagger, maker(inv({ 0: ["bronze_bar", 1] })), items), code("NO_TOOL"));
    assert.doesNotThrow(() => checkMake(dagger, maker(inv({ 0: ["bronze_bar", 1], 1: ["hammer", 1] })), items));
    const noHammers = new Map([...items].filter(([id]) => id !== "hammer"));
    assert.deepEqual(toolsOf(dagger, noHammers), []);
  });

  it("never uses a slot offered in a trade, tool or input", () => {
    const pack = inv({ 0: ["logs", 1], 1: ["knife", 1] });
    assert.throws(() => checkMake(shafts, maker(pack, { lockedSlots: new Set([0]) }), items), code("MISSING_MATERIALS"));
    assert.throws(() => checkMake(shafts, maker(pack, { lockedSlots: new Set([1]) }), items), code("NO_TOOL"));
    const two = inv({ 0: ["logs", 1], 1: ["knife", 1], 2: ["logs", 1] });
    const r = makeOnce(shafts, maker(two, { lockedSlots: new Set([0]) }), items, seededRng(1));
    assert.deepEqual(r.inventory[0], { itemId: "logs", quantity: 1 }, "the offered logs stay");
    assert.equal(countItem(r.inventory, "logs"), 1, "the other logs were used");
    assert.equal(countItem(r.inventory, "arrow_shaft"), 15);
    assert.equal(attemptsPossible(shafts, maker(two, { lockedSlots: new Set([0]) })), 1);
  });

  it("needs room for the outputs once the inputs are taken (INVENTORY_FULL), even for an attempt that would fail", () => {
    const full = inv(Object.fromEntries(Array.from({ length: INVENTORY_SIZE }, (_, i) => [i, ["iron_ore", 1] as [string, number]])));
    assert.doesNotThrow(() => makeOnce(ironBar, maker(full, { level: 15 }), items, fixedRng(0)), "the ore's slot takes the bar");
    const shaftsFull = inv({
      ...Object.fromEntries(Array.from({ length: INVENTORY_SIZE - 2 }, (_, i) => [i, ["iron_ore", 1] as [string, number]])),
      26: ["logs", 1],
      27: ["knife", 1],
    });
    assert.doesNotThrow(() => makeOnce(shafts, maker(shaftsFull), items, seededRng(1)), "the log's slot takes the shafts");
    const stackFull = inv({ 0: ["logs", 1], 1: ["knife", 1], 2: ["arrow_shaft", MAX_STACK - 5] });
    assert.throws(() => makeOnce(shafts, maker(stackFull), items, seededRng(1)), code("INVENTORY_FULL"));
    const oreFull = inv({ ...Object.fromEntries(Array.from({ length: INVENTORY_SIZE }, (_, i) => [i, ["rune_essence", 1] as [string, number]])) });
    const rune = makeOnce(airRune, maker(oreFull), items, seededRng(1));
    assert.equal(countItem(rune.inventory, "air_rune"), 1);
  });

  it("successRate is rolled with the world's randomness; a failed attempt still uses its inputs and gives no xp", () => {
    const fail = makeOnce(ironBar, maker(inv({ 0: ["iron_ore", 1], 1: ["iron_ore", 1] }), { level: 15 }), items, fixedRng(0.9));
    assert.equal(fail.success, false);
    assert.equal(fail.xp, 0);
    assert.deepEqual(fail.made, []);
    assert.equal(countItem(fail.inventory, "iron_ore"), 1);
    assert.equal(countItem(fail.inventory, "iron_bar"), 0);
    const ok = makeOnce(ironBar, maker(inv({ 0: ["iron_ore", 1] }), { level: 15 }), items, fixedRng(0.1));
    assert.equal(ok.success, true);
    assert.equal(countItem(ok.inventory, "iron_bar"), 1);
    // Over many seeded attempts about half succeed.
    const rng = seededRng(42);
    let made = 0;
    for (let i = 0; i < 1000; i++) if (makeOnce(ironBar, maker(inv({ 0: ["iron_ore", 1] }), { level: 15 }), items, rng).success) made++;
    assert.ok(made > 430 && made < 570, `${made} of 1000`);
  });

  it("runecrafting: any essence type, and more runes per essence at its extra levels", () => {
    assert.deepEqual(inputsFor(airRune, inv({ 0: ["pure_essence", 1] })), [{ itemId: "pure_essence", quantity: 1 }]);
    assert.deepEqual(outputsAt(airRune, 10), [{ itemId: "air_rune", quantity: 1 }]);
    assert.deepEqual(outputsAt(airRune, 11), [{ itemId: "air_rune", quantity: 2 }]);
    assert.deepEqual(outputsAt(airRune, 99), [{ itemId: "air_rune", quantity: 3 }]);
    const r = makeOnce(airRune, maker(inv({ 0: ["pure_essence", 1] }), { level: 22 }), items, seededRng(1));
    assert.equal(countItem(r.inventory, "air_rune"), 3);
    assert.equal(countItem(r.inventory, "pure_essence"), 0);
  });

  it("tanning costs its coins per hide: without them MISSING_MATERIALS", () => {
    assert.throws(() => checkMake(leather, maker(inv({ 0: ["cowhide", 1], 1: ["coins", 1] })), items), code("MISSING_MATERIALS"));
    const r = makeOnce(leather, maker(inv({ 0: ["cowhide", 2], 1: ["coins", 5] })), items, seededRng(1));
    assert.equal(countItem(r.inventory, "coins"), 3);
    assert.equal(countItem(r.inventory, "leather"), 1);
    assert.equal(attemptsPossible(leather, maker(inv({ 0: ["cowhide", 1], 1: ["cowhide", 1], 2: ["cowhide", 1], 3: ["coins", 5] }))), 2);
  });

  it("several recipes making one item: the first the maker can make now; else the most telling refusal", () => {
    const oakShafts: Recipe = { ...shafts, level: 15, inputs: [{ itemId: "oak_logs", quantity: 1 }] };
    const recipes = { fletching: [shafts, oakShafts] };
    const with_ = (level: number, pack: Record<number, [string, number]>) => () => maker(inv({ 9: ["knife", 1], ...pack }), { level });
    assert.equal(chooseRecipe(recipes, "fletching", "arrow_shaft", with_(15, { 0: ["oak_logs", 1] }), items), oakShafts);
    assert.equal(chooseRecipe(recipes, "fletching", "arrow_shaft", with_(15, { 0: ["logs", 1], 1: ["oak_logs", 1] }), items), shafts, "the data's order");
    assert.throws(() => chooseRecipe(recipes, "fletching", "arrow_shaft", with_(1, { 0: ["oak_logs", 1] }), items), code("MISSING_MATERIALS"));
    const onlyOak = { fletching: [oakShafts] };
    assert.throws(() => chooseRecipe(onlyOak, "fletching", "arrow_shaft", with_(1, { 0: ["oak_logs", 1] }), items), code("LEVEL_TOO_LOW"));
    assert.throws(() => chooseRecipe(recipes, "fletching", "bow", with_(1, {}), items), code("UNKNOWN_RECIPE"));
  });

  it("an attempt's ticks: the recipe's, else the kind's default", () => {
    assert.equal(ticksOf(dagger), 5);
    assert.equal(ticksOf(airRune), 1);
    assert.equal(ticksOf(shafts), 3);
  });
});
