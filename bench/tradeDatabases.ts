import { openDatabase, type Database } from "../src/db/client.js";
import { postgresBinaries } from "../src/db/postgresBinaries.js";
import { silentLogger } from "../src/logger.js";
import { createTestDatabase, type TestDatabase } from "../test/helpers/postgres.js";

/** The trade bench's databases: PGlite in memory, and PostgreSQL (TEST_DATABASE_URL or a throwaway local cluster). */

export type DbKind = "pglite" | "postgres";

export const LABEL: Record<DbKind, string> = { pglite: "PGlite", postgres: "PostgreSQL" };

export async function openBenchDb(kind: DbKind): Promise<{ db: Database; label: string; cleanup: () => Promise<void> } | { skipped: string }> {
  if (kind === "pglite") {
    const db = await openDatabase({ logger: silentLogger });
    return { db, label: "PGlite (embedded, in memory)", cleanup: () => db.close() };
  }
  const fromEnv = Boolean(process.env.TEST_DATABASE_URL);
  if (!fromEnv && !postgresBinaries()) return { skipped: "no PostgreSQL binaries (initdb, pg_ctl) found and TEST_DATABASE_URL is not set" };
  let pg: TestDatabase | undefined;
  try {
    pg = await createTestDatabase();
    const db = await openDatabase({ databaseUrl: pg.url, logger: silentLogger });
    const version = (await db.sql.query<{ v: string }>("SELECT current_setting('server_version') AS v").catch(() => []))[0]?.v ?? "?";
    const label = `PostgreSQL ${version} (${fromEnv ? "TEST_DATABASE_URL" : "local throwaway cluster, fsync off"})`;
    return { db, label, cleanup: async () => (await db.close(), await pg!.drop()) };
  } catch (err) {
    await pg?.drop().catch(() => {});
    return { skipped: `PostgreSQL unavailable: ${(err as Error).message.split("\n")[0]}` };
  }
}
