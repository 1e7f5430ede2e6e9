import { Router } from "express";
import type { GameData, SkillUnlock } from "../manifests/index.js";
import { bodyOfData } from "./gameDataBody.js";

export type SkillUnlocks = Record<string, SkillUnlock[]>;

/** GET /api/data/skill-unlocks: public game data, no token needed. */
export function skillUnlockRoutes(data: () => GameData) {
  const router = Router();
  const body = bodyOfData((d): SkillUnlocks => d.skillUnlocks);
  router.get("/api/data/skill-unlocks", (_req, res) => {
    res.type("application/json").set("Cache-Control", "public, max-age=300").send(body(data()));
  });
  return router;
}
