import type { RequestHandler } from "express";
import { sendError } from "../http/errors.js";
import { bearerToken, TokenError, verifyToken, type TokenClaims } from "./tokens.js";

declare module "express-serve-static-core" {
  interface Request {
    /** The verified claims of the request's Bearer token (set by requireAuth). */
    auth?: TokenClaims;
  }
}

/** Bearer-token guard: a missing, malformed, expired or foreign token answers 401. */
export function requireAuth(secret: string): RequestHandler {
  return (req, res, next) => {
    try {
      req.auth = verifyToken(bearerToken(req.get("authorization")), secret);
      next();
    } catch (err) {
      if (err instanceof TokenError) {
        res.set("WWW-Authenticate", 'Bearer realm="api"');
        sendError(res, 401, err.code === "TOKEN_MISSING" ? "UNAUTHORIZED" : err.code, err.message);
        return;
      }
      next(err);
    }
  };
}
