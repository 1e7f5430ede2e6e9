import { startGuestCleanup } from "./auth/guestCleanup.js";
import { createArena } from "../arena.config.js";
import { localWorld } from "../rooms/worldFacade.js";
import { ConfigError, loadConfig, PRODUCTION_CDN_URL } from "./config.js";
import type { ServerContext } from "./context.js";
import { databaseOptionsFrom, openDatabase } from "./db/client.js";
import { syncItems } from "./db/itemSync.js";
import { createLogger } from "./logger.js";
import { ManifestError, prepareGameData } from "./manifests/index.js";
import { installProcessHandlers } from "./processHandlers.js";
import { VERSION } from "./version.js";

/** How long a graceful shutdown may take before the process exits anyway. */
const SHUTDOWN_DEADLINE_MS = 25_000;

async function main() {
  let config;
  try {
    config = loadConfig(process.env, { version: VERSION });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ level: config.logLevel, pretty: config.nodeEnv === "development" });
  // Anything nobody caught is logged through pino; an uncaught exception shuts the server down (exit 1).
  let stopServer: ((reason: string, exitCode: number) => Promise<void>) | undefined;
  installProcessHandlers(logger, () => {
    if (stopServer) return void stopServer("uncaughtException", 1);
    logger.flush?.();
    process.exit(1);
  });
  if (config.jwtSecretGenerated) {
    logger.warn("JWT_SECRET is not set: using a random secret, so tokens stop working when the server restarts");
  }

  let gameData;
  try {
    gameData = await prepareGameData({
      worldDir: config.world,
      cdnUrl: config.publicCdnUrl,
      fallbackCdnUrl: PRODUCTION_CDN_URL,
      mode: config.nodeEnv,
      ci: config.ci,
      skip: config.skipManifests,
      logger,
    });
  } catch (err) {
    if (err instanceof ManifestError) {
      logger.fatal(err.message);
      process.exit(1);
    }
    throw err;
  }

  const db = await openDatabase(databaseOptionsFrom(config, logger));
  const synced = await syncItems(db.sql, gameData.items.values());
  logger.info(synced, "item definitions synced");

  const ctx: ServerContext = { config, logger, db, gameData, startedAt: Date.now(), world: localWorld() };
  const arena = createArena(ctx);
  const port = await arena.listen(config.port);
  // Guests idle for GUEST_IDLE_HOURS (and not in the world) are removed, at start and every hour.
  const guestCleanup = startGuestCleanup(db.prisma, {
    idleHours: config.guestIdleHours,
    isOnline: (accountId) => ctx.world.isAccountOnline(accountId),
    logger,
  });
  logger.info({ port, database: db.kind, world: config.world }, `server listening on http://localhost:${port}`);

  let stopping = false;
  const stop = async (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const deadline = setTimeout(() => {
      logger.error("shutdown took too long; exiting");
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    try {
      await guestCleanup.stop();
      await arena.shutdown();
      await db.close();
      logger.info("shutdown complete");
      logger.flush?.();
      process.exit(exitCode);
    } catch (err) {
      logger.error({ err }, "shutdown failed");
      process.exit(1);
    }
  };
  stopServer = stop;
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

main().catch((err) => {
  console.error("fatal:", err instanceof Error ? err.message : err);
  process.exit(1);
});
