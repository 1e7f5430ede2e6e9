import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { messages } from "@electric-sql/pglite";
import type { ThreadError, ThreadOp, ThreadReply } from "./pgliteCalls.js";
import type { Statement } from "./sql.js";

/** What a query answers: PGlite's Results, as far as the server and Prisma's adapter read them. */
export interface ThreadResults {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

export interface ThreadQueryOptions {
  rowMode?: "array" | "object";
  /** Parsers by type id, run on this thread over the text PostgreSQL gave (PGlite's option). */
  parsers?: Record<number, (text: string, typeId: number) => unknown>;
}

/** One transaction's channel: what `transaction` hands its function (PGlite's Transaction, as used). */
export interface ThreadTransaction {
  query(sql: string, params?: unknown[], options?: ThreadQueryOptions): Promise<ThreadResults>;
  exec(sql: string): Promise<ThreadResults[]>;
  batch(statements: Statement[]): Promise<unknown[][]>;
  /** Roll back now; the transaction then commits nothing when its function returns. */
  rollback(): Promise<void>;
}

/**
 * The embedded database on a thread of its own (src/db/pgliteWorker.ts): the same calls as a PGlite
 * (query, exec, transaction, close) made by message, so PostgreSQL's work runs beside the game's
 * loop instead of on it. Parsers given to a query run here, over the text values the thread sends
 * back. Once closed (or the thread died), every call fails with "PGlite is closed", as PGlite's do.
 *
 * A query on its own is answered by message: the loop goes on meanwhile. A transaction holds the
 * one database while it is open, so it must not wait a turn of the loop per statement (under load
 * that turn is a tick, and every other transaction would queue behind it): its statements wait for
 * their answers in place (Atomics.wait, for up to WAIT_IN_PLACE_MS), as they ran in place before.
 * Transactions take turns here, one open on the thread at a time: a statement waited for in place
 * is then never queued behind another transaction, whose end the loop must be free to reach.
 *
 * Taking turns here rather than on the thread matters under load. When transactions were sent to
 * the thread as they began, one whose statement outlasted the in-place wait let the loop turn, the
 * transactions begun meanwhile had to go by message (a turn of the loop per statement), and while
 * any was open the next did too: bench:trade, 100 pairs on PGlite, fell from 267 to 104 trades/s
 * and never recovered. Now the next transaction starts in place as soon as the one before ends.
 */
export class PgliteThread {
  private readonly calls = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private nextId = 1;
  /** Answers to waited calls taken off the port by another waited call, by id, until their callers look. */
  private readonly waitedAnswers = new Map<number, ThreadReply>();
  /** Waited calls now waited for by promise (the thread is kept referenced for them). */
  private waitingLater = 0;
  private closedBy?: Error;
  /** Settles when the last transaction asked for has ended (the next one's turn). */
  private lastTransaction: Promise<void> = Promise.resolve();

  private constructor(
    private readonly worker: Worker,
    /** Where the thread answers the waited calls, and a count it raises with each answer. */
    private readonly waited: { port: MessagePort; flag: Int32Array },
  ) {
    worker.unref();
    worker.on("message", (reply: ThreadReply) => this.answer(reply));
    worker.on("error", (err) => this.stop(new Error(`PGlite is closed: its thread failed (${err.message})`)));
    worker.on("exit", (code) => this.stop(new Error(`PGlite is closed${code ? `: its thread exited with code ${code}` : ""}`)));
  }

  /**
   * Start the thread and open the database in it (files under `dir`, or in memory). A new database
   * starts as a copy of `template` when one is given: a tar written by `dump` (loaded), or a data
   * folder (copied into `dir`, on the database's thread).
   */
  static async open(dir: string | undefined, template?: string): Promise<PgliteThread> {
    const { thread, ready } = PgliteThread.start(dir, template);
    await ready;
    return thread;
  }

  /**
   * `open`, handing back the thread at once: `ready` settles when the database is open (or failed
   * to). Calls made before then wait on the thread for it.
   */
  static start(dir: string | undefined, template?: string): { thread: PgliteThread; ready: Promise<void> } {
    // PGlite's own module (for its error class) loads here while the thread starts: not before it.
    pgliteLoaded ??= import("@electric-sql/pglite").then((m) => void (DatabaseError = m.messages.DatabaseError));
    const { port1, port2 } = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const thread = new PgliteThread(startWorker({ dir, template, port: port2, flag }), { port: port1, flag });
    thread.worker.ref();
    const opened = new Promise<void>((resolve, reject) => thread.calls.set(0, { resolve: () => resolve(), reject }));
    return { thread, ready: Promise.all([pgliteLoaded, opened]).then(() => {}) };
  }

