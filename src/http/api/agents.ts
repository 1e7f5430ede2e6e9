import { randomUUID } from "node:crypto";
import type { AgentMapping, PrismaClient } from "@prisma/client";
import { Router, type Request } from "express";
import { z } from "zod";
import { goalFrom } from "../../agents/brain.js";
import { availableGoals, type GoalOption } from "../../agents/goals.js";
import type { AgentRuntime } from "../../agents/runtime.js";
import { quickActions } from "../../agents/quickActions.js";
import { AgentView } from "../../agents/view.js";
import { requireAuth } from "../requireAuth.js";
import { DEFAULT_TOKEN_TTL_SECONDS, signToken } from "../../auth/tokens.js";
import type { ServerContext } from "../../context.js";
import { agentById, agentsOf } from "../../db/agentRepo.js";
import { HttpError } from "../errors.js";
import { journalView } from "../../game/world/questing.js";
import { GATHERING_SKILLS, PRODUCTION_KINDS } from "../../protocol/index.js";
import { authOf, isAdmin, parse } from "./access.js";
import { newCharacter, PlayerName } from "./player.js";
import { playerView } from "./playerView.js";

/** Agents one account may register. */
export const MAX_AGENTS_PER_ACCOUNT = 10;

export const AgentParams = z.object({ agentId: z.string().min(1).max(128) });
export const RegisterBody = z.object({ name: PlayerName }).strict();
/** How many to make (production goals) or to buy (buy). */
const GoalCount = z.number().int().min(1).max(10_000).optional();
export const GoalBody = z.union([
  z.object({ goalId: z.string().min(1).max(128), count: GoalCount }).strict(),
  z
    .object({
      type: z.enum([...GATHERING_SKILLS, ...PRODUCTION_KINDS, "combat", "bank", "pickup", "buy", "sell", "quest", "idle"]),
      target: z.string().min(1).max(128).nullish(),
      count: GoalCount,
    })
    .strict(),
]);
/** The goal types a count applies to. */
const COUNTED: ReadonlySet<string> = new Set([...PRODUCTION_KINDS, "buy"]);
export const MessageBody = z.object({ content: z.string().trim().min(1).max(500) }).strict();

/** The agent named in the path, if the caller may steer it: its owner or an admin (404 unknown, 403 someone else's). */
export async function steerableAgent(prisma: PrismaClient, req: Request): Promise<AgentMapping> {
  const { agentId } = parse(AgentParams, req.params);
  const who = authOf(req);
  const m = await agentById(prisma, agentId);
  if (!m) throw new HttpError(404, "AGENT_NOT_FOUND", "No such agent");
  if (!isAdmin(who) && m.ownerAccountId !== who.sub) throw new HttpError(403, "FORBIDDEN", "That agent belongs to someone else");
  return m;
}

/**
 * /api/agent/* (register, list, start, stop) and /api/agents/:agentId/* (goal, stop and resume
 * autonomous goals, messages, quick actions, mapping). Only the agent's owner or an admin. The
 * routes parse, call the runtime (src/agents/runtime.ts) and answer.
 */
