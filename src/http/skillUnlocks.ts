import { Router } from "express";
import type { SkillUnlock } from "../manifests/index.js";

export type SkillUnlocks = Record<string, SkillUnlock[]>;

/** GET /api/data/skill-unlocks: public game data, no token needed. */
export function skillUnlockRoutes(unlocks: SkillUnlocks) {
  const router = Router();
  const body = JSON.stringify(unlocks);
  router.get("/api/data/skill-unlocks", (_req, res) => {
    res.type("application/json").set("Cache-Control", "public, max-age=300").send(body);
  });
  return router;
}
