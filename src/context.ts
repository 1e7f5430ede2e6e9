import type { Logger } from "pino";
import type { Config } from "./config.js";
import type { Database } from "./db/client.js";
import type { GameData } from "./manifests/index.js";
import type { WorldFeatures } from "./game/world/World.js";
import type { WorldAccess } from "./worldAccess.js";
import type { AgentActivity } from "./agentActivity.js";
import type { DeskFeature } from "./worldDesks.js";

/** What rooms and routes share: built once at start-up by src/index.ts (or a test). */
export interface ServerContext {
  config: Config;
  logger: Logger;
  db: Database;
  gameData: GameData;
  /** Date.now() when the process started serving. */
  startedAt: number;
  /** The features the worlds play beside the engine's rules (src/features/index.ts). */
  worldFeatures: WorldFeatures;
  /** The features with a desk in every world room (src/features/index.ts). */
  worldDesks: readonly DeskFeature[];
  /** The world, for everything outside the Colyseus glue (rooms/cluster/worldFacade.ts in one process). */
  world: WorldAccess;
  /** What the agents have been doing, for the people watching them (src/features/spectate/). */
  activity: AgentActivity;
}
