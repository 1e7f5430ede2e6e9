import type { FeatureCommands, WorldFeature } from "../../game/world/World.js";
import { AGILITY_VARS, startCrossing, tickCrossing } from "./agility.js";
import { placeCourses, reloadCourses } from "./agilityCourses.js";
import { STAMINA_VARS, tickStamina } from "./stamina.js";

export { crossObstacleTool } from "./agilityTool.js";

/** Agility: obstacle courses from agility.json, and run energy that agility restores faster. */
export const agility: WorldFeature = {
  name: "agility",
  manifests: ["agility.json"],
  vars: { ...AGILITY_VARS, ...STAMINA_VARS },
  playerTick: tickStamina,
  action: tickCrossing,
  populate: placeCourses,
  reloaded: reloadCourses,
};

/** Its message's handler. */
export const agilityCommands = {
  "agility:cross": (world, playerId, msg) => startCrossing(world, playerId, msg.obstacleId),
} satisfies Partial<FeatureCommands>;
