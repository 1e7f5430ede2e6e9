import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { silentLogger } from "../logger.js";
import { MIGRATIONS_DIR } from "../paths.js";
import { VERSION } from "../version.js";
import {
  BackupError,
  checkAgainstManifest,
  countDifferences,
  countsOf,
  digestOf,
  MANIFEST_FORMAT,
  manifestPathOf,
  migrationsOf,
  readManifest,
  writeManifest,
  type BackupCounts,
  type BackupManifest,
} from "./backupManifest.js";
import { checkDataFolderTar } from "./backupTar.js";
import type { Database } from "./client.js";
import { embeddedHolder } from "./embeddedHolder.js";
import { conservation } from "./ledgerRepo.js";
import { applyMigrations } from "./migrate.js";
import { openPglite } from "./pglite.js";
import type { SqlRunner } from "./sql.js";

/**
 * Backups of the embedded database (README "Backups"): a backup is the tar of its whole data
 * folder with a manifest beside it (src/db/backupManifest.ts); a restore checks the file against
 * its manifest and makes a data folder from it. PostgreSQL is backed up with pg_dump / pg_restore.
 */

export { BackupError, manifestPathOf, type BackupManifest } from "./backupManifest.js";

/** Where the embedded database of a data folder keeps its files. */
export const embeddedFolder = (dataDir: string) => path.join(dataDir, "pglite");

/** Remove a folder, retrying while a closing database still lets go of its files. */
const removeFolder = (dir: string) => rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });

/**
 * Back the embedded database `db` up to `file` (npm run backup and POST /api/admin/backup). Its
 * counts and migrations are read, and the tar taken, inside one transaction, so no other statement
 * runs between them (the server goes on meanwhile and waits for the database at its next save).
 * The manifest is then written beside the file, and the file, read back, is checked against the
 * manifest, read back, before this returns; a file that does not match is a BackupError.
 */
export async function backupEmbedded(db: Pick<Database, "sql" | "backup">, file: string): Promise<{ manifest: BackupManifest; manifestFile: string }> {
  const dump = db.backup;
  if (!dump) throw new BackupError("This server runs on PostgreSQL: back it up with pg_dump (README, Backups)");
  await mkdir(path.dirname(file), { recursive: true });
  const taken = await db.sql.transaction(async (tx) => {
    const createdAt = new Date().toISOString();
    const migrations = await migrationsOf(tx);
    const counts = await countsOf(tx);
    await dump(file);
    return { createdAt, migrations, counts };
  });
  const { bytes, sha256 } = await digestOf(file);
  const manifestFile = await writeManifest(file, { format: MANIFEST_FORMAT, file: path.basename(file), bytes, sha256, serverVersion: VERSION, ...taken });
  const manifest = await checkBackup(file, {});
  if (!manifest) throw new BackupError(`The manifest ${manifestFile} was written but cannot be read back`);
  return { manifest, manifestFile };
}

/**
 * Refused, naming what is wrong, unless `file` is a backup this server can restore: a file with its
 * manifest (unless `noManifest`, for a backup made before manifests: then it must have none), of
 * the manifest's size and checksum, a whole tar of an embedded database's data folder.
 */
export async function checkBackup(file: string, options: { noManifest?: boolean }): Promise<BackupManifest | undefined> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupError(`No backup file at ${file}`);
  const manifest = await readManifest(file);
  if (!manifest && !options.noManifest) {
    throw new BackupError(
      `${file} has no manifest (${manifestPathOf(file)}), so it cannot be checked: copy the manifest beside it, or, for a backup made before manifests, add --no-manifest to trust it unchecked`,
    );
  }
  if (manifest && options.noManifest)
    throw new BackupError(`${file} has a manifest (${manifestPathOf(file)}): restore it without --no-manifest, so it is checked`);
  if (manifest) await checkAgainstManifest(file, manifest);
  await checkDataFolderTar(file);
  return manifest;
}

