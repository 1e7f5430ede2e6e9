import assert from "node:assert/strict";
import path from "node:path";
import pino from "pino";
import { BURN_CHANCE_AT_REQUIREMENT, burnChance, cook, cookingRecipe, stopBurnLevel, type CookingStation } from "../../src/game/cooking.js";
import { emptyInventory } from "../../src/game/inventory.js";
import { seededRng } from "../../src/game/random.js";
import { loadGameData } from "../../src/manifests/index.js";
import type { ItemDef } from "../../src/manifests/gameData.js";
import type { Recipe } from "../../src/manifests/recipes.js";
import { type Rng } from "../../src/game/types.js";
import { code, inv, item } from "./fixtures.js";

const ITEMS = new Map<string, ItemDef>(
  ["raw_shrimp", "shrimp", "burnt_shrimp", "raw_trout", "trout", "raw_eel", "eel", "raw_beef", "cooked_beef", "raw_cake", "cake", "logs"]
    .map((id) => item(id))
    .concat(item("raw_bait", { stackable: true }), item("bait_paste"))
    .map((d) => [d.id, d]),
);
const recipe = (raw: string, cooked: string, level: number, xp: number, extra: Partial<Recipe> = {}): Recipe => ({
  id: cooked,
  kind: "cooking",
  skill: "cooking",
  level,
  xp,
  ticks: 4,
  inputs: [{ itemId: raw, quantity: 1 }],
  outputs: [{ itemId: cooked, quantity: 1 }],
  tools: [],
  itemRefs: [raw, cooked],
  raw: {},
  ...extra,
});
const SHRIMP = recipe("raw_shrimp", "shrimp", 1, 30, { failure: "burnt_shrimp", raw: { stopBurnLevel: { fire: 34, range: 33 } } });
const TROUT = recipe("raw_trout", "trout", 15, 70, { failure: "burnt_trout", raw: {} }); // burnt_trout is not an item here
const EEL = recipe("raw_eel", "eel", 20, 80, { raw: { stopBurnLevel: 40 } });
const CAKE = recipe("raw_cake", "cake", 10, 180, { station: "range" });
const BAIT = recipe("raw_bait", "bait_paste", 1, 5);
const RECIPES = [SHRIMP, TROUT, EEL, CAKE, BAIT];
const cooks: Rng = () => 0.999999;
const burns: Rng = () => 0;

