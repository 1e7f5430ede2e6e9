import { Router } from "express";
import type { Config } from "../config.js";
import type { Database } from "../db/client.js";
import { createGuest } from "../auth/guest.js";
import { requireAuth } from "../auth/middleware.js";
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

  // Who the bearer of this token is: the simplest authenticated call, for clients to check a token.
  router.get("/api/auth/me", requireAuth(deps.config.jwtSecret), async (req, res, next) => {
    try {
      const auth = req.auth!;
      const user = await deps.db.prisma.user.findUnique({ where: { id: auth.sub } });
      // A valid signature for an account that no longer exists (a removed guest) is no login.
      if (!user) return sendError(res, 401, "ACCOUNT_NOT_FOUND", "The token's account does not exist");
      res.json({ success: true, accountId: user.id, role: auth.role, guest: user.isGuest, expiresAt: new Date(auth.exp * 1000).toISOString() });
    } catch (err) {
      next(err);
    }
  });
  return router;
}
