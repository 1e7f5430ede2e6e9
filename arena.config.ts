import "./rooms/nodeWebSocket.js";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { defineRoom, defineServer, matchMaker, type Room, type Server } from "@colyseus/core";
import { Encoder } from "@colyseus/schema";
import type { ConfigOptions } from "@colyseus/tools";
import { WebSocketTransport } from "@colyseus/ws-transport";
import type { Application } from "express";
import { TradeRoom } from "./rooms/TradeRoom.js";
import { WorldRoom } from "./rooms/WorldRoom.js";
import type { InterestKind } from "./rooms/interest/worldInterest.js";
import type { TradeLimits } from "./src/game/trade.js";
import type { ServerContext } from "./src/context.js";
import { loadConfig } from "./src/config.js";
import { mountHttp } from "./src/http/app.js";
import { FEATURES, MCP_TOOLS } from "./src/features/index.js";
import { restartsOf } from "./src/staff/restart.js";
import { drainOf } from "./src/staff/drain.js";
import { contentOf } from "./src/staff/contentReload.js";
import { watchOperatorChanges } from "./src/staff/operatorChanges.js";
import { localWorlds } from "./rooms/cluster/localWorlds.js";
import { frameworkLogger, serverLogger, type Logger } from "./src/logger.js";
import { processInfo } from "./src/metrics.js";
import { clientAddressOf, createLimiters, RATE_LIMITS } from "./src/http/rateLimit.js";
import { AgentRuntime } from "./src/agents/runtime.js";
import type { Redis } from "ioredis";
import os from "node:os";
import { WorldHosting, worldRoomId } from "./rooms/cluster/worldHosting.js";
import { addressOf, announceAddress, forgetAddress, otherHosts } from "./rooms/cluster/worldDirectory.js";
import { corsHeaders, installCorsPolicy } from "./src/http/cors.js";
import { installFrontDoor } from "./src/http/frontDoor.js";
import { isMatchmakeRequest, matchmakeGate } from "./src/http/matchmake.js";
import { attachWsEndpoint, isWsPath } from "./src/ws/endpoint.js";
import { mcpEndpoint } from "./src/mcp/endpoint.js";
import { OAUTH_FORM_PATHS } from "./src/mcp/oauth.js";
import { CLOSE_CODES } from "./src/protocol/index.js";
import type { GuestCleanup } from "./src/auth/guestCleanup.js";
import { cleanIdleGuests, openServerContext } from "./src/startup.js";
import { VERSION } from "./src/version.js";

/**
 * The one place the server is assembled: the Express app, the Colyseus transport and the /ws
 * endpoint share one http server; the rooms get the server context. Two doors lead here:
 * - `createArena(ctx)`: the server for a context already opened (src/index.ts, the test servers);
 * - the default export: the Colyseus config `listen()` (@colyseus/tools) and `boot()`
 *   (@colyseus/testing) take; its hooks open the context from the environment, as `npm start` does.
 */
export interface Arena {
  gameServer: Server;
  /** The built-in agent runtime. */
  agents: AgentRuntime;
  httpServer: http.Server;
  /** Listen on `port` (0 = any free port); resolves with the port bound. */
  listen(port: number): Promise<number>;
  /** Stop accepting, dispose the rooms, close every socket and the http server. */
  shutdown(): Promise<void>;
}

/** A room class whose every instance (the matchmaker makes them) gets the running server's context. */
function bindContext<T extends new (...args: any[]) => { ctx?: ServerContext }>(RoomClass: T, ctxOf: () => ServerContext): T {
  return class extends RoomClass {
    constructor(...args: any[]) {
      super(...args);
      (this as { ctx?: ServerContext }).ctx = ctxOf();
    }
  };
}

/**
 * A joining client's full state is encoded into one buffer of this size; the default (16 KiB)
 * overflows in a busy world, which makes Colyseus encode it twice and log a warning per join.
 */
Encoder.BUFFER_SIZE = 256 * 1024;

