import type { FeatureCommands, WorldFeature } from "../../game/world/World.js";
import { HOME_TELEPORT_VARS, startHomeTeleport, tickHomeTeleport } from "./homeTeleport.js";

export { homeTeleportTool } from "./homeTeleportTool.js";

/** The home teleport: a cast, then the world's spawn; a cooldown kept across logins. */
export const homeTeleport: WorldFeature = { name: "homeTeleport", vars: HOME_TELEPORT_VARS, playerTick: tickHomeTeleport };

/** Its message's handler. */
export const homeTeleportCommands = {
  "player:homeTeleport": (world, playerId) => startHomeTeleport(world, playerId),
} satisfies Partial<FeatureCommands>;
