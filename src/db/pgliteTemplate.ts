import { existsSync, readFileSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { Logger } from "pino";
import { ROOT } from "../paths.js";
import { applyMigrations, migrationsFingerprint } from "./migrate.js";
import { openPglite } from "./pglite.js";

/**
 * The migrated template of the embedded database: an empty database with every migration of
 * prisma/migrations applied, kept as a tar of its data folder. A new embedded database (a new
 * DATA_DIR, or an in-memory one in the tests) starts as a copy of it, which skips PostgreSQL's
 * initdb and the migrations: on this project's 2-core machine ~0.35 s instead of ~2 s.
 *
 * It is made once a machine, by `npm install` (the project's postinstall) or else by the first
 * database that needs it, and kept under node_modules/.cache/arena-world (the system's temporary
 * folder when that cannot be written), named for the migrations and the PGlite version it holds:
 * a new migration or a PGlite upgrade makes a new one, and an old one is never loaded.
 */

/** Which migrations and which PGlite a template holds: its file name. */
function templateName(): string {
  // The package's own manifest, beside its dist/ (its exports do not include package.json).
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const pglite = JSON.parse(readFileSync(path.join(path.dirname(entry), "..", "package.json"), "utf8")) as { version: string };
  return `pglite-${pglite.version}-${migrationsFingerprint()}.tar`;
}

/** Where templates are kept by default: the first of these folders that can be made. */
async function defaultCacheDir(): Promise<string> {
  for (const dir of [path.join(ROOT, "node_modules", ".cache", "arena-world"), path.join(os.tmpdir(), "arena-world-cache")]) {
    try {
      await mkdir(dir, { recursive: true });
      return dir;
    } catch {
      // read-only: try the next
    }
  }
  throw new Error("no folder to keep the embedded database's template in");
}

/** The template being found or made, by the folder it is kept in (undefined: the default). */
const made = new Map<string | undefined, Promise<string>>();

/**
 * The template's file (in `dir`, else the default cache folder), made first when there is none for
 * these migrations; once per process and folder.
 */
export function pgliteTemplate(logger: Logger, dir?: string): Promise<string> {
  let file = made.get(dir);
  if (!file) {
    file = (async () => {
      const where = dir ?? (await defaultCacheDir());
      await mkdir(where, { recursive: true });
      const file = path.join(where, templateName());
      if (existsSync(file)) return file;
      const started = performance.now();
      const db = await openPglite(undefined);
      try {
        await applyMigrations(db.sql, logger);
        await db.dump(file);
      } finally {
        await db.close();
      }
      logger.info({ file, ms: Math.round(performance.now() - started) }, "embedded database template made");
      return file;
    })();
    made.set(dir, file);
    // A failed attempt is not remembered: the next database tries again.
    file.catch(() => made.delete(dir));
  }
  return file;
}

/** Forget a template that failed to load: the next database makes it anew. */
export async function discardTemplate(file: string, dir?: string): Promise<void> {
  made.delete(dir);
  await rm(file, { force: true });
}

/** Whether an embedded database's folder holds no database yet (in memory: always new). */
export function isNewPgliteDir(dir: string | undefined): boolean {
  return !dir || !existsSync(path.join(dir, "PG_VERSION"));
}
