import assert from "node:assert/strict";
import { matchMaker } from "@colyseus/core";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { killPlayer } from "../../src/game/world/npcSystem.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { makeTrader, theWorld, type Trader, type TraderKind } from "../helpers/traders.js";
import { place } from "../helpers/worldRoom.js";

/** The slot holding `itemId` in a player:sync, and what it holds. */
const slotOf = (sync: any, itemId: string): number => sync.inventory.find((s: { itemId: string }) => s.itemId === itemId)?.slot;
const held = (sync: any) => Object.fromEntries(sync.inventory.map((s: any) => [s.slot, `${s.itemId}x${s.quantity}`]));
const countOf = (sync: any, itemId: string) => sync.inventory.filter((s: any) => s.itemId === itemId).reduce((n: number, s: any) => n + s.quantity, 0);

/** Open a trade between a and b (a asks, b accepts); resolves with the trade id once both have tradeStarted. */
async function openTrade(a: Trader, b: Trader): Promise<string> {
  const ma = a.mark();
  const mb = b.mark();
  a.send("tradeRequest", { targetPlayerId: b.id });
  const incoming = await b.next("tradeIncoming", (d) => d.fromPlayerId === a.id, { since: mb });
  b.send("tradeRequestRespond", { tradeId: incoming.tradeId, accept: true });
  const [sa, sb] = await Promise.all([a.next("tradeStarted", (d) => d.tradeId === incoming.tradeId, { since: ma }), b.next("tradeStarted", (d) => d.tradeId === incoming.tradeId, { since: mb })]);
  assert.equal(sa.partnerId, b.id);
  assert.equal(sb.partnerId, a.id);
  return incoming.tradeId;
}

/** Both accept the current screen; resolves with what the given event brought each. */
async function bothAccept(a: Trader, b: Trader, tradeId: string, event: string) {
  const ma = a.mark();
  const mb = b.mark();
  a.send("tradeAccept", { tradeId });
  await a.next("tradeUpdated", (d) => d.tradeId === tradeId && d.myOffer.accepted, { since: ma });
  b.send("tradeAccept", { tradeId });
  return Promise.all([a.next(event, (d) => d.tradeId === tradeId, { since: ma }), b.next(event, (d) => d.tradeId === tradeId, { since: mb })]);
}

async function offer(t: Trader, tradeId: string, inventorySlot: number, quantity: number) {
  const m = t.mark();
  t.send("tradeAddItem", { tradeId, inventorySlot, quantity });
  return t.next("tradeUpdated", (d) => d.tradeId === tradeId && d.myOffer.items.some((i: any) => i.inventorySlot === inventorySlot), { since: m });
}

/** The world's own view of a player's inventory (the truth the clients are told). */
const worldInventory = (room: WorldRoom, id: string) => room.world.players.get(id)!.inventory;

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
      server = await startTestServer({ tradeLimits: { requestTimeoutMs: 1_500, idleTimeoutMs: 3_000, repeatRequestMs: 1_000 } });
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
  });
}

void matchMaker;
void killPlayer;
void held;
