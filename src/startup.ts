import { startGuestCleanup, type GuestCleanup } from "./auth/guestCleanup.js";
import { colyseusWorldRooms, worldFacade } from "../rooms/worldFacade.js";
import { PRODUCTION_CDN_URL, type Config } from "./config.js";
import type { ServerContext } from "./context.js";
import { databaseOptionsFrom, openDatabase } from "./db/client.js";
import { syncItems } from "./db/itemSync.js";
import { createLogger, type Logger } from "./logger.js";
import { prepareGameData } from "./manifests/index.js";

/**
 * What a server process opens before it assembles the server, from its configuration: shared by
 * `npm start` (src/index.ts) and the default export of arena.config.ts (`listen()` / `boot()`).
 */

/** The server's logger: JSON, pretty in development. */
export function serverLogger(config: Config): Logger {
  return createLogger({ level: config.logLevel, pretty: config.nodeEnv === "development" });
}

/**
 * The game data (manifests synced as configured; throws ManifestError when a required one is
 * missing everywhere), the database (migrated; PGlite under DATA_DIR unless DATABASE_URL is set)
 * with the item definitions synced into it, and the world as `ctx.world`.
 */
export async function openServerContext(config: Config, logger: Logger): Promise<ServerContext> {
  if (config.jwtSecretGenerated) {
    logger.warn("JWT_SECRET is not set: using a random secret, so tokens stop working when the server restarts");
  }
  const gameData = await prepareGameData({
    worldDir: config.world,
    cdnUrl: config.publicCdnUrl,
    fallbackCdnUrl: PRODUCTION_CDN_URL,
    mode: config.nodeEnv,
    ci: config.ci,
    skip: config.skipManifests,
    logger,
  });
  const db = await openDatabase(databaseOptionsFrom(config, logger));
  try {
    const synced = await syncItems(db.sql, gameData.items.values());
    logger.info(synced, "item definitions synced");
  } catch (err) {
    await db.close();
    throw err;
  }
  return { config, logger, db, gameData, startedAt: Date.now(), world: worldFacade(colyseusWorldRooms(config.worlds, gameData)) };
}

/** Guests idle for GUEST_IDLE_HOURS (and not in the world) are removed, at start and every hour. */
export function cleanIdleGuests(ctx: ServerContext): GuestCleanup {
  return startGuestCleanup(ctx.db.prisma, {
    idleHours: ctx.config.guestIdleHours,
    isOnline: (accountId) => ctx.world.isAccountOnline(accountId),
    logger: ctx.logger,
  });
}
