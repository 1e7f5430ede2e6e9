import { matchMaker } from "@colyseus/core";
import { Router } from "express";
import type { Database } from "../db/client.js";
import { VERSION } from "../version.js";

/** A world this process runs, and its latest ticks (WorldRoom.tickSummary). */
export interface HostedWorld {
  id: number;
  players: number;
  ticks: number;
  medianMs: number;
  p99Ms: number;
}

/** How long /health waits for the database before it answers "degraded". */
export const HEALTH_DB_TIMEOUT_MS = 2000;

type Ping = { status: "ok" | "down" | "timeout"; latencyMs: number };

async function pingDatabase(db: Pick<Database, "ping">, timeoutMs: number): Promise<Ping> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    const outcome = await Promise.race([db.ping().then(() => "ok" as const), timeout]);
    return { status: outcome, latencyMs: Math.round(performance.now() - started) };
  } catch {
    return { status: "down", latencyMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /health (deep: a database round trip, and the world running: until the server has made its
 * world, joins would find no room, so it answers 503 "starting") and GET /status (shallow, for the
 * hosting platform).
 */
export function healthRoutes(deps: {
  db: Pick<Database, "ping">;
  startedAt: number;
  worldRunning: () => Promise<boolean>;
  dbTimeoutMs?: number;
  /** Is this process one of a cluster (REDIS_URL)? */
  cluster?: boolean;
  /** The worlds this process runs. */
  hostedWorlds?: () => HostedWorld[];
}) {
  const router = Router();
  const uptime = () => Math.round((Date.now() - deps.startedAt) / 1000);

  router.get("/health", async (_req, res) => {
    const [database, running] = await Promise.all([pingDatabase(deps.db, deps.dbTimeoutMs ?? HEALTH_DB_TIMEOUT_MS), deps.worldRunning().catch(() => false)]);
    const ok = database.status === "ok" && running;
    res
      .status(ok ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({
        status: ok ? "ok" : running ? "degraded" : "starting",
        world: running ? "running" : "starting",
        timestamp: new Date().toISOString(),
        version: VERSION,
        uptime: uptime(),
        database,
      });
  });

  router.get("/status", (_req, res) => {
    const hosted = deps.hostedWorlds?.() ?? [];
    res.set("Cache-Control", "no-store").json({
      status: "ok",
      uptime: uptime(),
      version: VERSION,
      connectedPlayers: matchMaker.stats.local.ccu,
      rooms: matchMaker.stats.local.roomCount,
      processId: matchMaker.processId ?? null,
      cluster: deps.cluster ?? false,
      worlds: hosted.map((w) => w.id),
      ticks: Object.fromEntries(hosted.map(({ id, ...t }) => [id, t])),
    });
  });
  return router;
}
