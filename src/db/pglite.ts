import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { OpenedDriver, SqlRunner } from "./sql.js";

/** The embedded database: PGlite with its files under `dir` (or in memory when dir is undefined). */
export async function openPglite(dir: string | undefined): Promise<OpenedDriver> {
  if (dir) mkdirSync(dir, { recursive: true });
  const pg = dir ? new PGlite(dir) : new PGlite();
  await pg.waitReady;
  const sql: SqlRunner = {
    exec: async (text) => {
      await pg.exec(text);
    },
    query: async <T>(text: string, params: unknown[] = []) => (await pg.query(text, params)).rows as T[],
    transaction: (fn) =>
      pg.transaction(async (tx) =>
        fn({
          exec: async (text) => {
            await tx.exec(text);
          },
          query: async <T>(text: string, params: unknown[] = []) => (await tx.query(text, params)).rows as T[],
        }),
      ),
  };
  return { adapter: new PrismaPGlite(pg), sql, close: () => pg.close() };
}
