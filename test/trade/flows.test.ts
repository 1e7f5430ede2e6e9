import assert from "node:assert/strict";
import { matchMaker } from "@colyseus/core";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { killPlayer } from "../../src/game/world/npcSystem.js";
import { defaultGameData, startTestServer, type TestServer } from "../helpers/server.js";
import { makeTrader, theWorld, type Trader, type TraderKind } from "../helpers/traders.js";
import { place, tileAway } from "../helpers/worldRoom.js";
import { bothAccept, countOf, offer, openTrade, slotOf } from "../helpers/tradeSteps.js";

/** The world's own view of a player's inventory (the truth the clients are told). */
const worldInventory = (room: WorldRoom, id: string) => room.world.players.get(id)!.inventory;
const worldItems = (room: WorldRoom, id: string) => JSON.stringify(worldInventory(room, id));
const countItems = (room: WorldRoom, id: string, itemId: string) => worldInventory(room, id).reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);

/** Wait until `check` holds (polling the server's state, which has no event for it). */
async function until(check: () => boolean, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The default world with the tinderbox marked untradeable (for the UNTRADEABLE refusal). */
async function worldWithUntradeable() {
  const data = await defaultGameData();
  const items = new Map(data.items);
  items.set("tinderbox", { ...items.get("tinderbox")!, tradeable: false });
  return { ...data, items };
}

const PAIRS: Array<[TraderKind, TraderKind]> = [
  ["sdk", "sdk"],
  ["ws", "ws"],
  ["ws", "sdk"],
];

for (const [kindA, kindB] of PAIRS) {
  describe(`trading: ${kindA} player with ${kindB} player`, function () {
    this.timeout(60_000);
    let server: TestServer;
    let room: WorldRoom;
    const traders: Trader[] = [];
    const pair = async (): Promise<[Trader, Trader]> => {
      const a = await makeTrader(kindA, server);
      const b = await makeTrader(kindB, server);
      traders.push(a, b);
      // Both at the spawn: well within trading range.
      place(room, a.id, room.world.spawnTile);
      place(room, b.id, room.world.spawnTile);
      return [a, b];
    };

    before(async () => {
      server = await startTestServer({ gameData: await worldWithUntradeable(), tradeLimits: { requestTimeoutMs: 1_500, idleTimeoutMs: 3_000, repeatRequestMs: 1_000 } });
      room = await theWorld();
    });
    afterEach(async () => {
      await Promise.all(traders.splice(0).map((t) => t.close().catch(() => {})));
    });
    after(async () => {
      await server.close();
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
        worldInventory(room, a.id).filter(Boolean).map((s) => s!.itemId).sort(),
        afterA.inventory.map((s: any) => s.itemId).sort(),
      );
    });

    it("the trade's room mirrors the trade, and both traders sit in it", async () => {
      const [a, b] = await pair();
      const coins = slotOf(a.sync(), "coins");
      const tradeId = await openTrade(a, b);
      const [listing] = (await matchMaker.query({ name: "trade" })).filter((r) => (matchMaker.getLocalRoomById(r.roomId) as any)?.state.tradeId === tradeId);
      assert.ok(listing, "a trade room was made for the trade");
      const tradeRoom = matchMaker.getLocalRoomById(listing.roomId)!;
      await until(() => tradeRoom.clients.length === 2);
      await offer(a, tradeId, coins, 3);
      const state = (tradeRoom as any).state;
      assert.equal(state.screen, "offer");
      assert.deepEqual(state.initiator.items.map((i: any) => [i.inventorySlot, i.itemId, i.quantity]), [[coins, "coins", 3]]);
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
      const [ca, cb] = await Promise.all([a.next("tradeCancelled", (d) => d.tradeId === sent.tradeId, { since: ma }), b.next("tradeCancelled", (d) => d.tradeId === sent.tradeId)]);
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
        const [ca, cb] = await Promise.all([a.next("tradeCancelled", (d) => d.tradeId === tradeId, { since: ma }), b.next("tradeCancelled", (d) => d.tradeId === tradeId, { since: mb })]);
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
      const [ta, tb] = await Promise.all([a.next("tradeCancelled", (d) => d.tradeId === sent.tradeId, { since: ma }), b.next("tradeCancelled", (d) => d.tradeId === sent.tradeId)]);
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
      const [ca, cb] = await Promise.all([a.next("tradeCancelled", (d) => d.tradeId === tradeId, { since: ma }), b.next("tradeCancelled", (d) => d.tradeId === tradeId, { since: mb })]);
      assert.deepEqual([ca.reason, cb.reason], ["player_died", "player_died"]);
      assert.equal(room.trades.book.sessions.size, 0);
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
        const err = await a.next("tradeError", () => true, { since: m, timeoutMs: 3000 }).catch((e) => {
          throw new Error(`${type} ${JSON.stringify(data)}: ${e.message}`);
        });
        assert.equal(err.code, code, `${type} ${JSON.stringify(data)} -> ${err.code}: ${err.message}`);
        assert.equal(typeof err.message, "string");
      }
      assert.deepEqual({ session: session(), a: worldItems(room, a.id), b: worldItems(room, b.id), locks: [...room.world.players.get(a.id)!.lockedSlots] }, before);
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
