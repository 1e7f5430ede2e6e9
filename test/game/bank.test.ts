import assert from "node:assert/strict";
import {
  BANK_MAX_ITEMS,
  BANK_TABS,
  bankCount,
  deposit,
  isNearBank,
  moveToTab,
  releaseAllPlaceholders,
  releasePlaceholder,
  withdraw,
} from "../../src/game/bank.js";
import { countItem, emptyInventory } from "../../src/game/inventory.js";
import { randomInt, seededRng } from "../../src/game/random.js";
import type { ItemDef } from "../../src/manifests/gameData.js";
import { GameError, MAX_STACK, type Bank, type Inventory } from "../../src/game/types.js";
import { code, inv, item } from "./fixtures.js";

const ITEMS = new Map<string, ItemDef>([
  ["coins", item("coins", { stackable: true })],
  ["feathers", item("feathers", { stackable: true })],
  ["logs", item("logs")],
  ["oak_logs", item("oak_logs")],
  ["bronze_sword", item("bronze_sword")],
]);
const BAD_QUANTITIES = [0, -1, 1.5, NaN, Infinity, MAX_STACK + 1, 1e300];

function totals(i: Inventory, b: Bank): Map<string, number> {
  const t = new Map<string, number>();
  for (const s of i) if (s) t.set(s.itemId, (t.get(s.itemId) ?? 0) + s.quantity);
  for (const s of b) t.set(s.itemId, (t.get(s.itemId) ?? 0) + s.quantity);
  return t;
}

