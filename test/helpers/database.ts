import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "../../src/db/client.js";
import { silentLogger } from "../../src/logger.js";
import { createTestDatabase } from "./postgres.js";

export const DATABASE_KINDS = ["pglite", "postgres"] as const;
export type TestDbKind = (typeof DATABASE_KINDS)[number];

export interface TestDb {
  db: Database;
  /** The PostgreSQL URL (postgres kind) or the PGlite data folder (pglite kind). */
  location: string;
  cleanup(): Promise<void>;
}

/**
 * A migrated, empty database of the given kind, for one suite: a copy of the migrated template
 * (PGlite: src/db/pgliteTemplate.ts; PostgreSQL: createTestDatabase), or unmigrated with
 * `{ migrate: false }`.
 */
export async function openTestDb(kind: TestDbKind, options: { migrate?: boolean } = {}): Promise<TestDb> {
  if (kind === "postgres") {
    const pg = await createTestDatabase({ empty: options.migrate === false });
    const db = await openDatabase({ databaseUrl: pg.url, logger: silentLogger, migrate: options.migrate });
    return {
      db,
      location: pg.url,
      cleanup: async () => {
        await db.close();
        await pg.drop();
      },
    };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "arena-test-pglite-"));
  const db = await openDatabase({ dataDir: dir, logger: silentLogger, migrate: options.migrate });
  return {
    db,
    location: dir,
    cleanup: async () => {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
