import { startGuestCleanup, type GuestCleanup } from "./auth/guestCleanup.js";
import { colyseusWorldRooms, worldFacade } from "../rooms/cluster/worldFacade.js";
import type { Config } from "./config.js";
import type { ServerContext } from "./context.js";
import { databaseOptionsFrom, openDatabase, type Database } from "./db/client.js";
import { syncItems } from "./db/itemSync.js";
import type { Logger } from "./logger.js";
import { manifestSyncOptions, prepareGameData } from "./manifests/index.js";
import { markStart } from "./startupTimes.js";
import { ActivityLog, WORLD_DESKS, WORLD_FEATURES } from "./features/index.js";

/**
 * What a server process opens before it assembles the server, from its configuration: shared by
 * `npm start` (src/index.ts) and the default export of arena.config.ts (`listen()` / `boot()`).
 */

/**
 * The game data (manifests synced as configured; throws ManifestError when a required one is
 * missing everywhere), the database (migrated; PGlite under DATA_DIR unless DATABASE_URL is set)
 * with the item definitions synced into it, and the world as `ctx.world`. The database opens
 * beside the game data (its own thread, for the embedded one); `database` is one already opening
 * (src/index.ts starts it before it loads the rest of the server).
 */
export async function openServerContext(
  config: Config,
  logger: Logger,
  database: Promise<Database> = openDatabase(databaseOptionsFrom(config, logger)),
): Promise<ServerContext> {
  if (config.jwtSecretFile) {
    logger.info(
      { file: config.jwtSecretFile },
      "JWT_SECRET is not set: tokens are signed with the secret kept in the data folder (set JWT_SECRET in production)",
    );
  }
  const gameData = prepareGameData(manifestSyncOptions(config, logger, WORLD_FEATURES.manifests));
  void gameData.then(
    () => markStart("game data"),
    () => {},
  );
  void database.then(
    () => markStart("database"),
    () => {},
  );
  // Both settle before anything fails: a database that opened is closed when the game data did not load.
  const [data, opened] = await Promise.allSettled([gameData, database]);
  if (data.status === "rejected" || opened.status === "rejected") {
    if (opened.status === "fulfilled") await opened.value.close();
    throw data.status === "rejected" ? data.reason : (opened as PromiseRejectedResult).reason;
  }
  const db = opened.value;
  try {
    const synced = await syncItems(db.sql, data.value.items.values());
    logger.info(synced, "item definitions synced");
    markStart("items");
  } catch (err) {
    await db.close();
    throw err;
  }
  const ctx: ServerContext = {
    config,
    logger,
    db,
    gameData: data.value,
    startedAt: Date.now(),
    worldFeatures: WORLD_FEATURES,
    worldDesks: WORLD_DESKS,
    world: undefined as never,
    activity: new ActivityLog(),
  };
  // The facade places the world's map from the data the process runs now (a content reload replaces it).
  ctx.world = worldFacade(colyseusWorldRooms(config.worlds, () => ctx.gameData));
  return ctx;
}

/** Guests idle for GUEST_IDLE_HOURS (and not in the world) are removed, at start and every hour. */
export function cleanIdleGuests(ctx: ServerContext): GuestCleanup {
  return startGuestCleanup(ctx.db.prisma, {
    idleHours: ctx.config.guestIdleHours,
    isOnline: (accountId) => ctx.world.isAccountOnline(accountId),
    logger: ctx.logger,
  });
}
