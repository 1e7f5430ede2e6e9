/**
 * The raw SQL channel under Prisma, for the few things Prisma does not do: running
 * multi-statement migration files and health pings. One implementation per driver.
 */
export interface SqlRunner {
  /** Run one or more statements with no parameters (a migration file). */
  exec(sql: string): Promise<void>;
  /** Run one statement with positional parameters ($1, $2, ...). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Run fn inside one transaction on one connection; rolled back if it throws. */
  transaction<T>(fn: (tx: Omit<SqlRunner, "transaction">) => Promise<T>): Promise<T>;
}

/** What each driver module hands back: Prisma's adapter, the raw channel and a closer. */
export interface OpenedDriver {
  // Typed loosely: pglite-prisma-adapter is built against an older copy of Prisma's adapter
  // types that differs only in fields it never reads; openDatabase checks both at run time.
  adapter: unknown;
  sql: SqlRunner;
  close(): Promise<void>;
}
