import assert from "node:assert/strict";
import { COINS } from "../../src/game/types.js";
import { addToStock, isGeneralStore, newStock, planPurchase, planSale, restoreShelf, sellPrice, takeFromStock } from "../../src/game/store.js";
import { countItem } from "../../src/game/inventory.js";
import { INVENTORY_SIZE, MAX_STACK } from "../../src/game/types.js";
import { code, inv, item } from "./fixtures.js";
import { items, BAD_QUANTITIES, RESTOCK, listing, storeDef, general, axeShop, giftShop, fullPack, frozen, entry } from "./shopFixtures.js";

describe("store rules", () => {
  describe("the store's data", () => {
    it("a store is general when its id contains 'general'", () => {
      assert.equal(isGeneralStore(storeDef("general_store", [])), true);
      assert.equal(isGeneralStore(storeDef("north_general", [])), true);
      assert.equal(isGeneralStore(storeDef("axe_shop", [], { name: "General axes" })), false, "the id decides, not the name");
    });

    it("shelves follow the listing: listed, at their stock, in order, a repeated listing ignored", () => {
      const stock = newStock(storeDef("s", [listing("hatchet", 32.7, -1), listing("rope", 20, 3), listing("hatchet", 99, 9)]));
      assert.deepEqual([...stock.entries.keys()], ["hatchet", "rope"]);
      assert.deepEqual(entry(stock, "hatchet"), {
        itemId: "hatchet",
        quantity: -1,
        base: -1,
        listed: true,
        price: 32,
        restockTicks: RESTOCK,
        nextChangeTick: null,
      });
      assert.deepEqual({ q: entry(stock, "rope")!.quantity, base: entry(stock, "rope")!.base }, { q: 3, base: 3 });
    });
  });

  describe("prices", () => {
    it("a listed item costs its listed price, not its value", () => {
      const stock = general();
      const plan = planPurchase(stock, inv({ 0: [COINS, 1000] }), "iron_hatchet", 2, items);
      assert.equal(plan.coins, 200);
    });

    it("a bought-in item the store does not list costs its value, at least 1 coin", () => {
      const stock = general();
      addToStock(stock, "sword", 1, items, 0);
      addToStock(stock, "junk", 1, items, 0);
      assert.equal(entry(stock, "sword")!.price, 100);
      assert.equal(entry(stock, "junk")!.price, 1);
      assert.equal(planPurchase(stock, inv({ 0: [COINS, 1000] }), "sword", 1, items).coins, 100);
      assert.equal(planPurchase(stock, inv({ 0: [COINS, 1000] }), "junk", 1, items).coins, 1);
    });

    it("the store pays floor(price × rate) for what it lists and floor(value × rate) for the rest", () => {
      const stock = general();
      assert.equal(sellPrice(stock, "iron_hatchet", items), 40, "floor(100 × 0.4), not the value 90");
      assert.equal(sellPrice(stock, "feathers", items), 1, "floor(3 × 0.4)");
      assert.equal(sellPrice(stock, "sword", items), 40, "floor(100 × 0.4)");
      assert.equal(sellPrice(stock, "bones", items), 1, "floor(4 × 0.4)");
      assert.equal(sellPrice(stock, "map", items), 0, "listed at 0: pays 0");
      assert.equal(sellPrice(stock, "junk", items), 0, "worth nothing: pays 0");
      // A bought-in shelf keeps paying by value.
      addToStock(stock, "sword", 1, items, 0);
      assert.equal(sellPrice(stock, "sword", items), 40);
      assert.equal(sellPrice(axeShop(), "hatchet", items), 20, "floor(40 × 0.5) at the specialist");
    });
  });

  describe("what a store buys", () => {
    it("a general store buys any tradeable item, listed or not", () => {
      const stock = general();
      for (const id of ["hatchet", "feathers", "sword", "bones", "runes", "junk"]) assert.doesNotThrow(() => sellPrice(stock, id, items), id);
    });

    it("a specialist buys only what it lists", () => {
      const stock = axeShop();
      assert.equal(sellPrice(stock, "iron_hatchet", items), 55);
      for (const id of ["sword", "feathers", "bones"]) assert.throws(() => sellPrice(stock, id, items), code("STORE_WONT_BUY"), id);
      assert.throws(() => planSale(stock, inv({ 0: ["sword", 1] }), 0, 1, items), code("STORE_WONT_BUY"));
    });

    it("a store with buyback: false buys nothing, not even what it lists", () => {
      const stock = giftShop();
      for (const id of ["hatchet", "sword"]) assert.throws(() => sellPrice(stock, id, items), code("STORE_WONT_BUY"), id);
      assert.throws(() => planSale(stock, inv({ 0: ["hatchet", 1] }), 0, 1, items), code("STORE_WONT_BUY"));
    });

    it("no store buys coins, and none buys an untradeable item", () => {
      for (const stock of [general(), axeShop()]) {
        assert.throws(() => sellPrice(stock, COINS, items), code("STORE_WONT_BUY"));
        assert.throws(() => planSale(stock, inv({ 0: [COINS, 10] }), 0, 5, items), code("STORE_WONT_BUY"));
        assert.throws(() => sellPrice(stock, "letter", items), code("UNTRADEABLE"));
        assert.throws(() => planSale(stock, inv({ 0: ["letter", 1] }), 0, 1, items), code("UNTRADEABLE"));
      }
      // A store that lists coins still does not buy them.
      const odd = newStock(storeDef("general_coins", [listing(COINS, 1, -1)]));
      assert.throws(() => sellPrice(odd, COINS, items), code("STORE_WONT_BUY"));
    });

    it("an unknown item is UNKNOWN_ITEM", () => {
      assert.throws(() => sellPrice(general(), "nope", items), code("UNKNOWN_ITEM"));
      assert.throws(() => planSale(general(), inv({ 0: ["nope", 1] }), 0, 1, items), code("UNKNOWN_ITEM"));
    });
  });

  describe("planPurchase", () => {
    it("pays the coins and adds the item, leaving the input inventory as it was", () => {
      const stock = general();
      const pack = inv({ 0: [COINS, 250], 1: ["bones", 1] });
      const before = structuredClone(pack);
      const plan = planPurchase(stock, frozen(pack), "iron_hatchet", 2, items);
      assert.deepEqual(plan, {
        itemId: "iron_hatchet",
        quantity: 2,
        coins: 200,
        inventory: inv({ 0: [COINS, 50], 1: ["bones", 1], 2: ["iron_hatchet", 1], 3: ["iron_hatchet", 1] }),
      });
      assert.deepEqual(pack, before);
      assert.equal(entry(stock, "iron_hatchet")!.quantity, 5, "planning does not touch the shelf");
    });

    it("merges a stackable purchase into the pack's stack", () => {
      const plan = planPurchase(general(), inv({ 0: [COINS, 30], 4: ["feathers", 7] }), "feathers", 10, items);
      assert.deepEqual(plan.inventory, inv({ 4: ["feathers", 17] }), "the coin stack is spent to nothing");
      assert.equal(plan.coins, 30);
    });

    it("a free item needs no coins", () => {
      const plan = planPurchase(general(), inv(), "map", 1, items);
      assert.deepEqual(plan, { itemId: "map", quantity: 1, coins: 0, inventory: inv({ 0: ["map", 1] }) });
    });

    it("a pack whose only free slot appears once the coins are all spent still buys a non-stackable item", () => {
      const pack = fullPack({ 7: [COINS, 100] });
      const plan = planPurchase(general(), frozen(pack), "iron_hatchet", 1, items);
      assert.deepEqual(plan.inventory[7], { itemId: "iron_hatchet", quantity: 1 });
      assert.equal(countItem(plan.inventory, COINS), 0);
      // One coin left over keeps the slot: no room.
      assert.throws(() => planPurchase(general(), fullPack({ 7: [COINS, 101] }), "iron_hatchet", 1, items), code("INVENTORY_FULL"));
    });

    it("INVENTORY_FULL: each non-stackable needs a slot of its own; all or nothing", () => {
      const pack = inv({ 0: [COINS, 10_000] });
      for (let i = 1; i < 26; i++) pack[i] = { itemId: "bones", quantity: 1 };
      // Two free slots (26, 27).
      const before = structuredClone(pack);
      assert.equal(planPurchase(general(), pack, "hatchet", 2, items).coins, 64);
      assert.throws(() => planPurchase(general(), pack, "hatchet", 3, items), code("INVENTORY_FULL"));
      // A stackable fits in one slot, or in the stack it joins.
      assert.equal(planPurchase(general(), pack, "feathers", 500, items).quantity, 500);
      assert.equal(countItem(planPurchase(general(), fullPack({ 0: [COINS, 100], 1: ["feathers", 1] }), "feathers", 5, items).inventory, "feathers"), 6);
      assert.throws(() => planPurchase(general(), fullPack({ 0: [COINS, 100] }), "feathers", 5, items), code("INVENTORY_FULL"));
      assert.deepEqual(pack, before);
    });

    it("NOT_IN_STOCK for what the store does not sell", () => {
      assert.throws(() => planPurchase(general(), inv({ 0: [COINS, 1000] }), "sword", 1, items), code("NOT_IN_STOCK"));
      assert.throws(() => planPurchase(axeShop(), inv({ 0: [COINS, 1000] }), "feathers", 1, items), code("NOT_IN_STOCK"));
    });

    it("OUT_OF_STOCK when the shelf is empty or holds fewer than asked", () => {
      const stock = general();
      const rich = inv({ 0: [COINS, 10_000] });
      assert.throws(() => planPurchase(stock, rich, "iron_hatchet", 6, items), code("OUT_OF_STOCK"));
      assert.equal(planPurchase(stock, rich, "iron_hatchet", 5, items).quantity, 5);
      takeFromStock(stock, "iron_hatchet", 5, 0);
      assert.equal(entry(stock, "iron_hatchet")!.quantity, 0, "a listed shelf stays, empty");
      assert.throws(() => planPurchase(stock, rich, "iron_hatchet", 1, items), code("OUT_OF_STOCK"));
      // An unlimited shelf never runs out.
      assert.equal(planPurchase(stock, rich, "hatchet", 27, items).quantity, 27);
    });

    it("NOT_ENOUGH_COINS when short, and coins in locked slots do not count", () => {
      const stock = general();
      assert.throws(() => planPurchase(stock, inv({ 0: [COINS, 99] }), "iron_hatchet", 1, items), code("NOT_ENOUGH_COINS"));
      assert.throws(() => planPurchase(stock, inv({ 1: ["bones", 1] }), "iron_hatchet", 1, items), code("NOT_ENOUGH_COINS"));
      assert.throws(() => planPurchase(stock, inv({ 0: [COINS, 500] }), "iron_hatchet", 1, items, new Set([0])), code("NOT_ENOUGH_COINS"));
      // Two coin stacks, one locked: only the other is counted and spent.
      const pack = inv({ 0: [COINS, 500], 1: [COINS, 60] });
      assert.throws(() => planPurchase(stock, pack, "iron_hatchet", 1, items, new Set([0])), code("NOT_ENOUGH_COINS"));
      const plan = planPurchase(stock, frozen(pack), "hatchet", 1, items, new Set([0]));
      assert.deepEqual(plan.inventory.slice(0, 3), [
        { itemId: COINS, quantity: 500 },
        { itemId: COINS, quantity: 28 },
        { itemId: "hatchet", quantity: 1 },
      ]);
    });

    it("INVALID_QUANTITY for 0, negative, fractional or too large quantities, and for a cost past MAX_STACK", () => {
      const rich = inv({ 0: [COINS, MAX_STACK] });
      for (const q of BAD_QUANTITIES) assert.throws(() => planPurchase(general(), rich, "hatchet", q, items), code("INVALID_QUANTITY"), String(q));
      const tooMany = Math.floor(MAX_STACK / 32) + 1;
      assert.throws(() => planPurchase(general(), rich, "hatchet", tooMany, items), code("INVALID_QUANTITY"), "cost over MAX_STACK");
      // Right at the limit the cost is fine (the pack then has no room, which is another refusal).
      assert.throws(() => planPurchase(general(), rich, "hatchet", tooMany - 1, items), code("INVENTORY_FULL"));
    });

    it("UNKNOWN_ITEM for an item the game does not know", () => {
      assert.throws(() => planPurchase(general(), inv({ 0: [COINS, 10] }), "nope", 1, items), code("UNKNOWN_ITEM"));
    });

    it("a refusal leaves the input inventory as it was", () => {
      const pack = fullPack({ 0: [COINS, 150] });
      const before = structuredClone(pack);
      assert.throws(() => planPurchase(general(), frozen(pack), "hatchet", 2, items), code("INVENTORY_FULL"));
      assert.throws(() => planPurchase(general(), pack, "iron_hatchet", 2, items), code("NOT_ENOUGH_COINS"));
      assert.deepEqual(pack, before);
    });
  });

  describe("planSale", () => {
    it("sells what is asked and pays into the existing coin stack, leaving the input as it was", () => {
      const pack = inv({ 2: ["feathers", 100], 5: [COINS, 10] });
      const before = structuredClone(pack);
      const plan = planSale(general(), frozen(pack), 2, 40, items);
      assert.deepEqual(plan, { itemId: "feathers", quantity: 40, coins: 40, inventory: inv({ 2: ["feathers", 60], 5: [COINS, 50] }) });
      assert.deepEqual(pack, before);
    });

    it("sells what the pack holds when that is less than asked", () => {
      const plan = planSale(general(), inv({ 0: ["feathers", 7] }), 0, 1000, items);
      assert.deepEqual(plan, { itemId: "feathers", quantity: 7, coins: 7, inventory: inv({ 0: [COINS, 7] }) });
    });

    it("takes a non-stackable item from several slots, the named slot first, never from a locked slot", () => {
      const pack = inv({ 2: ["sword", 1], 5: ["sword", 1], 7: ["sword", 1], 9: ["sword", 1], 20: [COINS, 1] });
      const locked = new Set([5]);
      const two = planSale(general(), frozen(pack), 7, 2, items, locked);
      assert.equal(two.quantity, 2);
      assert.equal(two.coins, 80);
      assert.deepEqual(two.inventory, inv({ 5: ["sword", 1], 9: ["sword", 1], 20: [COINS, 81] }), "slot 7, then slot 2");
      const all = planSale(general(), pack, 9, 10, items, locked);
      assert.equal(all.quantity, 3, "what the unlocked slots hold");
      assert.deepEqual(all.inventory, inv({ 5: ["sword", 1], 20: [COINS, 121] }));
    });

    it("ITEM_LOCKED when the named slot is offered in a trade", () => {
      const pack = inv({ 0: ["sword", 1], 1: ["sword", 1] });
      assert.throws(() => planSale(general(), pack, 0, 1, items, new Set([0])), code("ITEM_LOCKED"));
      assert.equal(planSale(general(), pack, 1, 2, items, new Set([0])).quantity, 1);
    });

    it("EMPTY_SLOT and INVALID_SLOT", () => {
      assert.throws(() => planSale(general(), inv({ 0: ["sword", 1] }), 1, 1, items), code("EMPTY_SLOT"));
      for (const s of [-1, INVENTORY_SIZE, 1.5, Number.NaN])
        assert.throws(() => planSale(general(), inv({ 0: ["sword", 1] }), s, 1, items), code("INVALID_SLOT"), String(s));
    });

    it("INVALID_QUANTITY for 0, negative, fractional or too large quantities", () => {
      for (const q of BAD_QUANTITIES) assert.throws(() => planSale(general(), inv({ 0: ["feathers", 10] }), 0, q, items), code("INVALID_QUANTITY"), String(q));
    });

    it("coins land in the slot the sale frees; INVENTORY_FULL when there is no room for them", () => {
      // Selling a non-stackable from a full pack frees its slot for the coins.
      const freed = planSale(general(), fullPack({ 3: ["sword", 1] }), 3, 1, items);
      assert.deepEqual(freed.inventory[3], { itemId: COINS, quantity: 40 });
      // Part of a stack frees nothing.
      assert.throws(() => planSale(general(), fullPack({ 3: ["feathers", 10] }), 3, 5, items), code("INVENTORY_FULL"));
      // The coin stack cannot pass MAX_STACK.
      assert.throws(() => planSale(general(), inv({ 0: ["sword", 1], 1: [COINS, MAX_STACK - 39] }), 0, 1, items), code("INVENTORY_FULL"));
      assert.equal(planSale(general(), inv({ 0: ["sword", 1], 1: [COINS, MAX_STACK - 40] }), 0, 1, items).inventory[1]!.quantity, MAX_STACK);
      // More coins than one stack holds.
      assert.throws(() => planSale(general(), inv({ 0: ["runes", 1_000_000_000] }), 0, 1_000_000_000, items), code("INVENTORY_FULL"));
    });

    it("an item the store pays nothing for is refused WORTHLESS_SALE, and given away with forNothing", () => {
      const pack = fullPack({ 4: ["junk", 1] });
      assert.throws(() => planSale(general(), pack, 4, 1, items), code("WORTHLESS_SALE"));
      assert.deepEqual(pack[4], { itemId: "junk", quantity: 1 }, "nothing changed");
      const plan = planSale(general(), pack, 4, 1, items, new Set(), true);
      assert.equal(plan.coins, 0);
      assert.equal(plan.inventory[4], null);
      assert.equal(countItem(plan.inventory, COINS), 0);
    });

    it("STORE_FULL when the shelf would pass MAX_STACK; an unlimited shelf is never full", () => {
      const stock = general();
      restoreShelf(stock, "feathers", MAX_STACK - 5, items, 0);
      const pack = inv({ 0: ["feathers", 6] });
      assert.throws(() => planSale(stock, pack, 0, 6, items), code("STORE_FULL"));
      assert.equal(planSale(stock, pack, 0, 5, items).quantity, 5);
      addToStock(stock, "sword", MAX_STACK - 1, items, 0);
      assert.throws(() => planSale(stock, inv({ 0: ["sword", 1], 1: ["sword", 1] }), 0, 2, items), code("STORE_FULL"));
      assert.equal(planSale(stock, inv({ 0: ["hatchet", 1] }), 0, 1, items).coins, 12);
    });
  });
});
