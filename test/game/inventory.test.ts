import assert from "node:assert/strict";
import {
  addItem,
  addItemAll,
  assertQuantity,
  assertSlot,
  canAdd,
  countItem,
  emptyInventory,
  findSlot,
  freeSlots,
  isStackable,
  moveSlot,
  removeFromSlot,
  removeItem,
} from "../../src/game/inventory.js";
import type { ItemDef } from "../../src/manifests/gameData.js";
import { INVENTORY_SIZE, MAX_STACK, type Inventory } from "../../src/game/types.js";
import { code, inv, item } from "./fixtures.js";

const ITEMS = new Map<string, ItemDef>([
  ["coins", item("coins", { stackable: true })],
  ["feathers", item("feathers", { stackable: true })],
  ["logs", item("logs")],
  ["bronze_sword", item("bronze_sword", { equipSlot: "weapon" })],
]);

function full(itemId = "logs"): Inventory {
  return emptyInventory().map(() => ({ itemId, quantity: 1 }));
}

const BAD_QUANTITIES = [0, -1, 1.5, NaN, Infinity, -Infinity, MAX_STACK + 1, Number.MAX_SAFE_INTEGER + 2, 1e300];
const BAD_SLOTS = [-1, 28, 1.5, NaN, Infinity, 100];

