import assert from "node:assert/strict";
import { batchText } from "../../src/db/postgres.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";

/**
 * SqlRunner.batch: statements run in turn, in one round trip where the driver can (PostgreSQL: one
 * simple query, its parameters written in as quoted literals; PGlite: one call to its thread).
 */
describe("a batch's text for PostgreSQL", () => {
  it("writes each parameter in as a quoted literal, wherever it stands, and refuses what it cannot write", () => {
    assert.equal(
      batchText([
        { sql: "SELECT $1::int, $2", params: [-5, "O'Brien \\ x"] },
        { sql: "SELECT $1, $10", params: [null, 1, 2, 3, 4, 5, 6, 7, 8, true] },
      ]),
      `SELECT '-5'::int,  E'O''Brien \\\\ x';\nSELECT NULL, 'true'`,
    );
    assert.throws(() => batchText([{ sql: "SELECT $2", params: [1] }]), /\$2 has no parameter/);
    assert.throws(() => batchText([{ sql: "SELECT $1", params: [{}] }]), /\$1 is a object/);
    assert.throws(() => batchText([{ sql: "SELECT $1", params: [Infinity] }]), /\$1 is a number/);
  });
});

for (const kind of DATABASE_KINDS) {
  describe(`batches of statements on ${kind}`, function () {
    this.timeout(60_000);
    let t: TestDb;
    before(async () => {
      t = await openTestDb(kind);
      await t.db.sql.exec(`CREATE TABLE "batch_probe" ("k" text PRIMARY KEY, "n" int, "b" boolean, "j" jsonb)`);
    });
    after(() => t?.cleanup());
    beforeEach(() => t.db.sql.exec(`DELETE FROM "batch_probe"`));

    const keys = async () => (await t.db.sql.query<{ k: string }>(`SELECT "k" FROM "batch_probe" ORDER BY "k"`)).map((r) => r.k);
    const insert = (k: string, n = 0) => ({ sql: `INSERT INTO "batch_probe" ("k", "n") VALUES ($1, $2)`, params: [k, n] });

    it("runs the statements in turn, each seeing what the ones before it wrote, and gives the rows of each", async () => {
      const odd = `it's a "key" \\ with ünïcödé 🗡 and '); DROP TABLE "batch_probe"; --`;
      const rows = await t.db.sql.batch([
        { sql: `INSERT INTO "batch_probe" ("k", "n", "b", "j") VALUES ($1, $2, $3, $4::jsonb)`, params: [odd, -7, true, JSON.stringify({ a: [1, "x'y"] })] },
        insert("second", 2147483647),
        { sql: `SELECT "k", "n", "b", "j" FROM "batch_probe" ORDER BY "n"` },
        { sql: `SELECT count(*)::int AS "c" FROM "batch_probe" WHERE "k" = $1 OR "n" = $2`, params: [odd, 2147483647] },
      ]);
      assert.equal(rows.length, 4);
      assert.deepEqual(rows[0], []);
      assert.deepEqual(rows[2], [
        { k: odd, n: -7, b: true, j: { a: [1, "x'y"] } },
        { k: "second", n: 2147483647, b: null, j: null },
      ]);
      assert.deepEqual(rows[3], [{ c: 2 }]);
      assert.deepEqual(await t.db.sql.batch([]), []);
    });

    it("stops at the first statement that fails, and writes nothing: on its own or in a transaction", async () => {
      // On its own, a batch is a transaction of its own.
      await assert.rejects(t.db.sql.batch([insert("a"), insert("b"), insert("a")]), /duplicate key|unique/i);
      assert.deepEqual(await keys(), []);
      await assert.rejects(
        t.db.sql.transaction(async (tx) => {
          await tx.batch([insert("a"), insert("a"), insert("c")]);
        }),
        /duplicate key|unique/i,
      );
      assert.deepEqual(await keys(), []);
      await assert.rejects(
        t.db.sql.transaction(async (tx) => {
          await tx.query(`INSERT INTO "batch_probe" ("k") VALUES ('first')`);
          await tx.batch([insert("b"), { sql: `SELECT 1/0` }, insert("c")], { last: true });
        }),
        /division by zero/,
      );
      assert.deepEqual(await keys(), []);
    });

    it("a transaction's last batch commits it, with statements before it by query or batch", async () => {
      await t.db.sql.transaction(async (tx) => {
        await tx.batch([insert("a")]);
        await tx.query(`INSERT INTO "batch_probe" ("k") VALUES ($1)`, ["b"]);
        const [, [row]] = await tx.batch([insert("c"), { sql: `SELECT count(*)::int AS "c" FROM "batch_probe"` }], { last: true });
        assert.deepEqual(row, { c: 3 });
      });
      assert.deepEqual(await keys(), ["a", "b", "c"]);
      // A transaction whose only statements are its last batch.
      const out = await t.db.sql.transaction((tx) => tx.batch([insert("d")], { last: true }));
      assert.deepEqual(out, [[]]);
      assert.deepEqual(await keys(), ["a", "b", "c", "d"]);
    });

    if (kind === "postgres") {
      it("nothing runs after a transaction's last batch: a statement then is refused", async () => {
        await assert.rejects(
          t.db.sql.transaction(async (tx) => {
            await tx.batch([insert("a")], { last: true });
            await tx.query(`INSERT INTO "batch_probe" ("k") VALUES ('late')`);
          }),
          /has committed with its last batch/,
        );
        assert.deepEqual(await keys(), ["a"]);
      });
    }
  });
}
