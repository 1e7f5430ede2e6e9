import assert from "node:assert/strict";
import { conservation, ledgerPage } from "../../src/db/ledgerRepo.js";
import { giveItem } from "../../src/game/world/commands.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { theWorld } from "../helpers/worldRoom.js";
import { wsConnect } from "../helpers/wsClient.js";
import { guestToken } from "../helpers/worldClient.js";
import { runCli } from "../helpers/cli.js";
import { rest } from "../helpers/rest.js";

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

      // The staff's view over REST: the mismatch with the rows around it, and the character's history in pages.
      const admin = await guestToken(server);
      await t.db.prisma.user.update({ where: { id: admin.accountId }, data: { roles: ["admin"] } });
      const report = await rest(server, "GET", "/api/admin/audit/conservation", admin.token);
      assert.equal(report.status, 200);
      assert.equal(report.body.ok, false);
      assert.deepEqual(
        report.body.holdings.map((h: any) => [h.characterId, h.itemId, h.found - h.expected]),
        [[id, "coins", report.body.holdings[0].expected]],
      );
      // The rows around it: the 500 coins the test handed over without a cause, written as unattributed by the save.
      assert.deepEqual(
        report.body.holdings[0].rows.filter((r: any) => r.cause === "unattributed").map((r: any) => r.delta),
        [500],
      );
      assert.equal((await rest(server, "GET", `/api/admin/audit/conservation?character=${id}`, admin.token)).body.holdings.length, 1);
      assert.equal((await rest(server, "GET", "/api/admin/audit/conservation?character=Nobody12345", admin.token)).status, 404);
      assert.equal((await rest(server, "GET", "/api/admin/audit/conservation", who.token)).status, 403);
      const first = await rest(server, "GET", `/api/admin/characters/${id}/ledger?limit=1`, admin.token);
      assert.equal(first.body.rows.length, 1);
      const rest2 = await rest(server, "GET", `/api/admin/characters/${id}/ledger?limit=50&before=${first.body.next}`, admin.token);
      assert.ok(rest2.body.rows.every((r: any) => Number(r.id) < Number(first.body.next)));
      assert.equal((await rest(server, "GET", `/api/admin/characters/${id}/ledger?limit=0`, admin.token)).status, 400);

      // npm run audit: on PostgreSQL beside the running server; the embedded database it must leave to the server.
      const cli = await runCli("src/auditCli.ts", [], kind === "postgres" ? { DATABASE_URL: t.location } : { DATA_DIR: t.location });
      assert.equal(cli.code, 1, cli.output);
      if (kind === "postgres") {
        assert.match(cli.output, new RegExp(`MISMATCH .* \\(${id}\\) coins: the ledger sums to \\d+, the character holds \\d+`));
        assert.match(cli.output, /starter_kit/);
      } else assert.match(cli.output, /GET \/api\/admin\/audit\/conservation/);
      p.close();
    });
  });
}
