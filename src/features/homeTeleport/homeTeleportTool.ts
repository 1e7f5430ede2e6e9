import { z } from "zod";
import type { FeatureTool } from "../../mcp/featureTools.js";
import { isNotice } from "../../mcp/player.js";
import { CAST_TICKS } from "./homeTeleport.js";

/** The MCP tool that casts it: answers once the player arrived or the cast was interrupted. */
export const homeTeleportTool: FeatureTool = {
  name: "home_teleport",
  meta: { title: "Teleport home to the starter town" },
  description:
    "Teleport to the world's spawn in the starter town: about 10 s (16 ticks) of casting, interrupted by moving, any other order or a blow taken; once every 30 minutes (vars.homeTeleportReadyAt, epoch ms, says when). Refused in combat (IN_COMBAT: wait 10 s after the last blow), in a duel or a dangerous PvP area (NO_TELEPORT_HERE), during the cooldown (TELEPORT_COOLDOWN). Answers arrived and where you stand.",
  message: "player:homeTeleport",
  output: { arrived: z.boolean().optional(), readyAt: z.number().optional().describe("when the next cast is allowed (ms since 1970)") },
  fixedTicks: 30,
  watch: (maxTicks) => ({
    maxTicks,
    until: (h) => (isNotice(h, "HOME_TELEPORTED") || isNotice(h, "HOME_TELEPORT_INTERRUPTED") ? "done" : undefined),
    progress: (_pl, t) => ({ progress: t, total: CAST_TICKS, message: "casting the home teleport" }),
    report: (pl, heard) => ({ arrived: heard.some((h) => isNotice(h, "HOME_TELEPORTED")), readyAt: pl.sight.self?.vars.homeTeleportReadyAt ?? 0 }),
  }),
};
