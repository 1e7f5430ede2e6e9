import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import type { OpenedDriver, SqlRunner } from "./sql.js";

/** A PostgreSQL server reached by URL, through one shared pool. */
export async function openPostgres(url: string, options: { max?: number } = {}): Promise<OpenedDriver> {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server must not crash the process.
  pool.on("error", () => {});
  const sql: SqlRunner = {
    exec: async (text) => {
      await pool.query(text);
    },
    query: async <T>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as T[],
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn({
          exec: async (text) => {
            await client.query(text);
          },
          query: async <T>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as T[],
        });
        await client.query("COMMIT");
        return result;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
  };
  // Fail fast with a clear error when the server is unreachable.
  await sql.query("SELECT 1");
  return { adapter: new PrismaPg(pool), sql, close: () => pool.end() };
}
