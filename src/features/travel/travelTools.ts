import { z } from "zod";
import type { FeatureTool } from "../../mcp/featureTools.js";
import { isNotice } from "../../mcp/player.js";

/** The MCP tool that rides with a carter. */
export const travelTools: readonly FeatureTool[] = [
  {
    name: "travel",
    meta: { title: "Travel with a carter or ferryman", destructive: true },
    description:
      "Travel with a carter (an npc near you in observe whose services in arena://world/catalogue name travel, by id): walks up to it, pays its fare in coins from your pack and puts you at its destination at once (TRAVELLED names it and the fare). Refused NO_FARE without the coins, IN_COMBAT within 10 s of a blow, IN_DUEL in a duel's arena, UNKNOWN_TARGET for an npc that takes no one anywhere.",
    message: "travel:ride",
    output: { travelled: z.boolean().optional().describe("arrived (TRAVELLED): position is the destination") },
    watch: (maxTicks) => ({
      maxTicks,
      until: (h) => (isNotice(h, "TRAVELLED") ? "done" : undefined),
      report: (_pl, heard) => ({ travelled: heard.some((h) => isNotice(h, "TRAVELLED")) }),
    }),
  },
];
