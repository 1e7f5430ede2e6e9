import assert from "node:assert/strict";
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { applyMigrations } from "../../src/db/migrate.js";
import { closeDanglingSessions, openDeaths, recordDeath, startSession } from "../../src/db/worldRepo.js";
import { silentLogger } from "../../src/logger.js";
import { MIGRATIONS_DIR } from "../../src/paths.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";

/** Rows that belong to one world are kept under its id: another world neither shows nor closes them. */
for (const kind of DATABASE_KINDS) {
  describe(`a world's own rows on ${kind}`, function () {
    this.timeout(60_000);
    let t: TestDb;
    beforeEach(async () => {
      t = await openTestDb(kind, { migrate: false });
    });
    afterEach(async () => {
      await t.cleanup();
    });

    const character = async (id: string) => {
      await t.db.sql.query(`INSERT INTO "users" ("id") VALUES ($1) ON CONFLICT DO NOTHING`, [`u_${id}`]);
      await t.db.prisma.character.create({ data: { id, accountId: `u_${id}`, name: id } });
    };

    it("a death pile lies in its world only; a world that starts again closes only its own dangling sessions", async () => {
      await applyMigrations(t.db.sql, silentLogger);
      await character("c_ann");
      await character("c_bob");
      await t.db.sql.transaction(async (tx) => {
        await recordDeath(tx, { id: "d_ann", characterId: "c_ann", at: { x: 3, z: 4 }, items: [{ itemId: "logs", quantity: 2 }], killedBy: null, world: "2" });
        await recordDeath(tx, { id: "d_bob", characterId: "c_bob", at: { x: 5, z: 6 }, items: [{ itemId: "coins", quantity: 9 }], killedBy: null, world: "1" });
      });
      assert.deepEqual(
        (await openDeaths(t.db.prisma, "2")).map((d) => [d.id, d.tile, d.items]),
        [["d_ann", { x: 3, z: 4 }, [{ itemId: "logs", quantity: 2 }]]],
      );
      assert.deepEqual(
        (await openDeaths(t.db.prisma, "1")).map((d) => d.id),
        ["d_bob"],
      );
      assert.deepEqual(await openDeaths(t.db.prisma, "3"), []);

      const s1 = await startSession(t.db.sql, "c_ann", "u_c_ann", "ws", "1");
      const s2 = await startSession(t.db.sql, "c_bob", "u_c_bob", "ws", "2");
      assert.equal(await closeDanglingSessions(t.db.prisma, "1"), 1);
      const open = await t.db.prisma.playerSession.findMany({ where: { endedAt: null } });
      assert.deepEqual(
        open.map((s) => [s.id, s.world]),
        [[s2, "2"]],
      );
      assert.equal((await t.db.prisma.playerSession.findUniqueOrThrow({ where: { id: s1 } })).endReason, "server_restart");
    });

    it("upgrading: the one world of earlier versions ('main') becomes world 1, its chunks and shelves kept", async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), "arena-migrations-"));
      try {
        // The migrations before numbered worlds, then rows under "main", then the rest.
        await cp(MIGRATIONS_DIR, dir, { recursive: true, filter: (src) => !src.includes("0005_worlds") });
        await applyMigrations(t.db.sql, silentLogger, dir);
        await t.db.sql.query(
          `INSERT INTO "world_chunks" ("world", "chunkX", "chunkZ", "data", "updatedAt") VALUES ('main', 1, 2, '{"depleted":["tree_1"]}', now())`,
        );
        await t.db.sql.query(
          `INSERT INTO "store_stock" ("world", "storeId", "itemId", "quantity", "updatedAt") VALUES ('main', 'general_store', 'logs', 4, now())`,
        );
        await applyMigrations(t.db.sql, silentLogger);
        const chunk = await t.db.prisma.worldChunk.findUniqueOrThrow({ where: { world_chunkX_chunkZ: { world: "1", chunkX: 1, chunkZ: 2 } } });
        assert.deepEqual(chunk.data, { depleted: ["tree_1"] });
        const shelf = await t.db.prisma.storeStock.findMany();
        assert.deepEqual(
          shelf.map((s) => [s.world, s.storeId, s.itemId, s.quantity]),
          [["1", "general_store", "logs", 4]],
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
}
