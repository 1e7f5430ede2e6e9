import assert from "node:assert/strict";
import { loadOrCreateCharacter } from "../../src/db/characterRepo.js";
import { accountOnJoin } from "../../src/db/worldRepo.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";

/** What a join reads of its account in one statement, and the character it then plays. */
for (const kind of DATABASE_KINDS) {
  describe(`a join's account on ${kind}`, function () {
    this.timeout(60_000);
    let t: TestDb;
    beforeEach(async () => {
      t = await openTestDb(kind);
    });
    afterEach(async () => {
      await t.cleanup();
    });

    const account = (id: string) => t.db.sql.query(`INSERT INTO "users" ("id") VALUES ($1)`, [id]);
    const character = (id: string, accountId: string, createdAt: string) =>
      t.db.prisma.character.create({ data: { id, accountId, name: id.slice(2), createdAt: new Date(createdAt) } });
    const spec = (accountId: string) => () => ({ accountId, spawn: { x: 5, z: 6 }, inventory: [] });
    /** The statements the character's load or creation runs. */
    const statements = async <T>(run: () => Promise<T>): Promise<{ out: T; texts: string[] }> => {
      const texts: string[] = [];
      const query = t.db.sql.query;
      t.db.sql.query = <R>(text: string, params?: unknown[]) => {
        texts.push(text);
        return query.call(t.db.sql, text, params) as Promise<R[]>;
      };
      try {
        return { out: await run(), texts };
      } finally {
        t.db.sql.query = query;
      }
    };

    it("an unknown account does not exist; one with no character has none to play, and gets a new one without a search", async () => {
      assert.deepEqual(await accountOnJoin(t.db.sql, "u_nobody"), { exists: false, guest: false, firstCharacterId: null });
      await account("u_new");
      const found = await accountOnJoin(t.db.sql, "u_new");
      assert.deepEqual(found, { exists: true, guest: false, firstCharacterId: null });
      const { out, texts } = await statements(() => loadOrCreateCharacter(t.db.sql, "u_new", undefined, spec("u_new"), found.firstCharacterId));
      assert.equal(out.accountId, "u_new");
      assert.deepEqual(out.tile, { x: 5, z: 6 });
      assert.equal(texts.length, 1, "the new character's insert alone");
      assert.match(texts[0], /INSERT INTO "characters"/);
      assert.deepEqual(await accountOnJoin(t.db.sql, "u_new"), { exists: true, guest: false, firstCharacterId: out.id });
      // A guest account says so (a ban by address of guests refuses it).
      await t.db.sql.query(`INSERT INTO "users" ("id", "isGuest") VALUES ($1, true)`, ["u_guest"]);
      assert.equal((await accountOnJoin(t.db.sql, "u_guest")).guest, true);
    });

    it("an account's first character is its oldest, and that is the one loaded; another account's is not", async () => {
      await account("u_ann");
      await account("u_bob");
      await character("c_annNew", "u_ann", "2026-02-01T00:00:00Z");
      await character("c_annOld", "u_ann", "2026-01-01T00:00:00Z");
      await character("c_bob", "u_bob", "2025-01-01T00:00:00Z");
      const found = await accountOnJoin(t.db.sql, "u_ann");
      assert.deepEqual(found, { exists: true, guest: false, firstCharacterId: "c_annOld" });
      const snap = await loadOrCreateCharacter(t.db.sql, "u_ann", undefined, spec("u_ann"), found.firstCharacterId);
      assert.equal(snap.id, "c_annOld");
      // Given another account's character as its "first" (it was deleted and its id reused, say), the account's own is found instead.
      const own = await loadOrCreateCharacter(t.db.sql, "u_ann", undefined, spec("u_ann"), "c_bob");
      assert.equal(own.id, "c_annOld");
      assert.equal(await t.db.prisma.character.count({ where: { accountId: "u_ann" } }), 2, "nothing created");
    });
  });
}
