import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, open, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { backupEmbedded, restoreEmbedded, type BackupManifest } from "../../src/db/backup.js";
import { digestOf } from "../../src/db/backupManifest.js";
import { openDatabase, type Database } from "../../src/db/client.js";
import { createCharacter } from "../../src/db/characterRepo.js";
import { silentLogger } from "../../src/logger.js";
import { MIGRATIONS_DIR } from "../../src/paths.js";
import { VERSION } from "../../src/version.js";
import { runCli } from "../helpers/cli.js";

/** Every file under `dir` with its SHA-256 (folders as names): what "left exactly as it was" compares. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = path.join(at, name);
      const rel = path.relative(dir, full);
      if (statSync(full).isDirectory()) {
        out[`${rel}/`] = "";
        walk(full);
      } else out[rel] = createHash("sha256").update(readFileSync(full)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

/** A backup's copy under another name, with (or without) its manifest. */
async function copyOf(from: string, to: string, withManifest = true): Promise<string> {
  await copyFile(from, to);
  if (withManifest) await copyFile(`${from}.manifest.json`, `${to}.manifest.json`);
  return to;
}

describe("backups prove themselves: checked against their manifest before a restore changes anything", function () {
  this.timeout(120_000);
  let root: string;
  let db: Database | undefined;
  /** A good backup of two characters with coins and logs, its manifest, and one of a duplicated coin stack. */
  let good: string;
  let manifest: BackupManifest;
  let startedAt: string;
  let endedAt: string;
  let duped: string;
  /** A data folder that holds a database already (the target of --force) and its files. */
  let occupied: string;
  let occupiedFiles: Record<string, string>;
  const running = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    running.add(p);
    return p.finally(() => running.delete(p));
  };
  const cli = (args: string[], dataDir: string) => track(runCli("src/backupCli.ts", args, { DATA_DIR: dataDir }));
  const restore = (file: string, dataDir: string, options: Parameters<typeof restoreEmbedded>[2] = {}) => track(restoreEmbedded(file, dataDir, options));

  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "arena-backup-proof-"));
    db = await openDatabase({ logger: silentLogger });
    await db.prisma.item.createMany({
      data: [
        { id: "coins", name: "Coins", type: "currency", stackable: true },
        { id: "logs", name: "Logs", type: "resource" },
      ],
    });
    await db.prisma.user.create({ data: { id: "u_proof" } });
    for (const [name, coins] of [
      ["Proof One", 500],
      ["Proof Two", 250],
    ] as const) {
      const inventory = [{ itemId: "coins", quantity: coins }, { itemId: "logs", quantity: 1 }, ...new Array(26).fill(null)];
      await createCharacter(db.sql, { accountId: "u_proof", name, spawn: { x: 0, z: 0 }, inventory });
    }
    good = path.join(root, "good.tar");
    startedAt = new Date().toISOString();
    manifest = (await backupEmbedded(db, good)).manifest;
    endedAt = new Date().toISOString();
    // A dupe behind the ledger's back: the counts are what the file holds, the ledger audit is not.
    await db.sql.query(`UPDATE "inventory" SET "quantity" = "quantity" * 2 WHERE "itemId" = 'coins'`);
    duped = path.join(root, "duped.tar");
    await backupEmbedded(db, duped);
    await db.close();
    db = undefined;
    occupied = path.join(root, "occupied");
    await restore(good, occupied);
    occupiedFiles = snapshot(occupied);
  });
  after(async () => {
    await db?.close();
    await Promise.allSettled([...running]);
    await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  it("the manifest holds the file's size and checksum, the version, the migrations, the time and the counts", async () => {
    assert.deepEqual(await digestOf(good), { bytes: manifest.bytes, sha256: manifest.sha256 });
    assert.equal(manifest.file, "good.tar");
    assert.equal(manifest.serverVersion, VERSION);
    assert.deepEqual(
      manifest.migrations,
      readdirSync(MIGRATIONS_DIR)
        .filter((n) => statSync(path.join(MIGRATIONS_DIR, n)).isDirectory())
        .sort(),
    );
    assert.ok(startedAt <= manifest.createdAt && manifest.createdAt <= endedAt, "taken while backupEmbedded ran");
    assert.equal(manifest.counts.characters, 2);
    assert.deepEqual(manifest.counts.items, { coins: 750, logs: 2 });
    assert.equal(manifest.counts.tables.inventory, 4);
    assert.equal(manifest.counts.tables.characters, 2);
  });

  it("a flipped byte is refused by the checksum, in one line, exit 1, even with --force, and the folder is left exactly as it was", async () => {
    const flipped = await copyOf(good, path.join(root, "flipped.tar"));
    const handle = await open(flipped, "r+");
    const at = Math.floor(manifest.bytes / 2);
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, at);
    byte[0] ^= 0xff;
    await handle.write(byte, 0, 1, at);
    await handle.close();
    const refused = await cli(["restore", flipped, "--force", "--verify"], occupied);
    assert.equal(refused.code, 1, refused.output);
    assert.equal(refused.output.trim().split("\n").length, 1, refused.output);
    assert.match(refused.output, /does not match the SHA-256 checksum in its manifest/);
    assert.deepEqual(snapshot(occupied), occupiedFiles);
  });

  it("a truncated file is refused by its size, or, trusted without a manifest, by its tar structure", async () => {
    const truncated = path.join(root, "truncated.tar");
    await writeFile(truncated, (await readFile(good)).subarray(0, manifest.bytes - 100_000));
    await copyFile(`${good}.manifest.json`, `${truncated}.manifest.json`);
    await assert.rejects(restore(truncated, occupied, { force: true }), /is \d+ bytes but its manifest says \d+: the file is truncated/);
    await rm(`${truncated}.manifest.json`);
    await assert.rejects(restore(truncated, occupied, { force: true, noManifest: true }), /is truncated/);
    assert.deepEqual(snapshot(occupied), occupiedFiles);
  });

  it("a backup without a manifest is refused unless --no-manifest trusts it; a manifest beside it is never skipped", async () => {
    const bare = await copyOf(good, path.join(root, "bare.tar"), false);
    const refused = await cli(["restore", bare, "--force"], occupied);
    assert.equal(refused.code, 1, refused.output);
    assert.match(refused.output, /has no manifest .*--no-manifest/);
    assert.deepEqual(snapshot(occupied), occupiedFiles);
    await assert.rejects(restore(good, path.join(root, "skipped"), { noManifest: true }), /has a manifest .*without --no-manifest/);
    assert.ok(!existsSync(path.join(root, "skipped", "pglite")));
    const trusted = await restore(bare, path.join(root, "trusted"), { noManifest: true, verify: true });
    assert.equal(trusted.manifest, undefined);
    assert.deepEqual(trusted.verified?.counts, manifest.counts, "the counts are still reported");
  });

  it("a file that is not a tar, a tar that is not a database, and a manifest that is not one are refused by name", async () => {
    const notTar = path.join(root, "not-a-tar.tar");
    await writeFile(notTar, "x".repeat(4096));
    await assert.rejects(restore(notTar, occupied, { force: true, noManifest: true }), /is not a tar file/);
    const stranger = path.join(root, "stranger");
    await mkdir(stranger);
    await writeFile(path.join(stranger, "hello.txt"), "hello");
    const otherTar = path.join(root, "other.tar");
    execFileSync("tar", ["-cf", otherTar, "-C", stranger, "hello.txt"]);
    await assert.rejects(
      restore(otherTar, occupied, { force: true, noManifest: true }),
      /is a tar file but not a data folder of this server's embedded database/,
    );
    const badManifest = await copyOf(good, path.join(root, "bad-manifest.tar"));
    await writeFile(`${badManifest}.manifest.json`, JSON.stringify({ ...manifest, sha256: "not hex" }));
    await assert.rejects(restore(badManifest, occupied, { force: true }), /is not a backup manifest \(sha256:/);
    assert.deepEqual(snapshot(occupied), occupiedFiles);
  });

  it("a good backup restores, and --verify reports counts that match its manifest and a clean ledger audit", async () => {
    const folder = path.join(root, "verified");
    const restored = await cli(["restore", good, "--verify"], folder);
    assert.equal(restored.code, 0, restored.output);
    assert.match(restored.output, /Checked .*good\.tar against its manifest/);
    assert.match(restored.output, /\(2 characters\)/);
    assert.match(
      restored.output,
      /Verified: the restored database holds 2 characters, 752 items of 2 item ids, .*\n {2}the same as its manifest counted\n {2}the ledger audit found no mismatch over 2 characters/,
    );
    assert.ok(existsSync(path.join(folder, "pglite", "PG_VERSION")));
  });

  it("--verify refuses counts that differ from the manifest, and a restored database that fails the ledger audit, restoring nothing", async () => {
    const recounted = await copyOf(good, path.join(root, "recounted.tar"));
    const told = { ...manifest, counts: { ...manifest.counts, items: { ...manifest.counts.items, coins: 740 } } };
    await writeFile(`${recounted}.manifest.json`, JSON.stringify(told));
    const counted = await restore(recounted, occupied, { force: true, verify: true }).then(
      () => assert.fail("restored"),
      (err) => err,
    );
    assert.match(counted.message, /does not hold what the manifest counted \(1 differences\).* is left as it was/);
    assert.deepEqual(counted.details, ["items coins: 750 restored, 740 in the manifest"]);
    assert.deepEqual(snapshot(occupied), occupiedFiles);

    const audited = await restore(duped, occupied, { force: true, verify: true }).then(
      () => assert.fail("restored"),
      (err) => err,
    );
    assert.match(audited.message, /fails the ledger audit \(2 mismatches\)/);
    assert.match(audited.details.join("\n"), /Proof One .* coins: the ledger sums to 500, the character holds 1000/);
    assert.deepEqual(snapshot(occupied), occupiedFiles);
  });
});
