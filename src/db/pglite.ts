import { mkdirSync } from "node:fs";
import { markStart } from "../startupTimes.js";
import { PgliteThread, type ThreadTransaction } from "./pgliteThread.js";
import type { OpenedDriver, SqlRunner, SqlTx } from "./sql.js";

/**
 * The embedded database: PGlite with its files under `dir` (or in memory when dir is undefined),
 * run on a thread of its own (PgliteThread) so its work does not hold up the game's loop. A new
 * database starts as a copy of `template` when one is given (src/db/pgliteTemplate.ts).
 * `onAdapter` is handed Prisma's adapter as soon as it exists, while the database is still opening
 * (Prisma's own start needs no database: src/db/client.ts runs it meanwhile).
 */
export async function openPglite(
  dir: string | undefined,
  template?: string,
  onAdapter?: (adapter: unknown) => void,
): Promise<OpenedDriver & { dump(file: string): Promise<void> }> {
  if (dir) mkdirSync(dir, { recursive: true });
  // Prisma's adapter loads while the database's thread starts, rather than before it.
  const adapterModule = import("pglite-prisma-adapter");
  adapterModule.catch(() => {});
  const { thread: pg, ready } = PgliteThread.start(dir, template);
  markStart("database thread");
  let PrismaPGlite: (typeof import("pglite-prisma-adapter"))["PrismaPGlite"];
  try {
    ({ PrismaPGlite } = await adapterModule);
  } catch (err) {
    await ready.then(
      () => pg.close(),
      () => {},
    );
    throw err;
  }
  // Prisma's adapter calls query, exec and transaction as PGlite has them; the thread answers all three.
  const adapter = new PrismaPGlite(pg as unknown as ConstructorParameters<typeof PrismaPGlite>[0]);
  onAdapter?.(adapter);
  await ready;
  const channel = (db: PgliteThread | ThreadTransaction): SqlTx => ({
    exec: async (text) => {
      await db.exec(text);
    },
    query: async <T>(text: string, params: unknown[] = []) => (await db.query(text, params)).rows as T[],
    // One call to the thread; the transaction commits when its function returns (`last` changes nothing here).
    batch: (statements) => (statements.length ? db.batch(statements) : Promise.resolve([])),
  });
  const sql: SqlRunner = { ...channel(pg), transaction: (fn) => pg.transaction((tx) => fn(channel(tx))) };
  return {
    adapter,
    sql,
    dump: (file) => pg.dump(file),
    close: () => pg.close(),
  };
}
