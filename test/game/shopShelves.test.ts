import assert from "node:assert/strict";
import { COINS } from "../../src/game/types.js";
import { addToStock, planPurchase, restockDue, restoreShelf, shelfChange, STOCK_DECAY_TICKS, takeFromStock } from "../../src/game/store.js";
import { code, inv, item } from "./fixtures.js";
import { items, RESTOCK, listing, general, entry } from "./shopFixtures.js";

describe("store rules", () => {
  describe("shelves", () => {
    it("takeFromStock: an unlimited shelf stays unlimited; a finite one falls and schedules its restock", () => {
      const stock = general();
      takeFromStock(stock, "hatchet", 10, 0);
      assert.deepEqual([entry(stock, "hatchet")!.quantity, entry(stock, "hatchet")!.nextChangeTick], [-1, null]);
      takeFromStock(stock, "iron_hatchet", 2, 10);
      assert.deepEqual([entry(stock, "iron_hatchet")!.quantity, entry(stock, "iron_hatchet")!.nextChangeTick], [3, 10 + RESTOCK]);
      takeFromStock(stock, "nope", 1, 10);
      assert.equal(stock.entries.has("nope"), false);
    });

    it("addToStock: a bought-in item gets a shelf of its own (after the listed ones), gone once bought out", () => {
      const stock = general();
      addToStock(stock, "sword", 2, items, 7);
      assert.deepEqual(entry(stock, "sword"), {
        itemId: "sword",
        quantity: 2,
        base: 0,
        listed: false,
        price: 100,
        restockTicks: 0,
        nextChangeTick: 7 + STOCK_DECAY_TICKS,
      });
      assert.deepEqual([...stock.entries.keys()].at(-1), "sword");
      addToStock(stock, "sword", 1, items, 50);
      assert.deepEqual([entry(stock, "sword")!.quantity, entry(stock, "sword")!.nextChangeTick], [3, 7 + STOCK_DECAY_TICKS]);
      takeFromStock(stock, "sword", 1, 60);
      assert.equal(entry(stock, "sword")!.quantity, 2);
      takeFromStock(stock, "sword", 2, 60);
      assert.equal(stock.entries.has("sword"), false);
    });

    it("addToStock: an unlimited shelf stays unlimited; a listed shelf above its stock schedules its decay", () => {
      const stock = general();
      addToStock(stock, "hatchet", 3, items, 0);
      assert.deepEqual([entry(stock, "hatchet")!.quantity, entry(stock, "hatchet")!.listed, entry(stock, "hatchet")!.nextChangeTick], [-1, true, null]);
      addToStock(stock, "feathers", 2, items, 20);
      assert.deepEqual([entry(stock, "feathers")!.quantity, entry(stock, "feathers")!.nextChangeTick], [1002, 20 + STOCK_DECAY_TICKS]);
      // Back to its listed stock: nothing scheduled.
      takeFromStock(stock, "feathers", 2, 30);
      assert.deepEqual([entry(stock, "feathers")!.quantity, entry(stock, "feathers")!.nextChangeTick], [1000, null]);
    });

    it("restockDue: a finite listed shelf below its stock gains 1 every restockTicks, up to its stock", () => {
      const stock = general();
      takeFromStock(stock, "iron_hatchet", 2, 0);
      takeFromStock(stock, "iron_hatchet", 1, 200);
      const e = entry(stock, "iron_hatchet")!;
      assert.equal(e.quantity, 2);
      assert.equal(restockDue(stock, RESTOCK - 1).size, 0, "nothing before its tick");
      assert.equal(e.quantity, 2);
      assert.deepEqual(restockDue(stock, RESTOCK), new Map([["iron_hatchet", 1]]), "a second purchase does not put it back");
      assert.equal(e.quantity, 3);
      assert.equal(restockDue(stock, 2 * RESTOCK - 1).size, 0);
      assert.deepEqual(restockDue(stock, 2 * RESTOCK), new Map([["iron_hatchet", 1]]));
      assert.deepEqual(restockDue(stock, 3 * RESTOCK), new Map([["iron_hatchet", 1]]));
      assert.deepEqual([e.quantity, e.nextChangeTick], [5, null]);
      assert.equal(restockDue(stock, 10 * RESTOCK).size, 0, "never past its stock");
      assert.equal(e.quantity, 5);
    });

    it("restockDue: a shelf above its stock loses 1 every STOCK_DECAY_TICKS, down to its stock", () => {
      const stock = general();
      addToStock(stock, "feathers", 2, items, 0);
      assert.equal(restockDue(stock, STOCK_DECAY_TICKS - 1).size, 0);
      assert.deepEqual(restockDue(stock, STOCK_DECAY_TICKS), new Map([["feathers", -1]]));
      assert.equal(entry(stock, "feathers")!.quantity, 1001);
      assert.equal(restockDue(stock, 2 * STOCK_DECAY_TICKS - 1).size, 0);
      assert.deepEqual(restockDue(stock, 2 * STOCK_DECAY_TICKS), new Map([["feathers", -1]]));
      assert.deepEqual([entry(stock, "feathers")!.quantity, entry(stock, "feathers")!.nextChangeTick], [1000, null]);
      assert.equal(restockDue(stock, 100 * STOCK_DECAY_TICKS).size, 0);
    });

    it("restockDue: a bought-in shelf loses 1 every STOCK_DECAY_TICKS and is taken away when empty", () => {
      const stock = general();
      addToStock(stock, "sword", 2, items, 0);
      assert.deepEqual(restockDue(stock, STOCK_DECAY_TICKS), new Map([["sword", -1]]));
      assert.equal(entry(stock, "sword")!.quantity, 1);
      assert.equal(restockDue(stock, 2 * STOCK_DECAY_TICKS - 1).size, 0);
      assert.deepEqual(restockDue(stock, 2 * STOCK_DECAY_TICKS), new Map([["sword", -1]]));
      assert.equal(stock.entries.has("sword"), false);
    });

    it("restockDue: restockTicks 0 never restocks, but stock above the listing still decays", () => {
      const stock = general();
      takeFromStock(stock, "rope", 2, 0);
      assert.equal(entry(stock, "rope")!.nextChangeTick, null);
      assert.equal(restockDue(stock, 1_000_000).size, 0);
      assert.equal(entry(stock, "rope")!.quantity, 1);
      addToStock(stock, "rope", 4, items, 10);
      assert.equal(entry(stock, "rope")!.quantity, 5);
      assert.deepEqual(restockDue(stock, 10 + STOCK_DECAY_TICKS), new Map([["rope", -1]]));
      assert.deepEqual(restockDue(stock, 10 + 2 * STOCK_DECAY_TICKS), new Map([["rope", -1]]));
      assert.deepEqual([entry(stock, "rope")!.quantity, entry(stock, "rope")!.nextChangeTick], [3, null]);
    });

    it("restockDue moves several shelves at once and leaves unlimited ones alone", () => {
      const stock = general();
      takeFromStock(stock, "hatchet", 5, 0);
      takeFromStock(stock, "iron_hatchet", 1, 0);
      addToStock(stock, "feathers", 1, items, RESTOCK - STOCK_DECAY_TICKS);
      addToStock(stock, "sword", 1, items, RESTOCK - STOCK_DECAY_TICKS);
      assert.deepEqual(
        restockDue(stock, RESTOCK),
        new Map([
          ["iron_hatchet", 1],
          ["feathers", -1],
          ["sword", -1],
        ]),
      );
      assert.equal(entry(stock, "hatchet")!.quantity, -1);
      assert.equal(stock.entries.has("sword"), false);
    });

    it("a shelf that crosses its listed stock moves at the pace of the side it is on", () => {
      // Above its stock (decay due at STOCK_DECAY_TICKS), then bought below: the restock waits restockTicks.
      const stock = general();
      addToStock(stock, "iron_hatchet", 1, items, 0);
      takeFromStock(stock, "iron_hatchet", 3, 50);
      assert.equal(entry(stock, "iron_hatchet")!.quantity, 3);
      assert.equal(restockDue(stock, STOCK_DECAY_TICKS).size, 0, "no restock at the decay's tick");
      assert.equal(restockDue(stock, 50 + RESTOCK - 1).size, 0);
      assert.deepEqual(restockDue(stock, 50 + RESTOCK), new Map([["iron_hatchet", 1]]));
      // Below its stock (restock due at RESTOCK), then sold above: the decay comes after STOCK_DECAY_TICKS.
      const other = general();
      takeFromStock(other, "iron_hatchet", 1, 0);
      addToStock(other, "iron_hatchet", 3, items, 10);
      assert.equal(entry(other, "iron_hatchet")!.quantity, 7);
      assert.deepEqual(restockDue(other, 10 + STOCK_DECAY_TICKS), new Map([["iron_hatchet", -1]]));
      assert.equal(entry(other, "iron_hatchet")!.quantity, 6);
    });

    it("restoreShelf puts a shelf back as saved and schedules its next move", () => {
      const stock = general();
      restoreShelf(stock, "iron_hatchet", 2, items, 1000);
      assert.deepEqual([entry(stock, "iron_hatchet")!.quantity, entry(stock, "iron_hatchet")!.nextChangeTick], [2, 1000 + RESTOCK]);
      restoreShelf(stock, "feathers", 1003, items, 1000);
      assert.deepEqual([entry(stock, "feathers")!.quantity, entry(stock, "feathers")!.nextChangeTick], [1003, 1000 + STOCK_DECAY_TICKS]);
      restoreShelf(stock, "rope", 3, items, 1000);
      assert.deepEqual([entry(stock, "rope")!.quantity, entry(stock, "rope")!.nextChangeTick], [3, null]);
      // A shelf restored again is scheduled from the new tick.
      restoreShelf(stock, "iron_hatchet", 4, items, 2000);
      assert.deepEqual([entry(stock, "iron_hatchet")!.quantity, entry(stock, "iron_hatchet")!.nextChangeTick], [4, 2000 + RESTOCK]);
    });

    it("restoreShelf: unlimited stays unlimited, an unknown item is ignored, a bought-in item gets its shelf back", () => {
      const stock = general();
      restoreShelf(stock, "hatchet", 7, items, 0);
      assert.equal(entry(stock, "hatchet")!.quantity, -1);
      restoreShelf(stock, "nope", 3, items, 0);
      assert.equal(stock.entries.has("nope"), false);
      restoreShelf(stock, "sword", 3, items, 0);
      assert.deepEqual(entry(stock, "sword"), {
        itemId: "sword",
        quantity: 3,
        base: 0,
        listed: false,
        price: 100,
        restockTicks: 0,
        nextChangeTick: STOCK_DECAY_TICKS,
      });
    });

    it("restoreShelf: a bought-in item saved at 0 (bought out or decayed away) gets no shelf", () => {
      const stock = general();
      restoreShelf(stock, "sword", 0, items, 0);
      assert.equal(stock.entries.has("sword"), false);
      assert.throws(() => planPurchase(stock, inv({ 0: [COINS, 1000] }), "sword", 1, items), code("NOT_IN_STOCK"));
      // A listed shelf saved at 0 stays, empty, and restocks.
      restoreShelf(stock, "iron_hatchet", 0, items, 0);
      assert.deepEqual([entry(stock, "iron_hatchet")!.quantity, entry(stock, "iron_hatchet")!.nextChangeTick], [0, RESTOCK]);
    });

    it("shelfChange: how a deal moves a shelf's row, from its listed stock (0 bought-in, unlimited no change)", () => {
      const stock = general();
      assert.deepEqual(shelfChange(stock, "hatchet", -3), { base: -1, delta: 0 });
      assert.deepEqual(shelfChange(stock, "iron_hatchet", -2), { base: 5, delta: -2 });
      assert.deepEqual(shelfChange(stock, "feathers", 10), { base: 1000, delta: 10 });
      assert.deepEqual(shelfChange(stock, "sword", 1), { base: 0, delta: 1 }, "not on a shelf yet");
      addToStock(stock, "sword", 1, items, 0);
      assert.deepEqual(shelfChange(stock, "sword", -1), { base: 0, delta: -1 });
    });
  });
});
