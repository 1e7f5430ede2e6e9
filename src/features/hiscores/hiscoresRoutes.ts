import { Router } from "express";
import { z } from "zod";
import type { ServerContext } from "../../context.js";
import { HttpError } from "../../http/errors.js";
import { parse } from "../../http/api/access.js";
import { characterRanks, duelRankings, HISCORE_SKILLS, hiscoresPage, HISCORES_PAGE_SIZE } from "./hiscoresRepo.js";

/** The most pages a ranking is read to (25 characters a page: the first 250,000). */
export const MAX_HISCORES_PAGE = 10_000;

export const HiscoresQuery = z.strictObject({
  skill: z.enum(HISCORE_SKILLS).default("overall"),
  page: z.coerce.number().int().min(1).max(MAX_HISCORES_PAGE).default(1),
});

export const DuelRankingsQuery = z.strictObject({ page: HiscoresQuery.shape.page });

export const HiscoresParams = z.object({ name: z.string().min(1).max(64) });

/**
 * GET /api/v1/hiscores (one page of a skill's ranking), GET /api/v1/hiscores/duels (one page of the
 * duel rankings) and GET /api/v1/hiscores/players/:name (one character's ranks). Public.
 */
export function hiscoresRoutes(ctx: ServerContext) {
  const router = Router();

  router.get("/api/v1/hiscores", async (req, res) => {
    const { skill, page } = parse(HiscoresQuery, req.query);
    const { total, entries } = await hiscoresPage(ctx.db.sql, skill, page);
    res.json({ success: true, skill, page, pageSize: HISCORES_PAGE_SIZE, total, pages: Math.ceil(total / HISCORES_PAGE_SIZE), entries });
  });

  router.get("/api/v1/hiscores/duels", async (req, res) => {
    const { page } = parse(DuelRankingsQuery, req.query);
    const { total, entries } = await duelRankings(ctx.db.sql, page);
    res.json({ success: true, page, pageSize: HISCORES_PAGE_SIZE, total, pages: Math.ceil(total / HISCORES_PAGE_SIZE), entries });
  });

  router.get("/api/v1/hiscores/players/:name", async (req, res) => {
    const { name } = parse(HiscoresParams, req.params);
    const found = await characterRanks(ctx.db.sql, name);
    if (!found) throw new HttpError(404, "CHARACTER_NOT_FOUND", `No character called ${name} is on the hiscores`);
    res.json({ success: true, ...found });
  });
  return router;
}
