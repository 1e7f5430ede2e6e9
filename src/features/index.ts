import type { HttpFeature } from "../http/features.js";
import type { FeatureCommands, WorldFeature, WorldFeatures } from "../game/world/World.js";
import type { FeatureTool } from "../mcp/featureTools.js";
import type { DeskFeature } from "../worldDesks.js";
import { agility, agilityCommands, crossObstacleTool } from "./agility/index.js";
import { duel, duelDesk } from "./duel/index.js";
import { healer } from "./healer/index.js";
import { hiscores, scoreboard } from "./hiscores/index.js";
import { homeTeleport, homeTeleportCommands, homeTeleportTool } from "./homeTeleport/index.js";
import { pvp } from "./pvp/index.js";
import { regeneration } from "./regeneration/index.js";
import { spectate } from "./spectate/index.js";
import { thieving, thievingCommands, thievingTools } from "./thieving/index.js";
import { travel, travelCommands, travelTools } from "./travel/index.js";

export { ActivityLog } from "./spectate/index.js";

/**
 * The feature folders the server runs (src/features/<feature>/): the assembly (arena.config.ts,
 * src/startup.ts) hands them to the layers they add to. A new feature is its folder and its line here.
 */
export const FEATURES: readonly HttpFeature[] = [hiscores, spectate];

/** The features the worlds play, in the order their steps run in a player's tick. */
const WORLD_LIST: readonly WorldFeature[] = [regeneration, healer, homeTeleport, pvp, agility, thieving, scoreboard, duel, travel];

/** Every feature message's handler: a message of src/protocol/featureMessages.ts without one does not compile. */
const COMMANDS: FeatureCommands = { ...homeTeleportCommands, ...agilityCommands, ...thievingCommands, ...travelCommands };

export const WORLD_FEATURES: WorldFeatures = {
  list: WORLD_LIST,
  commands: COMMANDS,
  manifests: [...new Set(WORLD_LIST.flatMap((f) => f.manifests ?? []))],
};

/** The features with a desk in every world room, in the order their tick phases run. */
export const WORLD_DESKS: readonly DeskFeature[] = [duelDesk];

/** The MCP tools the features add to the session's catalogue (src/mcp/featureTools.ts). */
export const MCP_TOOLS: readonly FeatureTool[] = [homeTeleportTool, crossObstacleTool, ...thievingTools, ...travelTools];
