import type { PrismaClient } from "@prisma/client";
import { standingOf } from "../db/staffRepo.js";
import { bannedMessage, type StaffRole } from "../game/staff.js";
import type { RequestHandler } from "express";
import { sendError } from "./errors.js";
import { bearerToken, TokenError, tokenErrorStatus, verifyToken, type TokenClaims } from "../auth/tokens.js";

declare module "express-serve-static-core" {
  interface Request {
    /** The verified claims of the request's Bearer token (set by requireAuth). */
    auth?: TokenClaims;
    /** The caller's staff role, read from the database (set by requireAuth; an agent token is never staff). */
    staffRole?: StaffRole;
  }
}

/**
 * Bearer-token guard, the one home of "who is calling" for every Bearer route: a missing,
 * malformed, expired or foreign token answers 401, and so does a validly signed token whose
 * account does not exist (a removed guest): 401 `ACCOUNT_NOT_FOUND`. A banned account is 403
 * `BANNED` (the reason and the end in the message), a spectator token 403 `TOKEN_READ_ONLY` but
 * on the watching routes (`watch`: src/features/spectate/), where it passes as role "spectator" once
 * the account that made it stands. The account's standing is read here, two
 * lookups by index: the staff role comes from the database, never from the token's claims. A
 * database outage reaches the error handler (503).
 */
export function requireAuth(secret: string, prisma: PrismaClient, options: { watch?: boolean } = {}): RequestHandler {
  const refuse = (res: Parameters<RequestHandler>[1], code: string, message: string, status: 401 | 403 = 401) => {
    if (status === 401) res.set("WWW-Authenticate", 'Bearer realm="api"');
    sendError(res, status, code, message);
  };
  return (req, res, next) => {
    let claims: TokenClaims;
    try {
      claims = verifyToken(bearerToken(req.get("authorization")), secret, options);
    } catch (err) {
      if (err instanceof TokenError) return refuse(res, err.code === "TOKEN_MISSING" ? "UNAUTHORIZED" : err.code, err.message, tokenErrorStatus(err));
      return next(err);
    }
    standingOf(prisma, claims.sub).then(
      (standing) => {
        if (!standing.exists) return refuse(res, "ACCOUNT_NOT_FOUND", "The token's account does not exist");
        if (standing.ban) return sendError(res, 403, "BANNED", bannedMessage(standing.ban.reason, standing.ban.endsAt));
        req.staffRole = claims.characterId ? "player" : standing.role;
        // The claims as the routes read them: `role` "admin" only for an admin of the database (a token's own "admin" claim counts for nothing).
        const kept = claims.role === "agent" || claims.role === "spectator";
        req.auth = { ...claims, role: kept ? claims.role : req.staffRole === "admin" ? "admin" : "player" };
        next();
      },
      (err: unknown) => next(err),
    );
  };
}