/** The migrations a manifest lists that this server does not have (a backup of a newer version). */
function unknownMigrations(manifest: BackupManifest): string[] {
  const known = new Set(
    readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name),
  );
  return manifest.migrations.filter((m) => !known.has(m));
}

export interface Verified {
  /** What the restored database holds. */
  counts: BackupCounts;
  /** What the manifest counted (none for a backup trusted without one). */
  expected?: BackupCounts;
  /** Characters the ledger audit checked (no mismatch). */
  audited: number;
}

/**
 * `restore --verify`, on the restored database before it is handed over: its counts against the
 * manifest's, then (migrated to this server's schema, as the next start would) the ledger audit.
 */
async function verifyRestored(sql: SqlRunner, manifest: BackupManifest | undefined): Promise<Verified> {
  const counts = await countsOf(sql);
  const differences = manifest ? countDifferences(manifest.counts, counts) : [];
  if (differences.length) {
    throw new BackupError(`The restored database does not hold what the manifest counted (${differences.length} differences)`, differences);
  }
  await applyMigrations(sql, silentLogger);
  const audit = await conservation(sql);
  const mismatches = [
    ...audit.holdings.map((m) => `${m.name ?? "?"} (${m.characterId}) ${m.itemId}: the ledger sums to ${m.expected}, the character holds ${m.found}`),
    ...audit.transfers.map((t) => `${t.cause} ${t.ref} ${t.itemId}: its sides are off by ${t.imbalance}`),
  ];
  if (mismatches.length) throw new BackupError(`The restored database fails the ledger audit (${mismatches.length} mismatches)`, mismatches);
  return { counts, expected: manifest?.counts, audited: audit.characters };
}

export interface RestoreOptions {
  /** Move a database already in the folder aside (kept, never deleted). */
  force?: boolean;
  /** Check the restored database against the manifest's counts and the ledger audit. */
  verify?: boolean;
  /** Trust a backup that has no manifest (made before manifests). */
  noManifest?: boolean;
}

/**
 * Make `dataDir`'s embedded database from the backup `file`. Nothing is changed unless the file
 * passes checkBackup, no server holds the folder and the folder has no database (or `force`: it is
 * then moved aside to `pglite.before-restore-<time>`, never deleted). The restored database is
 * opened once and asked for its characters (and verified, with `verify`); when that fails the
 * folder is put back as it was. Migrations newer than the backup are applied at the next start.
 */
export async function restoreEmbedded(
  file: string,
  dataDir: string,
  options: RestoreOptions = {},
): Promise<{ characters: number; movedAside?: string; manifest?: BackupManifest; verified?: Verified }> {
  const manifest = await checkBackup(file, options);
  const newer = manifest ? unknownMigrations(manifest) : [];
  if (newer.length) throw new BackupError(`${file} was made by a newer server (migrations ${newer.join(", ")} are unknown here): restore it with that version`);
  const holder = embeddedHolder(dataDir);
  if (holder) throw new BackupError(`The server (pid ${holder}) holds the embedded database in ${dataDir}: stop it before restoring into that folder`);
  const target = embeddedFolder(dataDir);
  let movedAside: string | undefined;
  if (existsSync(target)) {
    if (!options.force) throw new BackupError(`${target} already holds a database: restore into a new DATA_DIR, or add --force to move it aside first`);
    movedAside = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    await rename(target, movedAside);
  }
  let db: Awaited<ReturnType<typeof openPglite>> | undefined;
  try {
    db = await openPglite(target, file);
    const [row] = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM "characters"`);
    const verified = options.verify ? await verifyRestored(db.sql, manifest) : undefined;
    await db.close();
    return { characters: row?.n ?? 0, movedAside, manifest, verified };
  } catch (err) {
    await db?.close().catch(() => {});
    // Leave the folder as it was.
    await removeFolder(target);
    if (movedAside) await rename(movedAside, target);
    if (err instanceof BackupError) throw new BackupError(`${err.message}: ${dataDir} is left as it was`, err.details);
    throw new BackupError(`${file} is not a backup of this server's embedded database (${(err as Error).message}): ${dataDir} is left as it was`);
  }
}
