import assert from "node:assert/strict";
import { commitTrades, TradeCommitError, type TradeRecord } from "../../src/db/tradeRepo.js";
import type { OfferItem, Swap } from "../../src/game/trade.js";
import { DATABASE_KINDS } from "../helpers/database.js";
import { inventoryDb, ITEMS, stack as give } from "../helpers/inventoryDb.js";

for (const kind of DATABASE_KINDS) {
  describe(`grouped trade commits on ${kind}`, function () {
    this.timeout(60_000);
    const t = inventoryDb(kind, "Trader");
    const { character, slotsOf, prisma } = t;

    const trade = (id: string, a: { id: string; name: string }, aOffer: OfferItem[], b: { id: string; name: string }, bOffer: OfferItem[]): TradeRecord => ({
      id,
      initiator: { characterId: a.id, name: a.name, offer: aOffer, value: 1 },
      recipient: { characterId: b.id, name: b.name, offer: bOffer, value: 1 },
    });

    /** Commit these trades as one group, as the trade desk does. */
    const commitGroup = (trades: TradeRecord[]) => t.db.sql.transaction((tx) => commitTrades(tx, trades, ITEMS));

    it("commits the good trades of a group and refuses the others, each by its own reason, writing nothing of theirs", async () => {
      const a = await character({ 0: ["coins", 50] });
      const b = await character({ 3: ["sword", 1] });
      const c = await character({ 0: ["coins", 5] });
      const d = await character({ 1: ["logs", 2] });
      const e = await character({ 0: ["quest_key", 1] });
      const f = await character({ 0: ["coins", 9] });
      const g = await character({ 0: ["coins", 7] });
      const gone = await character({ 2: ["logs", 1] });
      await prisma().character.delete({ where: { id: gone.id } });

      const outcomes = await commitGroup([
        trade("g1", a, [give(0, "coins", 20)], b, [give(3, "sword", 1)]),
        // c's offer no longer matches its row (it holds 5 coins, not 10).
        trade("g2", c, [give(0, "coins", 10)], d, [give(1, "logs", 2)]),
        // The items table says the quest key may not be traded.
        trade("g3", e, [give(0, "quest_key", 1)], f, []),
        trade("g4", g, [give(0, "coins", 3)], gone, [give(2, "logs", 1)]),
      ]);

      const swap = outcomes[0] as Swap;
      assert.ok(!(swap instanceof TradeCommitError), "the good trade commits");
      assert.deepEqual(swap.toInitiator, [{ itemId: "sword", quantity: 1 }]);
      assert.deepEqual(
        outcomes.slice(1).map((o) => (o instanceof TradeCommitError ? o.reason : "committed")),
        ["offer_changed", "offer_changed", "error"],
      );
      assert.match((outcomes[3] as TradeCommitError).message, /no longer exists/);

      assert.deepEqual(await slotsOf(a.id), { 0: ["coins", 30], 1: ["sword", 1] });
      assert.deepEqual(await slotsOf(b.id), { 0: ["coins", 20] });
      for (const [who, was] of [
        [c, { 0: ["coins", 5] }],
        [d, { 1: ["logs", 2] }],
        [e, { 0: ["quest_key", 1] }],
        [f, { 0: ["coins", 9] }],
        [g, { 0: ["coins", 7] }],
      ] as const)
        assert.deepEqual(await slotsOf(who.id), was, `${who.name} keeps what it had`);
      const history = await prisma().trade.findMany({ where: { id: { in: ["g1", "g2", "g3", "g4"] } } });
      assert.deepEqual(
        history.map((h) => h.id),
        ["g1"],
      );
    });

    it("applies the trades of a group in order: a later trade sees what an earlier one moved", async () => {
      const a = await character({ 0: ["coins", 10] });
      const b = await character({});
      const c = await character({ 0: ["logs", 1] });
      const outcomes = await commitGroup([
        trade("o1", a, [give(0, "coins", 10)], b, []),
        // b holds the coins only once o1 has moved them.
        trade("o2", b, [give(0, "coins", 10)], c, [give(0, "logs", 1)]),
        // a gave its coins away in o1.
        trade("o3", a, [give(0, "coins", 1)], c, []),
      ]);
      assert.deepEqual(
        outcomes.map((o) => (o instanceof TradeCommitError ? o.reason : "committed")),
        ["committed", "committed", "offer_changed"],
      );
      assert.deepEqual(await slotsOf(a.id), {});
      assert.deepEqual(await slotsOf(b.id), { 0: ["logs", 1] });
      assert.deepEqual(await slotsOf(c.id), { 0: ["coins", 10] });
    });

    it("a trade already written makes the whole group fail, and the group writes nothing", async () => {
      const a = await character({ 0: ["coins", 10] });
      const b = await character({ 0: ["logs", 1] });
      const c = await character({ 0: ["coins", 4] });
      const d = await character({});
      await commitGroup([trade("r1", a, [give(0, "coins", 1)], b, [])]);
      await assert.rejects(
        commitGroup([trade("r2", c, [give(0, "coins", 4)], d, []), trade("r1", a, [give(0, "coins", 1)], b, [])]),
        (err: unknown) => err instanceof TradeCommitError && /already completed/.test(err.message),
      );
      assert.deepEqual(await slotsOf(a.id), { 0: ["coins", 9] });
      assert.deepEqual(await slotsOf(b.id), { 0: ["logs", 1], 1: ["coins", 1] });
      assert.deepEqual(await slotsOf(c.id), { 0: ["coins", 4] });
      assert.deepEqual(await slotsOf(d.id), {});
      assert.equal(await prisma().trade.count({ where: { id: "r2" } }), 0);
    });

    it("writes only the stacks a group changed: a stack left as it was keeps its row; emptied slots are deleted", async () => {
      const a = await character({ 0: ["coins", 10], 1: ["logs", 1], 5: ["sword", 1] });
      const b = await character({ 2: ["logs", 1], 7: ["coins", 1] });
      // A row's physical place (ctid) moves whenever the row is written.
      const places = async (id: string) =>
        Object.fromEntries(
          (await t.db.sql.query<{ slot: number; at: string }>(`SELECT "slot", "ctid"::text AS "at" FROM "inventory" WHERE "characterId" = $1`, [id])).map(
            (r) => [r.slot, r.at],
          ),
        );
      const [aBefore, bBefore] = [await places(a.id), await places(b.id)];
      const [outcome] = await commitGroup([trade("w1", a, [give(0, "coins", 4), give(5, "sword", 1)], b, [give(2, "logs", 1)])]);
      assert.ok(!(outcome instanceof TradeCommitError));
      assert.deepEqual(await slotsOf(a.id), { 0: ["coins", 6], 1: ["logs", 1], 2: ["logs", 1] });
      assert.deepEqual(await slotsOf(b.id), { 0: ["sword", 1], 7: ["coins", 5] });
      const [aAfter, bAfter] = [await places(a.id), await places(b.id)];
      assert.equal(aAfter[1], aBefore[1], "a's first logs were not written");
      assert.notEqual(aAfter[0], aBefore[0], "a's coins were written");
      assert.notEqual(bAfter[7], bBefore[7], "b's coins were written");
      assert.deepEqual(
        [aAfter[5], bAfter[2]].map((at) => at === undefined),
        [true, true],
        "the slots emptied have no rows",
      );
    });

    it("a commit that waited for its traders' lock reads what the lock's holder committed, not what was there before", async () => {
      const a = await character({ 0: ["coins", 5] });
      const b = await character({});
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const lockTaken = new Promise<void>((r) => (locked = r));
      // Another writer holds a's lock and spends 4 of its coins meanwhile.
      const holder = t.db.sql.transaction(async (tx) => {
        await tx.query(`SELECT "id" FROM "characters" WHERE "id" = $1 FOR UPDATE`, [a.id]);
        await tx.query(`UPDATE "inventory" SET "quantity" = 1 WHERE "characterId" = $1 AND "slot" = 0`, [a.id]);
        locked();
        await released;
      });
      await lockTaken;
      const commit = commitGroup([trade("w1", a, [give(0, "coins", 3)], b, [])]);
      if (kind === "postgres") {
        // The commit's lock and read went in one batch: wait until it is queued on the lock.
        for (;;) {
          const [row] = await t.db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE "wait_event_type" = 'Lock'`);
          if (row.n > 0) break;
          await new Promise((r) => setImmediate(r));
        }
      }
      release();
      await holder;
      const [outcome] = await commit;
      assert.ok(outcome instanceof TradeCommitError && outcome.reason === "offer_changed", `refused for the coins it no longer holds, not ${String(outcome)}`);
      assert.deepEqual(await slotsOf(a.id), { 0: ["coins", 1] });
      assert.deepEqual(await slotsOf(b.id), {});
    });

    it("a save sharing the commit's transaction is written after the locks and before the read, which sees it", async () => {
      const a = await character({ 0: ["coins", 2] });
      const b = await character({});
      const order: string[] = [];
      const [outcome] = await t.db.sql.transaction((tx) =>
        commitTrades(tx, [trade("s1", a, [give(0, "coins", 6)], b, [])], ITEMS, async () => {
          // The save's picture of a: 8 coins, gathered since the last save (the database still says 2).
          const [waiting] = await tx.query<{ locked: boolean }>(
            `SELECT EXISTS (SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'characters' AND l.mode = 'RowShareLock' AND l.pid = pg_backend_pid()) AS "locked"`,
          );
          order.push(waiting.locked ? "save after the lock" : "save before the lock");
          await tx.query(`UPDATE "inventory" SET "quantity" = 8 WHERE "characterId" = $1 AND "slot" = 0`, [a.id]);
        }),
      );
      assert.deepEqual(order, ["save after the lock"]);
      assert.ok(!(outcome instanceof TradeCommitError), `the trade commits against the saved 8 coins, not ${String(outcome)}`);
      assert.deepEqual(await slotsOf(a.id), { 0: ["coins", 2] });
      assert.deepEqual(await slotsOf(b.id), { 0: ["coins", 6] });
    });

    it("stamps the history row in UTC whatever the session's time zone (as Prisma reads it back)", async () => {
      const a = await character({ 0: ["coins", 3] });
      const b = await character({});
      const before = Date.now();
      await t.db.sql.transaction(async (tx) => {
        // Five or six hours from UTC: a timestamp written in the session's zone would be that far off.
        await tx.query(`SET LOCAL TIME ZONE 'America/New_York'`);
        await commitTrades(tx, [trade("tz1", a, [give(0, "coins", 1)], b, [])], ITEMS);
      });
      const row = await prisma().trade.findUniqueOrThrow({ where: { id: "tz1" } });
      const skew = Math.abs(row.completedAt.getTime() - before);
      assert.ok(skew < 60_000, `completedAt ${row.completedAt.toISOString()} is ${Math.round(skew / 60_000)} min from now`);
    });
  });
}
