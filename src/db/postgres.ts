import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import type { OpenedDriver, SqlRunner, SqlTx, Statement } from "./sql.js";

/**
 * A batch as one simple-protocol query: one round trip whatever the number of statements (PostgreSQL
 * gives each statement of a simple query a snapshot of its own). Its parameters are written in as
 * quoted literals (pg's escapeLiteral): a quoted literal's type comes from where it stands, as a
 * parameter's does, since pg sends every parameter as text of no stated type.
 */
export function batchText(statements: Statement[]): string {
  return statements.map(({ sql, params = [] }) => sql.replace(/\$(\d+)/g, (_, n: string) => literal(params, Number(n)))).join(";\n");
}

function literal(params: unknown[], n: number): string {
  if (n < 1 || n > params.length) throw new Error(`batch: $${n} has no parameter`);
  const v = params[n - 1];
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "string") return pg.escapeLiteral(v);
  if ((typeof v === "number" && Number.isFinite(v)) || typeof v === "bigint" || typeof v === "boolean") return `'${String(v)}'`;
  throw new Error(`batch: $${n} is a ${typeof v}, not a string, number or boolean`);
}

/** The rows of each statement of a simple query (pg answers one result, or one per statement). */
async function runBatch(client: pg.Pool | pg.PoolClient, text: string): Promise<unknown[][]> {
  const r = (await client.query(text)) as pg.QueryResult | pg.QueryResult[];
  return (Array.isArray(r) ? r : [r]).map((one) => one.rows);
}

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
    batch: async (statements) => (statements.length ? runBatch(pool, batchText(statements)) : []),
    transaction: async (fn) => {
      const client = await pool.connect();
      // BEGIN goes with the transaction's first statements and COMMIT with its last batch, when it has one: round trips saved.
      let begun = false;
      let committed = false;
      const begin = async () => {
        if (committed) throw new Error("the transaction has committed with its last batch");
        if (begun) return;
        begun = true;
        await client.query("BEGIN");
      };
      const tx: SqlTx = {
        exec: async (text) => {
          await begin();
          await client.query(text);
        },
        query: async <T>(text: string, params: unknown[] = []) => {
          await begin();
          return (await client.query(text, params)).rows as T[];
        },
        batch: async (statements, options = {}) => {
          if (committed) throw new Error("the transaction has committed with its last batch");
          const parts = [...(begun ? [] : ["BEGIN"]), ...(statements.length ? [batchText(statements)] : []), ...(options.last ? ["COMMIT"] : [])];
          const opening = !begun;
          begun = true;
          if (parts.length === 0) return [];
          const rows = await runBatch(client, parts.join(";\n"));
          if (options.last) committed = true;
          return rows.slice(opening ? 1 : 0, (opening ? 1 : 0) + statements.length);
        },
      };
      try {
        const result = await fn(tx);
        if (begun && !committed) await client.query("COMMIT");
        return result;
      } catch (err) {
        if (begun && !committed) await client.query("ROLLBACK").catch(() => {});
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
