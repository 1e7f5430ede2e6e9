import assert from "node:assert/strict";
import { matchMaker } from "@colyseus/core";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { killPlayer } from "../../src/game/world/npcSystem.js";
import type { TestServer } from "../helpers/server.js";
import { bothAccept, countOf, offer, openTrade, slotOf } from "../helpers/tradeSteps.js";
import { PAIRS, tradingHooks, until, worldInventory, worldItems } from "../helpers/tradeSuite.js";

for (const [kindA, kindB] of PAIRS) {
  describe(`trading: ${kindA} player with ${kindB} player`, function () {
    this.timeout(60_000);
    let server: TestServer;
    let room: WorldRoom;
    const { pair } = tradingHooks(kindA, kindB, (s, r) => {
      server = s;
      room = r;
    });

    it("completes a trade: offers, both screens, the swap in the world and the database, the history row", async () => {
      const [a, b] = await pair();
      const syncA = a.sync();
      const syncB = b.sync();
      const coins = slotOf(syncA, "coins");
      const shrimp = slotOf(syncB, "shrimp");
      const tradeId = await openTrade(a, b);

      const upA = await offer(a, tradeId, coins, 10);
      assert.deepEqual(upA.myOffer, { items: [{ inventorySlot: coins, itemId: "coins", quantity: 10 }], accepted: false });
      const upB = await offer(b, tradeId, shrimp, 1);
      assert.deepEqual(upB.theirOffer.items, [{ inventorySlot: coins, itemId: "coins", quantity: 10 }]);
      assert.deepEqual(upB.myOffer.items, [{ inventorySlot: shrimp, itemId: "shrimp", quantity: 1 }]);

      const [confA, confB] = await bothAccept(a, b, tradeId, "tradeConfirmScreen");
      assert.equal(confA.values.myOfferValue, 10);
      assert.equal(confA.values.theirOfferValue, room.world.data.items.get("shrimp")!.value);
      assert.equal(confB.values.difference, 10 - room.world.data.items.get("shrimp")!.value);
      assert.deepEqual(confB.theirOffer.items, [{ inventorySlot: coins, itemId: "coins", quantity: 10 }]);

      const ma = a.mark();
      const mb = b.mark();
      const [doneA, doneB] = await bothAccept(a, b, tradeId, "tradeCompleted");
      assert.deepEqual(doneA.receivedItems, [{ itemId: "shrimp", quantity: 1 }]);
      assert.deepEqual(doneB.receivedItems, [{ itemId: "coins", quantity: 10 }]);

      // Both players' private state follows at once.
      const afterA = await a.next("player:sync", (d) => countOf(d, "coins") === 15, { since: ma });
      const afterB = await b.next("player:sync", (d) => countOf(d, "coins") === 35, { since: mb });
      assert.equal(countOf(afterA, "shrimp"), countOf(syncA, "shrimp") + 1);
      assert.equal(countOf(afterB, "shrimp"), countOf(syncB, "shrimp") - 1);
      assert.ok(afterA.inventory.every((s: any) => !s.locked));

      const rows = await server.ctx.db.prisma.inventoryItem.findMany({ where: { characterId: { in: [a.id, b.id] }, itemId: "coins" } });
      assert.deepEqual(Object.fromEntries(rows.map((r) => [r.characterId, r.quantity])), { [a.id]: 15, [b.id]: 35 });
      const history = await server.ctx.db.prisma.trade.findUnique({ where: { id: tradeId } });
      assert.ok(history);
      assert.equal(history.initiatorId, a.id);
      assert.equal(history.recipientId, b.id);
      assert.deepEqual(history.initiatorOffer, [{ inventorySlot: coins, itemId: "coins", quantity: 10 }]);
      assert.equal(history.initiatorValue, 10n);
      assert.deepEqual(
        worldInventory(room, a.id)
          .filter(Boolean)
          .map((s) => s!.itemId)
          .sort(),
        afterA.inventory.map((s: any) => s.itemId).sort(),
      );
    });

    const roomOf = async (tradeId: string) =>
      (await matchMaker.query({ name: "trade" })).filter((r) => (matchMaker.getLocalRoomById(r.roomId) as any)?.state.tradeId === tradeId)[0];

    if (kindA === "ws" && kindB === "ws")
      it("two /ws players trade through the world room alone: no trade room is made, tradeStarted carries no reservation", async () => {
        const [a, b] = await pair();
        const rooms = (await matchMaker.query({ name: "trade" })).length;
        const coins = slotOf(a.sync(), "coins");
        const tradeId = await openTrade(a, b);
        for (const t of [a, b]) assert.equal(t.all("tradeStarted").find((d) => d.tradeId === tradeId)?.reservation, undefined);
        assert.equal(await roomOf(tradeId), undefined, "no trade room for this trade");
        assert.equal((await matchMaker.query({ name: "trade" })).length, rooms);
        await offer(a, tradeId, coins, 3);
        await bothAccept(a, b, tradeId, "tradeConfirmScreen");
        await bothAccept(a, b, tradeId, "tradeCompleted");
      });
    else
      it("the trade's room mirrors the trade, and both traders sit in it", async () => {
        const [a, b] = await pair();
        const coins = slotOf(a.sync(), "coins");
        const tradeId = await openTrade(a, b);
        const listing = await roomOf(tradeId);
        assert.ok(listing, "a trade room was made for the trade");
        const tradeRoom = matchMaker.getLocalRoomById(listing.roomId)!;
        await until(() => tradeRoom.clients.length === 2);
        await offer(a, tradeId, coins, 3);
        const state = (tradeRoom as any).state;
        assert.equal(state.screen, "offer");
        assert.deepEqual(
          state.initiator.items.map((i: any) => [i.inventorySlot, i.itemId, i.quantity]),
          [[coins, "coins", 3]],
        );
        for (const t of [a, b]) {
          if (t.kind !== "sdk") continue;
          // The SDK player's copy of the state follows the room's.
          await until(() => t.tradeRoom()?.state.initiator?.items?.length === 1);
          assert.equal(t.tradeRoom()!.state.initiator.items[0].quantity, 3);
        }
        await bothAccept(a, b, tradeId, "tradeConfirmScreen");
        assert.equal(state.screen, "confirm");
        const m = a.mark();
        a.send("tradeCancel", { tradeId });
        await a.next("tradeCancelled", (d) => d.tradeId === tradeId, { since: m });
        // The room lets the traders go and is disposed of.
        await until(() => matchMaker.getLocalRoomById(listing.roomId) === undefined);
      });

    it("decline: both are told, nothing was locked, and asking again too soon is rate limited", async () => {
      const [a, b] = await pair();
      const ma = a.mark();
      a.send("tradeRequest", { targetPlayerId: b.id });
      const sent = await a.next("tradeRequestSent", () => true, { since: ma });
      const incoming = await b.next("tradeIncoming", (d) => d.tradeId === sent.tradeId);
      assert.equal(incoming.fromPlayerName, a.sync().name);
      b.send("tradeRequestRespond", { tradeId: incoming.tradeId, accept: false });
      const [ca, cb] = await Promise.all([
        a.next("tradeCancelled", (d) => d.tradeId === sent.tradeId, { since: ma }),
        b.next("tradeCancelled", (d) => d.tradeId === sent.tradeId),
      ]);
      assert.equal(ca.reason, "declined");
      assert.equal(cb.reason, "declined");
      const m = a.mark();
      a.send("tradeRequest", { targetPlayerId: b.id });
      assert.equal((await a.next("tradeError", () => true, { since: m })).code, "RATE_LIMITED");
      assert.equal(room.trades.book.sessions.size, 0);
    });

    it("cancel on the offer screen and on the confirm screen: both are told, locks released, inventories unchanged", async () => {
      const [a, b] = await pair();
      const before = [worldItems(room, a.id), worldItems(room, b.id)];
      const coins = slotOf(a.sync(), "coins");
      for (const screen of ["offer", "confirm"]) {
        const tradeId = await openTrade(screen === "offer" ? a : b, screen === "offer" ? b : a);
        await offer(a, tradeId, coins, 5);
        assert.ok(room.world.players.get(a.id)!.lockedSlots.has(coins));
        if (screen === "confirm") await bothAccept(a, b, tradeId, "tradeConfirmScreen");
        const ma = a.mark();
        const mb = b.mark();
        b.send("tradeCancel", { tradeId });
        const [ca, cb] = await Promise.all([
          a.next("tradeCancelled", (d) => d.tradeId === tradeId, { since: ma }),
          b.next("tradeCancelled", (d) => d.tradeId === tradeId, { since: mb }),
        ]);
        assert.deepEqual([ca.reason, cb.reason], ["cancelled", "cancelled"]);
        assert.match(ca.message, /cancelled the trade/);
        assert.equal(room.world.players.get(a.id)!.lockedSlots.size, 0, `unlocked after a cancel on the ${screen} screen`);
        const sync = await a.next("player:sync", (d) => d.inventory.every((s: any) => !s.locked), { since: ma });
        assert.ok(sync);
      }
      assert.deepEqual([worldItems(room, a.id), worldItems(room, b.id)], before);
      const rows = await server.ctx.db.prisma.trade.count({ where: { OR: [{ initiatorId: a.id }, { recipientId: a.id }] } });
      assert.equal(rows, 0);
    });

    it("a change of offer resets both acceptances", async () => {
      const [a, b] = await pair();
      const tradeId = await openTrade(a, b);
      await offer(a, tradeId, slotOf(a.sync(), "coins"), 2);
      const m = b.mark();
      a.send("tradeAccept", { tradeId });
      const accepted = await b.next("tradeUpdated", (d) => d.theirOffer.accepted, { since: m });
      assert.equal(accepted.myOffer.accepted, false);
      const m2 = a.mark();
      b.send("tradeAddItem", { tradeId, inventorySlot: slotOf(b.sync(), "shrimp"), quantity: 1 });
      const reset = await a.next("tradeUpdated", (d) => d.theirOffer.items.length === 1, { since: m2 });
      assert.equal(reset.myOffer.accepted, false);
      assert.equal(reset.theirOffer.accepted, false);
      // Taking it back resets them again.
      a.send("tradeAccept", { tradeId });
      await a.next("tradeUpdated", (d) => d.myOffer.accepted, { since: m2 });
      const m3 = a.mark();
      b.send("tradeRemoveItem", { tradeId, inventorySlot: slotOf(b.sync(), "shrimp") });
      const again = await a.next("tradeUpdated", (d) => d.theirOffer.items.length === 0, { since: m3 });
      assert.equal(again.myOffer.accepted, false);
    });

    it("offers cannot change on the confirm screen; the trade then completes as confirmed", async () => {
      const [a, b] = await pair();
      const coins = slotOf(a.sync(), "coins");
      const tradeId = await openTrade(a, b);
      await offer(a, tradeId, coins, 4);
      await bothAccept(a, b, tradeId, "tradeConfirmScreen");
      for (const [type, data] of [
        ["tradeAddItem", { tradeId, inventorySlot: coins, quantity: 1 }],
        ["tradeRemoveItem", { tradeId, inventorySlot: coins }],
      ] as const) {
        const m = a.mark();
        a.send(type, data);
        const err = await a.next("tradeError", () => true, { since: m });
        assert.equal(err.code, "OFFER_LOCKED");
        assert.equal(err.tradeId, tradeId);
      }
      const [done] = await bothAccept(a, b, tradeId, "tradeCompleted");
      assert.deepEqual(done.receivedItems, []);
      const bCoins = (await server.ctx.db.prisma.inventoryItem.findFirst({ where: { characterId: b.id, itemId: "coins" } }))!.quantity;
      assert.equal(bCoins, 29);
    });

    it("an unanswered request and an idle trade time out", async () => {
      const [a, b] = await pair();
      const ma = a.mark();
      a.send("tradeRequest", { targetPlayerId: b.id });
      const sent = await a.next("tradeRequestSent", () => true, { since: ma });
      const [ta, tb] = await Promise.all([
        a.next("tradeCancelled", (d) => d.tradeId === sent.tradeId, { since: ma }),
        b.next("tradeCancelled", (d) => d.tradeId === sent.tradeId),
      ]);
      assert.deepEqual([ta.reason, tb.reason], ["timeout", "timeout"]);

      const tradeId = await openTrade(b, a);
      await offer(b, tradeId, slotOf(b.sync(), "coins"), 1);
      const idle = await a.next("tradeCancelled", (d) => d.tradeId === tradeId);
      assert.equal(idle.reason, "timeout");
      assert.equal(room.world.players.get(b.id)!.lockedSlots.size, 0);
    });

    it("a disconnect cancels the trade for the one who stays", async () => {
      const [a, b] = await pair();
      const coins = slotOf(a.sync(), "coins");
      const tradeId = await openTrade(a, b);
      await offer(a, tradeId, coins, 7);
      await offer(b, tradeId, slotOf(b.sync(), "coins"), 7);
      const m = a.mark();
      await b.close();
      const c = await a.next("tradeCancelled", (d) => d.tradeId === tradeId, { since: m });
      assert.equal(c.reason, "disconnected");
      assert.equal(room.world.players.get(a.id)!.lockedSlots.size, 0);
      await until(() => !room.world.players.has(b.id));
      await room.settled();
      const left = await server.ctx.db.prisma.inventoryItem.findFirst({ where: { characterId: b.id, itemId: "coins" } });
      assert.equal(left!.quantity, 25);
    });

    it("a death cancels the trade", async () => {
      const [a, b] = await pair();
      const tradeId = await openTrade(a, b);
      await offer(b, tradeId, slotOf(b.sync(), "coins"), 7);
      const ma = a.mark();
      const mb = b.mark();
      killPlayer(room.world, room.world.players.get(b.id)!, null);
      const [ca, cb] = await Promise.all([
        a.next("tradeCancelled", (d) => d.tradeId === tradeId, { since: ma }),
        b.next("tradeCancelled", (d) => d.tradeId === tradeId, { since: mb }),
      ]);
      assert.deepEqual([ca.reason, cb.reason], ["player_died", "player_died"]);
      assert.equal(room.trades.book.sessions.size, 0);
    });
  });
}
