import type { FeatureCommands, WorldFeature } from "../../game/world/World.js";
import { startTravel, tickTravel } from "./travel.js";
import { readRoutes, reloadRoutes } from "./travelManifest.js";

export { travelTools } from "./travelTools.js";

/** Travel by cart or ferry: a carter's route from travel.json, its fare paid in coins, the rider put at its destination. */
export const travel: WorldFeature = {
  name: "travel",
  manifests: ["travel.json"],
  action: tickTravel,
  populate: readRoutes,
  reloaded: reloadRoutes,
};

/** Its message's handler. */
export const travelCommands = {
  "travel:ride": (world, playerId, msg) => startTravel(world, playerId, msg.npcId),
} satisfies Partial<FeatureCommands>;
