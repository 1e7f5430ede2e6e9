import type { WorldFeature } from "../../game/world/World.js";
import { regenerate, REGEN_VARS } from "./regeneration.js";

/** Health regeneration over time, faster under a prayer that says so. */
export const regeneration: WorldFeature = { name: "regeneration", vars: REGEN_VARS, playerTick: regenerate };