  /** `tx`: the transaction it belongs to (its statements are waited for in place). */
  query(sql: string, params: unknown[] = [], options: ThreadQueryOptions = {}, tx?: number): Promise<ThreadResults> {
    const parsers = options.parsers;
    const raw = parsers ? Object.keys(parsers).map(Number) : undefined;
    const answer = this.send({ op: "query", sql, params, tx, rowMode: options.rowMode, raw }, tx !== undefined) as Promise<ThreadResults>;
    return parsers ? answer.then((r) => parseRaw(r, parsers)) : answer;
  }

  exec(sql: string, tx?: number): Promise<ThreadResults[]> {
    return this.send({ op: "exec", sql, tx }, tx !== undefined) as Promise<ThreadResults[]>;
  }

  /** Statements run in turn by the thread, one call for all of them: the rows of each. */
  batch(statements: Statement[], tx?: number): Promise<unknown[][]> {
    return this.send({ op: "batch", statements, tx }, tx !== undefined) as Promise<unknown[][]>;
  }

  /** Run fn inside one transaction: committed when it returns, rolled back when it throws. */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const before = this.lastTransaction;
    let ended!: () => void;
    this.lastTransaction = new Promise((resolve) => (ended = resolve));
    // A turn already free is taken without a turn of the loop (a settled promise awaited).
    await before;
    try {
      const n = (await this.send({ op: "begin" }, true)) as number;
      const tx: ThreadTransaction = {
        query: (sql, params, options) => this.query(sql, params, options, n),
        exec: (sql) => this.exec(sql, n),
        batch: (statements) => this.batch(statements, n),
        rollback: async () => {
          await this.send({ op: "rollback", tx: n }, true);
        },
      };
      let result: T;
      try {
        result = await fn(tx);
      } catch (err) {
        await this.send({ op: "end", tx: n, commit: false }, true).catch(() => {});
        throw err;
      }
      await this.send({ op: "end", tx: n, commit: true }, true);
      return result;
    } finally {
      ended();
    }
  }

  /** Write the whole database (a tar of its data folder, what `open` takes as a template) to `file`. */
  async dump(file: string): Promise<void> {
    await this.send({ op: "dump", file });
  }

  /** Close the database (its files are left whole) and end the thread. */
  async close(): Promise<void> {
    if (this.closedBy) return;
    await this.send({ op: "close" }).catch(() => {});
    this.stop(new Error("PGlite is closed"));
    this.waited.port.close();
    await this.worker.terminate();
  }

  private send(c: ThreadOp, waits = false): Promise<unknown> {
    if (this.closedBy) return Promise.reject(this.closedBy);
    if (waits) {
      try {
        return this.waitFor(c);
      } catch (err) {
        return Promise.reject(err);
      }
    }
    const id = this.nextId++;
    // The thread keeps the process alive only while something waits for it.
    if (this.calls.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      this.worker.postMessage({ ...c, id });
    });
  }

  /**
   * The call answered in place: this thread waits (for the calls before it, then this one), but
   * not for long: a statement still running after WAIT_IN_PLACE_MS (a big save, or the thread busy
   * with a long query first) is then waited for without holding the loop.
   *
   * More than one waited call can be in flight (a transaction's function that does not await each
   * statement; Prisma's adapter, which does not await its rollback): each answer is taken by its
   * own id, the others kept for their callers, so no call ever takes another's answer.
   */
  private waitFor(c: ThreadOp): Promise<unknown> {
    const id = this.nextId++;
    this.worker.postMessage({ ...c, id, waited: true });
    const until = performance.now() + WAIT_IN_PLACE_MS;
    for (;;) {
      // The count read before the port is looked at: an answer posted after the look raises it.
      const seen = Atomics.load(this.waited.flag, 0);
      const reply = this.takeWaited(id);
      if (reply) return Promise.resolve(settled(reply));
      const left = until - performance.now();
      if (left <= 0) return this.waitLater(id);
      Atomics.wait(this.waited.flag, 0, seen, left);
    }
  }

  private async waitLater(id: number): Promise<unknown> {
    this.waitingLater++;
    this.worker.ref();
    const until = performance.now() + WAIT_LIMIT_MS;
    try {
      for (;;) {
        const seen = Atomics.load(this.waited.flag, 0);
        const reply = this.takeWaited(id);
        if (reply) return settled(reply);
        if (this.closedBy) throw this.closedBy;
        const left = until - performance.now();
        if (left > 0) {
          const w = Atomics.waitAsync(this.waited.flag, 0, seen, left);
          if (w.async) await w.value;
        } else {
          const why = new Error(`PGlite is closed: its thread gave no answer in ${WAIT_LIMIT_MS / 1000} s`);
          this.stop(why);
          void this.worker.terminate();
          throw why;
        }
      }
    } finally {
      this.waitingLater--;
      this.unrefIfIdle();
    }
  }

  /** The answer to waited call `id` if the thread has given it (every answer on the port kept by id). */
  private takeWaited(id: number): ThreadReply | undefined {
    for (let m = receiveMessageOnPort(this.waited.port); m; m = receiveMessageOnPort(this.waited.port)) {
      const reply = m.message as ThreadReply;
      this.waitedAnswers.set(reply.id, reply);
    }
    const reply = this.waitedAnswers.get(id);
    this.waitedAnswers.delete(id);
    return reply;
  }

  /** The thread keeps the process alive only while something waits for it. */
  private unrefIfIdle() {
    if (this.calls.size === 0 && this.waitingLater === 0) this.worker.unref();
  }

  private answer(reply: ThreadReply) {
    const call = this.calls.get(reply.id);
    if (!call) return;
    // An answer before PGlite's module is here (the thread failing to open, at once): its error's class comes with it.
    if (!DatabaseError && !reply.ok && reply.error.database) return void pgliteLoaded!.then(() => this.answer(reply));
    this.calls.delete(reply.id);
    this.unrefIfIdle();
    if (reply.ok) call.resolve(reply.result);
    else call.reject(errorFrom(reply.error));
  }

  /** The thread is gone: every waiting call fails, and so does every later one. */
  private stop(why: Error) {
    this.closedBy ??= why;
    for (const call of this.calls.values()) call.reject(why);
    this.calls.clear();
    // Wake the calls waited for by promise: they fail with the same reason.
    Atomics.add(this.waited.flag, 0, 1);
    Atomics.notify(this.waited.flag, 0);
    this.worker.unref();
  }
}

