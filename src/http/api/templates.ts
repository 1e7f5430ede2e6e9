import { Router } from "express";
import { z } from "zod";
import { requireAuth } from "../requireAuth.js";
import type { ServerContext } from "../../context.js";
import type { CharacterTemplate } from "../../manifests/gameData.js";
import { authOf, parse } from "./access.js";
import { createOwnCharacter, templateLevels, templateOf } from "./characters.js";
import { PlayerName } from "./player.js";

export const Params = z.object({ templateId: z.string().min(1).max(128) });
export const Body = z.object({ name: PlayerName }).strict();

function templateView(ctx: ServerContext, t: CharacterTemplate) {
  return {
    id: t.id,
    name: t.name,
    description: t.description ?? null,
    skills: templateLevels(t),
    items: t.items.map((i) => ({ itemId: i.itemId, name: ctx.gameData.items.get(i.itemId)?.name ?? i.itemId, quantity: i.quantity })),
  };
}

/**
 * /api/template: the world data's character templates (starter builds: skill levels and items on
 * top of the starter kit). Listing and reading are public; creating a character needs a token.
 */
export function templateRoutes(ctx: ServerContext) {
  const router = Router();
  const auth = requireAuth(ctx.config.jwtSecret, ctx.db.prisma);

  router.get("/api/template", (_req, res) => {
    res.json({ success: true, templates: [...ctx.gameData.templates.values()].map((t) => templateView(ctx, t)) });
  });

  router.get("/api/template/:templateId", async (req, res) => {
    const { templateId } = parse(Params, req.params);
    res.json({ success: true, template: templateView(ctx, templateOf(ctx, templateId)) });
  });

  router.post("/api/template/:templateId/character", auth, async (req, res) => {
    const { templateId } = parse(Params, req.params);
    const template = templateOf(ctx, templateId);
    const body = parse(Body, req.body);
    const character = await createOwnCharacter(ctx, authOf(req), { name: body.name, template });
    res.status(201).json({ success: true, character });
  });
  return router;
}
