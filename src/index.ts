import type { Logger } from "pino";
import { ConfigError, loadConfig } from "./config.js";
import type { ServerContext } from "./context.js";
import { databaseOptionsFrom, openDatabase } from "./db/client.js";
import { serverLogger } from "./logger.js";
import { installProcessHandlers } from "./processHandlers.js";
import { markStart, startTimes } from "./startupTimes.js";
import { VERSION } from "./version.js";

/** How long a graceful shutdown may take before the process exits anyway. */
const SHUTDOWN_DEADLINE_MS = 25_000;
/** How long an exit waits for the logger to write what it holds. */
const LOG_FLUSH_MS = 2_000;

/**
 * Exit once the logger has written every line it holds: its writes to stdout are asynchronous, and
 * an exit while one is under way can print the lines after it first (or lose it).
 */
function exitAfterLogs(logger: Logger, code: number) {
  process.exitCode = code;
  const exit = () => process.exit(code);
  setTimeout(exit, LOG_FLUSH_MS);
  logger.flush(exit);
}

async function main() {
  markStart("server code");
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
  const logger = serverLogger(config);
  // Anything nobody caught is logged through pino; an uncaught exception shuts the server down (exit 1).
  let stopServer: ((reason: string, exitCode: number) => Promise<void>) | undefined;
  installProcessHandlers(logger, () => {
    if (stopServer) return void stopServer("uncaughtException", 1);
    exitAfterLogs(logger, 1);
  });
  // The database opens on its own thread while the rest of the server's code and the game data
  // load here: this file imports only what that needs, and the rest once it has started.
  const database = openDatabase(databaseOptionsFrom(config, logger));
  database.catch(() => {}); // its failure is openServerContext's to report
  const [{ createArena, loadRedis }, { cleanIdleGuests, openServerContext }, { ManifestError }] = await Promise.all([
    import("../arena.config.js"),
    import("./startup.js"),
    import("./manifests/index.js"),
  ]);
  if (config.redisUrl) await loadRedis();
  markStart("modules");
  let ctx: ServerContext;
  try {
    ctx = await openServerContext(config, logger, database);
  } catch (err) {
    if (err instanceof ManifestError) {
      logger.fatal(err.message);
      return exitAfterLogs(logger, 1);
    }
    throw err;
  }
  const { db } = ctx;
  const arena = createArena(ctx);
  const port = await arena.listen(config.port);
  markStart("listening");
  const guestCleanup = cleanIdleGuests(ctx);

  let stopping = false;
  const stop = async (signal: string, exitCode = 0) => {
    if (stopping) return logger.info({ signal }, "already shutting down: the signal is ignored");
    stopping = true;
    logger.info({ signal }, "shutting down");
    const deadline = setTimeout(() => {
      logger.error("shutdown took too long; exiting");
      exitAfterLogs(logger, 1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    try {
      await guestCleanup.stop();
      await arena.shutdown();
      await db.close();
      logger.info("shutdown complete");
      exitAfterLogs(logger, exitCode);
    } catch (err) {
      logger.error({ err }, "shutdown failed");
      exitAfterLogs(logger, 1);
    }
  };
  stopServer = stop;
  // A signal repeated during the shutdown is ignored: `npm start` stopped through its process group (Ctrl-C, a
  // supervisor) is sent it by the terminal and again by npm, and the second must not cut the saving short.
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  // `startup`: when each phase of this start ended, ms since the process began (npm run bench:startup reads it).
  logger.info({ port, database: db.kind, world: config.world, startup: startTimes() }, `server listening on http://localhost:${port}`);
  // A scheduled restart (POST /api/admin/restart) ends here once everyone is saved: exit 0, for the supervisor to start the server again.
  const { restartsOf } = await import("./staff/restart.js");
  restartsOf(ctx).exit = () => void stop("restart", 0);
  // A drain (POST /api/admin/drain, npm run admin -- drain) ends here once every world moved: exit 0 too.
  const { drainOf } = await import("./staff/drain.js");
  drainOf(ctx).exit = () => void stop("drain", 0);
}

main().catch((err) => {
  console.error("fatal:", err instanceof Error ? err.message : err);
  process.exit(1);
});
