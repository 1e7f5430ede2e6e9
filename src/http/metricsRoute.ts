import { Router } from "express";
import { registry } from "../metrics.js";
import { adminGate, type AdminAuthOptions, type StaffAdmins } from "./monitor.js";

/** GET /metrics (Prometheus text), for staff admins' tokens and the admin code (as the monitor). */
export function metricsRoutes(adminCode: string | undefined, options: AdminAuthOptions, staff?: StaffAdmins) {
  const router = Router();
  if (!adminCode && !staff) return router;
  router.get("/metrics", adminGate(adminCode, options, staff), async (_req, res, next) => {
    try {
      res.type(registry.contentType).send(await registry.metrics());
    } catch (err) {
      next(err);
    }
  });
  return router;
}
