import { Router } from "express";
import type { Config } from "../config.js";
import type { Database } from "../db/client.js";
import { createGuest } from "../auth/guest.js";
import { sendError } from "./errors.js";

/** /api/auth/*: guest identities in anonymous mode (the identity provider's login comes with accounts). */
export function authRoutes(deps: { config: Config; db: Database }) {
  const router = Router();
  router.post("/api/auth/guest", async (_req, res, next) => {
    if (deps.config.idpAppId) {
      return sendError(res, 403, "GUESTS_DISABLED", "Guest accounts are off: sign in with the identity provider");
    }
    try {
      res.status(201).json(await createGuest(deps.db.prisma, deps.config.jwtSecret));
    } catch (err) {
      next(err);
    }
  });
  return router;
}
