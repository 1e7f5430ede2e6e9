import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { embeddedHolder } from "./embeddedHolder.js";
import { openPglite } from "./pglite.js";

/**
 * Backups of the embedded database (README "Backups"): a backup is the tar of its whole data
 * folder (Database.backup, taken between two statements, so consistent while the server runs);
 * a restore makes a data folder from one. PostgreSQL is backed up with pg_dump / pg_restore.
 */

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

/** Where the embedded database of a data folder keeps its files. */
export const embeddedFolder = (dataDir: string) => path.join(dataDir, "pglite");

/**
 * Make `dataDir`'s embedded database from the backup `file`. Refused while a server holds the
 * folder, and when the folder has a database already (unless `force`: it is then moved aside to
 * `pglite.before-restore-<time>`, never deleted). The restored database is opened once and asked
 * for its characters, so a broken file is found here, not at the next start. Migrations newer than
 * the backup are applied at the next start, as for any data folder.
 */
export async function restoreEmbedded(file: string, dataDir: string, options: { force?: boolean } = {}): Promise<{ characters: number; movedAside?: string }> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupError(`No backup file at ${file}`);
  const holder = embeddedHolder(dataDir);
  if (holder) throw new BackupError(`The server (pid ${holder}) holds the embedded database in ${dataDir}: stop it before restoring into that folder`);
  const target = embeddedFolder(dataDir);
  let movedAside: string | undefined;
  if (existsSync(target)) {
    if (!options.force) throw new BackupError(`${target} already holds a database: restore into a new DATA_DIR, or add --force to move it aside first`);
    movedAside = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    renameSync(target, movedAside);
  }
  let db: Awaited<ReturnType<typeof openPglite>> | undefined;
  try {
    db = await openPglite(target, file);
    const [row] = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM "characters"`);
    return { characters: row?.n ?? 0, movedAside };
  } catch (err) {
    await db?.close().catch(() => {});
    db = undefined;
    // Leave the folder as it was.
    rmSync(target, { recursive: true, force: true });
    if (movedAside) renameSync(movedAside, target);
    throw new BackupError(`${file} is not a backup of this server's embedded database (${(err as Error).message})`);
  } finally {
    await db?.close();
  }
}