/** A waited call's answer: its result, or its error thrown. */
function settled(reply: ThreadReply): unknown {
  if (!reply.ok) throw errorFrom(reply.error);
  return reply.result;
}

/** How long the loop is held waiting for a transaction's statement before it is waited for by promise. */
const WAIT_IN_PLACE_MS = 50;
/** How long a transaction's statement may take before the thread is taken for dead. */
const WAIT_LIMIT_MS = 120_000;

/**
 * The worker, started from this module's own kind of file: compiled JavaScript as is; TypeScript
 * source (npm start, the tests) through tsx, which does not load itself in worker threads.
 */
function startWorker(workerData: { dir: string | undefined; template: string | undefined; port: MessagePort; flag: Int32Array }): Worker {
  const ahead = takeThreadStartedAhead();
  if (ahead) {
    ahead.postMessage(workerData, [workerData.port]);
    return ahead;
  }
  const options = { workerData, transferList: [workerData.port] };
  const fromSource = import.meta.url.endsWith(".ts");
  const entry = new URL(fromSource ? "./pgliteWorker.ts" : "./pgliteWorker.js", import.meta.url);
  if (!fromSource) return new Worker(entry, options);
  // tsx's ES module entry, beside the CommonJS one that require resolves (import.meta.resolve is
  // missing where the tests load this module as CommonJS).
  const tsx = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve("tsx/esm/api")), "index.mjs")).href;
  const boot = `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

/**
 * A database thread npm start's launcher (src/launch.mjs) started ahead, while the server's code
 * loads: it has loaded PGlite by the time the first database opens, and takes that database.
 */
const AHEAD = Symbol.for("arena-world.pgliteThreadAhead");
type Ahead = { worker: Worker; failed: boolean } | undefined;

/** The thread started ahead, unless it failed or was taken: once. */
function takeThreadStartedAhead(): Worker | undefined {
  const ahead = (globalThis as Record<symbol, Ahead>)[AHEAD];
  delete (globalThis as Record<symbol, Ahead>)[AHEAD];
  return ahead && !ahead.failed ? ahead.worker : undefined;
}

/** A server whose database is not the embedded one ends the thread started ahead for it. */
export function endThreadStartedAhead(): void {
  void takeThreadStartedAhead()?.terminate();
}

/** PGlite's error class, once its module is loaded (by the first `open`). */
let DatabaseError: typeof messages.DatabaseError | undefined;
let pgliteLoaded: Promise<void> | undefined;

/** A PostgreSQL error as PGlite throws it (its class, code and fields), or a plain Error. */
function errorFrom(e: ThreadError): Error {
  const err = e.database && DatabaseError ? new DatabaseError(e.message, e.length ?? 0, (e.name ?? "error") as "error") : new Error(e.message);
  return Object.assign(err, e.fields);
}

function parseRaw(r: ThreadResults, parsers: NonNullable<ThreadQueryOptions["parsers"]>): ThreadResults {
  const columns = r.fields.map((f, i) => ({ i, key: f.name, type: f.dataTypeID, parse: parsers[f.dataTypeID] })).filter((c) => c.parse);
  if (columns.length === 0) return r;
  for (const row of r.rows as Record<string | number, unknown>[]) {
    for (const c of columns) {
      const k = Array.isArray(row) ? c.i : c.key;
      const v = row[k];
      if (v !== null && v !== undefined) row[k] = c.parse!(v as string, c.type);
    }
  }
  return r;
}
