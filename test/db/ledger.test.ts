import assert from "node:assert/strict";
import { conservation, ledgerPage } from "../../src/db/ledgerRepo.js";
import { giveItem } from "../../src/game/world/commands.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { theWorld } from "../helpers/worldRoom.js";
import { wsConnect } from "../helpers/wsClient.js";
import { guestToken } from "../helpers/worldClient.js";

for (const kind of DATABASE_KINDS) {
  describe(`the item ledger on ${kind}`, function () {
    this.timeout(60_000);
    let t: TestDb;
    let server: TestServer;
    before(async () => {
      t = await openTestDb(kind);
      server = await startTestServer({ db: t.db });
    });
    after(async () => {
      await server?.close();
      await t?.cleanup();
    });

    it("sums to every character's holdings through the starter kit and saves; a dupe written behind the server's back is found", async () => {
      const who = await guestToken(server);
      const p = await wsConnect(server.port, `?token=${encodeURIComponent(who.token)}`);
      const id = (await p.next("authenticated")).data.playerId as string;
      assert.deepEqual((await conservation(t.db.sql)).holdings, [], "the starter kit opens the ledger");
      const room = await theWorld();
      giveItem(room.world, id, "coins", 500);
      room.world.players.get(id)!.dirty = true;
      await room.saveAll();
      const clean = await conservation(t.db.sql);
      assert.deepEqual([clean.holdings, clean.transfers], [[], []]);
      const page = await ledgerPage(t.db.sql, id, { limit: 10, itemId: "coins" });
      assert.equal(page[0].delta, 500);

      // A coin stack doubled in the database, as a dupe would leave it.
      await t.db.sql.query(`UPDATE "inventory" SET "quantity" = "quantity" * 2 WHERE "characterId" = $1 AND "itemId" = 'coins'`, [id]);
      const found = await conservation(t.db.sql);
      assert.equal(found.holdings.length, 1);
      const [m] = found.holdings;
      assert.deepEqual([m.characterId, m.itemId, m.found - m.expected], [id, "coins", m.expected]);
      assert.deepEqual((await conservation(t.db.sql, id)).holdings.length, 1, "also when asked for that character alone");
      p.close();
    });
  });
}
