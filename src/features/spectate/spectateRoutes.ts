import type { AgentMapping } from "@prisma/client";
import { Router, type Request } from "express";
import { z } from "zod";
import type { ActivityEntry } from "../../agentActivity.js";
import type { AgentRuntime } from "../../agents/runtime.js";
import { signToken } from "../../auth/tokens.js";
import type { ServerContext } from "../../context.js";
import { agentById } from "../../db/agentRepo.js";
import { AgentParams, steerableAgent } from "../../http/api/agents.js";
import { authOf, parse } from "../../http/api/access.js";
import { playerView } from "../../http/api/playerView.js";
import { HttpError } from "../../http/errors.js";
import { lastEventId, openEventStream } from "../../http/eventStream.js";
import { requireAuth } from "../../http/requireAuth.js";

/** How long a watch link lasts unless asked otherwise, and the bounds of what may be asked. */
export const WATCH_TTL_DEFAULT_S = 24 * 3600;
export const WATCH_TTL_MIN_S = 60;
export const WATCH_TTL_MAX_S = 7 * 24 * 3600;
/** Activity streams one process serves at once, and per agent. */
export const ACTIVITY_STREAMS_MAX = 500;
export const ACTIVITY_STREAMS_PER_AGENT = 20;

export const WatchBody = z.strictObject({ ttlSeconds: z.number().int().min(WATCH_TTL_MIN_S).max(WATCH_TTL_MAX_S).optional() });
export const ActivityQuery = z.strictObject({ since: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional() });

/**
 * Watching agents: POST /api/agents/:agentId/watch (its owner or an admin) makes a watch link, a
 * spectator token good for that agent alone; GET /api/agents/:agentId/activity (the owner, an admin,
 * or a watch token of that agent) says what the agent is, where it plays, its goal, its character
 * and the lines of its activity; GET …/activity/stream sends each new line as it is written
 * (server-sent events). A watch token is refused everywhere else (TOKEN_READ_ONLY, src/auth/tokens.ts).
 */
export function spectateRoutes(ctx: ServerContext, runtime: AgentRuntime | undefined) {
  const router = Router();
  const prisma = ctx.db.prisma;
  const auth = requireAuth(ctx.config.jwtSecret, prisma);
  let streams = 0;
  const streamsOf = new Map<string, number>();

  /** Any token as every route takes it, and a watch token of an account that stands (it names its agent). */
  const watcherAuth = requireAuth(ctx.config.jwtSecret, prisma, { watch: true });

  /** The agent in the path, if the caller may watch it: a watch token of that agent, its owner, an admin. */
  async function watchedAgent(req: Request): Promise<AgentMapping> {
    const who = authOf(req);
    if (who.role !== "spectator") return steerableAgent(prisma, req);
    const { agentId } = parse(AgentParams, req.params);
    const m = await agentById(prisma, agentId);
    if (!m) throw new HttpError(404, "AGENT_NOT_FOUND", "No such agent");
    if (who.agentId !== m.agentId) throw new HttpError(403, "FORBIDDEN", "This watch token is for another agent");
    return m;
  }

  router.post("/api/agents/:agentId/watch", auth, async (req, res) => {
    const m = await steerableAgent(prisma, req);
    const { ttlSeconds = WATCH_TTL_DEFAULT_S } = parse(WatchBody, req.body ?? {});
    const token = signToken({ sub: authOf(req).sub, role: "spectator", characterId: m.characterId, agentId: m.agentId }, ctx.config.jwtSecret, ttlSeconds);
    res.status(201).json({
      success: true,
      agentId: m.agentId,
      characterId: m.characterId,
      name: m.name,
      token,
      expiresIn: ttlSeconds,
      // The token after '#' never reaches a server's logs.
      watchUrl: `/#watch=${token}`,
    });
  });

  router.get("/api/agents/:agentId/activity", watcherAuth, async (req, res) => {
    const m = await watchedAgent(req);
    const { since } = parse(ActivityQuery, req.query);
    const [status, goal, world, row] = await Promise.all([
      runtime ? runtime.status(m) : undefined,
      runtime ? runtime.goalStatus(m) : undefined,
      ctx.world.worldOf(m.characterId),
      prisma.character.findUnique({ where: { id: m.characterId } }),
    ]);
    const seen = row ? await playerView(ctx, row) : null;
    const activity = ctx.activity.recent(m.characterId, since);
    res.json({
      success: true,
      agent: {
        agentId: m.agentId,
        characterId: m.characterId,
        name: seen?.name ?? m.name,
        runtime: status?.runtime ?? m.runtime,
        running: status?.running ?? false,
        online: world !== undefined,
        world: world ?? null,
        goal: goal?.goal ?? null,
        goalsPaused: goal?.goalsPaused ?? m.goalsPaused,
      },
      character: seen && {
        combatLevel: seen.combatLevel,
        health: seen.health,
        maxHealth: seen.maxHealth,
        position: { x: seen.position.x, z: seen.position.z },
        skills: seen.skills,
        inventory: seen.inventory,
        equipment: seen.equipment,
      },
      activity,
      next: activity.at(-1)?.seq ?? since ?? 0,
    });
  });

  router.get("/api/agents/:agentId/activity/stream", watcherAuth, async (req, res) => {
    const m = await watchedAgent(req);
    const { since } = parse(ActivityQuery, req.query);
    const resumeAt = lastEventId(req) ?? since;
    if (streams >= ACTIVITY_STREAMS_MAX) throw new HttpError(503, "TOO_MANY_STREAMS", `This server already serves ${ACTIVITY_STREAMS_MAX} activity streams`);
    if ((streamsOf.get(m.agentId) ?? 0) >= ACTIVITY_STREAMS_PER_AGENT)
      throw new HttpError(429, "TOO_MANY_STREAMS", `At most ${ACTIVITY_STREAMS_PER_AGENT} activity streams of one agent at once`);
    streams++;
    streamsOf.set(m.agentId, (streamsOf.get(m.agentId) ?? 0) + 1);
    let last = resumeAt ?? 0;
    let stop: (() => void) | undefined;
    let closed = false;
    const stream = openEventStream(res, () => {
      closed = true;
      stop?.();
      streams--;
      const n = (streamsOf.get(m.agentId) ?? 1) - 1;
      if (n > 0) streamsOf.set(m.agentId, n);
      else streamsOf.delete(m.agentId);
    });
    const write = (e: ActivityEntry) => {
      if (e.seq <= last) return;
      last = e.seq;
      stream.send("activity", e.seq, e);
    };
    stop = await ctx.activity.follow(m.characterId, write);
    if (closed) return stop();
    // What was written before (after the resumed line), then each new line.
    for (const e of ctx.activity.recent(m.characterId, resumeAt)) write(e);
  });

  return router;
}