export interface ArenaOptions {
  publicDir?: string;
  wsHeartbeatMs?: number;
  wsAuthenticateWithinMs?: number;
  /** Trade timeouts and limits other than the documented ones (tests). */
  tradeLimits?: Partial<TradeLimits>;
  /** REST rate limits other than the documented ones (tests). */
  rateLimits?: Partial<typeof RATE_LIMITS>;
  /** Start the agents marked running when the server starts (default true). */
  startAgents?: boolean;
  /** The worlds' interest management (rooms/interest/worldInterest.ts): "shared" by default, "plain" for tests and benchmarks. */
  interest?: InterestKind;
}

/** The room types: the world (one per shard, made by the server at start) and a trade room per trade. */
function arenaRooms(ctxOf: () => ServerContext, options: ArenaOptions = {}) {
  return {
    // The room's own options win over a client's: no client decides the world's limits.
    world: defineRoom(bindContext(WorldRoom as any, ctxOf) as typeof WorldRoom, {
      tradeLimits: options.tradeLimits ?? {},
      interest: options.interest ?? "shared",
    }),
    trade: defineRoom(bindContext(TradeRoom as any, ctxOf) as typeof TradeRoom),
  };
}
export type ArenaRooms = ReturnType<typeof arenaRooms>;

/**
 * The Colyseus transport on `httpServer`; upgrades at /ws are left to the JSON endpoint. The
 * client's address as the rooms see it (`AuthContext.ip`) is the server's own reading
 * (`addressOf`: X-Forwarded-For only from a TRUST_PROXY proxy): Colyseus would take any
 * X-Forwarded-For as it comes, and a client could then give itself any address.
 */
function colyseusTransport(httpServer: http.Server, addressOf: () => (req: http.IncomingMessage) => string): WebSocketTransport {
  const transport = new WebSocketTransport({ noServer: true });
  transport.attachToServer(httpServer, {
    filter: (req) => {
      if (isWsPath(req)) return false;
      req.headers["x-forwarded-for"] = addressOf()(req);
      return true;
    },
  });
  return transport;
}

/** What runs beside the rooms on one http server, and the server's start and stop around them. */
interface Assembly {
  agents: AgentRuntime;
  /** Mount every HTTP route (Colyseus hands over its Express app at listen). */
  express(app: Application): void;
  /** Before the port opens: Redis reached (or given up on), the world made, the agents started. */
  start(): Promise<void>;
  /**
   * Hook onto the game server: the port it bound, and the steps of its shutdown around the
   * rooms' disposal (`stopping` first, `stopped` last: what the caller opened itself).
   */
  attach(gameServer: Server, around?: { stopping?: () => Promise<void>; stopped?: () => Promise<void> }): void;
}