describe("game/inventory", function () {
  it("emptyInventory has 28 empty slots", function () {
    const e = emptyInventory();
    assert.equal(e.length, INVENTORY_SIZE);
    assert.ok(e.every((s) => s === null));
    assert.equal(freeSlots(e), 28);
  });

  it("isStackable follows the item data; unknown ids are not stackable", function () {
    assert.equal(isStackable("coins", ITEMS), true);
    assert.equal(isStackable("logs", ITEMS), false);
    assert.equal(isStackable("nope", ITEMS), false);
  });

  it("assertSlot and assertQuantity refuse bad input with stable codes", function () {
    assertSlot(0);
    assertSlot(27);
    assertQuantity(1);
    assertQuantity(MAX_STACK);
    for (const s of BAD_SLOTS) assert.throws(() => assertSlot(s), code("INVALID_SLOT"), `slot ${s}`);
    for (const q of BAD_QUANTITIES) assert.throws(() => assertQuantity(q), code("INVALID_QUANTITY"), `quantity ${q}`);
  });

  it("stackable items merge into the existing stack", function () {
    const start = inv({ 0: ["logs", 1], 3: ["coins", 10] });
    const copy = structuredClone(start);
    const r = addItem(start, "coins", 25, ITEMS);
    assert.deepEqual(start, copy, "input unchanged");
    assert.equal(r.added, 25);
    assert.deepEqual(r.slots, [3]);
    assert.deepEqual(r.inventory[3], { itemId: "coins", quantity: 35 });
    assert.equal(freeSlots(r.inventory), 26);
  });

  it("a new stackable item takes the first free slot as one stack", function () {
    const r = addItem(inv({ 0: ["logs", 1] }), "feathers", 500, ITEMS);
    assert.deepEqual(r.slots, [1]);
    assert.deepEqual(r.inventory[1], { itemId: "feathers", quantity: 500 });
  });

  it("stacks stop at MAX_STACK", function () {
    const r = addItem(inv({ 5: ["coins", MAX_STACK - 3] }), "coins", 10, ITEMS);
    assert.equal(r.added, 3);
    assert.deepEqual(r.inventory[5], { itemId: "coins", quantity: MAX_STACK });
    const r2 = addItem(r.inventory, "coins", 1, ITEMS);
    assert.equal(r2.added, 0);
    assert.deepEqual(r2.slots, []);
    assert.throws(() => addItemAll(r.inventory, "coins", 1, ITEMS), code("INVENTORY_FULL"));
  });

  it("non-stackable items take one slot each, as many as fit", function () {
    const start = inv({ 0: ["coins", 5], 2: ["logs", 1] });
    const r = addItem(start, "logs", 3, ITEMS);
    assert.equal(r.added, 3);
    assert.deepEqual(r.slots, [1, 3, 4]);
    assert.equal(countItem(r.inventory, "logs"), 4);
    const almost = full();
    almost[10] = null;
    almost[20] = null;
    const r2 = addItem(almost, "bronze_sword", 5, ITEMS);
    assert.equal(r2.added, 2);
    assert.deepEqual(r2.slots, [10, 20]);
  });

  it("a full inventory takes nothing; a full inventory still merges stacks", function () {
    const r = addItem(full(), "logs", 1, ITEMS);
    assert.equal(r.added, 0);
    const f = full();
    f[7] = { itemId: "coins", quantity: 1 };
    assert.deepEqual(addItemAll(f, "coins", 9, ITEMS).inventory[7], { itemId: "coins", quantity: 10 });
    assert.throws(() => addItemAll(f, "feathers", 1, ITEMS), code("INVENTORY_FULL"));
  });

  it("addItemAll adds all or nothing", function () {
    const almost = full();
    almost[0] = null;
    almost[1] = null;
    const copy = structuredClone(almost);
    assert.throws(() => addItemAll(almost, "logs", 3, ITEMS), code("INVENTORY_FULL"));
    assert.deepEqual(almost, copy);
    const r = addItemAll(almost, "logs", 2, ITEMS);
    assert.equal(freeSlots(r.inventory), 0);
  });

  it("addItem refuses bad quantities and unknown items", function () {
    const start = inv({ 0: ["coins", 5] });
    const copy = structuredClone(start);
    for (const q of BAD_QUANTITIES) assert.throws(() => addItem(start, "coins", q, ITEMS), code("INVALID_QUANTITY"), `quantity ${q}`);
    assert.throws(() => addItem(start, "dragon_scimitar", 1, ITEMS), code("UNKNOWN_ITEM"));
    assert.throws(() => addItemAll(start, "dragon_scimitar", 1, ITEMS), code("UNKNOWN_ITEM"));
    assert.deepEqual(start, copy);
  });

  it("canAdd checks that several stacks fit together", function () {
    const almost = full();
    almost[0] = null;
    almost[1] = { itemId: "coins", quantity: 3 };
    assert.equal(
      canAdd(
        almost,
        [
          { itemId: "coins", quantity: 100 },
          { itemId: "logs", quantity: 1 },
        ],
        ITEMS,
      ),
      true,
    );
    assert.equal(
      canAdd(
        almost,
        [
          { itemId: "logs", quantity: 1 },
          { itemId: "feathers", quantity: 1 },
        ],
        ITEMS,
      ),
      false,
    );
    assert.equal(canAdd(almost, [{ itemId: "logs", quantity: 2 }], ITEMS), false);
    assert.equal(canAdd(almost, [], ITEMS), true);
    assert.throws(() => canAdd(almost, [{ itemId: "logs", quantity: 0 }], ITEMS), code("INVALID_QUANTITY"));
  });

  it("removeFromSlot takes part or all of a stack", function () {
    const start = inv({ 4: ["coins", 10], 6: ["logs", 1] });
    const copy = structuredClone(start);
    const r = removeFromSlot(start, 4, 3);
    assert.deepEqual(r.removed, { itemId: "coins", quantity: 3 });
    assert.deepEqual(r.inventory[4], { itemId: "coins", quantity: 7 });
    const r2 = removeFromSlot(r.inventory, 4, 7);
    assert.equal(r2.inventory[4], null);
    assert.equal(removeFromSlot(start, 6, 1).inventory[6], null);
    assert.deepEqual(start, copy);
  });

  it("removeFromSlot refuses empty slots, bad slots, bad quantities and too many", function () {
    const start = inv({ 4: ["coins", 10] });
    const copy = structuredClone(start);
    assert.throws(() => removeFromSlot(start, 0, 1), code("EMPTY_SLOT"));
    for (const s of BAD_SLOTS) assert.throws(() => removeFromSlot(start, s, 1), code("INVALID_SLOT"));
    for (const q of BAD_QUANTITIES) assert.throws(() => removeFromSlot(start, 4, q), code("INVALID_QUANTITY"));
    assert.throws(() => removeFromSlot(start, 4, 11), code("NOT_ENOUGH_ITEMS"));
    assert.deepEqual(start, copy);
  });

  it("removeItem takes across slots, all or nothing", function () {
    const start = inv({ 1: ["logs", 1], 5: ["logs", 1], 9: ["logs", 1], 12: ["coins", 4] });
    const copy = structuredClone(start);
    const r = removeItem(start, "logs", 2);
    assert.deepEqual(r.removed, { itemId: "logs", quantity: 2 });
    assert.equal(r.inventory[1], null);
    assert.equal(r.inventory[5], null);
    assert.deepEqual(r.inventory[9], { itemId: "logs", quantity: 1 });
    const preferred = removeItem(start, "logs", 1, 9);
    assert.equal(preferred.inventory[9], null);
    assert.deepEqual(preferred.inventory[1], { itemId: "logs", quantity: 1 });
    assert.throws(() => removeItem(start, "logs", 4), code("NOT_ENOUGH_ITEMS"));
    assert.throws(() => removeItem(start, "unknown_thing", 1), code("NOT_ENOUGH_ITEMS"));
    assert.throws(() => removeItem(start, "logs", 0), code("INVALID_QUANTITY"));
    assert.throws(() => removeItem(start, "logs", NaN), code("INVALID_QUANTITY"));
    assert.deepEqual(removeItem(start, "coins", 4).inventory[12], null);
    assert.deepEqual(start, copy);
  });

  it("countItem, findSlot and freeSlots", function () {
    const start = inv({ 3: ["logs", 1], 8: ["logs", 1], 10: ["coins", 250] });
    assert.equal(countItem(start, "logs"), 2);
    assert.equal(countItem(start, "coins"), 250);
    assert.equal(countItem(start, "feathers"), 0);
    assert.equal(findSlot(start, "logs"), 3);
    assert.equal(findSlot(start, "coins"), 10);
    assert.equal(findSlot(start, "feathers"), -1);
    assert.equal(freeSlots(start), 25);
  });

  it("moveSlot swaps two slots, either of which may be empty", function () {
    const start = inv({ 0: ["logs", 1], 1: ["coins", 5] });
    const copy = structuredClone(start);
    const swapped = moveSlot(start, 0, 1);
    assert.deepEqual(swapped[0], { itemId: "coins", quantity: 5 });
    assert.deepEqual(swapped[1], { itemId: "logs", quantity: 1 });
    const moved = moveSlot(start, 0, 27);
    assert.equal(moved[0], null);
    assert.deepEqual(moved[27], { itemId: "logs", quantity: 1 });
    assert.deepEqual(moveSlot(start, 2, 2), start);
    for (const s of BAD_SLOTS) {
      assert.throws(() => moveSlot(start, s, 0), code("INVALID_SLOT"));
      assert.throws(() => moveSlot(start, 0, s), code("INVALID_SLOT"));
    }
    assert.deepEqual(start, copy);
  });
});
