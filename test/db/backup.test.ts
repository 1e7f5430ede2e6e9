import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "../../src/db/client.js";
import { loadCharacter } from "../../src/db/characterRepo.js";
import { silentLogger } from "../../src/logger.js";
import { runCli } from "../helpers/cli.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";

/** `npm run backup` / `npm run restore` as an operator runs them, against a data folder. */
const cli = (args: string[], dataDir: string) => runCli("src/backupCli.ts", args, { DATA_DIR: dataDir });

/** What a world holds that a backup must keep: every character with its pack, worn items, bank and skills. */
async function holdings(db: Database) {
  const ids = (await db.prisma.character.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((c) => c.id);
  return Promise.all(ids.map((id) => loadCharacter(db.sql, id)));
}

describe("backups of the embedded database", function () {
  this.timeout(120_000);
  let root: string;
  let server: TestServer | undefined;
  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "arena-backup-"));
  });
  after(async () => {
    await server?.close();
    await rm(root, { recursive: true, force: true });
  });

  it("a world with players and items, backed up by the running server and by the command line, restores into a new data folder whole", async () => {
    const live = path.join(root, "live");
    const db = await openDatabase({ dataDir: live, logger: silentLogger });
    server = await startTestServer({ db, env: { DATA_DIR: live } });
    // Players with a pack (the starter kit), and one with coins in the bank.
    const admin = await guestToken(server);
    await db.prisma.user.update({ where: { id: admin.accountId }, data: { roles: ["admin"] } });
    for (const name of ["Saver One", "Saver Two"]) {
      const who = await guestToken(server);
      assert.equal((await rest(server, "POST", "/api/character", who.token, { name })).status, 201);
    }
    const first = await db.prisma.character.findFirstOrThrow({ where: { name: "Saver One" } });
    await db.prisma.bankItem.create({ data: { characterId: first.id, itemId: "coins", quantity: 12345, slot: 0 } });
    const before = await holdings(db);
    assert.ok(before.length >= 2 && before.every((c) => c && c.inventory.some(Boolean)), "characters with packs");
    assert.deepEqual(before.find((c) => c?.id === first.id)?.bank, [{ itemId: "coins", quantity: 12345 }]);

    // While the server runs the command line refuses, and says how: the server takes the backup itself.
    const refused = await cli(["backup", path.join(root, "cli.tar")], live);
    assert.equal(refused.code, 1, refused.output);
    assert.match(refused.output, /POST \/api\/admin\/backup/);
    const player = await guestToken(server);
    assert.equal((await rest(server, "POST", "/api/admin/backup", player.token)).status, 403);
    const viaServer = await rest(server, "POST", "/api/admin/backup", admin.token);
    assert.equal(viaServer.status, 201, JSON.stringify(viaServer.body));
    assert.ok(existsSync(viaServer.body.file) && viaServer.body.bytes > 0);
    assert.equal(path.dirname(viaServer.body.file), path.join(live, "backups"));
    assert.equal((await db.prisma.auditLog.findMany({ where: { kind: "backup" } })).length, 1, "the backup is audited");
    await server.close();
    server = undefined;
    await db.close();

    // Stopped: the command line backs it up too.
    const fromCli = path.join(root, "cli.tar");
    const made = await cli(["backup", fromCli], live);
    assert.equal(made.code, 0, made.output);

    for (const [file, folder] of [
      [viaServer.body.file as string, path.join(root, "restored-from-server")],
      [fromCli, path.join(root, "restored-from-cli")],
    ] as const) {
      const restored = await cli(["restore", file], folder);
      assert.equal(restored.code, 0, restored.output);
      assert.match(restored.output, new RegExp(`\\(${before.length} characters\\)`));
      const again = await openDatabase({ dataDir: folder, logger: silentLogger });
      try {
        assert.deepEqual(await holdings(again), before, `${path.basename(folder)}: every character, pack, worn item, bank and skill`);
      } finally {
        await again.close();
      }
      // A folder that has a database is not overwritten without --force (and then the old one is kept aside).
      const twice = await cli(["restore", file], folder);
      assert.equal(twice.code, 1);
      assert.match(twice.output, /already holds a database/);
      const forced = await cli(["restore", file, "--force"], folder);
      assert.equal(forced.code, 0, forced.output);
      assert.match(forced.output, /kept at .*pglite\.before-restore-/);
    }

    // Not a backup: refused, and the folder is left as it was.
    const bogus = path.join(root, "bogus.tar");
    await writeFile(bogus, "not a tar");
    const broken = await cli(["restore", bogus], path.join(root, "restored-bogus"));
    assert.equal(broken.code, 1);
    assert.ok(!existsSync(path.join(root, "restored-bogus", "pglite")), "nothing left behind");
    assert.equal((await cli(["restore", path.join(root, "missing.tar")], path.join(root, "x"))).code, 1);
    assert.equal((await cli(["backup"], live)).code, 2);
  });
});
