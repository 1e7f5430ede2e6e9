import { Router } from "express";
import { z } from "zod";
import type { Config } from "../config.js";
import type { Database } from "../db/client.js";
import { AddressBannedError, createGuest } from "../auth/guest.js";
import { createIdpVerifier, idpSettingsFrom, IdpError, loginWithIdp } from "../auth/idp.js";
import { DEFAULT_TOKEN_TTL_SECONDS, GUEST_TOKEN_TTL_SECONDS, signToken } from "../auth/tokens.js";
import { requireAuth } from "./requireAuth.js";
import { sendError } from "./errors.js";
import { standingOf } from "../db/staffRepo.js";
import { bannedMessage } from "../game/staff.js";

export const IdpLoginBody = z.object({ idpToken: z.string().trim().min(1).max(16_384) });

/**
 * /api/auth/*: guest identities in anonymous mode, identity-provider login when PUBLIC_IDP_APP_ID
 * is set, and who a token belongs to.
 */
export function authRoutes(deps: { config: Config; db: Database }) {
  const router = Router();
  const idpSettings = idpSettingsFrom(deps.config);
  // One verifier per server: it caches the provider's keys.
  const idp = idpSettings ? createIdpVerifier(idpSettings) : undefined;

  router.post("/api/auth/guest", async (req, res, next) => {
    if (deps.config.idpAppId) {
      return sendError(res, 403, "GUESTS_DISABLED", "Guest accounts are off: sign in with the identity provider");
    }
    try {
      res.status(201).json(await createGuest(deps.db.sql, deps.config.jwtSecret, req.ip ?? ""));
    } catch (err) {
      if (err instanceof AddressBannedError) return sendError(res, 403, err.code, err.message);
      next(err);
    }
  });

  router.post("/api/auth/login", async (req, res, next) => {
    if (!idp) {
      return sendError(res, 403, "IDP_DISABLED", "Identity provider login is off on this server (anonymous mode): use POST /api/auth/guest");
    }
    const body = IdpLoginBody.safeParse(req.body ?? {});
    if (!body.success) {
      return sendError(res, 400, "INVALID_PAYLOAD", 'The body must be {"idpToken": "<the identity provider\'s access token>"}');
    }
    try {
      const login = await loginWithIdp(deps.db.prisma, idp, body.data.idpToken, deps.config.jwtSecret);
      const { ban } = await standingOf(deps.db.prisma, login.accountId);
      if (ban) return sendError(res, 403, "BANNED", bannedMessage(ban.reason, ban.endsAt));
      res.json(login);
    } catch (err) {
      if (err instanceof IdpError) {
        if (err.status === 503) {
          const cause = err.cause instanceof Error ? err.cause.message : undefined;
          req.log?.warn({ code: err.code, cause }, "identity provider login unavailable");
        }
        if (err.status === 401) res.set("WWW-Authenticate", 'Bearer realm="api", error="invalid_token"');
        return sendError(res, err.status, err.code, err.message);
      }
      next(err);
    }
  });

  // A token still valid, for a new one of the same account and claims with a full lifetime: a guest
  // who keeps coming back within a day keeps their character (the web client asks at every join).
  router.post("/api/auth/refresh", requireAuth(deps.config.jwtSecret, deps.db.prisma), (req, res) => {
    const auth = req.auth!;
    const expiresIn = auth.guest ? GUEST_TOKEN_TTL_SECONDS : DEFAULT_TOKEN_TTL_SECONDS;
    const role = auth.role === "agent" ? "agent" : "player";
    const token = signToken({ sub: auth.sub, role, guest: auth.guest, characterId: auth.characterId }, deps.config.jwtSecret, expiresIn);
    res.json({ token, accountId: auth.sub, expiresIn });
  });

  // Who the bearer of this token is: the simplest authenticated call, for clients to check a token.
  router.get("/api/auth/me", requireAuth(deps.config.jwtSecret, deps.db.prisma), async (req, res, next) => {
    try {
      const auth = req.auth!;
      const user = await deps.db.prisma.user.findUnique({ where: { id: auth.sub } });
      // A valid signature for an account that no longer exists (a removed guest) is no login.
      if (!user) return sendError(res, 401, "ACCOUNT_NOT_FOUND", "The token's account does not exist");
      res.json({
        success: true,
        accountId: user.id,
        role: auth.role,
        staffRole: req.staffRole ?? "player",
        guest: user.isGuest,
        expiresAt: new Date(auth.exp * 1000).toISOString(),
      });
    } catch (err) {
      next(err);
    }
  });
  return router;
}
