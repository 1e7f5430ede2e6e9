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

/** Mount every HTTP route on the Express app the Colyseus transport serves. */
export function mountHttp(app: Application, ctx: ServerContext, options: { publicDir?: string } = {}) {
  const { config, logger } = ctx;
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback, linklocal, uniquelocal");
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
  app.use(authRoutes({ config, db: ctx.db }));
  app.use(monitorRoutes(config.adminCode, logger));
  app.use(metricsRoutes(config.adminCode));

  app.use("/api", apiNotFound);
  const publicDir = options.publicDir ?? PUBLIC_DIR;
  if (existsSync(publicDir)) app.use(express.static(publicDir, { index: "index.html" }));
  app.use(errorHandler(logger));
}
