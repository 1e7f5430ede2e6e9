import { existsSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "./config.js";
import { BackupError, backupEmbedded, restoreEmbedded } from "./db/backup.js";
import { countsLine } from "./db/backupManifest.js";
import { databaseOptionsFrom, openDatabase } from "./db/client.js";
import { heldByServer, runCli } from "./cli.js";
import { createLogger } from "./logger.js";

/**
 * `npm run backup -- <file>` and `npm run restore -- <file> [--force] [--verify] [--no-manifest]`:
 * the embedded database of DATA_DIR to one file with its manifest beside it, and back (README
 * "Backups"). While a server runs on that folder, a backup is taken by the server itself (POST
 * /api/admin/backup): the embedded database takes one process at a time. PostgreSQL
 * (DATABASE_URL) is backed up with pg_dump and restored with pg_restore.
 */
const USAGE = `usage: npm run backup -- <file>
       npm run restore -- <file> [--force] [--verify] [--no-manifest]`;

const FLAGS = ["--force", "--verify", "--no-manifest"];

const POSTGRES = `DATABASE_URL is set: back PostgreSQL up with its own tools, e.g.
  pg_dump --format=custom --file=world.dump "$DATABASE_URL"
  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" world.dump`;

async function restore(target: string, dataDir: string, flags: string[]): Promise<number> {
  const options = { force: flags.includes("--force"), verify: flags.includes("--verify"), noManifest: flags.includes("--no-manifest") };
  const { characters, movedAside, manifest, verified } = await restoreEmbedded(target, dataDir, options);
  console.log(
    manifest
      ? `Checked ${target} against its manifest: ${manifest.bytes} bytes, SHA-256 ${manifest.sha256}, made by version ${manifest.serverVersion} at ${manifest.createdAt}`
      : `${target} has no manifest: restored with no checksum to check it against, as --no-manifest asked`,
  );
  if (movedAside) console.log(`The database that was there is kept at ${movedAside}`);
  console.log(`Restored ${target} into ${dataDir} (${characters} characters)`);
  if (verified) {
    console.log(`Verified: the restored database holds ${countsLine(verified.counts)}`);
    console.log(verified.expected ? `  the same as its manifest counted` : `  (no manifest to compare with)`);
    console.log(`  the ledger audit found no mismatch over ${verified.audited} characters`);
  }
  return 0;
}

async function main([command, ...args]: string[]): Promise<number> {
  const flags = args.filter((a) => FLAGS.includes(a));
  const rest = args.filter((a) => !FLAGS.includes(a));
  const file = rest[0];
  if (
    (command !== "backup" && command !== "restore") ||
    !file ||
    rest.length > 1 ||
    rest.some((a) => a.startsWith("--")) ||
    (command === "backup" && flags.length)
  ) {
    console.error(USAGE);
    return 2;
  }
  // These commands sign no token: a placeholder secret keeps the configuration from making one in DATA_DIR.
  const config = loadConfig({ JWT_SECRET: "backup-and-restore-commands-sign-no-token", ...process.env });
  if (config.databaseUrl || config.useLocalPostgres) {
    console.error(POSTGRES);
    return 1;
  }
  const target = path.resolve(file);
  try {
    if (command === "restore") return await restore(target, config.dataDir, flags);
    const instead =
      `While it runs, ask it for the backup: POST /api/admin/backup with an admin's token (the file goes to ${path.join(config.dataDir, "backups")}),\n` +
      `or stop it and run this again.`;
    if (heldByServer(config, instead)) return 1;
    if (!existsSync(path.join(config.dataDir, "pglite"))) throw new BackupError(`There is no embedded database in ${config.dataDir}`);
    const db = await openDatabase({ ...databaseOptionsFrom(config, createLogger({ level: "warn" })), migrate: false });
    try {
      const { manifest, manifestFile } = await backupEmbedded(db, target);
      console.log(
        `Backed up ${config.dataDir} to ${target} (${manifest.bytes} bytes, SHA-256 ${manifest.sha256}), checked against its manifest ${manifestFile}`,
      );
      console.log(`  it holds ${countsLine(manifest.counts)}`);
    } finally {
      await db.close();
    }
    return 0;
  } catch (err) {
    if (err instanceof BackupError) {
      console.error(err.message);
      for (const line of err.details) console.error(`  ${line}`);
      return 1;
    }
    throw err;
  }
}

runCli(main);
