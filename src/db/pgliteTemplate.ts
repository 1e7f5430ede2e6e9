import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { Logger } from "pino";
import { CACHE_DIR } from "../paths.js";
import { applyMigrations, migrationsFingerprint } from "./migrate.js";
import { openPglite } from "./pglite.js";

/**
 * The migrated template of the embedded database: an empty database with every migration of
 * prisma/migrations applied, kept as a tar of its data folder. A new embedded database (a new
 * DATA_DIR, or an in-memory one in the tests) starts as a copy of it, which skips PostgreSQL's
 * initdb and the migrations: on this project's 2-core machine an in-memory database (its thread's
 * start included) opens in ~0.9 s instead of ~2.3 s.
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
  for (const dir of [CACHE_DIR, path.join(os.tmpdir(), "arena-world-cache")]) {
    try {
      await mkdir(dir, { recursive: true });
      return dir;
    } catch {
      // read-only: try the next
    }
  }
  throw new Error("no folder to keep the embedded database's template in");
}

/** Where the template's tar is (or is to be) kept: in `dir`, else the default cache folder. */
async function templateFile(dir?: string): Promise<string> {
  const where = dir ?? (await defaultCacheDir());
  await mkdir(where, { recursive: true });
  return path.join(where, templateName());
}

/** Templates being found or made, by kind and the folder they are kept in (undefined: the default). */
const made = new Map<string, Promise<string>>();

/** Once per process and key: a failed attempt is not remembered, so the next database tries again. */
function once(key: string, make: () => Promise<string>): Promise<string> {
  let found = made.get(key);
  if (!found) {
    found = make();
    made.set(key, found);
    found.catch(() => made.delete(key));
  }
  return found;
}

/**
 * The template as a tar of its data folder (in `dir`, else the default cache folder), what a new
 * in-memory database loads: made first when there is none for these migrations.
 */
export function pgliteTemplate(logger: Logger, dir?: string): Promise<string> {
  return once(`tar ${dir}`, async () => {
    const file = await templateFile(dir);
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
  });
}

/**
 * The template as a data folder beside the tar, what a new DATA_DIR is copied from (copying the
 * folder takes a third of the time PGlite takes to write the tar's files out itself).
 */
export function pgliteTemplateFolder(logger: Logger, dir?: string): Promise<string> {
  return once(`folder ${dir}`, async () => {
    const file = await pgliteTemplate(logger, dir);
    const folder = file.replace(/\.tar$/, "");
    if (existsSync(path.join(folder, "PG_VERSION"))) return folder;
    // Written beside and renamed: a reader never sees half a folder.
    const making = `${folder}.${process.pid}.part`;
    await rm(making, { recursive: true, force: true });
    const db = await openPglite(making, file);
    await db.close();
    try {
      await rename(making, folder);
    } catch (err) {
      await rm(making, { recursive: true, force: true });
      if (!existsSync(path.join(folder, "PG_VERSION"))) throw err;
    }
    return folder;
  });
}

/**
 * The template's data folder when it is already made (the usual case), found without waiting a
 * turn of the loop: the new database's thread then starts at once, before the rest of the server
 * loads. Undefined when it is still to be made (pgliteTemplateFolder makes it).
 */
export function madeTemplateFolder(dir?: string): string | undefined {
  const name = templateName().replace(/\.tar$/, "");
  const folders = dir ? [path.join(dir, name)] : [CACHE_DIR, path.join(os.tmpdir(), "arena-world-cache")].map((d) => path.join(d, name));
  return folders.find((folder) => existsSync(path.join(folder, "PG_VERSION")));
}

/** Forget the templates in `dir` (one failed to load): the next database makes them anew. */
export async function discardTemplate(dir?: string): Promise<void> {
  made.delete(`tar ${dir}`);
  made.delete(`folder ${dir}`);
  const file = await templateFile(dir);
  await rm(file, { force: true });
  await rm(file.replace(/\.tar$/, ""), { recursive: true, force: true });
}

/** Whether an embedded database's folder holds no database yet (in memory: always new). */
export function isNewPgliteDir(dir: string | undefined): boolean {
  return !dir || !existsSync(path.join(dir, "PG_VERSION"));
}
