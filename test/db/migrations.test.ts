import assert from "node:assert/strict";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../../src/db/client.js";
import { applyMigrations, MigrationError } from "../../src/db/migrate.js";
import { silentLogger } from "../../src/logger.js";
import { MIGRATIONS_DIR } from "../../src/paths.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";

for (const kind of DATABASE_KINDS) {
  describe(`migrations on ${kind}`, function () {
    this.timeout(60_000);
    let t: TestDb;

    beforeEach(async () => {
      t = await openTestDb(kind, { migrate: false });
    });
    afterEach(async () => {
      await t.cleanup();
    });

    it("applies every migration once, in order, and records it", async () => {
      const first = await applyMigrations(t.db.sql, silentLogger);
      assert.ok(first.applied.includes("0001_init") && first.applied.includes("0003_duels"));
      assert.deepEqual(first.applied, [...first.applied].sort());
      assert.deepEqual(first.alreadyApplied, []);

      const second = await applyMigrations(t.db.sql, silentLogger);
      assert.deepEqual(second.applied, []);
      assert.deepEqual(second.alreadyApplied, first.applied);

      const rows = await t.db.sql.query<{ name: string }>(`SELECT "name" FROM "_arena_migrations" ORDER BY "name"`);
      assert.deepEqual(
        rows.map((r) => r.name),
        first.applied,
      );
      const tables = await t.db.sql.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
      );
      for (const name of [
        "users",
        "characters",
        "inventory",
        "equipment",
        "bank",
        "items",
        "world_chunks",
        "player_sessions",
        "player_deaths",
        "npc_kills",
        "friendships",
        "friend_requests",
        "ignore_lists",
        "trades",
        "agent_mappings",
        "agent_goals",
        "character_quests",
        "store_stock",
        "store_deals",
        "duels",
      ]) {
        assert.ok(
          tables.some((r) => r.table_name === name),
          `table ${name} exists`,
        );
      }
    });

    it("two starters migrating at once apply each migration once", async () => {
      const [a, b] = await Promise.all([applyMigrations(t.db.sql, silentLogger), applyMigrations(t.db.sql, silentLogger)]);
      assert.equal(a.applied.length + b.applied.length, a.applied.length + a.alreadyApplied.length);
      const rows = await t.db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "_arena_migrations"`);
      assert.equal(rows[0].n, a.applied.length + a.alreadyApplied.length);
    });

    it("refuses to start when an applied migration file was edited", async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), "arena-migrations-"));
      try {
        await cp(MIGRATIONS_DIR, dir, { recursive: true });
        await applyMigrations(t.db.sql, silentLogger, dir);
        const file = path.join(dir, "0001_init", "migration.sql");
        await writeFile(file, (await readFile(file, "utf8")) + "\n-- edited\n");
        await assert.rejects(applyMigrations(t.db.sql, silentLogger, dir), (err: Error) => {
          assert.ok(err instanceof MigrationError);
          assert.match(err.message, /0001_init/);
          return true;
        });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it("a failing migration leaves nothing half-applied", async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), "arena-migrations-"));
      try {
        await cp(MIGRATIONS_DIR, dir, { recursive: true });
        await applyMigrations(t.db.sql, silentLogger, dir);
        const broken = path.join(dir, "9999_broken");
        await import("node:fs/promises").then((fs) => fs.mkdir(broken));
        await writeFile(path.join(broken, "migration.sql"), `CREATE TABLE "half_done" ("id" int); SELECT no_such_function();`);
        await assert.rejects(applyMigrations(t.db.sql, silentLogger, dir));
        const tables = await t.db.sql.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`);
        assert.equal(tables.length, 0);
        const recorded = await t.db.sql.query(`SELECT 1 FROM "_arena_migrations" WHERE "name" = '9999_broken'`);
        assert.equal(recorded.length, 0);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
}

describe("embedded database on disk", function () {
  this.timeout(60_000);

  it("is created and migrated on first open, and keeps its data without re-migrating", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "arena-pglite-"));
    try {
      const first = await openDatabase({ dataDir: dir, logger: silentLogger });
      await first.prisma.user.create({ data: { id: "kept", isGuest: false } });
      await first.close();

      const second = await openDatabase({ dataDir: dir, logger: silentLogger, migrate: false });
      const again = await applyMigrations(second.sql, silentLogger);
      assert.deepEqual(again.applied, []);
      assert.equal((await second.prisma.user.findUnique({ where: { id: "kept" } }))?.id, "kept");
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
