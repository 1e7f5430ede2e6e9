import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import type { TestServer } from "../helpers/server.js";
import { bothAccept, offer, openTrade, slotOf } from "../helpers/tradeSteps.js";
import { tradingHooks } from "../helpers/tradeSuite.js";
import type { Trader } from "../helpers/traders.js";

/**
 * Trades whose last acceptances arrive in the same turn of the event loop are committed in one
 * transaction, and each keeps its own outcome.
 */
describe("grouped trade commits in the world", function () {
  this.timeout(60_000);
  let server: TestServer;
  let room: WorldRoom;
  const { pair } = tradingHooks("ws", "ws", (s, r) => {
    server = s;
    room = r;
  });

  /** Two trades on their confirm screens, the asker of each already accepted: b's accept commits. */
  async function readyTrade(give: string, take: string): Promise<{ a: Trader; b: Trader; tradeId: string }> {
    const [a, b] = await pair();
    const tradeId = await openTrade(a, b);
    await offer(a, tradeId, slotOf(a.sync(), give), 1);
    await offer(b, tradeId, slotOf(b.sync(), take), 1);
    await bothAccept(a, b, tradeId, "tradeConfirmScreen");
    const m = a.mark();
    a.send("tradeAccept", { tradeId });
    await a.next("tradeUpdated", (d) => d.tradeId === tradeId && d.myOffer.accepted, { since: m });
    return { a, b, tradeId };
  }

  /** The world saver's writes while `run` is under way: the characters each one wrote. */
  async function savesDuring(run: () => Promise<void>): Promise<string[][]> {
    const calls: string[][] = [];
    const original = room.saver.saveWith.bind(room.saver);
    room.saver.saveWith = ((world, players, ...rest) => {
      calls.push(players.map((p) => p.id).sort());
      return original(world, players, ...rest);
    }) as typeof room.saver.saveWith;
    try {
      await run();
    } finally {
      room.saver.saveWith = original;
    }
    return calls;
  }

  /** The coins each character's inventory rows hold in the database. */
  const coinsOf = async (ids: string[]) =>
    Object.fromEntries(
      (await server.ctx.db.prisma.inventoryItem.findMany({ where: { characterId: { in: ids }, itemId: "coins" } })).map((r) => [r.characterId, r.quantity]),
    );

  it("commits two trades accepted in the same turn in one transaction, both swapped in the world and the database", async () => {
    const one = await readyTrade("coins", "shrimp");
    const two = await readyTrade("coins", "shrimp");
    const traders = [one.a, one.b, two.a, two.b];
    const saves = await savesDuring(async () => {
      const marks = traders.map((t) => t.mark());
      // Both final acceptances in one turn, as under load.
      room.trades.receive(one.b.id, "tradeAccept", { tradeId: one.tradeId });
      room.trades.receive(two.b.id, "tradeAccept", { tradeId: two.tradeId });
      await Promise.all(traders.map((t, i) => t.next("tradeCompleted", (d) => d.tradeId === (i < 2 ? one.tradeId : two.tradeId), { since: marks[i] })));
    });
    assert.deepEqual(saves, [traders.map((t) => t.id).sort()], "one write, of all four traders");
    const history = await server.ctx.db.prisma.trade.findMany({ where: { id: { in: [one.tradeId, two.tradeId] } } });
    assert.equal(history.length, 2);
    for (const { a, b } of [one, two]) assert.deepEqual(await coinsOf([a.id, b.id]), { [a.id]: 24, [b.id]: 26 });
  });

  it("refuses one trade of a group (the items table no longer lets its item go) and commits the other", async () => {
    const good = await readyTrade("coins", "coins");
    const bad = await readyTrade("shrimp", "coins");
    // Marked untradeable in the database after the offers: only the commit's re-validation sees it.
    await server.ctx.db.prisma.item.update({ where: { id: "shrimp" }, data: { tradeable: false } });
    try {
      const badRows = () =>
        server.ctx.db.prisma.inventoryItem.findMany({
          where: { characterId: { in: [bad.a.id, bad.b.id] } },
          orderBy: [{ characterId: "asc" }, { slot: "asc" }],
        });
      const before = await badRows();
      const marks = [good.b.mark(), bad.a.mark(), bad.b.mark()];
      const saves = await savesDuring(async () => {
        room.trades.receive(good.b.id, "tradeAccept", { tradeId: good.tradeId });
        room.trades.receive(bad.b.id, "tradeAccept", { tradeId: bad.tradeId });
        await good.b.next("tradeCompleted", (d) => d.tradeId === good.tradeId, { since: marks[0] });
        const cancelled = await Promise.all([
          bad.a.next("tradeCancelled", (d) => d.tradeId === bad.tradeId, { since: marks[1] }),
          bad.b.next("tradeCancelled", (d) => d.tradeId === bad.tradeId, { since: marks[2] }),
        ]);
        for (const c of cancelled) assert.equal(c.reason, "offer_changed");
      });
      assert.equal(saves.length, 1, "one write for both trades");
      assert.equal(await server.ctx.db.prisma.trade.count({ where: { id: good.tradeId } }), 1);
      assert.equal(await server.ctx.db.prisma.trade.count({ where: { id: bad.tradeId } }), 0);
      assert.deepEqual(await badRows(), before, "the refused trade's traders keep what they had");
      assert.ok(room.world.players.get(bad.a.id)!.inventory.some((s) => s?.itemId === "shrimp"));
    } finally {
      await server.ctx.db.prisma.item.update({ where: { id: "shrimp" }, data: { tradeable: true } });
    }
  });
  it("a group the database refuses as a whole is committed again trade by trade: the good trade completes, the bad one alone is refused", async () => {
    const good = await readyTrade("coins", "coins");
    const bad = await readyTrade("coins", "coins");
    // A history row already holds the bad trade's id (as if it had been written before): the
    // group's insert of the history rows fails, so the whole group's transaction rolls back.
    await server.ctx.db.prisma.trade.create({
      data: { id: bad.tradeId, initiatorName: "someone", recipientName: "someone else", initiatorOffer: [], recipientOffer: [] },
    });
    const badBefore = await coinsOf([bad.a.id, bad.b.id]);
    const marks = [good.b.mark(), bad.a.mark()];
    const saves = await savesDuring(async () => {
      room.trades.receive(good.b.id, "tradeAccept", { tradeId: good.tradeId });
      room.trades.receive(bad.b.id, "tradeAccept", { tradeId: bad.tradeId });
      await good.b.next("tradeCompleted", (d) => d.tradeId === good.tradeId, { since: marks[0] });
      const cancelled = await bad.a.next("tradeCancelled", (d) => d.tradeId === bad.tradeId, { since: marks[1] });
      assert.equal(cancelled.reason, "error");
    });
    assert.equal(saves.length, 3, "the group's write, then one write per trade");
    assert.equal(saves[0].length, 4);
    assert.equal(await server.ctx.db.prisma.trade.count({ where: { id: good.tradeId } }), 1);
    assert.deepEqual(await coinsOf([bad.a.id, bad.b.id]), badBefore, "the refused trade's traders keep their coins");
  });
});
