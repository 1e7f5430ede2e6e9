import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { bootArena, joinAsGuest, type Harness, type Player } from "./harness.js";

/**
 * A trade between two harness clients, start to end, through the world room (docs/PROTOCOL.md
 * §9: the world room takes every trade message; the trade's own room only mirrors it). Each step
 * sets its waiters before the message that causes the answers is sent.
 */
describe("harness: a trade between two @colyseus/testing clients", function () {
  this.timeout(60_000);
  let colyseus: Harness;
  let world: WorldRoom;
  let close: () => Promise<void>;
  let players: Player[] = [];

  before(async () => {
    ({ colyseus, world, close } = await bootArena());
  });
  afterEach(async () => {
    await Promise.all(players.map((p) => p.room.leave().catch(() => {})));
    players = [];
  });
  after(async () => {
    await close?.();
  });

  /** How many of each item the players hold, together, in the world (the server's truth). */
  function heldTogether(ids: string[]): Map<string, number> {
    const total = new Map<string, number>();
    for (const id of ids)
      for (const stack of world.world.players.get(id)!.inventory) if (stack) total.set(stack.itemId, (total.get(stack.itemId) ?? 0) + stack.quantity);
    return total;
  }
  const countOf = (id: string, itemId: string) => world.world.players.get(id)!.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
  const slotOf = (p: Player, itemId: string): number => p.sync.inventory.find((s: { itemId: string }) => s.itemId === itemId).slot;

  it("completes: both offers, both screens accepted, the items swapped and none made or lost", async () => {
    const a = await joinAsGuest(colyseus, world);
    const b = await joinAsGuest(colyseus, world);
    players = [a, b];
    // New characters stand at the spawn, well within trading range, with the starter kit.
    const before = heldTogether([a.id, b.id]);
    const [coinsA, coinsB, shrimpA, shrimpB] = [countOf(a.id, "coins"), countOf(b.id, "coins"), countOf(a.id, "shrimp"), countOf(b.id, "shrimp")];
    assert.ok(coinsA >= 10 && shrimpB >= 1, "the starter kit has coins and shrimp");

    // a asks, b accepts: both get tradeStarted.
    const incoming = b.room.waitForMessage("tradeIncoming", 15_000);
    a.room.send("tradeRequest", { targetPlayerId: b.id });
    const { tradeId, fromPlayerId } = await incoming;
    assert.equal(fromPlayerId, a.id);
    const started = [a.room.waitForMessage("tradeStarted", 15_000), b.room.waitForMessage("tradeStarted", 15_000)];
    b.room.send("tradeRequestRespond", { tradeId, accept: true });
    const [startedA, startedB] = await Promise.all(started);
    assert.deepEqual([startedA.partnerId, startedB.partnerId], [b.id, a.id]);

    // Each side's change is told to both: a offers 10 coins, b one shrimp.
    const step = async (type: string, send: () => void) => {
      const answers = Promise.all([a.room.waitForMessage(type, 15_000), b.room.waitForMessage(type, 15_000)]);
      send();
      return answers;
    };
    const [, seenByB] = await step("tradeUpdated", () => a.room.send("tradeAddItem", { tradeId, inventorySlot: slotOf(a, "coins"), quantity: 10 }));
    assert.deepEqual(seenByB.theirOffer.items, [{ inventorySlot: slotOf(a, "coins"), itemId: "coins", quantity: 10 }]);
    const [seenByA] = await step("tradeUpdated", () => b.room.send("tradeAddItem", { tradeId, inventorySlot: slotOf(b, "shrimp"), quantity: 1 }));
    assert.deepEqual(seenByA.theirOffer.items, [{ inventorySlot: slotOf(b, "shrimp"), itemId: "shrimp", quantity: 1 }]);

    // Both accept the offer screen (the first acceptance is an update), then the confirm screen.
    await step("tradeUpdated", () => a.room.send("tradeAccept", { tradeId }));
    await step("tradeConfirmScreen", () => b.room.send("tradeAccept", { tradeId }));
    await step("tradeUpdated", () => a.room.send("tradeAccept", { tradeId }));
    const [doneA, doneB] = await step("tradeCompleted", () => b.room.send("tradeAccept", { tradeId }));
    assert.deepEqual(doneA.receivedItems, [{ itemId: "shrimp", quantity: 1 }]);
    assert.deepEqual(doneB.receivedItems, [{ itemId: "coins", quantity: 10 }]);

    // tradeCompleted is sent once the swap is committed and the world holds it.
    assert.deepEqual([countOf(a.id, "coins"), countOf(b.id, "coins")], [coinsA - 10, coinsB + 10]);
    assert.deepEqual([countOf(a.id, "shrimp"), countOf(b.id, "shrimp")], [shrimpA + 1, shrimpB - 1]);
    assert.deepEqual(heldTogether([a.id, b.id]), before, "no item made or lost");
  });
});
