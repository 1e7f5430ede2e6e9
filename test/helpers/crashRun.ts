import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "../../src/db/client.js";
import { silentLogger } from "../../src/logger.js";
import type { TestDbKind } from "./database.js";
import { createTestDatabase, type TestDatabase } from "./postgres.js";
import { killServerProcesses, startServerProcess, type ServerProcess } from "./serverProcess.js";
import type { StormPlayer } from "./tradeStorm.js";
import { wsConnect, type WsPlayer } from "./wsClient.js";

/**
 * What a test that SIGKILLs the real server needs, on either database kind: a data directory (PGlite)
 * or a throwaway PostgreSQL database, the server's environment (periodic saves every second, so they
 * interleave with the commits under test), a graceful stop that must exit 0, and the database read
 * directly while no server runs. Call inside `describe`; everything is cleaned up after the suite.
 */
export interface CrashRun {
  /** Start the real server on this run's database. */
  start(): Promise<ServerProcess>;
  /** SIGTERM, which must end the process with exit code 0. */
  stopGracefully(server: ServerProcess): Promise<void>;
  /** Open the database (no server may be running: PGlite has one user at a time), read it, close it. */
  read<T>(reader: (db: Database) => Promise<T>): Promise<T>;
  /** Sockets to terminate after the suite. */
  sockets: WsPlayer[];
  /** More clean-up after the suite (before the database goes). */
  onCleanup(fn: () => Promise<unknown> | void): void;
}

export function crashRun(kind: TestDbKind, options: { secret: string; dirPrefix: string }): CrashRun {
  let dataDir = "";
  let pg: TestDatabase | undefined;
  const sockets: WsPlayer[] = [];
  const cleanups: Array<() => Promise<unknown> | void> = [];

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), options.dirPrefix));
    if (kind === "postgres") pg = await createTestDatabase();
  });

  after(async () => {
    await killServerProcesses();
    for (const s of sockets.splice(0)) s.ws.terminate();
    for (const fn of cleanups.splice(0)) await fn();
    await pg?.drop().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  });

  const env = (): Record<string, string> => ({
    DATA_DIR: dataDir,
    JWT_SECRET: options.secret,
    SAVE_INTERVAL: "1",
    LOG_LEVEL: "warn",
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  });

  return {
    sockets,
    start: () => startServerProcess(env(), { timeoutMs: 30_000 }),
    async stopGracefully(server) {
      server.child.kill("SIGTERM");
      assert.deepEqual(await server.exited, { code: 0, signal: null }, `the server did not stop cleanly:\n${server.output()}`);
    },
    async read(reader) {
      const db = await openDatabase(pg ? { databaseUrl: pg.url, logger: silentLogger, migrate: false } : { dataDir, logger: silentLogger, migrate: false });
      try {
        return await reader(db);
      } finally {
        await db.close();
      }
    },
    onCleanup: (fn) => void cleanups.push(fn),
  };
}

/** New guest accounts on a running server, made over HTTP: the characters of a crash test. */
export function newGuests(server: ServerProcess, count: number): Promise<Guest[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const res = await fetch(`${server.url}/api/auth/guest`, { method: "POST" });
      assert.ok(res.ok, `POST /api/auth/guest: ${res.status}`);
      return res.json();
    }),
  );
}

export interface Guest {
  token: string;
  accountId: string;
}

export type Joined = StormPlayer & { sync: any };

/** A guest in the world over /ws (its socket kept in `sockets`), with its first player:sync. */
export async function joinGuest(port: number, guest: Guest, sockets: WsPlayer[]): Promise<Joined> {
  const ws = await wsConnect(port, `?token=${encodeURIComponent(guest.token)}`);
  sockets.push(ws);
  const auth = await ws.next("authenticated");
  const sync = await ws.next("player:sync");
  return { id: auth.data.playerId, token: guest.token, ws, sync: sync.data };
}

/** An inventory as sorted `slot:item x quantity` strings, to compare a sync with the database. */
export const packSlots = (inventory: Array<{ slot: number; itemId: string; quantity: number }>) =>
  inventory.map((s) => `${s.slot}:${s.itemId}x${s.quantity}`).sort();
