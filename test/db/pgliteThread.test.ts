import assert from "node:assert/strict";
import { PGlite } from "@electric-sql/pglite";
import { isUniqueViolation } from "../../src/db/characterRepo.js";
import type { Database } from "../../src/db/client.js";
import { PgliteThread } from "../../src/db/pgliteThread.js";
import { isDatabaseUnavailable } from "../../src/db/unavailable.js";
import { openTestDb, type TestDb } from "../helpers/database.js";

/**
 * The embedded database runs on a thread of its own (src/db/pgliteThread.ts): the loop goes on
 * while it works, it answers exactly what PGlite on this thread answers, its errors keep their
 * class and code, and two transactions that overlap on the loop both finish.
 */
describe("the embedded database on its own thread", function () {
  this.timeout(60_000);
  let t: TestDb;
  let db: Database;
  before(async () => {
    t = await openTestDb("pglite");
    db = t.db;
  });
  after(() => t?.cleanup());

  /** Count the loop's turns from now; `stop()` ends the count and gives it. */
  function countTurns(): { stop(): number } {
    let turns = 0;
    let stopped = false;
    const turn = () => {
      turns++;
      if (!stopped) setImmediate(turn);
    };
    setImmediate(turn);
    return {
      stop: () => {
        stopped = true;
        return turns;
      },
    };
  }

  it("runs PostgreSQL with a 32 MB buffer pool (a start clears the whole pool: 128 MB took ~0.1 s of it)", async () => {
    const [row] = await db.sql.query<{ shared_buffers: string }>("SHOW shared_buffers");
    assert.equal(row.shared_buffers, "32MB");
  });

  const LONG_QUERY = "SELECT count(*)::text AS n FROM generate_series(1, 3000000)";

  it("a long query runs beside the loop: the loop keeps turning until it is answered", async () => {
    const counting = countTurns();
    const [row] = await db.sql.query<{ n: string }>(LONG_QUERY);
    const turns = counting.stop();
    assert.equal(row.n, "3000000");
    // On the loop's own thread PGlite would run the whole query inside one turn.
    assert.ok(turns >= 5, `the loop turned ${turns} times while the query ran`);
  });

  it("a transaction begun while the thread runs a long query waits for it without holding the loop", async () => {
    const long = db.sql.query<{ n: string }>(LONG_QUERY);
    const counting = countTurns();
    let turns = 0;
    // The transaction's BEGIN waits in place at first, then by promise once the long query outlasts the wait.
    await db.sql.transaction(async (tx) => {
      turns = counting.stop();
      await tx.query("SELECT 1");
    });
    assert.equal((await long)[0].n, "3000000");
    assert.ok(turns >= 5, `the loop turned ${turns} times while the transaction waited to begin`);
  });

  it("transactions begun while one waits past the in-place wait still run in place, each once the one before ends", async () => {
    const long = db.sql.query<{ n: string }>(LONG_QUERY);
    // The first waits behind the long query, past the in-place wait, so the loop turns and the others begin meanwhile.
    const first = db.sql.transaction(async (tx) => tx.query("SELECT 1"));
    await new Promise((resolve) => setImmediate(resolve));
    const turnsDuring: number[] = [];
    const later = [1, 2, 3].map(() =>
      db.sql.transaction(async (tx) => {
        const counting = countTurns();
        for (let i = 0; i < 5; i++) await tx.query("SELECT $1::int AS i", [i]);
        turnsDuring.push(counting.stop());
      }),
    );
    await Promise.all([long, first, ...later]);
    // By message, each of the five statements would have waited for a turn of the loop.
    assert.deepEqual(turnsDuring, [0, 0, 0], "the loop did not turn while each ran its five statements");
  });

  it("answers what PGlite on this thread answers: rows, types and fields", async () => {
    const local = new PGlite();
    try {
      const sql = `SELECT 1::int AS i, 12345678901234::bigint AS b, 1.5::numeric AS n, 'x'::text AS s, true AS t,
        '{"a":[1,2]}'::jsonb AS j, ARRAY[1,2]::int[] AS a, '2026-01-02 03:04:05'::timestamp AS ts, NULL::text AS z, $1::text AS p`;
      const mine = await db.sql.query(sql, ["param"]);
      const theirs = (await local.query(sql, ["param"])).rows;
      assert.deepEqual(mine, theirs);
      assert.equal(mine.length, 1);
    } finally {
      await local.close();
    }
  });

  it("a PostgreSQL error keeps its code, raw and through Prisma's adapter (a unique key taken)", async () => {
    await assert.rejects(
      db.sql.query("SELECT no_such_column"),
      (err: { code?: string; message: string }) => err.code === "42703" && /no_such_column/.test(err.message),
    );
    await db.prisma.user.create({ data: { id: "u_thread_1", idpUserId: "idp-thread" } });
    await assert.rejects(
      db.prisma.user.create({ data: { id: "u_thread_2", idpUserId: "idp-thread" } }),
      // The adapter names the code only for PGlite's own DatabaseError class.
      (err: { cause?: { kind?: string; code?: string } }) => err.cause?.kind === "postgres" && err.cause.code === "23505" && isUniqueViolation(err),
    );
    assert.equal(await db.prisma.user.count({ where: { idpUserId: "idp-thread" } }), 1);
  });

  it("a transaction commits all of its statements or, when it throws, none", async () => {
    await db.sql.exec(`CREATE TABLE thread_t (id int PRIMARY KEY)`);
    await db.sql.transaction(async (tx) => {
      await tx.query("INSERT INTO thread_t VALUES (1)");
      await tx.query("INSERT INTO thread_t VALUES (2)");
    });
    await assert.rejects(
      db.sql.transaction(async (tx) => {
        await tx.query("INSERT INTO thread_t VALUES (3)");
        await tx.query("INSERT INTO thread_t VALUES (1)");
      }),
      (err: { code?: string }) => err.code === "23505",
    );
    await assert.rejects(
      db.sql.transaction(async (tx) => {
        await tx.query("INSERT INTO thread_t VALUES (4)");
        throw new Error("changed my mind");
      }),
      /changed my mind/,
    );
    assert.deepEqual(await db.sql.query("SELECT id FROM thread_t ORDER BY id"), [{ id: 1 }, { id: 2 }]);
  });

  it("a transaction begun while another waits on the loop (a timer, Prisma) is served after it, not stuck behind it", async () => {
    await db.sql.exec(`CREATE TABLE thread_order (n int)`);
    let firstWaiting!: () => void;
    const waiting = new Promise<void>((resolve) => (firstWaiting = resolve));
    const first = db.sql.transaction(async (tx) => {
      await tx.query("INSERT INTO thread_order VALUES (1)");
      firstWaiting();
      // The first transaction waits on the loop while it holds the database.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.query("INSERT INTO thread_order VALUES (2)");
    });
    await waiting;
    const second = db.sql.transaction(async (tx) => {
      await tx.query("INSERT INTO thread_order VALUES (3)");
    });
    // Prisma's own transactions go the same way.
    const third = db.prisma.$transaction(async (p) => p.$executeRawUnsafe("INSERT INTO thread_order VALUES (4)"));
    await Promise.all([first, second, third]);
    assert.deepEqual(
      (await db.sql.query<{ n: number }>("SELECT n FROM thread_order")).map((r) => r.n),
      [1, 2, 3, 4],
    );
  });

  // A statement that outlasts the 50 ms in-place wait, so the ones sent after it wait while it is answered.
  const SLOW = "SELECT pg_sleep(0.08)::text AS slept, 'slow' AS who";

  it("statements of one transaction sent together, the first outlasting the in-place wait: each gets its own answer", async () => {
    const [slow, quick] = await db.sql.transaction(async (tx) => Promise.all([tx.query(SLOW), tx.query("SELECT 'quick' AS who")]));
    assert.deepEqual(slow, [{ slept: "", who: "slow" }]);
    assert.deepEqual(quick, [{ who: "quick" }]);
    // The transactions after it are answered as ever (no answer is left for the wrong call).
    for (let i = 0; i < 3; i++) assert.deepEqual(await db.sql.transaction((tx) => tx.query("SELECT $1::int AS i", [i])), [{ i }]);
  });

  it("a transaction's function that returns with its rollback unanswered (as Prisma's adapter does) rolls back, and the next one commits", async () => {
    const thread = await PgliteThread.open(undefined);
    try {
      await thread.exec("CREATE TABLE rb (n int)");
      let pending: Promise<unknown>[] = [];
      await thread.transaction(async (tx) => {
        await tx.query("INSERT INTO rb VALUES (1)");
        // Neither awaited: the slow statement goes past the in-place wait; the rollback is sent while it runs.
        pending = [tx.query(SLOW), tx.rollback()];
      });
      await Promise.all(pending);
      await thread.transaction(async (tx) => {
        await tx.query("INSERT INTO rb VALUES (2)");
      });
      assert.deepEqual((await thread.query("SELECT n FROM rb")).rows, [{ n: 2 }]);
    } finally {
      await thread.close();
    }
  });

  it("once closed, every call fails as the database being unavailable", async () => {
    const other = await openTestDb("pglite", { migrate: false });
    await other.db.close();
    const err = await other.db.sql.query("SELECT 1").then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(err, "a query on a closed database failed");
    assert.match(err.message, /PGlite is closed/);
    assert.ok(isDatabaseUnavailable(err));
    await other.cleanup().catch(() => {});
  });
});
