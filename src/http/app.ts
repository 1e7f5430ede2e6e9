import { existsSync } from "node:fs";
import express, { type Application } from "express";
import { pinoHttp } from "pino-http";
import type { ServerContext } from "../context.js";
import { PUBLIC_DIR } from "../paths.js";
import { authRoutes } from "./authRoutes.js";
import { envScriptRoute } from "./envScript.js";
import { apiNotFound, errorHandler } from "./errors.js";
import { healthRoutes } from "./health.js";
import { manifestRoutes } from "./manifests.js";
import { metricsRoutes } from "./metricsRoute.js";
import { monitorRoutes } from "./monitor.js";
import { skillUnlockRoutes } from "./skillUnlocks.js";
import { characterRoutes } from "./api/characters.js";
import { characterStatsRoutes } from "./api/characterStats.js";
import { playerRoutes } from "./api/player.js";
import { socialRoutes } from "./api/social.js";
import { templateRoutes } from "./api/templates.js";
import { worldRoutes } from "./api/world.js";
import { agentRoutes } from "./api/agents.js";
import type { AgentRuntime } from "../agents/runtime.js";
import { addressKey, clientKey, rateLimit, TRUSTED_PROXIES, type Limiters } from "./rateLimit.js";

export interface HttpOptions {
  publicDir?: string;
  /** The rate limiters (none when DISABLE_RATE_LIMIT is honoured). */
  limiters?: Limiters;
  /** The built-in agent runtime the agent endpoints steer. */
  agents?: AgentRuntime;
}

/** Mount every HTTP route on the Express app the Colyseus transport serves. */
export function mountHttp(app: Application, ctx: ServerContext, options: HttpOptions = {}) {
  const { config, logger } = ctx;
  app.disable("x-powered-by");
  app.set("trust proxy", TRUSTED_PROXIES);
  app.use(
    pinoHttp({
      logger,
      // One line per request; headers (tokens, cookies) never reach the log.
      serializers: {
        req: (req) => ({ method: req.method, url: String(req.url).replace(/([?&]token=)[^&]*/gi, "$1[redacted]") }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : "info"),
    }),
  );
  app.use(express.json({ limit: "64kb" }));

  app.use(healthRoutes({ db: ctx.db, startedAt: ctx.startedAt }));
  app.use(envScriptRoute(config));
  app.use(manifestRoutes(ctx.gameData.dir));
  app.use(skillUnlockRoutes(ctx.gameData.skillUnlocks));
  // Rate limits: authentication attempts per address; every other /api request per client.
  if (options.limiters) {
    const perAddress = rateLimit(options.limiters.auth, addressKey);
    const perClient = rateLimit(options.limiters.rest, clientKey(config.jwtSecret));
    // Authentication attempts: making a guest identity or logging in (checking a token with /me is an ordinary request).
    const isAttempt = (method: string, path: string) => method === "POST" && (path === "/auth/guest" || path === "/auth/login");
    app.use("/api", (req, res, next) => (isAttempt(req.method, req.path) ? perAddress : perClient)(req, res, next));
  }
  app.use(authRoutes({ config, db: ctx.db }));
  app.use(playerRoutes(ctx));
  app.use(worldRoutes(ctx));
  app.use(characterStatsRoutes(ctx));
  app.use(characterRoutes(ctx));
  app.use(templateRoutes(ctx));
  app.use(socialRoutes(ctx));
  if (options.agents) app.use(agentRoutes(ctx, options.agents));
  app.use(monitorRoutes(config.adminCode, logger));
  app.use(metricsRoutes(config.adminCode));

  app.use("/api", apiNotFound);
  const publicDir = options.publicDir ?? PUBLIC_DIR;
  if (existsSync(publicDir)) app.use(express.static(publicDir, { index: "index.html" }));
  app.use(errorHandler(logger));
}
