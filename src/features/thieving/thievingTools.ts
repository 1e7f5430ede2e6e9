import { z } from "zod";
import type { Watch } from "../../mcp/act.js";
import type { FeatureTool } from "../../mcp/featureTools.js";
import { isNotice } from "../../mcp/player.js";

/** A theft's wait: until the loot (STOLEN) or the stun (PICKPOCKET_FAILED) is told. */
const theft = (maxTicks: number): Watch => ({
  maxTicks,
  until: (h) => (isNotice(h, "STOLEN") || isNotice(h, "PICKPOCKET_FAILED") ? "done" : undefined),
  report: (_pl, heard) => ({ stolen: heard.some((h) => isNotice(h, "STOLEN")), caught: heard.some((h) => isNotice(h, "PICKPOCKET_FAILED")) }),
});

/** The MCP tools that pick a pocket and rob a stall. */
export const thievingTools: readonly FeatureTool[] = [
  {
    name: "pickpocket",
    meta: { title: "Pick an npc's pocket", destructive: true },
    description:
      "Pick an npc's pocket (an npc near you in observe whose services in arena://world/catalogue name pickpocket, by id): walks up to it and tries once; answers stolen (the loot is in your pack, thieving xp) or caught (PICKPOCKET_FAILED: stunned about 5 s, every order refused STUNNED, and hurt). Refused LEVEL_TOO_LOW below its thieving level, INVENTORY_FULL without room for the loot, UNKNOWN_TARGET for an npc with no pocket to pick.",
    message: "thieving:pickpocket",
    output: { stolen: z.boolean().optional(), caught: z.boolean().optional().describe("caught and stunned (PICKPOCKET_FAILED)") },
    watch: theft,
  },
  {
    name: "steal_from_stall",
    meta: { title: "Steal from a market stall", destructive: true },
    description:
      "Steal from a market stall (a station of type thieving_stall that observe lists near you, by id): walks up to it and takes one thing (loot in your pack, thieving xp); the stall is then empty a while (STALL_EMPTY until it restocks). Refused LEVEL_TOO_LOW below its thieving level, INVENTORY_FULL without room, UNKNOWN_TARGET for an id that is no stall.",
    message: "thieving:steal",
    output: { stolen: z.boolean().optional(), caught: z.boolean().optional() },
    watch: theft,
  },
];
