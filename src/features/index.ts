import type { HttpFeature } from "../http/features.js";
import { hiscores } from "./hiscores/index.js";

/**
 * The feature folders the server runs (src/features/<feature>/): the assembly (arena.config.ts)
 * hands them to the layers they add to. A new feature is its folder and its line here.
 */
export const FEATURES: readonly HttpFeature[] = [hiscores];
