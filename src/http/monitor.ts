import { createHash, timingSafeEqual } from "node:crypto";
import { monitor } from "@colyseus/monitor";
import { Router, type Request, type RequestHandler } from "express";
import type { Logger } from "pino";
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { sendError } from "./errors.js";

/** Constant time whatever the lengths: both sides are hashed to the same size first. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

export interface AdminAuthOptions {
  logger: Logger;
  /** Wrong codes per address (RATE_LIMITS.adminFailures); none when rate limits are off (development). */
  failures?: RateLimiterAbstract;
}

/** The password of a Basic authorization header (any user name), or undefined when there is none. */
function basicPassword(req: Request): string | undefined {
  const header = req.get("authorization");
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return "";
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  return decoded.includes(":") ? decoded.slice(decoded.indexOf(":") + 1) : "";
}

/**
 * HTTP basic auth where the password is the admin code (any user name), compared in constant time.
 * Every wrong code counts against the caller's address (logged at warn with the address, never the
 * code tried); an address with `failures.points` wrong codes in a window is refused with 429
 * `RATE_LIMITED` and `Retry-After` for the rest of it, even with the right code. A request without
 * credentials is the browser's first call and only gets the challenge (401).
 */
export function basicAuthWithCode(code: string, options: AdminAuthOptions): RequestHandler {
  const { logger, failures } = options;
  const challenge = (res: Parameters<RequestHandler>[1]) => {
    res.set("WWW-Authenticate", 'Basic realm="colyseus monitor", charset="UTF-8"');
    sendError(res, 401, "UNAUTHORIZED", "This needs the admin code");
  };
  const limited = (res: Parameters<RequestHandler>[1], msBeforeNext: number) => {
    const retry = Math.max(1, Math.ceil(msBeforeNext / 1000));
    res.set("Retry-After", String(retry));
    sendError(res, 429, "RATE_LIMITED", `Too many wrong admin codes from this address: try again in ${retry} s`);
  };
  return (req, res, next) => {
    const address = req.ip ?? "unknown";
    const key = `ip:${address}`;
    const check = async () => {
      if (failures) {
        const seen = await failures.get(key);
        if (seen && seen.consumedPoints >= failures.points) return limited(res, seen.msBeforeNext);
      }
      const password = basicPassword(req);
      if (password === undefined) return challenge(res);
      if (sameSecret(password, code)) return next();
      logger.warn({ address, path: req.path }, "wrong admin code");
      if (failures) {
        try {
          await failures.consume(key);
        } catch (r) {
          if (!(r instanceof RateLimiterRes)) throw r;
          return limited(res, r.msBeforeNext);
        }
      }
      challenge(res);
    };
    check().catch(next);
  };
}

/** The Colyseus monitor at /colyseus behind the admin code; off (with a log line) when no code is set. */
export function monitorRoutes(adminCode: string | undefined, options: AdminAuthOptions) {
  const router = Router();
  if (!adminCode) {
    options.logger.info("admin monitor at /colyseus is disabled: set ADMIN_CODE to enable it");
    return router;
  }
  router.use("/colyseus", basicAuthWithCode(adminCode, options), monitor() as unknown as RequestHandler);
  return router;
}
