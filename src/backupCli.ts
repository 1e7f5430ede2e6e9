import { existsSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "./config.js";
import { BackupError, restoreEmbedded } from "./db/backup.js";
import { databaseOptionsFrom, openDatabase } from "./db/client.js";
import { heldByServer, runCli } from "./cli.js";
import { createLogger } from "./logger.js";

/**
 * `npm run backup -- <file>` and `npm run restore -- <file> [--force]`: the embedded database of
 * DATA_DIR to one file, and back (README "Backups"). While a server runs on that folder, a backup
 * is taken by the server itself (POST /api/admin/backup): the embedded database takes one process
 * at a time. PostgreSQL (DATABASE_URL) is backed up with pg_dump and restored with pg_restore.
 */
const USAGE = `usage: npm run backup -- <file>
       npm run restore -- <file> [--force]`;

const POSTGRES = `DATABASE_URL is set: back PostgreSQL up with its own tools, e.g.
  pg_dump --format=custom --file=world.dump "$DATABASE_URL"
  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" world.dump`;

async function main([command, ...args]: string[]): Promise<number> {
  const force = args.includes("--force");
  const file = args.find((a) => a !== "--force");
  if ((command !== "backup" && command !== "restore") || !file) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  if (config.databaseUrl || config.useLocalPostgres) {
    console.error(POSTGRES);
    return 1;
  }
  const target = path.resolve(file);
  try {
    if (command === "restore") {
      const { characters, movedAside } = await restoreEmbedded(target, config.dataDir, { force });
      if (movedAside) console.log(`The database that was there is kept at ${movedAside}`);
      console.log(`Restored ${target} into ${config.dataDir} (${characters} characters)`);
      return 0;
    }
    const instead =
      `While it runs, ask it for the backup: POST /api/admin/backup with an admin's token (the file goes to ${path.join(config.dataDir, "backups")}),\n` +
      `or stop it and run this again.`;
    if (heldByServer(config, instead)) return 1;
    if (!existsSync(path.join(config.dataDir, "pglite"))) throw new BackupError(`There is no embedded database in ${config.dataDir}`);
    const db = await openDatabase({ ...databaseOptionsFrom(config, createLogger({ level: "warn" })), migrate: false });
    try {
      await db.backup!(target);
    } finally {
      await db.close();
    }
    console.log(`Backed up ${config.dataDir} to ${target}`);
    return 0;
  } catch (err) {
    if (err instanceof BackupError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
}

runCli(main);