export function agentRoutes(ctx: ServerContext, runtime: AgentRuntime) {
  const router = Router();
  const prisma = ctx.db.prisma;
  const auth = requireAuth(ctx.config.jwtSecret, ctx.db.prisma);

  const agentOf = (req: Request) => steerableAgent(prisma, req);

  /** What the agent knows of itself: its driver's view, or (not running here) its character's state. */
  async function viewOf(m: AgentMapping): Promise<AgentView> {
    const d = runtime.driver(m.agentId);
    if (d?.sight.self) return d.sight;
    const c = await prisma.character.findUnique({ where: { id: m.characterId } });
    const p = c ? await playerView(ctx, c) : null;
    const view = new AgentView();
    if (!c || !p) return view;
    // Its quest journal, live or as saved.
    const rows = (await ctx.world.character(c.id))?.quests ?? (await prisma.characterQuest.findMany({ where: { characterId: c.id } }));
    view.sync({ ...p, bank: null, action: null, quests: journalView(ctx.gameData.quests, rows) });
    return view;
  }

  /** The runtime's map knowledge (made once), or 503 while the world is not running. */
  async function knowledge() {
    return runtime.knowledge().catch(() => {
      throw new HttpError(503, "WORLD_UNAVAILABLE", "The world is not running");
    });
  }

  /** The goal, whether autonomous goals are paused, and the goals the agent could take now. */
  async function goalState(m: AgentMapping) {
    const view = await viewOf(m);
    return { ...(await runtime.goalStatus(m)), availableGoals: availableGoals(view, await knowledge()) };
  }

  router.post("/api/agent/register", auth, async (req, res) => {
    const who = authOf(req);
    const body = parse(RegisterBody, req.body);
    if ((await prisma.agentMapping.count({ where: { ownerAccountId: who.sub } })) >= MAX_AGENTS_PER_ACCOUNT) {
      throw new HttpError(400, "AGENT_LIMIT", `An account may have at most ${MAX_AGENTS_PER_ACCOUNT} agents`);
    }
    const snap = await newCharacter(ctx, { accountId: who.sub, name: body.name, isAgent: true });
    let m: AgentMapping;
    try {
      m = await prisma.agentMapping.create({ data: { agentId: `a_${randomUUID()}`, characterId: snap.id, ownerAccountId: who.sub, name: body.name } });
    } catch (err) {
      await prisma.character.delete({ where: { id: snap.id } }).catch(() => {});
      throw err;
    }
    const token = signToken({ sub: who.sub, role: "agent", characterId: snap.id }, ctx.config.jwtSecret, DEFAULT_TOKEN_TTL_SECONDS);
    // A registered agent runs in the built-in runtime unless stopped.
    // (In a cluster, on the process running the least full world when this one runs none.)
    await runtime.setRunning(m, true).catch((err) => ctx.logger.warn({ err: (err as Error).message, agentId: m.agentId }, "new agent could not start"));
    res.status(201).json({ success: true, agentId: m.agentId, characterId: snap.id, token, expiresIn: DEFAULT_TOKEN_TTL_SECONDS });
  });

  router.get("/api/agent", auth, async (req, res) => {
    const agents = await agentsOf(prisma, authOf(req).sub);
    res.json({
      success: true,
      agents: await Promise.all(
        agents.map(async (m) => {
          const { runtime: runs, running, online, goalsPaused } = await runtime.status(m);
          return { agentId: m.agentId, characterId: m.characterId, name: m.name, runtime: runs, running, online, goalsPaused };
        }),
      ),
    });
  });

  router.post("/api/agent/:agentId/start", auth, async (req, res) => {
    const m = await agentOf(req);
    await runtime.setRunning(m, true);
    res.json({ success: true, agentId: m.agentId, running: true });
  });

  router.post("/api/agent/:agentId/stop", auth, async (req, res) => {
    const m = await agentOf(req);
    await runtime.setRunning(m, false);
    res.json({ success: true, agentId: m.agentId, running: false });
  });

  router.get("/api/agents/mapping/:agentId", auth, async (req, res) => {
    const m = await agentOf(req);
    res.json({
      success: true,
      mapping: {
        agentId: m.agentId,
        characterId: m.characterId,
        ownerAccountId: m.ownerAccountId,
        name: m.name,
        runtime: m.runtime,
        running: runtime.driver(m.agentId) !== undefined,
        createdAt: m.createdAt.toISOString(),
      },
    });
  });

  router.get("/api/agents/:agentId/goal", auth, async (req, res) => {
    res.json({ success: true, ...(await goalState(await agentOf(req))) });
  });

  router.post("/api/agents/:agentId/goal", auth, async (req, res) => {
    const m = await agentOf(req);
    const body = parse(GoalBody, req.body);
    const view = await viewOf(m);
    const options = availableGoals(view, await knowledge());
    const chosen: GoalOption | undefined =
      "goalId" in body
        ? options.find((o) => o.id === body.goalId)
        : options.find((o) => o.type === body.type && (body.target == null ? true : o.target === body.target));
    if (!chosen) throw new HttpError(400, "UNKNOWN_GOAL", "goal: not one of availableGoals");
    if (!chosen.available) throw new HttpError(400, "GOAL_UNAVAILABLE", `goal: ${chosen.reason ?? "not available now"}`);
    if (body.count !== undefined && !COUNTED.has(chosen.type)) throw new HttpError(400, "INVALID_PAYLOAD", "count: only for production and buy goals");
    await runtime.setGoal(m, goalFrom(chosen, view, "owner", body.count));
    res.json({ success: true, ...(await goalState(m)) });
  });

  // Stop: the current path is cleared now, the agent idles, and picks no goal by itself until resumed.
  router.post("/api/agents/:agentId/goal/stop", auth, async (req, res) => {
    const m = await agentOf(req);
    await runtime.pause(m);
    res.json({ success: true, ...(await goalState(m)) });
  });

  router.post("/api/agents/:agentId/goal/resume", auth, async (req, res) => {
    const m = await agentOf(req);
    await runtime.resume(m);
    res.json({ success: true, ...(await goalState(m)) });
  });

  router.post("/api/agents/:agentId/message", auth, async (req, res) => {
    const m = await agentOf(req);
    const { content } = parse(MessageBody, req.body);
    const told = await runtime.tell(m, content);
    if (!told.delivered) throw new HttpError(400, "AGENT_OFFLINE", "The agent is not in the world: start it first");
    if (told.command) return res.json({ success: true, queued: true, command: told.command.kind });
    res.json({ success: true, queued: false, reply: told.reply });
  });

  router.get("/api/agents/:agentId/quick-actions", auth, async (req, res) => {
    const m = await agentOf(req);
    const view = await viewOf(m);
    res.json({ success: true, agentId: m.agentId, ...quickActions(view, await knowledge()) });
  });

  return router;
}
