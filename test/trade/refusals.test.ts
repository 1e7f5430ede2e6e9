import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import type { TestServer } from "../helpers/server.js";
import { makeTrader, type Trader } from "../helpers/traders.js";
import { place, tileAway } from "../helpers/worldRoom.js";
import { bothAccept, offer, openTrade, slotOf } from "../helpers/tradeSteps.js";
import { countItems, PAIRS, tradingHooks, worldItems } from "../helpers/tradeSuite.js";

/** Trading refusals: distance, room, locks, bad partners and bad input. */
for (const [kindA, kindB] of PAIRS) {
  describe(`trading refusals: ${kindA} player with ${kindB} player`, function () {
    this.timeout(60_000);
    let server: TestServer;
    let room: WorldRoom;
    const { pair, traders } = tradingHooks(kindA, kindB, (s, r) => {
      server = s;
      room = r;
    });

    it("distance: asking from more than 2 tiles, or answering after walking away, is refused", async () => {
      const [a, b] = await pair();
      const spawn = room.world.spawnTile;
      const far = tileAway(room, spawn, 4);
      place(room, b.id, far);
      const m = a.mark();
      a.send("tradeRequest", { targetPlayerId: b.id });
      assert.equal((await a.next("tradeError", () => true, { since: m })).code, "TOO_FAR");
      place(room, b.id, spawn);
      const m2 = a.mark();
      a.send("tradeRequest", { targetPlayerId: b.id });
      const sent = await a.next("tradeRequestSent", () => true, { since: m2 });
      place(room, b.id, far);
      const mb = b.mark();
      b.send("tradeRequestRespond", { tradeId: sent.tradeId, accept: true });
      const err = await b.next("tradeError", () => true, { since: mb });
      assert.equal(err.code, "TOO_FAR");
      assert.equal(room.trades.book.sessions.get(sent.tradeId)!.screen, "requested");
    });

    it("the receiver must have room: a full inventory cancels the trade, naming whose", async () => {
      const [a, b] = await pair();
      const pb = room.world.players.get(b.id)!;
      pb.inventory = pb.inventory.map((s) => s ?? { itemId: "logs", quantity: 1 });
      pb.privateDirty = true;
      const tradeId = await openTrade(a, b);
      await offer(a, tradeId, slotOf(a.sync(), "shrimp"), 1);
      const [ca, cb] = await bothAccept(a, b, tradeId, "tradeCancelled");
      assert.deepEqual([ca.reason, cb.reason], ["inventory_full", "inventory_full"]);
      assert.ok(ca.message.includes(pb.name), ca.message);
      // Coins merge into B's existing stack, so coins still fit.
      const tradeId2 = await openTrade(b, a);
      await offer(a, tradeId2, slotOf(a.sync(), "coins"), 25);
      await bothAccept(a, b, tradeId2, "tradeConfirmScreen");
      await bothAccept(a, b, tradeId2, "tradeCompleted");
      const coinSlots = pb.inventory.filter((s) => s?.itemId === "coins");
      assert.deepEqual(coinSlots, [{ itemId: "coins", quantity: 50 }], "one merged stack");
      assert.equal(countItems(room, a.id, "coins"), 0);
    });

    it("offered items are locked: no eating, dropping, banking or wielding them during the trade", async () => {
      const [a, b] = await pair();
      const bankTile = room.world.bankTiles[0];
      const near = tileAway(room, bankTile, 1);
      place(room, a.id, near);
      place(room, b.id, near);
      const sync = a.sync();
      const shrimp = slotOf(sync, "shrimp");
      const hatchet = slotOf(sync, "bronze_hatchet");
      const tradeId = await openTrade(a, b);
      await offer(a, tradeId, shrimp, 1);
      await offer(a, tradeId, hatchet, 1);
      const before = worldItems(room, a.id);
      for (const [type, data] of [
        ["inventory:use", { slot: shrimp, action: "eat" }],
        ["inventory:use", { slot: shrimp, action: "drop" }],
        ["inventory:use", { slot: hatchet, action: "equip" }],
        ["bank:deposit", { slot: shrimp, quantity: 1 }],
      ] as const) {
        const m = a.mark();
        a.send(type, data);
        const err = await a.next("error", () => true, { since: m });
        assert.equal(err.code, "ITEM_LOCKED", `${type} ${JSON.stringify(data)}`);
      }
      assert.deepEqual(worldItems(room, a.id), before);
      // An item not offered is free to use.
      const m = a.mark();
      a.send("bank:deposit", { slot: slotOf(sync, "tinderbox"), quantity: 1 });
      await a.next("player:sync", (d) => slotOf(d, "tinderbox") === undefined, { since: m });
    });

    it("refuses trading with yourself, with unknown players, and a second trade at once", async () => {
      const [a, b] = await pair();
      const c = await makeTrader(kindA, server);
      traders.push(c);
      place(room, c.id, room.world.spawnTile);
      const refusals: Array<[Trader, unknown, string]> = [
        [a, { targetPlayerId: a.id }, "SELF_TRADE"],
        [a, { targetPlayerId: "c_nobody" }, "PLAYER_OFFLINE"],
        [a, { targetPlayerId: 42 }, "INVALID_PAYLOAD"],
        [a, {}, "INVALID_PAYLOAD"],
      ];
      for (const [t, data, code] of refusals) {
        const m = t.mark();
        t.send("tradeRequest", data);
        assert.equal((await t.next("tradeError", () => true, { since: m })).code, code, JSON.stringify(data));
      }
      await openTrade(a, b);
      for (const [from, to] of [
        [c, a],
        [a, c],
      ]) {
        const m = from.mark();
        from.send("tradeRequest", { targetPlayerId: to.id });
        assert.equal((await from.next("tradeError", () => true, { since: m })).code, "ALREADY_IN_TRADE");
      }
    });

    it("every bad input is answered with tradeError and changes nothing", async () => {
      const [a, b] = await pair();
      const [c, d] = await pair();
      const syncA = a.sync();
      const coins = slotOf(syncA, "coins");
      const empty = [...Array(28).keys()].find((i) => !room.world.players.get(a.id)!.inventory[i])!;
      const tradeId = await openTrade(a, b);
      const otherTrade = await openTrade(c, d);
      await offer(a, tradeId, coins, 5);
      await offer(b, tradeId, slotOf(b.sync(), "shrimp"), 1);
      a.send("tradeAccept", { tradeId });
      await b.next("tradeUpdated", (x) => x.theirOffer.accepted);
      const session = () => JSON.stringify(room.trades.book.sessions.get(tradeId));
      const before = { session: session(), a: worldItems(room, a.id), b: worldItems(room, b.id), locks: [...room.world.players.get(a.id)!.lockedSlots] };
      const nan = a.kind === "sdk" ? Number.NaN : null;
      const cases: Array<[string, unknown, string]> = [
        ["tradeAddItem", { tradeId, inventorySlot: coins, quantity: -1 }, "INVALID_QUANTITY"],
        ["tradeAddItem", { tradeId, inventorySlot: coins, quantity: 0 }, "INVALID_QUANTITY"],
        ["tradeAddItem", { tradeId, inventorySlot: coins, quantity: 1.5 }, "INVALID_QUANTITY"],
        ["tradeAddItem", { tradeId, inventorySlot: coins, quantity: 1e12 }, "INVALID_QUANTITY"],
        ["tradeAddItem", { tradeId, inventorySlot: coins, quantity: nan }, "INVALID_QUANTITY"],
        ["tradeAddItem", { tradeId, inventorySlot: coins, quantity: "3" }, "INVALID_QUANTITY"],
        ["tradeAddItem", { tradeId, inventorySlot: coins, quantity: 21 }, "INVALID_QUANTITY"],
        ["tradeAddItem", { tradeId, inventorySlot: coins }, "INVALID_QUANTITY"],
        ["tradeAddItem", { tradeId, inventorySlot: 28, quantity: 1 }, "INVALID_SLOT"],
        ["tradeAddItem", { tradeId, inventorySlot: -1, quantity: 1 }, "INVALID_SLOT"],
        ["tradeAddItem", { tradeId, inventorySlot: 1.5, quantity: 1 }, "INVALID_SLOT"],
        ["tradeAddItem", { tradeId, inventorySlot: empty, quantity: 1 }, "EMPTY_SLOT"],
        ["tradeAddItem", { tradeId, inventorySlot: slotOf(syncA, "tinderbox"), quantity: 1 }, "UNTRADEABLE"],
        ["tradeRemoveItem", { tradeId, inventorySlot: slotOf(b.sync(), "shrimp") === coins ? empty : slotOf(b.sync(), "shrimp") }, "NOT_OFFERED"],
        ["tradeRemoveItem", { tradeId, inventorySlot: coins, quantity: 6 }, "INVALID_QUANTITY"],
        ["tradeRemoveItem", { tradeId, inventorySlot: coins, quantity: -2 }, "INVALID_QUANTITY"],
        ["tradeAddItem", { tradeId: "t_unknown", inventorySlot: coins, quantity: 1 }, "UNKNOWN_TRADE"],
        ["tradeAddItem", { tradeId: otherTrade, inventorySlot: coins, quantity: 1 }, "NOT_YOUR_TRADE"],
        ["tradeAccept", { tradeId: otherTrade }, "NOT_YOUR_TRADE"],
        ["tradeCancel", { tradeId: otherTrade }, "NOT_YOUR_TRADE"],
        ["tradeAccept", { tradeId }, "ALREADY_ACCEPTED"],
        ["tradeAccept", {}, "INVALID_PAYLOAD"],
        ["tradeAccept", { tradeId: 12 }, "INVALID_PAYLOAD"],
        ["tradeAccept", { tradeId, extra: true }, "INVALID_PAYLOAD"],
        ["tradeRequestRespond", { tradeId, accept: true }, "INVALID_STATE"],
        ["tradeAddItem", "not an object", "INVALID_PAYLOAD"],
      ];
      for (const [type, data, code] of cases) {
        const m = a.mark();
        a.send(type, data);
        const err = await a
          .next("tradeError", () => true, { since: m, timeoutMs: 3000 })
          .catch((e) => {
            throw new Error(`${type} ${JSON.stringify(data)}: ${e.message}`);
          });
        assert.equal(err.code, code, `${type} ${JSON.stringify(data)} -> ${err.code}: ${err.message}`);
        assert.equal(typeof err.message, "string");
      }
      assert.deepEqual(
        { session: session(), a: worldItems(room, a.id), b: worldItems(room, b.id), locks: [...room.world.players.get(a.id)!.lockedSlots] },
        before,
      );
      assert.equal(room.trades.book.sessions.get(otherTrade)!.screen, "offer");

      // The trade still completes as it stood; a replayed accept afterwards finds no trade.
      const mb = b.mark();
      b.send("tradeAccept", { tradeId });
      await b.next("tradeConfirmScreen", (x) => x.tradeId === tradeId, { since: mb });
      const [done] = await bothAccept(a, b, tradeId, "tradeCompleted");
      assert.deepEqual(done.receivedItems, [{ itemId: "shrimp", quantity: 1 }]);
      const m = a.mark();
      a.send("tradeAccept", { tradeId });
      assert.equal((await a.next("tradeError", () => true, { since: m })).code, "UNKNOWN_TRADE");
      assert.equal(await server.ctx.db.prisma.trade.count({ where: { id: tradeId } }), 1);
    });
  });
}
