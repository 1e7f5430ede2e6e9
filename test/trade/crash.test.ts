import { conservation } from "../../src/db/ledgerRepo.js";
import assert from "node:assert/strict";
import { DATABASE_KINDS } from "../helpers/database.js";
import { addTo, plain, readLedger, type Bag, type Ledger } from "../helpers/itemLedger.js";
import { crashRun, joinGuest, newGuests, packSlots, type Guest } from "../helpers/crashRun.js";
import type { ServerProcess } from "../helpers/serverProcess.js";
import { TradeStorm, waitFirst, type OfferItem, type Watch } from "../helpers/tradeStorm.js";

/**
 * The server process is SIGKILLed in the middle of a trade storm, then restarted on the same
 * database. Nothing a trade moved may be lost or duplicated (every item id's total over all
 * inventories, banks, equipment and the ground is what it was before the storm), the trade history
 * must explain every character's items (starting items + received - given over its `trades` rows),
 * and every tradeCompleted a client was told about must have its row (a completed trade is durable).
 *
 * Both database kinds: PostgreSQL, and the embedded PGlite, whose files survive a SIGKILL (it runs
 * PostgreSQL in single-user mode writing straight to DATA_DIR through Node's file system: a commit's
 * WAL is written before the commit returns and crash recovery replays it at the next open; what the
 * kernel has been handed survives the death of the process, though not a power cut, since PGlite
 * runs with fsync off).
 *
 * The database is read directly, not through the server: before the storm after a first run that
 * made the characters and was stopped with SIGTERM, and at the end after the restarted server was
 * stopped with SIGTERM. Then nothing writes while it is read (the picture is consistent), and PGlite
 * can only be opened by one process at a time.
 */

const SECRET = "trade-crash-test-secret-".padEnd(48, "k");
const PLAYERS = 14;
/** The storm is well under way once this many trades have completed... */
const COMPLETED_BEFORE_KILL = 10;
/** ...then this many trades wait at their last accept, and go together; the kill follows the first to end. */
const PARKED_AT_RELEASE = 3;

/** What the history says each character holds: its starting items, plus what it received, minus what it gave. */
function replayHistory(
  start: Ledger,
  rows: Array<{ id: string; initiatorId: string | null; recipientId: string | null; initiatorOffer: unknown; recipientOffer: unknown }>,
): Map<string, Bag> {
  const expected = new Map([...start.characters].map(([id, bag]) => [id, new Map(bag)]));
  for (const row of rows) {
    const a = expected.get(row.initiatorId ?? "");
    const b = expected.get(row.recipientId ?? "");
    assert.ok(a && b, `trade ${row.id} is between characters that did not exist before the storm`);
    for (const o of row.initiatorOffer as OfferItem[]) {
      addTo(a, o.itemId, -o.quantity);
      addTo(b, o.itemId, o.quantity);
    }
    for (const o of row.recipientOffer as OfferItem[]) {
      addTo(b, o.itemId, -o.quantity);
      addTo(a, o.itemId, o.quantity);
    }
  }
  return expected;
}

