import { existsSync } from "node:fs";
import express, { type Application, type RequestHandler } from "express";
import type { ServerContext } from "../context.js";
import { PUBLIC_DIR } from "../paths.js";
import { apiDocsRoutes } from "./apiDocs.js";
import { authRoutes } from "./authRoutes.js";
import { envScriptRoute } from "./envScript.js";
import { errorHandler, notFound } from "./errors.js";
import { healthRoutes, type HostedWorld } from "./health.js";
import { manifestRoutes } from "./manifests.js";
import { requestLog } from "./requestLog.js";
import { metricsRoutes } from "./metricsRoute.js";
import { monitorRoutes, type StaffAdmins } from "./monitor.js";
import { moderationOf } from "../staff/moderation.js";
import { standingOf } from "../db/staffRepo.js";
import { skillUnlockRoutes } from "./skillUnlocks.js";
import { characterRoutes } from "./api/characters.js";
import { characterStatsRoutes } from "./api/characterStats.js";
import { playerRoutes } from "./api/player.js";
import { socialRoutes } from "./api/social.js";
import { templateRoutes } from "./api/templates.js";
import { worldRoutes } from "./api/world.js";
import { agentRoutes } from "./api/agents.js";
import { voiceRoutes } from "./api/voice.js";
import { catalogueRoutes } from "./api/catalogue.js";
import { adminRoutes } from "./api/admin.js";
import { webClientRoutes } from "./webClient.js";
import type { AgentRuntime } from "../agents/runtime.js";
import { addressKey, clientKey, proxyTrust, rateLimit, type Limiters } from "./rateLimit.js";
import { requestBodies } from "./body.js";
import { checkRequestTarget } from "./requestTarget.js";
import { playgroundRoutes } from "./playground.js";
import type { HttpFeature } from "./features.js";

export interface HttpOptions {
  publicDir?: string;
  /** The rate limiters (none when DISABLE_RATE_LIMIT is honoured). */
  limiters?: Limiters;
  /** The built-in agent runtime the agent endpoints steer. */
  agents?: AgentRuntime;
  /** The worlds this process runs, with their latest ticks (for /status). */
  hostedWorlds?: () => HostedWorld[];
  /** Routes of the layers above this one (the MCP endpoint at /mcp), mounted beside the others. */
  routes?: RequestHandler[];
  /** The paths that take HTML-form bodies (the OAuth sign-in page and token endpoint): every other route reads JSON only. */
  formPaths?: readonly string[];
  /** The feature folders' routes (src/features/), with their OpenAPI entries. */
  features?: readonly HttpFeature[];
}

/** Mount every HTTP route on the Express app the Colyseus transport serves. */
export function mountHttp(app: Application, ctx: ServerContext, options: HttpOptions = {}) {
  const { config, logger } = ctx;
  app.disable("x-powered-by");
  // req.ip: the same rule as every other reader of the client's address (TRUST_PROXY).
  app.set("trust proxy", proxyTrust(config));
  app.use(requestLog(logger));
  // Before any route: every body read to its end (oversize ones refused), then bad targets and bad text refused.
  app.use(requestBodies(options.formPaths));
  app.use(checkRequestTarget);

  app.use(
    healthRoutes({
      db: ctx.db,
      startedAt: ctx.startedAt,
      worldRunning: async () => (await ctx.world.spawnTile()) !== undefined,
      cluster: config.cluster !== undefined,
      hostedWorlds: options.hostedWorlds ?? (() => []),
    }),
  );
  app.use(envScriptRoute(config));
  app.use(manifestRoutes(ctx.gameData.dir));
  app.use(skillUnlockRoutes(() => ctx.gameData));
  app.use(catalogueRoutes(() => ctx.gameData));
  // The OpenAPI document and its page: public, built once, ahead of the rate limiter (like the game data above).
  const features = options.features ?? [];
  app.use(
    apiDocsRoutes(
      config.publicApiUrl,
      features.flatMap((f) => f.docs),
    ),
  );
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
  app.use(voiceRoutes(ctx));
  if (options.agents) app.use(agentRoutes(ctx, options.agents));
  app.use(adminRoutes(ctx));
  for (const feature of features) app.use(feature.routes(ctx, { agents: options.agents }));
  for (const routes of options.routes ?? []) app.use(routes);
  const adminAuth = { logger, failures: options.limiters?.adminFailures };
  const moderation = moderationOf(ctx);
  const staffAdmins: StaffAdmins = {
    jwtSecret: config.jwtSecret,
    roleOf: async (accountId) => {
      const standing = await standingOf(ctx.db.prisma, accountId);
      return standing.exists && !standing.ban ? standing.role : undefined;
    },
    recordLogin: async ({ accountId, address }) => {
      await moderation.record({ accountId, name: accountId ?? "ADMIN_CODE", role: "admin", via: "monitor" }, "monitor.login", "monitor.login", null, {
        address,
      });
    },
  };
  app.use(monitorRoutes(config.adminCode, adminAuth, staffAdmins));
  // (Scrapes are not logins: /metrics records no audit row.)
  app.use(metricsRoutes(config.adminCode, adminAuth, { ...staffAdmins, recordLogin: async () => {} }));

  app.use(playgroundRoutes(config.nodeEnv, logger));
  app.use("/api", notFound);
  // The web client at / (client/, bundled on first request).
  app.use(webClientRoutes({ logger, minify: config.nodeEnv === "production" }));
  const publicDir = options.publicDir ?? PUBLIC_DIR;
  if (existsSync(publicDir)) app.use(express.static(publicDir, { index: "index.html" }));
  app.use(notFound);
  app.use(errorHandler(logger));
}
