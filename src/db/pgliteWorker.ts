/**
 * The embedded database's own thread: it opens PGlite (its files under `dir`, or in memory, as its
 * workerData says, or its first message when the launcher started it ahead) and runs what the
 * server's thread asks (src/db/pgliteCalls.ts), so PostgreSQL's work (planning, executing, reading
 * rows back) never holds up the game's loop. Calls are started in the order they arrive; PGlite's
 * own locks then order them as they would on one thread (a query outside a transaction waits for
 * the open one to end).
 */
import { cpSync, readFileSync, statSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { messages, PGlite, type Results, type Transaction } from "@electric-sql/pglite";
import { ERROR_FIELDS, type ThreadCall, type ThreadError, type ThreadReply } from "./pgliteCalls.js";

const port = parentPort!;
/** What the thread opens, and where it answers the waited calls. */
interface Opening {
  dir?: string;
  template?: string;
  port: MessagePort;
  flag: Int32Array;
}
// Started ahead by npm start's launcher (src/launch.mjs), the thread has loaded PGlite meanwhile and
// is told what to open by its first message; else by its workerData.
const {
  dir,
  template,
  port: waitedPort,
  flag,
} = (workerData as { prewarmed?: boolean } | undefined)?.prewarmed
  ? await new Promise<Opening>((resolve) => port.once("message", resolve))
  : (workerData as Opening);
// A new database starts as a copy of the migrated template (src/db/pgliteTemplate.ts) when given
// one, which skips initdb and the migrations: its data folder copied into `dir` (here, beside the
// server's thread, which meanwhile loads the rest of the server), or its tar loaded (in memory).
let loadDataDir: Blob | undefined;
if (template && dir && statSync(template).isDirectory()) cpSync(template, dir, { recursive: true });
else if (template) loadDataDir = new Blob([readFileSync(template)]);
/**
 * PostgreSQL's buffer pool: 32 MB rather than the data folder's 128 MB. PGlite's PostgreSQL clears
 * the whole pool as it starts, which took ~0.1 s of the start's CPU at 128 MB on this project's
 * 2-core machine (~0.03 s at 32 MB); an embedded world's tables are a few MB, and pages outside the
 * pool are read from the operating system's file cache.
 */
const SHARED_BUFFERS = "32MB";
const db = new PGlite({ dataDir: dir, loadDataDir, startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${SHARED_BUFFERS}`] });

interface OpenTx {
  tx: Transaction;
  /** Let the transaction's callback return (commit) or throw (roll back). */
  end(commit: boolean): void;
  /** The transaction's outcome: committed or rolled back on the caller's word, or its error. */
  finished: Promise<void>;
  /** A rollback asked for and not yet done. */
  rolledBack?: Promise<void>;
}
const open = new Map<number, OpenTx>();
let nextTx = 1;
/** Thrown by a transaction's callback to roll it back on the caller's word. */
const ROLL_BACK = new Error("rolled back by the caller");

function errorOf(err: unknown): ThreadError {
  const e = err as Error & Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const k of ERROR_FIELDS) if (e?.[k] !== undefined) fields[k] = e[k];
  return {
    message: String(e?.message ?? err),
    database: err instanceof messages.DatabaseError,
    name: typeof e?.name === "string" ? e.name : undefined,
    length: typeof e?.length === "number" ? e.length : undefined,
    fields,
  };
}

function openTx(n: number): OpenTx {
  const t = open.get(n);
  if (!t) throw new Error(`transaction ${n} is not open`);
  return t;
}

/** A transaction, opened once PGlite is free (its number), kept open until the caller ends it. */
function begin(): Promise<number> {
  return new Promise((opened, failed) => {
    const n = nextTx++;
    let end!: (commit: boolean) => void;
    const asked = new Promise<boolean>((resolve) => (end = resolve));
    const t = { end } as OpenTx;
    t.finished = db
      .transaction(async (tx) => {
        t.tx = tx;
        open.set(n, t);
        opened(n);
        const commit = await asked;
        await t.rolledBack;
        if (!commit) throw ROLL_BACK;
      })
      .catch((err) => {
        if (err !== ROLL_BACK) throw err;
      });
    // BEGIN itself refused: the transaction never opened.
    t.finished.catch((err) => {
      if (!open.has(n)) failed(err);
    });
  });
}

async function end(n: number, commit: boolean): Promise<void> {
  const t = openTx(n);
  t.end(commit);
  try {
    await t.finished;
  } finally {
    open.delete(n);
  }
}

/** Where a statement runs: inside its open transaction, or on its own. */
const runnerOf = (tx: number | undefined): PGlite | Transaction => (tx === undefined ? db : openTx(tx).tx);

/** What crosses back of a statement's results (PGlite's Results, without what cannot be copied). */
const resultOf = (r: Results) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows });

async function run(call: ThreadCall): Promise<unknown> {
  switch (call.op) {
    case "query": {
      const parsers = call.raw && Object.fromEntries(call.raw.map((type) => [type, (text: string) => text]));
      return resultOf(await runnerOf(call.tx).query(call.sql, call.params, { rowMode: call.rowMode, parsers }));
    }
    case "exec":
      return (await runnerOf(call.tx).exec(call.sql)).map(resultOf);
    case "batch": {
      const runAll = async (runner: PGlite | Transaction) => {
        const rows: unknown[][] = [];
        for (const s of call.statements) rows.push((await runner.query(s.sql, s.params ?? [])).rows);
        return rows;
      };
      // On its own, a batch is a transaction of its own (as a simple query of several statements is on PostgreSQL).
      return call.tx === undefined ? db.transaction(runAll) : runAll(openTx(call.tx).tx);
    }
    case "begin":
      return begin();
    case "rollback": {
      const t = openTx(call.tx);
      t.rolledBack = t.tx.rollback();
      return t.rolledBack;
    }
    case "end":
      return end(call.tx, call.commit);
    case "dump": {
      // Written beside and renamed: a reader never sees half a file.
      const bytes = new Uint8Array(await (await db.dumpDataDir("none")).arrayBuffer());
      const part = `${call.file}.${process.pid}.${Date.now()}.part`;
      await writeFile(part, bytes);
      await rename(part, call.file);
      return undefined;
    }
    case "close":
      await db.close();
      return undefined;
  }
}

/** Answer a call: by message, or on the waited-for port, waking the thread that waits. */
function reply(call: ThreadCall, r: ThreadReply) {
  const to = call.waited ? waitedPort : port;
  try {
    to.postMessage(r);
  } catch (err) {
    // A result that cannot cross threads is still an answer: the caller must not wait forever.
    to.postMessage({ id: call.id, ok: false, error: errorOf(err) } satisfies ThreadReply);
  }
  if (!call.waited) return;
  Atomics.add(flag, 0, 1);
  Atomics.notify(flag, 0);
}

port.on("message", (call: ThreadCall) => {
  run(call).then(
    (result) => reply(call, { id: call.id, ok: true, result }),
    (err) => reply(call, { id: call.id, ok: false, error: errorOf(err) }),
  );
});

db.waitReady.then(
  () => port.postMessage({ id: 0, ok: true, result: "ready" } satisfies ThreadReply),
  (err) => port.postMessage({ id: 0, ok: false, error: errorOf(err) } satisfies ThreadReply),
);
