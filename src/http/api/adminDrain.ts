import { matchMaker } from "@colyseus/core";
import { Router, type Request } from "express";
import { z } from "zod";
import { DRAINING_KEY, liveProcesses } from "../../../rooms/cluster/worldHosting.js";
import type { ServerContext } from "../../context.js";
import type { StaffAct } from "../../game/staff.js";
import { GameError } from "../../game/types.js";
import { drainChannel, drainOf } from "../../staff/drain.js";
import { moderationOf, type StaffActor } from "../../staff/moderation.js";
import { parse } from "./access.js";
import { staffAct } from "./staffActs.js";

export const DrainBody = z.strictObject({
  /** The process to drain (GET /status's processId); none: the one answering. */
  processId: z.string().trim().min(1).max(64).optional(),
  reason: z.string().trim().min(1).max(500).optional(),
});

/**
 * Draining a process for an upgrade (docs/DEPLOYMENT.md "Upgrades no player notices"): POST
 * /api/admin/drain moves every world of the named process (or the one answering) to the others,
 * with its players, and that process then exits 0; GET /api/admin/drain says how it goes. Admins.
 * Another process is asked over the presence (Redis) channel it listens on.
 */
export function adminDrainRoutes(ctx: ServerContext, actor: (req: Request, act: StaffAct) => Promise<StaffActor>) {
  const router = Router();
  const moderation = moderationOf(ctx);
  const drains = drainOf(ctx);

  /** The live processes, and which of them are draining. */
  const processes = async () => {
    const live = await liveProcesses(matchMaker.presence);
    live.add(matchMaker.processId);
    const draining = new Set(await matchMaker.presence.smembers(DRAINING_KEY));
    return { live, draining };
  };

  router.get("/api/admin/drain", async (req, res) => {
    await actor(req, "drain");
    const { live, draining } = await processes();
    res.json({
      success: true,
      processId: matchMaker.processId,
      drain: drains.current ?? null,
      processes: [...live].sort().map((processId) => ({ processId, draining: draining.has(processId) })),
    });
  });

  router.post("/api/admin/drain", async (req, res) => {
    const body = parse(DrainBody, req.body ?? {});
    const who = await actor(req, "drain");
    const target = body.processId ?? matchMaker.processId;
    const { draining } = await staffAct(async () => {
      if (!ctx.config.cluster)
        throw new GameError(
          "NO_CLUSTER",
          "A drain hands a process's worlds to the other processes of a cluster (REDIS_URL): this server runs alone; use POST /api/admin/restart",
        );
      const found = await processes();
      if (!found.live.has(target)) throw new GameError("UNKNOWN_PROCESS", `No live process ${target} (GET /api/admin/drain lists them)`);
      const staying = [...found.live].filter((pid) => pid !== target && !found.draining.has(pid));
      if (staying.length === 0) throw new GameError("NO_OTHER_PROCESS", "No other process would take the worlds: start the new one first, then drain this one");
      return found;
    });
    await staffAct(() => moderation.record(who, "drain", "drain", null, { processId: target }, body.reason ?? null));
    if (target === matchMaker.processId) {
      const before = drains.current;
      const state = await staffAct(async () => drains.start(who.name));
      return void res.status(202).json({ success: true, processId: target, startedAt: state.startedAt, alreadyDraining: before !== undefined });
    }
    await matchMaker.presence.publish(drainChannel(target), { by: who.name });
    res.status(202).json({ success: true, processId: target, alreadyDraining: draining.has(target) });
  });

  return router;
}
