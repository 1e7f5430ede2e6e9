import type { PrismaClient } from "@prisma/client";
import type { RequestHandler } from "express";
import { sendError } from "./errors.js";
import { bearerToken, TokenError, verifyToken, type TokenClaims } from "../auth/tokens.js";

declare module "express-serve-static-core" {
  interface Request {
    /** The verified claims of the request's Bearer token (set by requireAuth). */
    auth?: TokenClaims;
  }
}

/**
 * Bearer-token guard, the one home of "who is calling" for every Bearer route: a missing,
 * malformed, expired or foreign token answers 401, and so does a validly signed token whose
 * account does not exist (a removed guest): 401 `ACCOUNT_NOT_FOUND`. That check is one lookup by
 * primary key; a database outage reaches the error handler (503).
 */
export function requireAuth(secret: string, prisma: Pick<PrismaClient, "user">): RequestHandler {
  const refuse = (res: Parameters<RequestHandler>[1], code: string, message: string) => {
    res.set("WWW-Authenticate", 'Bearer realm="api"');
    sendError(res, 401, code, message);
  };
  return (req, res, next) => {
    let claims: TokenClaims;
    try {
      claims = verifyToken(bearerToken(req.get("authorization")), secret);
    } catch (err) {
      if (err instanceof TokenError) return refuse(res, err.code === "TOKEN_MISSING" ? "UNAUTHORIZED" : err.code, err.message);
      return next(err);
    }
    prisma.user.findUnique({ where: { id: claims.sub }, select: { id: true } }).then(
      (account) => {
        if (!account) return refuse(res, "ACCOUNT_NOT_FOUND", "The token's account does not exist");
        req.auth = claims;
        next();
      },
      (err: unknown) => next(err),
    );
  };
}
