import type { WorldFeature } from "../../game/world/World.js";
import { heal } from "./healer.js";

/** Healers: npcs offering the `healer` service restore health and prayer. */
export const healer: WorldFeature = { name: "healer", npcServices: { healer: heal } };
