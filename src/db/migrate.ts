import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import { MIGRATIONS_DIR } from "../paths.js";
import type { SqlRunner } from "./sql.js";

/** An arbitrary, fixed advisory-lock key: one migrating process at a time per database. */
const MIGRATION_LOCK_KEY = 5_555_001;

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

export class MigrationError extends Error {}

/** A short hash of every migration's name and text: what a database migrated from `dir` holds. */
export function migrationsFingerprint(dir: string = MIGRATIONS_DIR): string {
  const hash = createHash("sha256");
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  for (const name of names) hash.update(`${name}\n`).update(readFileSync(path.join(dir, name, "migration.sql")));
  return hash.digest("hex").slice(0, 16);
}

/**
 * Apply prisma/migrations/<name>/migration.sql in name order, each once, each in its own
 * transaction, recording it in _arena_migrations with a checksum. A recorded migration whose
 * file changed afterwards stops start-up: history must not be rewritten under a live database.
 */
export async function applyMigrations(sql: SqlRunner, logger: Logger, dir: string = MIGRATIONS_DIR): Promise<MigrationResult> {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const texts = await Promise.all(names.map((name) => readFile(path.join(dir, name, "migration.sql"), "utf8")));
  const checksums = texts.map((text) => createHash("sha256").update(text).digest("hex"));

  // The usual start: every migration recorded, none changed. One read says so, with no lock and
  // no transaction (a migration missing or changed takes the way below, which checks again under the lock).
  const recorded = await recordedMigrations(sql);
  if (recorded && names.every((name, i) => recorded.get(name) === checksums[i])) {
    logger.debug({ count: names.length }, "database schema up to date");
    return { applied: [], alreadyApplied: names };
  }

  await sql.transaction(async (tx) => {
    // Serialise concurrent starters (several processes on one PostgreSQL); released at commit.
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS "_arena_migrations" (
      "name" TEXT PRIMARY KEY,
      "checksum" TEXT NOT NULL,
      "appliedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
    )`);
  });

  const result: MigrationResult = { applied: [], alreadyApplied: [] };
  for (const [i, name] of names.entries()) {
    const text = texts[i];
    const checksum = checksums[i];
    await sql.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
      const rows = await tx.query<{ checksum: string }>(`SELECT "checksum" FROM "_arena_migrations" WHERE "name" = $1`, [name]);
      if (rows.length > 0) {
        if (rows[0].checksum !== checksum) {
          throw new MigrationError(`Migration ${name} was changed after it was applied (checksum differs); add a new migration instead`);
        }
        result.alreadyApplied.push(name);
        return;
      }
      await tx.exec(text);
      await tx.query(`INSERT INTO "_arena_migrations" ("name", "checksum") VALUES ($1, $2)`, [name, checksum]);
      result.applied.push(name);
      logger.info({ migration: name }, "migration applied");
    });
  }
  if (result.applied.length === 0) logger.debug({ count: result.alreadyApplied.length }, "database schema up to date");
  return result;
}

/** The migrations a database records (name → checksum), or undefined when it has no record yet. */
async function recordedMigrations(sql: SqlRunner): Promise<Map<string, string> | undefined> {
  const [table] = await sql.query<{ found: string | null }>(`SELECT to_regclass('"_arena_migrations"')::text AS "found"`);
  if (!table?.found) return undefined;
  const rows = await sql.query<{ name: string; checksum: string }>(`SELECT "name", "checksum" FROM "_arena_migrations"`);
  return new Map(rows.map((r) => [r.name, r.checksum]));
}
