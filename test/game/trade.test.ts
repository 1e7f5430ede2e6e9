import assert from "node:assert/strict";
import { checkOffer, NoRoomError, offerAdd, offerRemove, offerValue, planSwap, tradeValues } from "../../src/game/trade.js";
import { MAX_STACK } from "../../src/game/types.js";
import { code, inv, item } from "./fixtures.js";

const items = new Map([
  ["coins", item("coins", { stackable: true, value: 1 })],
  ["sword", item("sword", { value: 100 })],
  ["logs", item("logs", { value: 4 })],
  ["quest_key", item("quest_key", { tradeable: false })],
]);

describe("trade rules", () => {
  describe("offers", () => {
    const held = inv({ 0: ["coins", 50], 1: ["sword", 1], 2: ["quest_key", 1] });

    it("adds part of a slot, then more of it, never beyond what the slot holds", () => {
      let offer = offerAdd([], held, 0, 20, items);
      assert.deepEqual(offer, [{ inventorySlot: 0, itemId: "coins", quantity: 20 }]);
      offer = offerAdd(offer, held, 0, 30, items);
      assert.deepEqual(offer, [{ inventorySlot: 0, itemId: "coins", quantity: 50 }]);
      assert.throws(() => offerAdd(offer, held, 0, 1, items), code("INVALID_QUANTITY"));
      assert.throws(() => offerAdd([], held, 1, 2, items), code("INVALID_QUANTITY"));
    });

    it("refuses bad quantities, bad slots, empty slots and untradeable items", () => {
      for (const q of [0, -1, 1.5, Number.NaN, Infinity, MAX_STACK + 1, "1", null, undefined]) {
        assert.throws(() => offerAdd([], held, 0, q, items), code("INVALID_QUANTITY"), String(q));
      }
      for (const s of [-1, 28, 2.5, "0", null]) assert.throws(() => offerAdd([], held, s, 1, items), code("INVALID_SLOT"), String(s));
      assert.throws(() => offerAdd([], held, 5, 1, items), code("EMPTY_SLOT"));
      assert.throws(() => offerAdd([], held, 2, 1, items), code("UNTRADEABLE"));
    });

    it("removes some or all of an offered slot", () => {
      const offer = offerAdd([], held, 0, 20, items);
      assert.deepEqual(offerRemove(offer, 0, 5), [{ inventorySlot: 0, itemId: "coins", quantity: 15 }]);
      assert.deepEqual(offerRemove(offer, 0), []);
      assert.deepEqual(offerRemove(offer, 0, 20), []);
      assert.throws(() => offerRemove(offer, 0, 21), code("INVALID_QUANTITY"));
      assert.throws(() => offerRemove(offer, 0, 0), code("INVALID_QUANTITY"));
      assert.throws(() => offerRemove(offer, 1), code("NOT_OFFERED"));
    });

    it("an offer is checked against its inventory again: same slot, item and enough of it", () => {
      const offer = [{ inventorySlot: 0, itemId: "coins", quantity: 20 }];
      checkOffer(offer, held, items);
      assert.throws(() => checkOffer(offer, inv({ 0: ["coins", 19] }), items), code("OFFER_CHANGED"));
      assert.throws(() => checkOffer(offer, inv({ 0: ["logs", 20] }), items), code("OFFER_CHANGED"));
      assert.throws(() => checkOffer(offer, inv({ 1: ["coins", 20] }), items), code("OFFER_CHANGED"));
      assert.throws(() => checkOffer([...offer, ...offer], held, items), code("OFFER_CHANGED"));
      assert.throws(() => checkOffer([{ inventorySlot: 2, itemId: "quest_key", quantity: 1 }], held, items), code("UNTRADEABLE"));
    });
  });

  describe("the swap", () => {
    it("moves both offers, merging stackables into an existing stack", () => {
      const a = inv({ 0: ["coins", 50], 1: ["sword", 1] });
      const b = inv({ 3: ["coins", 7], 4: ["logs", 1] });
      const swap = planSwap(
        { inventory: a, offer: [{ inventorySlot: 0, itemId: "coins", quantity: 30 }] },
        { inventory: b, offer: [{ inventorySlot: 4, itemId: "logs", quantity: 1 }] },
        items,
      );
      assert.deepEqual(swap.initiator.slice(0, 3), [
        { itemId: "coins", quantity: 20 },
        { itemId: "sword", quantity: 1 },
        { itemId: "logs", quantity: 1 },
      ]);
      assert.deepEqual(swap.recipient[3], { itemId: "coins", quantity: 37 });
      assert.equal(swap.recipient[4], null);
      assert.deepEqual(swap.toInitiator, [{ itemId: "logs", quantity: 1 }]);
      assert.deepEqual(swap.toRecipient, [{ itemId: "coins", quantity: 30 }]);
      // The inputs are untouched.
      assert.deepEqual(a[0], { itemId: "coins", quantity: 50 });
    });

    it("a side's own offer frees the room it needs", () => {
      const full = inv(Object.fromEntries([...Array(28).keys()].map((i) => [i, ["logs", 1] as [string, number]])));
      const swap = planSwap(
        { inventory: full, offer: [{ inventorySlot: 5, itemId: "logs", quantity: 1 }] },
        { inventory: inv({ 0: ["sword", 1] }), offer: [{ inventorySlot: 0, itemId: "sword", quantity: 1 }] },
        items,
      );
      assert.deepEqual(swap.initiator[5], { itemId: "sword", quantity: 1 });
    });

    it("says which side has no room", () => {
      const full = inv(Object.fromEntries([...Array(28).keys()].map((i) => [i, ["logs", 1] as [string, number]])));
      assert.throws(
        () =>
          planSwap({ inventory: inv({ 0: ["sword", 1] }), offer: [{ inventorySlot: 0, itemId: "sword", quantity: 1 }] }, { inventory: full, offer: [] }, items),
        (e: unknown) => e instanceof NoRoomError && e.side === "recipient",
      );
      // A stack that would pass the largest stack does not fit either.
      assert.throws(
        () =>
          planSwap(
            { inventory: inv({ 0: ["coins", 10] }), offer: [{ inventorySlot: 0, itemId: "coins", quantity: 10 }] },
            { inventory: inv({ 0: ["coins", MAX_STACK - 5] }), offer: [] },
            items,
          ),
        (e: unknown) => e instanceof NoRoomError && e.side === "recipient",
      );
    });
  });

  describe("values", () => {
    it("adds up item values and flags a lopsided trade", () => {
      const sword = [{ inventorySlot: 0, itemId: "sword", quantity: 1 }];
      const coins = (n: number) => [{ inventorySlot: 1, itemId: "coins", quantity: n }];
      assert.equal(offerValue([...sword, ...coins(5)], items), 105);
      assert.deepEqual(tradeValues(sword, coins(90), items), { myOfferValue: 100, theirOfferValue: 90, difference: -10, lopsided: false });
      assert.deepEqual(tradeValues(sword, coins(10), items), { myOfferValue: 100, theirOfferValue: 10, difference: -90, lopsided: true });
      assert.equal(tradeValues(coins(10), [], items).lopsided, false, "small gifts are not flagged");
      assert.equal(tradeValues([], sword, items).lopsided, true);
    });
  });
});