for (const kind of DATABASE_KINDS) {
  describe(`trades survive a SIGKILL of the server (${kind})`, function () {
    this.timeout(120_000);
    let storm: TradeStorm | undefined;
    const run = crashRun(kind, { secret: SECRET, dirPrefix: "arena-trade-crash-" });
    const sockets = run.sockets;
    run.onCleanup(() => storm?.stop());
    const readDatabase = () =>
      run.read(async (db) => ({ ledger: await readLedger(db), trades: await db.prisma.trade.findMany(), audit: await conservation(db.sql) }));
    const stopGracefully = run.stopGracefully;

    it("loses and duplicates no item, and keeps every completed trade in the history", async () => {
      // 1. The characters, made by a first run stopped with SIGTERM; their starting items read from the database.
      let server = await run.start();
      const guests: Guest[] = await newGuests(server, PLAYERS);
      const made = await Promise.all(guests.map((g) => joinGuest(server.port, g, sockets)));
      await stopGracefully(server);
      const start = (await readDatabase()).ledger;
      assert.deepEqual([...start.characters.keys()].sort(), made.map((p) => p.id).sort());
      assert.ok(start.total.get("coins")! > 0, "the characters start with coins");

      // 2. The storm, on a second run; SIGKILL once it is well under way, with commits in flight.
      server = await run.start();
      const players = await Promise.all(guests.map((g) => joinGuest(server.port, g, sockets)));
      assert.deepEqual(
        players.map((p) => p.id),
        made.map((p) => p.id),
        "the same characters come back",
      );
      for (const p of players)
        assert.deepEqual(packSlots(p.sync.inventory), packSlots(start.inventories.get(p.id)!), `${p.id} starts with what the database holds`);

      storm = new TradeStorm(players, { completedBeforeStop: COMPLETED_BEFORE_KILL, parkedAtRelease: PARKED_AT_RELEASE });
      storm.start();
      let stalled: NodeJS.Timeout | undefined;
      const released = await Promise.race([
        storm.released,
        new Promise<never>((_, reject) => {
          stalled = setTimeout(
            () => reject(new Error(`the storm did not get under way: ${JSON.stringify(storm!.stats)} ${storm!.anomalies.join("; ")}`)),
            40_000,
          );
        }),
      ]).finally(() => clearTimeout(stalled));
      // The released trades' last accepts are on their way: kill as soon as the first of them ends,
      // while the others' commits are in flight (the commits are written one after another).
      await waitFirst(
        "the end of a released trade",
        players.map((p): Watch => [p, 0, (f) => (f.type === "tradeCompleted" || f.type === "tradeCancelled") && released.has(f.data.tradeId)]),
        15_000,
      );
      const stopped = storm.stop(); // nothing new starts from here on
      server.child.kill("SIGKILL");
      assert.equal((await server.exited).signal, "SIGKILL");
      await stopped;
      const completedSeen = new Set(players.flatMap((p) => p.ws.frames.filter((f) => f.type === "tradeCompleted").map((f) => f.data.tradeId as string)));
      assert.ok(completedSeen.size >= COMPLETED_BEFORE_KILL, `${completedSeen.size} trades completed before the kill`);
      assert.deepEqual(storm.anomalies, [], "the storm ran without a step left unanswered");

      // 3. Restart on the same database; every player comes back with what the database holds; stop gracefully.
      server = await run.start();
      const back = await Promise.all(guests.map((g) => joinGuest(server.port, g, sockets)));
      await stopGracefully(server);
      const end = await readDatabase();
      const rows = end.trades;
      const rowIds = new Set(rows.map((r) => r.id));

      if (process.env.TRADE_CRASH_REPORT) {
        const releasedRows = [...released].filter((id) => rowIds.has(id)).length;
        const releasedAcked = [...released].filter((id) => completedSeen.has(id)).length;
        process.stdout.write(
          `      [${kind}] ${JSON.stringify(storm.stats)}; rows ${rows.length}, completed seen ${completedSeen.size}; ` +
            `released ${released.size}: ${releasedRows} committed, ${releasedAcked} acknowledged before the kill\n`,
        );
      }

      // The item ledger's audit (npm run audit) finds nothing: every holding is its ledger's sum, every trade's sides match.
      assert.deepEqual({ holdings: end.audit.holdings, transfers: end.audit.transfers }, { holdings: [], transfers: [] });
      // Conservation: every item id's total over all owners is what it was before the storm.
      assert.deepEqual(plain(end.ledger.total), plain(start.total), "item totals before the storm and after the crash and restart");
      assert.deepEqual(plain(end.ledger.ground), {}, "nothing went to the ground");

      // Durability: every trade a client was told had completed has its history row.
      const missing = [...completedSeen].filter((id) => !rowIds.has(id));
      assert.deepEqual(missing, [], `completed trades missing from the history (${missing.length} of ${completedSeen.size})`);

      // Every row is a trade both sides confirmed, with the offers they confirmed.
      for (const row of rows) {
        const confirmed = storm.confirmed.get(row.id);
        assert.ok(confirmed, `trade ${row.id} is in the history but its last accept was never sent`);
        assert.deepEqual(
          { initiatorId: row.initiatorId, recipientId: row.recipientId, initiatorOffer: row.initiatorOffer, recipientOffer: row.recipientOffer },
          {
            initiatorId: confirmed.initiatorId,
            recipientId: confirmed.recipientId,
            initiatorOffer: confirmed.initiatorOffer,
            recipientOffer: confirmed.recipientOffer,
          },
          `trade ${row.id} as written and as both confirmed it`,
        );
      }

      // History: starting items + received - given over each character's rows = what it holds now.
      const expected = replayHistory(start, rows);
      const wrong = [...expected]
        .filter(([id, bag]) => JSON.stringify(plain(bag)) !== JSON.stringify(plain(end.ledger.characters.get(id) ?? new Map())))
        .map(([id, bag]) => `${id}: history says ${JSON.stringify(plain(bag))}, holds ${JSON.stringify(plain(end.ledger.characters.get(id) ?? new Map()))}`);
      assert.deepEqual(wrong, [], "characters whose items the trade history does not explain");

      // The restarted server gave each player what the database holds.
      for (const p of back) assert.deepEqual(packSlots(p.sync.inventory), packSlots(end.ledger.inventories.get(p.id)!), `${p.id} after the restart`);
    });
  });
}
