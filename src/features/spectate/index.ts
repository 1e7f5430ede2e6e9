import type { HttpFeature } from "../../http/features.js";
import { SPECTATE_DOCS } from "./spectateDocs.js";
import { spectateRoutes } from "./spectateRoutes.js";

export { ActivityLog } from "./activityLog.js";

/**
 * Watching agents: watch links (spectator tokens), the activity feed and its stream over REST. The
 * world room's side (a spectator's connection, the agents' tapped sends) is rooms/worldWatchers.ts.
 */
export const spectate: HttpFeature = { name: "spectate", routes: (ctx, parts) => spectateRoutes(ctx, parts.agents), docs: SPECTATE_DOCS };
