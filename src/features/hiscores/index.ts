import type { HttpFeature } from "../../http/features.js";
import { HISCORES_DOCS } from "./hiscoresDocs.js";
import { hiscoresRoutes } from "./hiscoresRoutes.js";

export { scoreboard } from "./scoreboard.js";

/** The hiscores: every skill's ranking and each character's ranks, public over REST. */
export const hiscores: HttpFeature = { name: "hiscores", routes: hiscoresRoutes, docs: HISCORES_DOCS };
