/**
 * The raw SQL channel under Prisma, for the few things Prisma does not do: running
 * multi-statement migration files and health pings. One implementation per driver.
 */
export interface SqlRunner {
  /** Run one or more statements with no parameters (a migration file). */
  exec(sql: string): Promise<void>;
  /** Run one statement with positional parameters ($1, $2, ...). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Run statements in order, in one round trip to the database where the driver can, as separate
   * statements run (each sees what the ones before it wrote and committed, as separate statements
   * do under READ COMMITTED); the rows of each. The first that fails stops the rest. Outside a
   * transaction, a batch is one of its own: all of it is written or none. `last`: inside a
   * transaction, these are its last statements, and the driver may commit with them.
   */
  batch(statements: Statement[], options?: { last?: boolean }): Promise<unknown[][]>;
  /** Run fn inside one transaction on one connection; rolled back if it throws. */
  transaction<T>(fn: (tx: Omit<SqlRunner, "transaction">) => Promise<T>): Promise<T>;
}

/** One statement of a batch: its text, with its parameters as $1, $2, ... and nowhere else. */
export interface Statement {
  sql: string;
  params?: unknown[];
}

/** What each driver module hands back: Prisma's adapter, the raw channel and a closer. */
export interface OpenedDriver {
  // Typed loosely: pglite-prisma-adapter is built against an older copy of Prisma's adapter
  // types that differs only in fields it never reads; openDatabase checks both at run time.
  adapter: unknown;
  sql: SqlRunner;
  close(): Promise<void>;
}

/** One transaction's channel: what SqlRunner.transaction hands its function. */
export type SqlTx = Omit<SqlRunner, "transaction">;

/**
 * The time now as the timestamp columns keep it: UTC without a zone, as Prisma reads and writes
 * them, whatever the session's time zone.
 */
export const NOW_UTC = `(now() AT TIME ZONE 'UTC')`;

/** Column name to SQL type, in the order the rows' fields are written. */
export type Columns = Record<string, string>;

export interface InsertOptions {
  /** Columns set by an SQL expression for every row (a timestamp). */
  constants?: Record<string, string>;
  /** What follows the SELECT (an ON CONFLICT or RETURNING clause). */
  suffix?: string;
}

/**
 * The statement insertRows runs, its rows read from the JSON parameter `$param` (also a part of a
 * larger statement: a data-modifying WITH).
 */
export function insertRowsStatement(table: string, columns: Columns, options: InsertOptions = {}, param = 1): string {
  const constants = Object.entries(options.constants ?? {});
  const names = [...Object.keys(columns), ...constants.map(([c]) => c)].map((c) => `"${c}"`).join(", ");
  const values = [...Object.keys(columns).map((c) => `r."${c}"`), ...constants.map(([, expr]) => expr)].join(", ");
  const types = Object.entries(columns)
    .map(([c, t]) => `"${c}" ${t}`)
    .join(", ");
  return `INSERT INTO "${table}" (${names}) SELECT ${values} FROM jsonb_to_recordset($${param}::jsonb) AS r(${types}) ${options.suffix ?? ""}`;
}

/**
 * Insert many rows in one statement: the rows travel as one JSON parameter and are unpacked by
 * jsonb_to_recordset, so any number of rows is one round trip.
 */
export async function insertRows(tx: SqlTx, table: string, columns: Columns, rows: object[], options: InsertOptions = {}): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(insertRowsStatement(table, columns, options), [JSON.stringify(rows)]);
}

/** `IN (...)` over a list of ids passed as the JSON parameter $n (any length, one parameter). */
export const inJsonList = (n: number) => `IN (SELECT jsonb_array_elements_text($${n}::jsonb))`;