function assemble(ctx: ServerContext, httpServer: http.Server, options: ArenaOptions): Assembly {
  // Slow clients: headers and the whole request must arrive in time (Node answers 408 and closes);
  // idle keep-alive connections close. Checked a few times per timeout, not the default every 30 s.
  const { headersTimeoutS, requestTimeoutS, keepAliveTimeoutS } = ctx.config.http;
  httpServer.headersTimeout = headersTimeoutS * 1000;
  httpServer.requestTimeout = requestTimeoutS * 1000;
  httpServer.keepAliveTimeout = keepAliveTimeoutS * 1000;
  (httpServer as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = Math.min(5_000, Math.max(250, (headersTimeoutS * 1000) / 4));

  installCorsPolicy(ctx.config);

  const agents = new AgentRuntime(ctx);
  let hosting: WorldHosting | undefined;
  let operatorChanges: { stop(): void } | undefined;
  // The worlds this process runs, as a restart, a content reload, the operator's changes and a stop reach them.
  const here = localWorlds(() => hosting?.hosted ?? []);

  // Shared counters (rate limits) across server processes when Redis is configured.
  const redis = ctx.config.redisUrl
    ? new (redisModules(ctx).Redis)(ctx.config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  redis?.on("error", (err) => ctx.logger.warn({ err: err.message }, "redis connection error (rate limits fall back to this process's memory)"));
  const limiters = ctx.config.rateLimitDisabled ? undefined : createLimiters(options.rateLimits, redis);

  // Matchmaking is served by our gate, ahead of Colyseus's router: only the server makes rooms,
  // and every call counts against the REST limits.
  const corsFor = corsHeaders(ctx.config);
  installFrontDoor(httpServer, [
    {
      handles: isMatchmakeRequest,
      serve: matchmakeGate({
        jwtSecret: ctx.config.jwtSecret,
        logger: ctx.logger,
        limiter: limiters?.rest,
        clientAddress: clientAddressOf(ctx.config),
        corsHeaders: (req) => corsFor(req.headers.origin),
        worlds: () => ctx.world.worlds(),
      }),
    },
  ]);

  // The plain JSON protocol: a translator into the same rooms, never a second game. Its guest
  // identities count as authentication attempts, with the HTTP ones.
  const ws = attachWsEndpoint(httpServer, ctx, {
    heartbeatMs: options.wsHeartbeatMs,
    authenticateWithinMs: options.wsAuthenticateWithinMs,
    guestLimiter: limiters?.auth,
  });

  // The Model Context Protocol at /mcp: MCP sessions are players like /ws sockets, in the same rooms.
  const mcp = mcpEndpoint(ctx, { guestLimiter: limiters?.auth, tools: MCP_TOOLS });

  return {
    agents,
    express: (app) =>
      mountHttp(app, ctx, {
        publicDir: options.publicDir,
        limiters,
        agents,
        routes: [mcp.router],
        formPaths: OAUTH_FORM_PATHS,
        features: FEATURES,
        hostedWorlds: () =>
          [...(hosting?.hosted ?? [])]
            .sort((a, b) => a - b)
            .map((id) => {
              const room = matchMaker.getLocalRoomById(worldRoomId(id)) as WorldRoom | undefined;
              return { id, ...(room?.tickSummary() ?? { players: 0, ticks: 0, medianMs: 0, p99Ms: 0 }) };
            }),
      }),
    start: async () => {
      // Shared counters from the first request on: wait (a little) for Redis before accepting any.
      if (redis && redis.status !== "ready") {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            ctx.logger.warn("redis is not reachable yet: rate limits count in this process until it is");
            resolve();
          }, 5_000);
          redis.once("ready", () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      // The worlds are made by the server (clients only join them): before the port opens, this
      // process makes its share of the worlds nobody runs yet (all of them without a cluster),
      // then keeps looking for worlds to take over (rooms/cluster/worldHosting.ts).
      await matchMaker.onReady;
      if (ctx.config.cluster) ctx.logger.setBindings({ processId: matchMaker.processId });
      processInfo.set({ process_id: matchMaker.processId, cluster: String(ctx.config.cluster !== undefined) }, 1);
      // Where this process is reached, for the players of a world that moves off another (a drain) and for the other processes.
      if (ctx.config.cluster) await announceAddress(ctx.config.cluster.address);
      // The rooms this server opened: it only ever closes its own (another server of this
      // process, in tests, may run a room of the same id after this one stopped).
      const opened = new Map<number, Room>();
      const presence = matchMaker.presence;
      hosting = new WorldHosting(
        presence,
        ctx.config.worlds,
        { processId: matchMaker.processId },
        {
          open: async (spec) => {
            const listing = await matchMaker.handleCreateRoom("world", { worldId: spec.id }, undefined, worldRoomId(spec.id));
            const room = matchMaker.getLocalRoomById(listing.roomId);
            if (room) opened.set(spec.id, room);
          },
          isEmpty: (spec) => (opened.get(spec.id)?.clients.length ?? 0) === 0,
          close: async (spec) => {
            const room = opened.get(spec.id);
            opened.delete(spec.id);
            if (room) await room.disconnect();
          },
          moveOut: async (spec, next) => {
            const room = opened.get(spec.id) as WorldRoom | undefined;
            return room ? room.moveOut(await otherHosts(), next ? ((await addressOf(next)) ?? null) : null) : 0;
          },
        },
        ctx.logger,
        // A round runs only while this server's matchmaker is the one set up (not after it stopped).
        { sweepDeadProcesses: ctx.config.cluster !== undefined, alive: () => matchMaker.presence === presence },
      );
      await hosting.start();
      // A drain (an upgrade) moves this process's worlds to the others, asked here or on its presence channel.
      await drainOf(ctx).attach(hosting, presence, matchMaker.processId, ctx.config.cluster !== undefined);
      // A scheduled restart reaches the worlds this process runs; the operator's role changes reach every world.
      restartsOf(ctx).attach(here);
      contentOf(ctx).attach(here);
      operatorChanges = watchOperatorChanges(ctx.db.prisma, here, ctx.logger, (version) => contentOf(ctx).follow(version));
      // Lines of the agents' activity written on other processes are heard from now on.
      await ctx.activity.listen();
      await agents.begin({ takeOver: options.startAgents !== false });
      if (options.startAgents !== false) await agents.startAll();
    },
    attach: (gameServer, around = {}) => {
      // @colyseus/testing reads the port from the server: the one bound, also when asked for any (0).
      httpServer.on("listening", () => {
        const address = httpServer.address();
        if (address && typeof address === "object") (gameServer as unknown as { port: number }).port = address.port;
      });
      gameServer.onBeforeShutdown(async () => {
        // Before anyone leaves (agents, MCP sessions, then every room's clients): a leave in a fight loses it.
        await here.callOff();
        operatorChanges?.stop();
        restartsOf(ctx).cancel();
        // No world is taken over from here on; each room frees its world's claim once saved.
        await hosting?.stop();
        if (ctx.config.cluster) await forgetAddress().catch(() => {});
        await around.stopping?.();
        httpServer.close();
        // Agents and MCP sessions leave first, like any player (the world saves them).
        await agents.shutdown();
        await mcp.close();
      });
      // Then Colyseus disposes of the rooms (they save) and closes its transport.
      gameServer.onShutdown(async () => {
        await ws.close(CLOSE_CODES.GOING_AWAY);
        httpServer.closeAllConnections();
        redis?.disconnect();
        await around.stopped?.();
      });
    },
  };
}

/** What Redis takes (ioredis, Colyseus's Redis presence and driver): loaded by loadRedis, for a server that uses it. */
let redisLoaded:
  | {
      Redis: typeof import("ioredis").Redis;
      RedisDriver: typeof import("@colyseus/redis-driver").RedisDriver;
      RedisPresence: typeof import("@colyseus/redis-presence").RedisPresence;
    }
  | undefined;

/**
 * Load what Redis takes, before createArena for a configuration with REDIS_URL (src/index.ts does):
 * the modules are ~0.1 s of a start, and a server without Redis never loads them.
 */
export async function loadRedis(): Promise<void> {
  const [{ Redis }, { RedisDriver }, { RedisPresence }] = await Promise.all([
    import("ioredis"),
    import("@colyseus/redis-driver"),
    import("@colyseus/redis-presence"),
  ]);
  redisLoaded = { Redis, RedisDriver, RedisPresence };
}

function redisModules(ctx: ServerContext): NonNullable<typeof redisLoaded> {
  if (!redisLoaded) throw new Error(`REDIS_URL is set (${ctx.config.redisUrl}): await loadRedis() from arena.config.ts before createArena`);
  return redisLoaded;
}

/**
 * Cluster mode (REDIS_URL): Colyseus's Redis presence (locks, pub/sub, remote room calls) and
 * driver (every process's room listings), and the address clients reach this process at.
 */
function clusterEngine(ctx: ServerContext) {
  const cluster = ctx.config.cluster;
  if (!cluster) return {};
  const { RedisPresence, RedisDriver } = redisModules(ctx);
  return {
    presence: new RedisPresence(cluster.redisUrl),
    driver: new RedisDriver(cluster.redisUrl),
    publicAddress: cluster.publicAddress ?? `${os.hostname()}:${ctx.config.port}`,
  };
}

export function createArena(ctx: ServerContext, options: ArenaOptions = {}): Arena {
  const httpServer = http.createServer();
  const addressOf = clientAddressOf(ctx.config);
  const transport = colyseusTransport(httpServer, () => addressOf);
  const assembly = assemble(ctx, httpServer, options);
  const gameServer = defineServer({
    rooms: arenaRooms(() => ctx, options),
    transport,
    ...clusterEngine(ctx),
    greet: false,
    logger: frameworkLogger(ctx.logger),
    gracefullyShutdown: false,
    express: assembly.express,
  });
  assembly.attach(gameServer);

  let shuttingDown: Promise<void> | undefined;
  return {
    gameServer,
    agents: assembly.agents,
    httpServer,
    listen: async (port) => {
      await assembly.start();
      await gameServer.listen(port);
      return (httpServer.address() as AddressInfo).port;
    },
    shutdown: () => (shuttingDown ??= gameServer.gracefullyShutdown(false)),
  };
}

/** Colyseus's own log lines, on to the server's logger once the hooks have made it. */
function relayLogger() {
  let to: ReturnType<typeof frameworkLogger> | undefined;
  const relay =
    (level: "trace" | "debug" | "info" | "warn" | "error") =>
    (...args: unknown[]) =>
      to?.[level](...args);
  return {
    trace: relay("trace"),
    debug: relay("debug"),
    info: relay("info"),
    warn: relay("warn"),
    error: relay("error"),
    use: (logger: Logger) => void (to = frameworkLogger(logger)),
  };
}

/** The server the default export runs (one at a time: Colyseus's matchmaker is one per process). */
let running: { httpServer: http.Server; ctx?: ServerContext; assembly?: Assembly; guests?: GuestCleanup } | undefined;
const colyseusLog = relayLogger();

function current(): NonNullable<typeof running> {
  if (!running) throw new Error("arena.config.ts: no server is booting (initializeTransport runs first)");
  return running;
}

function runningPart<K extends "ctx" | "assembly">(part: K): NonNullable<NonNullable<typeof running>[K]> {
  const value = current()[part];
  if (!value) throw new Error(`arena.config.ts: no ${part} yet (the hooks run in the order listen() calls them)`);
  return value as NonNullable<NonNullable<typeof running>[K]>;
}

/**
 * The server as a Colyseus config, for `listen(config)` from @colyseus/tools and `boot(config)`
 * from @colyseus/testing. The hooks run in this order, each awaited:
 * initializeTransport (the http server @colyseus/tools made), initializeGameServer (configuration
 * from the environment, game data, database, everything beside the rooms), beforeListen (the world
 * and the agents, idle-guest cleanup), then Colyseus's listen mounts initializeExpress. Stopping the
 * game server (`gracefullyShutdown()`, a signal under `listen()`) saves the world, then closes the
 * database.
 */
const arenaConfig: Omit<ConfigOptions<ArenaRooms>, "~rooms" | "~routes"> = {
  options: { greet: false, logger: colyseusLog },
  rooms: arenaRooms(() => runningPart("ctx")),
  initializeTransport: ({ server }: { server: http.Server }) => {
    running = { httpServer: server };
    // The configuration is read in initializeGameServer, before the first upgrade.
    let addressOf: ((req: http.IncomingMessage) => string) | undefined;
    return colyseusTransport(server, () => (addressOf ??= clientAddressOf(runningPart("ctx").config)));
  },
  initializeGameServer: async (gameServer: Server) => {
    const config = loadConfig(process.env, { version: VERSION });
    // The matchmaker was set up before this hook runs: a cluster's Redis engine is given at construction (createArena, npm start).
    if (config.cluster) throw new Error("REDIS_URL: a cluster process is started with npm start (src/index.ts), not through this config");
    const logger = serverLogger(config);
    colyseusLog.use(logger);
    const ctx = await openServerContext(config, logger);
    const server = current();
    const assembly = assemble(ctx, server.httpServer, {});
    assembly.attach(gameServer, {
      stopping: async () => server.guests?.stop(),
      stopped: async () => {
        await ctx.db.close();
        if (running === server) running = undefined;
      },
    });
    Object.assign(server, { ctx, assembly });
  },
  initializeExpress: (app: Application) => runningPart("assembly").express(app),
  beforeListen: async () => {
    await runningPart("assembly").start();
    current().guests = cleanIdleGuests(runningPart("ctx"));
  },
};

export default arenaConfig as ConfigOptions<ArenaRooms>;
