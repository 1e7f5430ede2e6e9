import type { Logger } from "pino";
import type { Config } from "./config.js";
import type { Database } from "./db/client.js";
import type { GameData } from "./manifests/index.js";

/** What rooms and routes share: built once at start-up by src/index.ts (or a test). */
export interface ServerContext {
  config: Config;
  logger: Logger;
  db: Database;
  gameData: GameData;
  /** Date.now() when the process started serving. */
  startedAt: number;
}
