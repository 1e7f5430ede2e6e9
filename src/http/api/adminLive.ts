import { matchMaker } from "@colyseus/core";
import { Router } from "express";
import { z } from "zod";
import type { ServerContext } from "../../context.js";
import { logTailOf } from "../../logger.js";
import { LOG_LEVELS, LogTail, type LogLevelName, type LogLine } from "../../logTail.js";
import { worldSaves } from "../../metrics.js";
import { VERSION } from "../../version.js";
import { HttpError } from "../errors.js";
import { lastEventId, openEventStream } from "../eventStream.js";
import { parse, refuseUnlessMay } from "./access.js";

/** Live log streams one process serves at once. */
export const LOG_STREAMS_MAX = 10;

const level = z.enum(Object.keys(LOG_LEVELS) as [LogLevelName, ...LogLevelName[]]);
const lineId = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
export const LogQuery = z.strictObject({ level: level.optional(), after: lineId.optional(), limit: z.coerce.number().int().min(1).max(1000).default(200) });
export const LogStreamQuery = z.strictObject({ level: level.optional(), after: lineId.optional() });

/**
 * What admins see live (docs/API.md "Admin API"): GET /api/admin/stats (every world's players by
 * how they play, its ticks, its process's memory; this process's saves), GET /api/admin/log (the
 * latest lines of this process's log, src/logTail.ts) and GET /api/admin/log/stream (each new line
 * as a server-sent event). Admins only: moderators and players are refused FORBIDDEN. Mounted by
 * adminRoutes behind its token check.
 */
export function adminLiveRoutes(ctx: ServerContext) {
  const router = Router();
  const tail = logTailOf(ctx.logger) ?? new LogTail(0);
  let streams = 0;

  router.get("/api/admin/stats", async (req, res) => {
    refuseUnlessMay(req, "stats.read");
    const worlds = await ctx.world.worldStats();
    const memory = process.memoryUsage();
    const saves = Object.fromEntries((await worldSaves.get()).values.map((v) => [String(v.labels.outcome), v.value]));
    const byClient: Record<string, number> = {};
    for (const w of worlds) for (const [k, n] of Object.entries(w.sessionsByClient)) byClient[k] = (byClient[k] ?? 0) + n;
    res.json({
      success: true,
      at: new Date().toISOString(),
      online: { players: worlds.reduce((n, w) => n + w.players, 0), agents: worlds.reduce((n, w) => n + w.agents, 0), sessionsByClient: byClient },
      worlds,
      process: {
        processId: matchMaker.processId ?? null,
        version: VERSION,
        uptimeS: Math.round((Date.now() - ctx.startedAt) / 1000),
        memory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed, heapTotalBytes: memory.heapTotal, externalBytes: memory.external },
        saves: { written: saves.written ?? 0, failed: saves.failed ?? 0 },
      },
    });
  });

  router.get("/api/admin/log", (req, res) => {
    refuseUnlessMay(req, "log.read");
    const q = parse(LogQuery, req.query);
    res.json({ success: true, capacity: tail.capacity, lines: tail.recent(q) });
  });

  router.get("/api/admin/log/stream", (req, res) => {
    refuseUnlessMay(req, "log.read");
    const q = parse(LogStreamQuery, req.query);
    if (streams >= LOG_STREAMS_MAX) throw new HttpError(503, "TOO_MANY_STREAMS", `This server already serves ${LOG_STREAMS_MAX} log streams`);
    streams++;
    const min = LOG_LEVELS[q.level ?? "trace"];
    let last = lastEventId(req) ?? q.after ?? 0;
    const write = (l: LogLine) => {
      if (l.id <= last || LOG_LEVELS[l.level] < min) return;
      last = l.id;
      stream.send("log", l.id, l);
    };
    let stop = () => {};
    const stream = openEventStream(res, () => {
      stop();
      streams--;
    });
    stop = tail.follow(write);
    // The kept lines after the one resumed from (none unless asked), then each new one.
    if (q.after !== undefined || lastEventId(req) !== undefined) for (const l of tail.recent({ after: last })) write(l);
  });

  return router;
}
