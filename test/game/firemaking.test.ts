import assert from "node:assert/strict";
import { FIRE_DURATION_TICKS, firemakingRecipe, isTinderbox, LIGHT_CHANCE_AT_REQUIREMENT, lightChance, lightFire } from "../../src/game/firemaking.js";
import { seededRng } from "../../src/game/random.js";
import type { ItemDef } from "../../src/manifests/gameData.js";
import type { Recipe } from "../../src/manifests/recipes.js";
import { type Rng } from "../../src/game/types.js";
import { code, inv, item } from "./fixtures.js";

const ITEMS = new Map<string, ItemDef>(
  [
    item("tinderbox", { type: "tool", toolSkill: "firemaking" }),
    item("flint_kit", { type: "tool", toolSkill: "firemaking" }),
    item("logs"),
    item("oak_logs"),
    item("willow_logs"),
    item("shrimp"),
  ].map((d) => [d.id, d]),
);
const recipe = (log: string, level: number, xp: number): Recipe => ({
  id: log,
  kind: "firemaking",
  skill: "firemaking",
  level,
  xp,
  ticks: 4,
  inputs: [{ itemId: log, quantity: 1 }],
  outputs: [],
  tools: [],
  itemRefs: [log],
  raw: {},
});
const RECIPES = [recipe("logs", 1, 40), recipe("oak_logs", 15, 60), recipe("willow_logs", 30, 90)];
const always: Rng = () => 0;
const never: Rng = () => 0.999999;

describe("game/firemaking", function () {
  it("a fire burns for FIRE_DURATION_TICKS", function () {
    assert.equal(FIRE_DURATION_TICKS, 100);
  });

  it("lighting consumes the logs and grants the recipe's XP", function () {
    const i = inv({ 0: ["tinderbox", 1], 4: ["oak_logs", 1], 5: ["oak_logs", 1] });
    const copy = structuredClone(i);
    const r = lightFire(i, 0, 4, 20, RECIPES, ITEMS, always);
    assert.deepEqual([r.lit, r.xp, r.logsId, r.durationTicks], [true, 60, "oak_logs", FIRE_DURATION_TICKS]);
    assert.equal(r.inventory[4], null);
    assert.deepEqual(r.inventory[0], { itemId: "tinderbox", quantity: 1 }, "the tinderbox stays");
    assert.deepEqual(r.inventory[5], { itemId: "oak_logs", quantity: 1 });
    assert.deepEqual(i, copy, "input unchanged");
  });

  it("the slots may be given either way round", function () {
    const i = inv({ 0: ["tinderbox", 1], 4: ["logs", 1] });
    const r = lightFire(i, 4, 0, 1, RECIPES, ITEMS, always);
    assert.equal(r.lit, true);
    assert.equal(r.inventory[4], null);
    assert.deepEqual(r.inventory[0], { itemId: "tinderbox", quantity: 1 });
    const kit = lightFire(inv({ 1: ["logs", 1], 2: ["flint_kit", 1] }), 1, 2, 1, RECIPES, ITEMS, always);
    assert.equal(kit.lit, true, "any firemaking tool lights");
  });

  it("a failed try leaves the logs and gives no XP", function () {
    const i = inv({ 0: ["tinderbox", 1], 1: ["logs", 1] });
    const r = lightFire(i, 0, 1, 1, RECIPES, ITEMS, never);
    assert.deepEqual([r.lit, r.xp, r.durationTicks], [false, 0, 0]);
    assert.deepEqual(r.inventory, i);
  });

  it("the chance to light rises with level and is certain 30 levels above the recipe", function () {
    const logs = RECIPES[0]!;
    assert.equal(lightChance(1, logs), LIGHT_CHANCE_AT_REQUIREMENT);
    assert.ok(lightChance(10, logs) > lightChance(5, logs));
    assert.equal(lightChance(31, logs), 1);
    assert.equal(lightChance(99, logs), 1);
    assert.equal(lightChance(14, RECIPES[1]!), 0);
    // At level 99 every try lights whatever the roll.
    const i = inv({ 0: ["tinderbox", 1], 1: ["willow_logs", 1] });
    assert.equal(lightFire(i, 0, 1, 99, RECIPES, ITEMS, never).lit, true);
    // At the requirement, about half of the tries light.
    const rng = seededRng(11);
    let lit = 0;
    for (let k = 0; k < 2000; k++) if (lightFire(i, 0, 1, 30, RECIPES, ITEMS, rng).lit) lit++;
    assert.ok(lit > 900 && lit < 1100, `lit ${lit} of 2000`);
  });

  it("refuses a level below the recipe's", function () {
    const i = inv({ 0: ["tinderbox", 1], 1: ["willow_logs", 1] });
    assert.throws(() => lightFire(i, 0, 1, 29, RECIPES, ITEMS, always), code("LEVEL_TOO_LOW"));
  });

  it("refuses without a tinderbox, with unknown logs, and bad input", function () {
    const i = inv({ 0: ["tinderbox", 1], 1: ["logs", 1], 2: ["shrimp", 1], 3: ["logs", 1], 4: ["mystery", 1] });
    const copy = structuredClone(i);
    assert.throws(() => lightFire(i, 1, 3, 50, RECIPES, ITEMS, always), code("NEED_TINDERBOX"));
    assert.throws(() => lightFire(i, 0, 2, 50, RECIPES, ITEMS, always), code("CANNOT_LIGHT"));
    assert.throws(() => lightFire(i, 0, 4, 50, RECIPES, ITEMS, always), code("UNKNOWN_ITEM"));
    assert.throws(() => lightFire(i, 0, 10, 50, RECIPES, ITEMS, always), code("EMPTY_SLOT"));
    assert.throws(() => lightFire(i, 0, 0, 50, RECIPES, ITEMS, always), code("INVALID_SLOT"));
    for (const s of [-1, 28, 0.5, NaN]) assert.throws(() => lightFire(i, 0, s, 50, RECIPES, ITEMS, always), code("INVALID_SLOT"));
    for (const l of [0, 100, 1.5, NaN, Infinity]) assert.throws(() => lightFire(i, 0, 1, l, RECIPES, ITEMS, always), code("INVALID_LEVEL"));
    assert.throws(() => lightFire(i, 0, 1, 50, [], ITEMS, always), code("CANNOT_LIGHT"));
    assert.deepEqual(i, copy);
  });

  it("helpers: isTinderbox and firemakingRecipe", function () {
    assert.equal(isTinderbox("tinderbox", ITEMS), true);
    assert.equal(isTinderbox("flint_kit", ITEMS), true);
    assert.equal(isTinderbox("logs", ITEMS), false);
    assert.equal(firemakingRecipe(RECIPES, "oak_logs")?.xp, 60);
    assert.equal(firemakingRecipe(RECIPES, "shrimp"), undefined);
  });
});
