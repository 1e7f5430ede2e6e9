import { Router } from "express";
import { z } from "zod";
import { requireAuth } from "../../auth/middleware.js";
import type { ServerContext } from "../../context.js";
import { authOf, ownedCharacter, parse } from "./access.js";
import { playerView, skillsOf } from "./playerView.js";

const Params = z.object({ characterId: z.string().min(1).max(128) });

/** /api/characters/:characterId/skills and /position: the owner's (or an admin's) view of one character. */
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
  return router;
}
