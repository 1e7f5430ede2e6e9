import { Router } from "express";
import { registry } from "../metrics.js";
import { basicAuthWithCode, type AdminAuthOptions } from "./monitor.js";

/** GET /metrics (Prometheus text), behind HTTP basic auth with the admin code; off without one. */
export function metricsRoutes(adminCode: string | undefined, options: AdminAuthOptions) {
  const router = Router();
  if (!adminCode) return router;
  router.get("/metrics", basicAuthWithCode(adminCode, options), async (_req, res, next) => {
    try {
      res.type(registry.contentType).send(await registry.metrics());
    } catch (err) {
      next(err);
    }
  });
  return router;
}
