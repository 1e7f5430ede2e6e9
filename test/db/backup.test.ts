import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { restoreEmbedded } from "../../src/db/backup.js";
import { digestOf, readManifest } from "../../src/db/backupManifest.js";
import { openDatabase, type Database } from "../../src/db/client.js";
import { loadCharacter } from "../../src/db/characterRepo.js";
import { writeLedger } from "../../src/db/ledgerRepo.js";
import { silentLogger } from "../../src/logger.js";
import { runCli } from "../helpers/cli.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";

/** What a world holds that a backup must keep: every character with its pack, worn items, bank and skills. */
async function holdings(db: Database) {
  const ids = (await db.prisma.character.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((c) => c.id);
  return Promise.all(ids.map((id) => loadCharacter(db.sql, id)));
}

describe("backups of the embedded database", function () {
  this.timeout(120_000);
  let root: string;
  let server: TestServer | undefined;
  /** What the test opened or started: closed, or waited for, before its folders are removed. */
  const opened: Database[] = [];
  const running = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    running.add(p);
    return p.finally(() => running.delete(p));
  };
  /** `npm run backup` / `npm run restore` as an operator runs them, against a data folder. */
  const cli = (args: string[], dataDir: string) => track(runCli("src/backupCli.ts", args, { DATA_DIR: dataDir }));
  const open = async (dataDir: string) => {
    const db = await track(openDatabase({ dataDir, logger: silentLogger }));
    opened.push(db);
    return db;
  };

  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "arena-backup-"));
  });
  after(async () => {
    await server?.close();
    await Promise.allSettled(opened.map((db) => db.close()));
    await Promise.allSettled([...running]);
    await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  it("a world with players and items, backed up by the running server and by the command line, restores into a new data folder whole", async () => {
    const live = path.join(root, "live");
    const db = await open(live);
    server = await startTestServer({ db, env: { DATA_DIR: live } });
    // Players with a pack (the starter kit), and one with coins in the bank.
    const admin = await guestToken(server);
    await db.prisma.user.update({ where: { id: admin.accountId }, data: { roles: ["admin"] } });
    for (const name of ["Saver One", "Saver Two"]) {
      const who = await guestToken(server);
      assert.equal((await rest(server, "POST", "/api/character", who.token, { name })).status, 201);
    }
    const first = await db.prisma.character.findFirstOrThrow({ where: { name: "Saver One" } });
    // Written with its ledger row, as the server writes a change: the backup's audit must find the world whole.
    await db.prisma.bankItem.create({ data: { characterId: first.id, itemId: "coins", quantity: 12345, slot: 0 } });
    await writeLedger(db.sql, null, [{ characterId: first.id, itemId: "coins", delta: 12345, cause: "unattributed" }]);
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
    // Its manifest is beside it and describes the file and what the world held.
    assert.equal(viaServer.body.manifest, `${viaServer.body.file}.manifest.json`);
    const serverManifest = await readManifest(viaServer.body.file);
    assert.ok(serverManifest, "the route writes a manifest");
    assert.deepEqual(await digestOf(viaServer.body.file), { bytes: viaServer.body.bytes, sha256: viaServer.body.sha256 });
    assert.deepEqual([serverManifest.bytes, serverManifest.sha256], [viaServer.body.bytes, viaServer.body.sha256]);
    assert.equal(serverManifest.counts.characters, before.length);
    assert.equal(viaServer.body.characters, before.length);
    const coins = before
      .flatMap((c) => [...c!.inventory, ...Object.values(c!.equipment), ...c!.bank])
      .reduce((n, s) => n + (s?.itemId === "coins" ? s.quantity : 0), 0);
    assert.equal(serverManifest.counts.items.coins, coins, "items by total per item id");
    await server.close();
    server = undefined;
    await db.close();

    // Stopped: the command line backs it up too, with its manifest.
    const fromCli = path.join(root, "cli.tar");
    const made = await cli(["backup", fromCli], live);
    assert.equal(made.code, 0, made.output);
    assert.match(made.output, /checked against its manifest/);
    const cliManifest = await readManifest(fromCli);
    assert.deepEqual(cliManifest?.counts, serverManifest.counts, "nothing changed between the two backups");
    assert.equal(JSON.parse(readFileSync(`${fromCli}.manifest.json`, "utf8")).sha256, (await digestOf(fromCli)).sha256);

    // The server's backup by the command line, verified; the command line's by the same function in process.
    const fromServerFolder = path.join(root, "restored-from-server");
    const restored = await cli(["restore", viaServer.body.file, "--verify"], fromServerFolder);
    assert.equal(restored.code, 0, restored.output);
    assert.match(restored.output, new RegExp(`\\(${before.length} characters\\)`));
    assert.match(restored.output, /Verified: the restored database holds .*\n {2}the same as its manifest counted\n {2}the ledger audit found no mismatch/);
    const fromCliFolder = path.join(root, "restored-from-cli");
    const inProcess = await track(restoreEmbedded(fromCli, fromCliFolder, { verify: true }));
    assert.deepEqual(inProcess.verified?.counts, cliManifest?.counts);
    for (const folder of [fromServerFolder, fromCliFolder]) {
      const again = await open(folder);
      assert.deepEqual(await holdings(again), before, `${path.basename(folder)}: every character, pack, worn item, bank and skill`);
      await again.close();
    }

    // A folder that has a database is not overwritten without --force (and then the old one is kept aside).
    const twice = await cli(["restore", fromCli], fromCliFolder);
    assert.equal(twice.code, 1);
    assert.match(twice.output, /already holds a database/);
    const forced = await track(restoreEmbedded(fromCli, fromCliFolder, { force: true }));
    assert.match(forced.movedAside ?? "", /pglite\.before-restore-/);
    assert.ok(existsSync(forced.movedAside!) && existsSync(path.join(fromCliFolder, "pglite")));
    assert.equal((await cli(["backup"], live)).code, 2);
  });
});
