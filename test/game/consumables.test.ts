import assert from "node:assert/strict";
import { eat } from "../../src/game/consumables.js";
import type { ItemDef } from "../../src/manifests/gameData.js";
import { code, inv, item } from "./fixtures.js";

const ITEMS = new Map<string, ItemDef>(
  [
    item("shrimp", { type: "consumable", healAmount: 3 }),
    item("trout", { type: "consumable", healAmount: 7 }),
    item("cake", { type: "consumable", stackable: true, healAmount: 4 }),
    item("burnt_shrimp", { type: "junk" }),
  ].map((d) => [d.id, d]),
);

describe("game/consumables", function () {
  it("eating heals by the food's amount (hitpoints, ten life points each) and uses the food", function () {
    const i = inv({ 2: ["trout", 1], 3: ["shrimp", 1] });
    const copy = structuredClone(i);
    const r = eat(i, 2, 20, 100, ITEMS);
    assert.deepEqual([r.health, r.healed, r.itemId], [90, 70, "trout"]);
    assert.equal(r.inventory[2], null);
    assert.deepEqual(r.inventory[3], { itemId: "shrimp", quantity: 1 });
    assert.deepEqual(i, copy, "input unchanged");
  });

  it("health is capped at the maximum", function () {
    const r = eat(inv({ 0: ["trout", 1] }), 0, 96, 100, ITEMS);
    assert.deepEqual([r.health, r.healed], [100, 4]);
    const atMax = eat(inv({ 0: ["shrimp", 1] }), 0, 100, 100, ITEMS);
    assert.deepEqual([atMax.health, atMax.healed], [100, 0]);
    assert.equal(atMax.inventory[0], null, "eating at full health still uses the food");
    const boosted = eat(inv({ 0: ["shrimp", 1] }), 0, 110, 100, ITEMS);
    assert.deepEqual([boosted.health, boosted.healed], [110, 0], "a boost is never lowered");
  });

  it("eating from a stack uses one", function () {
    const r = eat(inv({ 5: ["cake", 3] }), 5, 0, 100, ITEMS);
    assert.deepEqual(r.inventory[5], { itemId: "cake", quantity: 2 });
    assert.equal(r.health, 40);
  });

  it("refuses what is not food, empty and bad slots, unknown items and bad health", function () {
    const i = inv({ 0: ["burnt_shrimp", 1], 1: ["mystery", 1], 2: ["shrimp", 1] });
    const copy = structuredClone(i);
    assert.throws(() => eat(i, 0, 50, 100, ITEMS), code("NOT_EDIBLE"));
    assert.throws(() => eat(i, 1, 50, 100, ITEMS), code("UNKNOWN_ITEM"));
    assert.throws(() => eat(i, 3, 50, 100, ITEMS), code("EMPTY_SLOT"));
    for (const s of [-1, 28, 2.5, NaN]) assert.throws(() => eat(i, s, 50, 100, ITEMS), code("INVALID_SLOT"));
    for (const [h, m] of [
      [-1, 100],
      [NaN, 100],
      [50.5, 100],
      [50, 0],
      [50, Infinity],
      [Infinity, 100],
    ] as const) {
      assert.throws(() => eat(i, 2, h, m, ITEMS), code("INVALID_HEALTH"), `${h}/${m}`);
    }
    assert.deepEqual(i, copy);
  });
});
