import path from "node:path";
import { createArena, type Arena, type ArenaOptions } from "../../arena.config.js";
import { loadConfig, type Config } from "../../src/config.js";
import type { ServerContext } from "../../src/context.js";
import { openDatabase, type Database } from "../../src/db/client.js";
import { syncItems } from "../../src/db/itemSync.js";
import { silentLogger, type Logger } from "../../src/logger.js";
import { loadGameData, type GameData } from "../../src/manifests/index.js";
import { ROOT } from "../../src/paths.js";
import { colyseusWorldRooms, worldFacade } from "../../rooms/cluster/worldFacade.js";
import { ActivityLog, WORLD_DESKS, WORLD_FEATURES } from "../../src/features/index.js";

export const TEST_SECRET = "test-secret-".padEnd(48, "x");

let defaultWorld: Promise<GameData> | undefined;
/** The shipped default world, loaded once per test run. */
export function defaultGameData(): Promise<GameData> {
  defaultWorld ??= loadGameData(path.join(ROOT, "world", "manifests"), silentLogger);
  return defaultWorld;
}

export interface TestServer {
  url: string;
  port: number;
  arena: Arena;
  ctx: ServerContext;
  config: Config;
  /** Shut the server down; the database too unless it was passed in. */
  close(): Promise<void>;
}

/**
 * A real server on a free loopback port: real HTTP, real WebSockets, a real (embedded, in-memory)
 * database unless one is given.
 */
export async function startTestServer(
  options: {
    env?: Record<string, string>;
    db?: Database;
    gameData?: GameData;
    /** The server's logger (default: silent). */ logger?: Logger;
  } & ArenaOptions = {},
): Promise<TestServer> {
  // Suites and benchmarks open many /ws sockets from loopback: the per-address cap is the /ws integrity suite's subject.
  const config = loadConfig({ NODE_ENV: "test", JWT_SECRET: TEST_SECRET, WS_MAX_CONNECTIONS_PER_ADDRESS: "1000000", ...options.env });
  const gameData = options.gameData ?? (await defaultGameData());
  const db = options.db ?? (await openDatabase({ logger: silentLogger }));
  await syncItems(db.sql, gameData.items.values());
  const ctx: ServerContext = {
    config,
    logger: options.logger ?? silentLogger,
    db,
    gameData,
    startedAt: Date.now(),
    worldFeatures: WORLD_FEATURES,
    worldDesks: WORLD_DESKS,
    world: undefined as never,
    activity: new ActivityLog(),
  };
  ctx.world = worldFacade(colyseusWorldRooms(config.worlds, () => ctx.gameData));
  const arena = createArena(ctx, {
    publicDir: options.publicDir,
    wsHeartbeatMs: options.wsHeartbeatMs,
    wsAuthenticateWithinMs: options.wsAuthenticateWithinMs,
    tradeLimits: options.tradeLimits,
    interest: options.interest,
    // Suites make many guests and calls from one address: the limits are the rate-limit suite's subject.
    rateLimits: options.rateLimits ?? { auth: { points: 1_000_000, durationS: 60 }, rest: { points: 1_000_000, durationS: 60 } },
  });
  const port = await arena.listen(0);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    arena,
    ctx,
    config,
    close: async () => {
      await arena.shutdown();
      if (!options.db) await db.close();
    },
  };
}
