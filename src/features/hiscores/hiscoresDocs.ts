import { z } from "zod";
import { answer, bool, err, int, ok, str, tagged } from "../../http/openapi.js";
import { DuelRankingsBody, HiscoresPageBody } from "../../protocol/restAnswers.js";
import { HISCORE_SKILLS } from "./hiscoresRepo.js";
import { DuelRankingsQuery, HiscoresParams, HiscoresQuery } from "./hiscoresRoutes.js";

const Standing = z.object({ rank: int, level: int, xp: int });

/** The hiscores' routes in the OpenAPI document. */
export const HISCORES_DOCS = tagged("world", [
  {
    route: "GET /api/v1/hiscores",
    summary: "One page (25) of a skill's ranking, or the overall one (total level, then total xp); as saved",
    open: true,
    query: HiscoresQuery,
    responses: {
      200: answer(
        "the page: rank, name, level, xp, whether an agent plays it; equal figures share a rank",
        ok({ ...HiscoresPageBody.shape, skill: z.enum(HISCORE_SKILLS) }),
      ),
      400: err("an unknown skill, a page that is not a whole number from 1 to 10,000, an unknown parameter", "INVALID_PAYLOAD"),
    },
  },
  {
    route: "GET /api/v1/hiscores/duels",
    summary: "One page (25) of the duel rankings: wins, losses and the worth of the stakes won",
    open: true,
    query: DuelRankingsQuery,
    responses: {
      200: answer("the page: every character with a settled duel, by wins then stakes won; equal figures share a rank", ok(DuelRankingsBody.shape)),
      400: err("a page that is not a whole number from 1 to 10,000, an unknown parameter", "INVALID_PAYLOAD"),
    },
  },
  {
    route: "GET /api/v1/hiscores/players/{name}",
    summary: "One character's rank, level and xp in each skill and overall (its name in any case)",
    open: true,
    params: HiscoresParams,
    responses: {
      200: answer(
        "its ranks",
        ok({ characterId: str, name: str, isAgent: bool, ranks: z.object(Object.fromEntries(HISCORE_SKILLS.map((s) => [s, Standing]))) }),
      ),
      400: err("a name longer than 64 characters", "INVALID_PAYLOAD"),
      404: err("no character of that name is on the hiscores (none, or a staff or banned account's)", "CHARACTER_NOT_FOUND"),
    },
  },
]);
