import { Router } from "express";
import { z } from "zod";
import { requireAuth } from "../requireAuth.js";
import type { ServerContext } from "../../context.js";
import { questPointsOf, type QuestJournal } from "../../game/quests.js";
import { questView } from "../../game/world/questing.js";
import { authOf, ownedCharacter, parse } from "./access.js";
import { playerView, skillsOf } from "./playerView.js";

export const Params = z.object({ characterId: z.string().min(1).max(128) });

/** /api/characters/:characterId/skills, /position and /quests: the owner's (or an admin's) view of one character. */
export function characterStatsRoutes(ctx: ServerContext) {
  const router = Router();
  const prisma = ctx.db.prisma;
  const auth = requireAuth(ctx.config.jwtSecret, ctx.db.prisma);

  router.get("/api/characters/:characterId/skills", auth, async (req, res) => {
    const { characterId } = parse(Params, req.params);
    const c = await ownedCharacter(prisma, authOf(req), characterId);
    const live = await ctx.world.character(c.id);
    const view = live ? { skills: skillsOf(live) } : await playerView(ctx, c);
    res.json({ success: true, skills: view?.skills ?? {} });
  });

  router.get("/api/characters/:characterId/position", auth, async (req, res) => {
    const { characterId } = parse(Params, req.params);
    const c = await ownedCharacter(prisma, authOf(req), characterId);
    const tile = await ctx.world.whereIs(c.id);
    // Offline: where it will appear next (its saved tile).
    const position = tile ? { x: tile.x, y: 0, z: tile.z } : { x: Math.round(c.positionX), y: 0, z: Math.round(c.positionZ) };
    res.json({ success: true, position, online: tile !== undefined });
  });

  /** Every quest of the world's data with where the character stands in it (live when online, else as saved). */
  router.get("/api/characters/:characterId/quests", auth, async (req, res) => {
    const { characterId } = parse(Params, req.params);
    const c = await ownedCharacter(prisma, authOf(req), characterId);
    const live = await ctx.world.character(c.id);
    const rows = live?.quests ?? (await prisma.characterQuest.findMany({ where: { characterId: c.id } }));
    const journal: QuestJournal = new Map(rows.map((r) => [r.questId, { questId: r.questId, stage: r.stage, count: r.count, completions: r.completions }]));
    const quests = [...ctx.gameData.quests.values()].map((q) => questView(q, journal.get(q.id)));
    res.json({ success: true, online: live !== undefined, questPoints: questPointsOf(ctx.gameData.quests, journal), quests });
  });
  return router;
}
