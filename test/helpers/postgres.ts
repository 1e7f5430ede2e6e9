import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startLocalPostgres, type LocalPostgres } from "../../src/db/localPostgres.js";

/**
 * A real PostgreSQL for the database suites. CI starts one and sets TEST_DATABASE_URL; otherwise
 * one local server is started from the installed binaries for this test run and stopped at the end.
 * Each caller gets a database of its own, dropped by its cleanup.
 */
let server: Promise<{ baseUrl: string; stop: () => Promise<void> }> | undefined;

function baseServer() {
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
      throw new Error(`The PostgreSQL suites need a server: set TEST_DATABASE_URL or install postgresql (${(err as Error).message})`);
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
  const s = await pending.catch(() => undefined);
  await s?.stop();
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database on the test PostgreSQL server. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const { baseUrl } = await baseServer();
  const name = `arena_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
