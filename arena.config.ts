import "./rooms/nodeWebSocket.js";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { defineRoom, defineServer, matchMaker, type Server } from "@colyseus/core";
import { Encoder } from "@colyseus/schema";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { TradeRoom } from "./rooms/TradeRoom.js";
import { WorldRoom } from "./rooms/WorldRoom.js";
import type { TradeLimits } from "./src/game/trade.js";
import type { ServerContext } from "./src/context.js";
import { mountHttp } from "./src/http/app.js";
import { frameworkLogger } from "./src/logger.js";
import { clientAddressOf, createLimiters, RATE_LIMITS } from "./src/http/rateLimit.js";
import { AgentRuntime } from "./src/agents/runtime.js";
import { Redis } from "ioredis";
import { corsHeaders, installCorsPolicy } from "./src/http/cors.js";
import { installFrontDoor } from "./src/http/frontDoor.js";
import { isMatchmakeRequest, matchmakeGate } from "./src/http/matchmake.js";
import { attachWsEndpoint, isWsPath } from "./src/ws/endpoint.js";
import { CLOSE_CODES } from "./src/protocol/index.js";

/**
 * The one place the server is assembled: the Express app, the Colyseus transport and the /ws
 * endpoint share one http server; the rooms get the server context.
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

/** A room class with the server context bound, so every instance the matchmaker makes has it. */
function bindContext<T extends new (...args: any[]) => { ctx?: ServerContext }>(RoomClass: T, ctx: ServerContext): T {
  return class extends RoomClass {
    constructor(...args: any[]) {
      super(...args);
      (this as { ctx?: ServerContext }).ctx = ctx;
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
}

export function createArena(ctx: ServerContext, options: ArenaOptions = {}): Arena {
  const httpServer = http.createServer();
  // Slow clients: headers and the whole request must arrive in time (Node answers 408 and closes);
  // idle keep-alive connections close. Checked a few times per timeout, not the default every 30 s.
  const { headersTimeoutS, requestTimeoutS, keepAliveTimeoutS } = ctx.config.http;
  httpServer.headersTimeout = headersTimeoutS * 1000;
  httpServer.requestTimeout = requestTimeoutS * 1000;
  httpServer.keepAliveTimeout = keepAliveTimeoutS * 1000;
  (httpServer as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = Math.min(5_000, Math.max(250, (headersTimeoutS * 1000) / 4));

  const transport = new WebSocketTransport({ noServer: true });
  transport.attachToServer(httpServer, { filter: (req) => !isWsPath(req) });

  installCorsPolicy(ctx.config);

  const agents = new AgentRuntime(ctx);

  // Shared counters (rate limits) across server processes when Redis is configured.
  const redis = ctx.config.redisUrl ? new Redis(ctx.config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false }) : undefined;
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

  const gameServer = defineServer({
    rooms: {
      // The room's own options win over a client's: no client decides the world's limits.
      world: defineRoom(bindContext(WorldRoom as any, ctx) as typeof WorldRoom, { tradeLimits: options.tradeLimits ?? {} }),
      trade: defineRoom(bindContext(TradeRoom as any, ctx) as typeof TradeRoom),
    },
    transport,
    greet: false,
    logger: frameworkLogger(ctx.logger),
    gracefullyShutdown: false,
    express: (app) => mountHttp(app, ctx, { publicDir: options.publicDir, limiters, agents }),
  });

  let shuttingDown: Promise<void> | undefined;
  return {
    gameServer,
    agents,
    httpServer,
    listen: async (port) => {
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
      await gameServer.listen(port);
      const bound = (httpServer.address() as AddressInfo).port;
      // @colyseus/testing reads the port from here.
      (gameServer as unknown as { port: number }).port = bound;
      await matchMaker.createRoom("world", {});
      if (options.startAgents !== false) await agents.startAll();
      return bound;
    },
    shutdown: () =>
      (shuttingDown ??= (async () => {
        httpServer.close();
        // Agents leave first, like any player (the world saves them).
        await agents.shutdown();
        await gameServer.gracefullyShutdown(false);
        await ws.close(CLOSE_CODES.GOING_AWAY);
        httpServer.closeAllConnections();
        redis?.disconnect();
      })()),
  };
}
