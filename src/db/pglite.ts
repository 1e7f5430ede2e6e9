import { mkdirSync } from "node:fs";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PgliteThread, type ThreadTransaction } from "./pgliteThread.js";
import type { OpenedDriver, SqlRunner, SqlTx } from "./sql.js";

/**
 * The embedded database: PGlite with its files under `dir` (or in memory when dir is undefined),
 * run on a thread of its own (PgliteThread) so its work does not hold up the game's loop. A new
 * database starts as a copy of `template` when one is given (src/db/pgliteTemplate.ts).
 */
export async function openPglite(dir: string | undefined, template?: string): Promise<OpenedDriver & { dump(file: string): Promise<void> }> {
  if (dir) mkdirSync(dir, { recursive: true });
  const pg = await PgliteThread.open(dir, template);
  const channel = (db: PgliteThread | ThreadTransaction): SqlTx => ({
    exec: async (text) => {
      await db.exec(text);
    },
    query: async <T>(text: string, params: unknown[] = []) => (await db.query(text, params)).rows as T[],
    // One call to the thread; the transaction commits when its function returns (`last` changes nothing here).
    batch: (statements) => (statements.length ? db.batch(statements) : Promise.resolve([])),
  });
  const sql: SqlRunner = { ...channel(pg), transaction: (fn) => pg.transaction((tx) => fn(channel(tx))) };
  // Prisma's adapter calls query, exec and transaction as PGlite has them; the thread answers all three.
  return {
    adapter: new PrismaPGlite(pg as unknown as ConstructorParameters<typeof PrismaPGlite>[0]),
    sql,
    dump: (file) => pg.dump(file),
    close: () => pg.close(),
  };
}