describe("game/bank", function () {
  it("deposits part of a stack and merges into the bank's stack", function () {
    const i = inv({ 2: ["coins", 100] });
    const b: Bank = [
      { itemId: "logs", quantity: 3 },
      { itemId: "coins", quantity: 5 },
    ];
    const [ic, bc] = [structuredClone(i), structuredClone(b)];
    const r = deposit(i, b, 2, 40, ITEMS);
    assert.deepEqual(r.moved, { itemId: "coins", quantity: 40 });
    assert.deepEqual(r.inventory[2], { itemId: "coins", quantity: 60 });
    assert.deepEqual(r.bank, [
      { itemId: "logs", quantity: 3 },
      { itemId: "coins", quantity: 45 },
    ]);
    assert.deepEqual([i, b], [ic, bc], "inputs unchanged");
  });

  it("a deposit is capped by what the inventory holds", function () {
    const r = deposit(inv({ 0: ["coins", 7] }), [], 0, 1000, ITEMS);
    assert.deepEqual(r.moved, { itemId: "coins", quantity: 7 });
    assert.equal(r.inventory[0], null);
    assert.deepEqual(r.bank, [{ itemId: "coins", quantity: 7 }]);
  });

  it("depositing a non-stackable item takes that many from any slots, the chosen slot first", function () {
    const i = inv({ 0: ["logs", 1], 3: ["oak_logs", 1], 5: ["logs", 1], 6: ["logs", 1], 9: ["logs", 1] });
    const r = deposit(i, [], 6, 2, ITEMS);
    assert.deepEqual(r.moved, { itemId: "logs", quantity: 2 });
    assert.equal(r.inventory[6], null, "the chosen slot goes first");
    assert.equal(r.inventory[0], null);
    assert.deepEqual(r.inventory[5], { itemId: "logs", quantity: 1 });
    assert.deepEqual(r.inventory[3], { itemId: "oak_logs", quantity: 1 });
    assert.deepEqual(r.bank, [{ itemId: "logs", quantity: 2 }]);
    const all = deposit(i, [], 0, 28, ITEMS);
    assert.deepEqual(all.moved, { itemId: "logs", quantity: 4 });
    assert.equal(countItem(all.inventory, "logs"), 0);
    assert.equal(countItem(all.inventory, "oak_logs"), 1);
  });

  it("a deposit refuses empty and bad slots, bad quantities and unknown items", function () {
    const i = inv({ 0: ["coins", 5], 1: ["mystery", 1] });
    const b: Bank = [];
    const [ic, bc] = [structuredClone(i), structuredClone(b)];
    assert.throws(() => deposit(i, b, 4, 1, ITEMS), code("EMPTY_SLOT"));
    for (const s of [-1, 28, 0.5, NaN]) assert.throws(() => deposit(i, b, s, 1, ITEMS), code("INVALID_SLOT"));
    for (const q of BAD_QUANTITIES) assert.throws(() => deposit(i, b, 0, q, ITEMS), code("INVALID_QUANTITY"), `quantity ${q}`);
    assert.throws(() => deposit(i, b, 1, 1, ITEMS), code("UNKNOWN_ITEM"));
    assert.deepEqual([i, b], [ic, bc]);
  });

  it("the bank holds at most 400 distinct items and MAX_STACK of each", function () {
    const fullBank: Bank = Array.from({ length: BANK_MAX_ITEMS }, (_, k) => ({ itemId: `thing_${k}`, quantity: 1 }));
    const i = inv({ 0: ["coins", 5] });
    const copy = structuredClone(fullBank);
    assert.throws(() => deposit(i, fullBank, 0, 5, ITEMS), code("BANK_FULL"));
    assert.deepEqual(fullBank, copy);
    // An id already in a full bank still stacks.
    const withCoins = [...fullBank.slice(1), { itemId: "coins", quantity: 1 }];
    assert.equal(bankCount(deposit(i, withCoins, 0, 5, ITEMS).bank, "coins"), 6);
    const nearCap: Bank = [{ itemId: "coins", quantity: MAX_STACK - 2 }];
    assert.throws(() => deposit(i, nearCap, 0, 3, ITEMS), code("BANK_STACK_FULL"));
    assert.equal(bankCount(deposit(i, nearCap, 0, 2, ITEMS).bank, "coins"), MAX_STACK);
  });

  it("withdraws a stackable item as one stack and removes emptied bank entries", function () {
    const i = inv({ 0: ["coins", 1] });
    const b: Bank = [
      { itemId: "coins", quantity: 50 },
      { itemId: "logs", quantity: 2 },
    ];
    const [ic, bc] = [structuredClone(i), structuredClone(b)];
    const r = withdraw(i, b, "coins", 20, ITEMS);
    assert.deepEqual(r.moved, { itemId: "coins", quantity: 20 });
    assert.deepEqual(r.inventory[0], { itemId: "coins", quantity: 21 });
    assert.deepEqual(r.bank, [
      { itemId: "coins", quantity: 30 },
      { itemId: "logs", quantity: 2 },
    ]);
    const all = withdraw(i, b, "coins", 1000, ITEMS);
    assert.deepEqual(all.moved, { itemId: "coins", quantity: 50 });
    assert.deepEqual(all.bank, [{ itemId: "logs", quantity: 2 }]);
    assert.deepEqual([i, b], [ic, bc]);
  });

  it("withdraws non-stackable items one per free slot, only as many as fit", function () {
    const i = emptyInventory().map((_, k) => (k < 25 ? { itemId: "bronze_sword", quantity: 1 } : null));
    const b: Bank = [{ itemId: "logs", quantity: 10 }];
    const r = withdraw(i, b, "logs", 10, ITEMS);
    assert.deepEqual(r.moved, { itemId: "logs", quantity: 3 });
    assert.equal(countItem(r.inventory, "logs"), 3);
    assert.deepEqual(r.bank, [{ itemId: "logs", quantity: 7 }]);
  });

  it("a withdrawal that fits nothing fails cleanly", function () {
    const i = emptyInventory().map(() => ({ itemId: "bronze_sword", quantity: 1 }));
    const b: Bank = [
      { itemId: "logs", quantity: 10 },
      { itemId: "coins", quantity: 5 },
    ];
    const [ic, bc] = [structuredClone(i), structuredClone(b)];
    assert.throws(() => withdraw(i, b, "logs", 1, ITEMS), code("INVENTORY_FULL"));
    assert.throws(() => withdraw(i, b, "coins", 1, ITEMS), code("INVENTORY_FULL"));
    const capped = inv({ 0: ["coins", MAX_STACK] });
    assert.throws(() => withdraw(capped, b, "coins", 5, ITEMS), code("INVENTORY_FULL"));
    assert.deepEqual([i, b], [ic, bc]);
  });

  it("a withdrawal refuses what the bank does not hold and bad quantities", function () {
    const i = inv();
    const b: Bank = [
      { itemId: "logs", quantity: 1 },
      { itemId: "mystery", quantity: 1 },
    ];
    const [ic, bc] = [structuredClone(i), structuredClone(b)];
    assert.throws(() => withdraw(i, b, "coins", 1, ITEMS), code("NOT_IN_BANK"));
    assert.throws(() => withdraw(i, b, "dragon_scimitar", 1, ITEMS), code("NOT_IN_BANK"));
    assert.throws(() => withdraw(i, b, undefined as unknown as string, 1, ITEMS), code("NOT_IN_BANK"));
    assert.throws(() => withdraw(i, b, "mystery", 1, ITEMS), code("UNKNOWN_ITEM"));
    for (const q of BAD_QUANTITIES) assert.throws(() => withdraw(i, b, "logs", q, ITEMS), code("INVALID_QUANTITY"), `quantity ${q}`);
    assert.deepEqual([i, b], [ic, bc]);
  });

  it("deposit then withdraw round-trips", function () {
    const i = inv({ 0: ["coins", 75], 1: ["logs", 1], 2: ["logs", 1] });
    let r = deposit(i, [], 0, 75, ITEMS);
    r = deposit(r.inventory, r.bank, 1, 2, ITEMS);
    assert.equal(
      r.inventory.every((s) => s === null),
      true,
    );
    r = withdraw(r.inventory, r.bank, "coins", 75, ITEMS);
    r = withdraw(r.inventory, r.bank, "logs", 2, ITEMS);
    assert.deepEqual(r.bank, []);
    assert.deepEqual(r.inventory, i);
  });

  it("conserves every item id across many random deposits and withdrawals", function () {
    const ids = ["coins", "feathers", "logs", "oak_logs", "bronze_sword"];
    for (let seed = 1; seed <= 20; seed++) {
      const rng = seededRng(seed);
      let i = inv({ 0: ["coins", 500], 1: ["feathers", 40] });
      for (let k = 2; k < 22; k++) i[k] = { itemId: ids[2 + (k % 3)]!, quantity: 1 };
      let b: Bank = [
        { itemId: "logs", quantity: 15 },
        { itemId: "coins", quantity: MAX_STACK - 600 },
      ];
      const expected = totals(i, b);
      let ok = 0;
      for (let step = 0; step < 300; step++) {
        const before = totals(i, b);
        try {
          if (randomInt(rng, 0, 1) === 0) {
            const r = deposit(i, b, randomInt(rng, 0, 27), randomInt(rng, 1, 700), ITEMS);
            i = r.inventory;
            b = r.bank;
          } else {
            const r = withdraw(i, b, ids[randomInt(rng, 0, ids.length - 1)]!, randomInt(rng, 1, 700), ITEMS);
            i = r.inventory;
            b = r.bank;
          }
          ok++;
        } catch (e) {
          if (!(e instanceof GameError)) throw e;
          assert.deepEqual(totals(i, b), before);
        }
        assert.deepEqual(totals(i, b), expected, `seed ${seed} step ${step}`);
        assert.equal(i.length, 28);
        assert.ok(b.every((s) => s.quantity > 0 && s.quantity <= MAX_STACK));
        assert.equal(new Set(b.map((s) => s.itemId)).size, b.length, "one bank stack per id");
      }
      assert.ok(ok > 50, `seed ${seed}: only ${ok} operations succeeded`);
    }
  });

  it("isNearBank uses Chebyshev distance", function () {
    const banks = [
      { x: 10, z: 10 },
      { x: 50, z: 50 },
    ];
    assert.equal(isNearBank({ x: 13, z: 13 }, banks), true);
    assert.equal(isNearBank({ x: 14, z: 10 }, banks), false);
    assert.equal(isNearBank({ x: 10, z: 6 }, banks), false);
    assert.equal(isNearBank({ x: 48, z: 52 }, banks), true);
    assert.equal(isNearBank({ x: 14, z: 10 }, banks, 4), true);
    assert.equal(isNearBank({ x: 10, z: 10 }, []), false);
    assert.equal(isNearBank({ x: NaN, z: 10 }, banks), false);
    assert.equal(isNearBank({ x: 10, z: 10 }, banks, -1), false);
  });

  describe("tabs and placeholders", () => {
    it("the last of an item withdrawn leaves a placeholder when asked; the next deposit returns to its place and tab", () => {
      const b: Bank = [
        { itemId: "logs", quantity: 2, tab: 3 },
        { itemId: "coins", quantity: 5 },
      ];
      const gone = withdraw(emptyInventory(), b, "logs", 2, ITEMS, true);
      assert.deepEqual(gone.bank, [
        { itemId: "logs", quantity: 0, tab: 3 },
        { itemId: "coins", quantity: 5 },
      ]);
      assert.equal(countItem(gone.inventory, "logs"), 2, "nothing made or lost");
      assert.throws(() => withdraw(gone.inventory, gone.bank, "logs", 1, ITEMS, true), code("NOT_IN_BANK"), "a placeholder holds none");
      const back = deposit(
        gone.inventory,
        gone.bank,
        gone.inventory.findIndex((s) => s?.itemId === "logs"),
        2,
        ITEMS,
        7,
      );
      assert.deepEqual(back.bank[0], { itemId: "logs", quantity: 2, tab: 3 }, "into the placeholder, its tab kept");
      // Without placeholders the stack goes.
      assert.deepEqual(withdraw(emptyInventory(), b, "logs", 2, ITEMS).bank, [{ itemId: "coins", quantity: 5 }]);
    });

    it("a new item goes to the tab asked; moveToTab moves a stack to a tab's end; bad tabs are refused", () => {
      const d = deposit(inv({ 0: ["feathers", 10] }), [{ itemId: "coins", quantity: 5 }], 0, 10, ITEMS, 2);
      assert.deepEqual(d.bank[1], { itemId: "feathers", quantity: 10, tab: 2 });
      const moved = moveToTab(d.bank, "coins", 2);
      assert.deepEqual(moved, [
        { itemId: "feathers", quantity: 10, tab: 2 },
        { itemId: "coins", quantity: 5, tab: 2 },
      ]);
      assert.deepEqual(moveToTab(moved, "feathers", 0)[1], { itemId: "feathers", quantity: 10 });
      for (const bad of [-1, BANK_TABS, 1.5, NaN]) {
        assert.throws(() => moveToTab(moved, "coins", bad), code("INVALID_TAB"), String(bad));
        assert.throws(() => deposit(inv({ 0: ["logs", 1] }), [], 0, 1, ITEMS, bad), code("INVALID_TAB"), String(bad));
      }
      assert.throws(() => moveToTab(moved, "dragon_bones", 1), code("NOT_IN_BANK"));
    });

    it("placeholders are released one at a time or all; a stack that holds some is no placeholder; placeholders count towards the limit", () => {
      const b: Bank = [
        { itemId: "logs", quantity: 0 },
        { itemId: "coins", quantity: 5 },
        { itemId: "feathers", quantity: 0, tab: 1 },
      ];
      assert.deepEqual(releasePlaceholder(b, "logs"), [b[1], b[2]]);
      assert.throws(() => releasePlaceholder(b, "coins"), code("NOT_A_PLACEHOLDER"));
      assert.throws(() => releasePlaceholder(b, "oak_logs"), code("NOT_IN_BANK"));
      assert.deepEqual(releaseAllPlaceholders(b), [{ itemId: "coins", quantity: 5 }]);
      const full: Bank = Array.from({ length: BANK_MAX_ITEMS }, (_, i) => ({ itemId: `x${i}`, quantity: 0 }));
      assert.throws(() => deposit(inv({ 0: ["logs", 1] }), full, 0, 1, ITEMS), code("BANK_FULL"));
    });
  });
});