describe("game/cooking", function () {
  it("stop-burn levels come from the data per station, a single number, or level + 30", function () {
    assert.equal(stopBurnLevel(SHRIMP, "fire"), 34);
    assert.equal(stopBurnLevel(SHRIMP, "range"), 33);
    assert.equal(stopBurnLevel(EEL, "fire"), 40);
    assert.equal(stopBurnLevel(EEL, "range"), 40);
    assert.equal(stopBurnLevel(TROUT, "fire"), 45);
    assert.equal(stopBurnLevel(recipe("a", "b", 5, 1, { raw: { stopBurnLevel: { fire: 50 } } }), "range"), 50);
  });

  it("burnChance at its bounds", function () {
    for (const station of ["fire", "range"] as CookingStation[]) {
      assert.equal(burnChance(SHRIMP.level, SHRIMP, station), BURN_CHANCE_AT_REQUIREMENT[station]);
      assert.equal(burnChance(stopBurnLevel(SHRIMP, station), SHRIMP, station), 0);
      assert.equal(burnChance(99, SHRIMP, station), 0);
      assert.equal(burnChance(TROUT.level - 1, TROUT, station), 1, "below the recipe level");
      for (let l = 1; l <= 99; l++) {
        const p = burnChance(l, TROUT, station);
        assert.ok(p >= 0 && p <= 1, `level ${l}: ${p}`);
        if (l > TROUT.level) assert.ok(p <= burnChance(l - 1, TROUT, station), "never rises with level");
      }
    }
    assert.equal(BURN_CHANCE_AT_REQUIREMENT.fire, 0.6);
    // Linear: halfway between 15 and 45 on a fire is half the starting chance.
    assert.equal(burnChance(30, TROUT, "fire"), 0.3);
    assert.equal(burnChance(44, TROUT, "fire"), 0.02);
    assert.equal(burnChance(45, TROUT, "fire"), 0);
  });

  it("a range burns less than a fire", function () {
    for (let l = 1; l < 34; l++) assert.ok(burnChance(l, SHRIMP, "range") < burnChance(l, SHRIMP, "fire"), `level ${l}`);
    for (let l = 15; l < 45; l++) assert.ok(burnChance(l, TROUT, "range") < burnChance(l, TROUT, "fire"), `level ${l}`);
  });

  it("burnChance refuses unknown stations and non-numbers", function () {
    assert.throws(() => burnChance(10, SHRIMP, "oven" as CookingStation), code("INVALID_STATION"));
    assert.throws(() => burnChance(NaN, SHRIMP, "fire"), code("INVALID_LEVEL"));
  });

  it("cooking turns raw food into cooked food in the same slot and grants XP", function () {
    const i = inv({ 0: ["logs", 1], 6: ["raw_shrimp", 1], 7: ["raw_shrimp", 1] });
    const copy = structuredClone(i);
    const r = cook(i, 6, 1, "fire", RECIPES, ITEMS, cooks);
    assert.deepEqual([r.cooked, r.xp, r.itemId, r.rawId], [true, 30, "shrimp", "raw_shrimp"]);
    assert.deepEqual(r.inventory[6], { itemId: "shrimp", quantity: 1 });
    assert.deepEqual(r.inventory[7], { itemId: "raw_shrimp", quantity: 1 });
    assert.deepEqual(i, copy, "input unchanged");
  });

  it("burning gives the burnt item and no XP; no burnt item leaves the slot empty", function () {
    const r = cook(inv({ 3: ["raw_shrimp", 1] }), 3, 1, "fire", RECIPES, ITEMS, burns);
    assert.deepEqual([r.cooked, r.xp, r.itemId], [false, 0, "burnt_shrimp"]);
    assert.deepEqual(r.inventory[3], { itemId: "burnt_shrimp", quantity: 1 });
    const trout = cook(inv({ 3: ["raw_trout", 1] }), 3, 15, "range", RECIPES, ITEMS, burns);
    assert.deepEqual([trout.cooked, trout.xp, trout.itemId], [false, 0, null]);
    assert.equal(trout.inventory[3], null);
  });

  it("never burns at or above the stop level", function () {
    const r = cook(inv({ 0: ["raw_shrimp", 1] }), 0, 34, "fire", RECIPES, ITEMS, burns);
    assert.equal(r.cooked, true);
  });

  it("burns about as often as burnChance says", function () {
    const rng = seededRng(5);
    const i = inv({ 0: ["raw_trout", 1] });
    let burnt = 0;
    for (let k = 0; k < 4000; k++) if (!cook(i, 0, 30, "fire", RECIPES, ITEMS, rng).cooked) burnt++;
    assert.ok(burnt > 1100 && burnt < 1300, `burnt ${burnt} of 4000 (expected about 1200)`);
  });

  it("a stack of raw food gives up one and the result goes in a free slot", function () {
    const r = cook(inv({ 0: ["raw_bait", 5] }), 0, 1, "fire", RECIPES, ITEMS, () => 0.99);
    assert.deepEqual(r.inventory[0], { itemId: "raw_bait", quantity: 4 });
    assert.deepEqual(r.inventory[1], { itemId: "bait_paste", quantity: 1 });
    const fullInv = emptyInventory().map(() => ({ itemId: "logs", quantity: 1 }));
    fullInv[0] = { itemId: "raw_bait", quantity: 5 };
    const copy = structuredClone(fullInv);
    assert.throws(() => cook(fullInv, 0, 1, "fire", RECIPES, ITEMS, () => 0.99), code("INVENTORY_FULL"));
    assert.deepEqual(fullInv, copy);
  });

  it("refuses low levels, wrong stations, uncookable items and bad input", function () {
    const i = inv({ 0: ["raw_trout", 1], 1: ["logs", 1], 2: ["raw_cake", 1], 3: ["mystery", 1] });
    const copy = structuredClone(i);
    assert.throws(() => cook(i, 0, 14, "fire", RECIPES, ITEMS, cooks), code("LEVEL_TOO_LOW"));
    assert.throws(() => cook(i, 1, 50, "fire", RECIPES, ITEMS, cooks), code("CANNOT_COOK"));
    assert.throws(() => cook(i, 2, 50, "fire", RECIPES, ITEMS, cooks), code("WRONG_STATION"));
    assert.equal(cook(i, 2, 50, "range", RECIPES, ITEMS, cooks).itemId, "cake");
    assert.throws(() => cook(i, 3, 50, "fire", RECIPES, ITEMS, cooks), code("UNKNOWN_ITEM"));
    assert.throws(() => cook(i, 5, 50, "fire", RECIPES, ITEMS, cooks), code("EMPTY_SLOT"));
    assert.throws(() => cook(i, 0, 50, "oven" as CookingStation, RECIPES, ITEMS, cooks), code("INVALID_STATION"));
    for (const s of [-1, 28, 0.5, NaN]) assert.throws(() => cook(i, s, 50, "fire", RECIPES, ITEMS, cooks), code("INVALID_SLOT"));
    for (const l of [0, 100, 2.5, NaN, -Infinity]) assert.throws(() => cook(i, 0, l, "fire", RECIPES, ITEMS, cooks), code("INVALID_LEVEL"));
    assert.deepEqual(i, copy);
  });

  it("cooks the shipped world's food", async function () {
    const data = await loadGameData(path.resolve("world/manifests"), pino({ level: "silent" }));
    const recipes = data.recipes.cooking ?? [];
    const trout = cookingRecipe(recipes, "raw_trout")!;
    assert.equal(stopBurnLevel(trout, "fire"), 48);
    assert.equal(stopBurnLevel(trout, "range"), 45);
    const i = inv({ 0: ["raw_trout", 1] });
    assert.deepEqual(cook(i, 0, 15, "fire", recipes, data.items, cooks).inventory[0], { itemId: "trout", quantity: 1 });
    assert.deepEqual(cook(i, 0, 15, "fire", recipes, data.items, burns).inventory[0], { itemId: "burnt_trout", quantity: 1 });
    assert.equal(cook(i, 0, 15, "fire", recipes, data.items, cooks).xp, 68);
  });
});
