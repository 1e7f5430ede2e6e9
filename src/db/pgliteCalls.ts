import type { Statement } from "./sql.js";

/**
 * What the server's thread and the embedded database's thread (src/db/pgliteWorker.ts) say to
 * each other (src/db/pgliteThread.ts is the server's side). Every call carries an id and is
 * answered once, with that id: by message, or (waited) on the port given at start, with the
 * shared count raised for the server's thread that waits for it (which takes the answers by id).
 */
export type ThreadOp =
  | {
      op: "query";
      sql: string;
      params: unknown[];
      /** Inside this open transaction (else on its own, after any open one ends). */
      tx?: number;
      rowMode?: "array" | "object";
      /** Type ids whose values come back as PostgreSQL's text: the caller parses them itself. */
      raw?: number[];
    }
  | { op: "exec"; sql: string; tx?: number }
  /** Statements run in turn (inside this open transaction, else on their own): the rows of each. */
  | { op: "batch"; statements: Statement[]; tx?: number }
  /** Open a transaction (once the database is free): answered with its number. */
  | { op: "begin" }
  /** Roll the open transaction back now (it stays open until ended; it commits nothing). */
  | { op: "rollback"; tx: number }
  /** End the transaction: commit it (unless rolled back) or roll it back. */
  | { op: "end"; tx: number; commit: boolean }
  /** Write the whole database (a tar of its data folder) to this file. */
  | { op: "dump"; file: string }
  | { op: "close" };

/** An operation as sent: with its id, and whether the caller waits for it in place. */
export type ThreadCall = ThreadOp & { id: number; waited?: boolean };

/** An error as it crosses threads: its message and PostgreSQL's fields. */
export interface ThreadError {
  message: string;
  /** A PostgreSQL error (PGlite's DatabaseError), not a fault of the thread. */
  database: boolean;
  name?: string;
  length?: number;
  fields: Record<string, unknown>;
}

export type ThreadReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: ThreadError }
  /** The database opened (id 0), or could not. */
  | { id: 0; ok: true; result: "ready" };

/** Fields of a PostgreSQL error worth carrying (what the callers and Prisma's adapter read). */
export const ERROR_FIELDS = [
  "code",
  "severity",
  "detail",
  "hint",
  "position",
  "where",
  "schema",
  "table",
  "column",
  "dataType",
  "constraint",
  "routine",
] as const;
