import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../../src/db/client.js";
import { freePort } from "../../src/db/localPostgres.js";
import { silentLogger } from "../../src/logger.js";
import { readLedger, type Ledger } from "./itemLedger.js";
import { createTestDatabase, type TestDatabase } from "./postgres.js";
import { startTestRedis, type TestRedis } from "./redis.js";
import { killServerProcesses, startServerProcess, type ServerProcess } from "./serverProcess.js";

/** A world as GET /api/v1/worlds lists it. */
export interface ListedWorld {
  id: number;
  name: string;
  players: number;
  capacity: number;
  status: "online" | "starting" | "offline";
  full: boolean;
  roomId: string | null;
  processId: string | null;
}

/**
 * A cluster of real server processes (started as `npm start` starts one) on a real Redis
 * (Debian's redis-server) and one real PostgreSQL database, each process with its own port and
 * PUBLIC_ADDRESS. Call inside `describe`; `after` kills whatever still runs and drops the database.
 */
export function clusterSuite(options: { worlds: string; secret: string; env?: Record<string, string> }) {
  let redis: TestRedis | undefined;
  let db: TestDatabase | undefined;
  let dataDir = "";
  const processes: ServerProcess[] = [];

  before(async () => {
    redis = await startTestRedis();
    db = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), "arena-cluster-"));
  });
  after(async () => {
    await killServerProcesses();
    await db?.drop().catch(() => {});
    await redis?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const cluster = {
    processes,
    get databaseUrl() {
      return db!.url;
    },
    get redisUrl() {
      return redis!.url;
    },
    /** A statement on the cluster's shared PostgreSQL database: its rows. */
    async sql(text: string, params: unknown[] = []): Promise<any[]> {
      const client = new pg.Client({ connectionString: db!.url });
      await client.connect();
      try {
        return (await client.query(text, params)).rows;
      } finally {
        await client.end();
      }
    },
    /** Every item as the shared database holds it (test/helpers/itemLedger.ts). */
    async ledger(): Promise<Ledger> {
      const opened = await openDatabase({ databaseUrl: db!.url, logger: silentLogger, migrate: false });
      try {
        return await readLedger(opened);
      } finally {
        await opened.close();
      }
    },
    /**
     * Start one more process of the cluster (resolves once its /health answers 200); `port`: the
     * one to listen on (a process started again where one stopped, as a supervisor does).
     */
    async start(extra: Record<string, string> = {}, port?: number): Promise<ServerProcess> {
      port ??= await freePort();
      const p = await startServerProcess(
        {
          REDIS_URL: redis!.url,
          DATABASE_URL: db!.url,
          WORLDS: options.worlds,
          PUBLIC_ADDRESS: `127.0.0.1:${port}`,
          JWT_SECRET: options.secret,
          DATA_DIR: dataDir,
          SAVE_INTERVAL: "1",
          ...options.env,
          ...extra,
        },
        { port, timeoutMs: 45_000 },
      );
      processes.push(p);
      return p;
    },
    /** GET /api/v1/worlds of one process. */
    async worlds(p: ServerProcess): Promise<ListedWorld[]> {
      const res = await fetch(`${p.url}/api/v1/worlds`);
      if (res.status !== 200) throw new Error(`GET /api/v1/worlds: ${res.status}`);
      return ((await res.json()) as { worlds: ListedWorld[] }).worlds;
    },
    /** GET /status of one process. */
    async status(p: ServerProcess): Promise<{ processId: string; cluster: boolean; worlds: number[] }> {
      return (await fetch(`${p.url}/status`)).json() as Promise<{ processId: string; cluster: boolean; worlds: number[] }>;
    },
    /**
     * Wait until each of `procs` runs exactly one world (the cluster's rounds spread them), or fail
     * after 30 s with the shares; the process running each world, and each process's id.
     */
    async oneWorldEach(procs: ServerProcess[]): Promise<{ hostOf: Map<number, ServerProcess>; ids: Map<ServerProcess, string> }> {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const statuses = await Promise.all(procs.map((p) => cluster.status(p)));
        if (statuses.every((s) => s.worlds.length === 1))
          return {
            hostOf: new Map(procs.map((p, i) => [statuses[i]!.worlds[0]!, p])),
            ids: new Map(procs.map((p, i) => [p, statuses[i]!.processId])),
          };
        if (Date.now() > deadline) throw new Error(`the worlds were not spread one per process: ${JSON.stringify(statuses.map((s) => s.worlds))}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    /**
     * Ask `p` for the world list until `done` holds (the cluster's own rounds move worlds: there is
     * no event to wait for from outside), or fail after `timeoutMs` with the last list.
     */
    async until(p: ServerProcess, done: (worlds: ListedWorld[]) => boolean, what: string, timeoutMs = 30_000): Promise<ListedWorld[]> {
      const deadline = Date.now() + timeoutMs;
      let last: ListedWorld[] = [];
      for (;;) {
        last = await cluster.worlds(p).catch(() => last);
        if (done(last)) return last;
        if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms; the list: ${JSON.stringify(last)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
  };
  return cluster;
}
