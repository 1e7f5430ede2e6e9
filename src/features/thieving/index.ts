import type { FeatureCommands, WorldFeature } from "../../game/world/World.js";
import { startPickpocket, startStealing, stunOf, THIEVING_VARS, tickStun, tickTheft } from "./thieving.js";
import { placeThievery, reloadThievery } from "./thievingManifest.js";

export { thievingTools } from "./thievingTools.js";

/** Thieving: pockets picked and stalls robbed from thieving.json, a stun for a thief caught. */
export const thieving: WorldFeature = {
  name: "thieving",
  manifests: ["thieving.json"],
  vars: THIEVING_VARS,
  playerTick: tickStun,
  action: tickTheft,
  populate: placeThievery,
  reloaded: reloadThievery,
  holdsPlayer: stunOf,
};

/** Its messages' handlers. */
export const thievingCommands = {
  "thieving:pickpocket": (world, playerId, msg) => startPickpocket(world, playerId, msg.npcId),
  "thieving:steal": (world, playerId, msg) => startStealing(world, playerId, msg.stallId),
} satisfies Partial<FeatureCommands>;
