import { createHash, timingSafeEqual } from "node:crypto";
import { createRequire } from "node:module";
import { matchMaker } from "@colyseus/core";
import { Router, type Request, type RequestHandler } from "express";
import type { Logger } from "pino";
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { HttpError, sendError } from "./errors.js";
import { verifyToken } from "../auth/tokens.js";
import type { StaffRole } from "../game/staff.js";

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

/** Staff admins' way in: their server token, as a Bearer token or as the Basic password. */
export interface StaffAdmins {
  jwtSecret: string;
  /** The account's staff role, from the database. */
  roleOf(accountId: string): Promise<StaffRole | undefined>;
  /** Write the audit row of a login (once per account or address in LOGIN_AUDIT_MS); a failure refuses the login. */
  recordLogin(who: { accountId: string | null; address: string }): Promise<void>;
}

/** A login to the monitor is one audit row per account (or, with the code, per address) in this long. */
export const LOGIN_AUDIT_MS = 10 * 60_000;

/**
 * Who may open an admin page: a staff admin, by its server token (as `Authorization: Bearer
 * <token>`, or as the password of Basic auth with any user name, so a browser's prompt works), or,
 * only when ADMIN_CODE is set, whoever gives that code as the Basic password (the documented
 * fallback). A valid token of an account that is not an admin is 403 FORBIDDEN. Every wrong
 * credential counts against the caller's address (logged at warn with the address, never what was
 * tried); an address with `failures.points` wrong ones in a window is refused with 429
 * `RATE_LIMITED` and `Retry-After` for the rest of it, even with a right one. A request without
 * credentials is the browser's first call and only gets the challenge (401).
 */
export function adminGate(code: string | undefined, options: AdminAuthOptions, staff?: StaffAdmins): RequestHandler {
  const { logger, failures } = options;
  const challenge = (res: Parameters<RequestHandler>[1]) => {
    res.set("WWW-Authenticate", 'Basic realm="colyseus monitor", charset="UTF-8"');
    sendError(res, 401, "UNAUTHORIZED", code ? "This needs an admin's token or the admin code" : "This needs an admin's token");
  };
  const limited = (res: Parameters<RequestHandler>[1], msBeforeNext: number) => {
    const retry = Math.max(1, Math.ceil(msBeforeNext / 1000));
    res.set("Retry-After", String(retry));
    sendError(res, 429, "RATE_LIMITED", `Too many wrong admin credentials from this address: try again in ${retry} s`);
  };
  const recent = new Map<string, number>();
  const login = async (who: { accountId: string | null; address: string }) => {
    const key = who.accountId ?? `ip:${who.address}`;
    if ((recent.get(key) ?? 0) > Date.now()) return;
    try {
      await staff?.recordLogin(who);
    } catch (err) {
      throw new HttpError(503, "AUDIT_UNAVAILABLE", `The login could not be recorded in the audit log, so it was refused: ${(err as Error).message}`);
    }
    recent.set(key, Date.now() + LOGIN_AUDIT_MS);
  };
  return (req, res, next) => {
    const address = req.ip ?? "unknown";
    const key = `ip:${address}`;
    const check = async () => {
      if (failures) {
        const seen = await failures.get(key);
        if (seen && seen.consumedPoints >= failures.points) return limited(res, seen.msBeforeNext);
      }
      const header = req.get("authorization");
      const bearer = header && /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, "").trim() : undefined;
      const given = bearer ?? basicPassword(req);
      if (given === undefined) return challenge(res);
      if (staff && given) {
        let accountId: string | undefined;
        try {
          const claims = verifyToken(given, staff.jwtSecret);
          if (!claims.characterId) accountId = claims.sub;
        } catch {
          // not a token of this server: perhaps the code
        }
        if (accountId) {
          if ((await staff.roleOf(accountId)) !== "admin") return sendError(res, 403, "FORBIDDEN", "This is for staff admins");
          await login({ accountId, address });
          return next();
        }
      }
      if (code && given && sameSecret(given, code)) {
        await login({ accountId: null, address });
        return next();
      }
      logger.warn({ address, path: req.path }, "wrong admin credentials");
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

/** The Colyseus monitor at /colyseus for staff admins (and the admin code, when ADMIN_CODE is set). */
export function monitorRoutes(adminCode: string | undefined, options: AdminAuthOptions, staff?: StaffAdmins) {
  const router = Router();
  if (!adminCode && !staff) {
    options.logger.info("admin monitor at /colyseus is disabled: set ADMIN_CODE to enable it");
    return router;
  }
  // The monitor's package (~0.2 s to load) is loaded for the first admin through the gate, not at start.
  let loading: Promise<RequestHandler> | undefined;
  const serve: RequestHandler = (req, res, next) => {
    loading ??= loadMonitor();
    loading.then((handler) => handler(req, res, next)).catch(next);
  };
  router.use("/colyseus", adminGate(adminCode, options, staff), serve);
  return router;
}

/**
 * The monitor, loaded as this server's own copy of Colyseus was (it reads the rooms through its
 * @colyseus/core): as an ES module under `npm start`, through require where a test runner made
 * the server CommonJS (an import would then reach the other copy, whose matchmaker runs nothing).
 */
async function loadMonitor(): Promise<RequestHandler> {
  const esm = await import("@colyseus/core");
  const { monitor } = (
    esm.matchMaker === matchMaker ? await import("@colyseus/monitor") : createRequire(import.meta.url)("@colyseus/monitor")
  ) as typeof import("@colyseus/monitor");
  return monitor() as unknown as RequestHandler;
}
