import { z } from "zod";
import type { FeatureTool } from "../../mcp/featureTools.js";
import { isNotice, type Heard } from "../../mcp/player.js";

const crossed = (h: Heard) => h.type === "skill:xp" && h.data.skill === "agility";

/** The MCP tool that crosses an obstacle: answers at its end or after a fall. */
export const crossObstacleTool: FeatureTool = {
  name: "cross_obstacle",
  meta: { title: "Cross an agility obstacle" },
  description:
    "Cross an agility obstacle (a station of type agility_obstacle that observe lists near you, by id): walks onto its start, crosses it, answers at its end (the agility xp) or after a fall (OBSTACLE_FAILED: damage taken, still at the start). Refused LEVEL_TOO_LOW below its level, UNKNOWN_TARGET for an id that is no obstacle.",
  message: "agility:cross",
  output: { crossed: z.boolean().optional() },
  watch: (maxTicks) => ({
    maxTicks,
    until: (h) => (crossed(h) || isNotice(h, "OBSTACLE_FAILED") ? "done" : undefined),
    progress: (pl, t) => ({ progress: t, message: pl.sight.self?.moving ? "walking to it" : "crossing" }),
    report: (_pl, heard) => ({ crossed: heard.some(crossed) }),
  }),
};
