import type { IncomingMessage } from "node:http";
import type { Request, RequestHandler } from "express";
import proxyaddr from "proxy-addr";
import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { bearerToken, verifyToken } from "../auth/tokens.js";
import type { Config } from "../config.js";
import { sendError } from "./errors.js";

/** A fixed window: `points` requests per `durationS` seconds; over it, refused until the window ends. */
export interface RateLimitRule {
  points: number;
  durationS: number;
}

/**
 * The documented limits: authentication attempts per address, REST requests per client, failed
 * admin codes (Basic auth on /colyseus and /metrics) per address.
 */
export const RATE_LIMITS: { auth: RateLimitRule; rest: RateLimitRule; adminFailures: RateLimitRule } = {
  auth: { points: 10, durationS: 60 },
  rest: { points: 100, durationS: 60 },
  adminFailures: { points: 10, durationS: 60 },
};

/** Which peers are proxies whose X-Forwarded-For is believed: TRUST_PROXY, compiled once per configuration. */
const trustOf = new WeakMap<Pick<Config, "trustProxy">, (addr: string, i: number) => boolean>();
export function proxyTrust(config: Pick<Config, "trustProxy">): (addr: string, i: number) => boolean {
  let trust = trustOf.get(config);
  if (!trust) {
    // An empty list trusts no one: the address is always the socket's.
    trust = proxyaddr.compile(config.trustProxy);
    trustOf.set(config, trust);
  }
  return trust;
}

/**
 * The one home of the client's address, for HTTP (Express's `trust proxy` is the same function,
 * so `req.ip` agrees) and /ws alike: the socket's address, or, when the socket's peer is one of
 * the TRUST_PROXY proxies, the address that proxy forwarded in X-Forwarded-For.
 */
export function clientAddressOf(config: Pick<Config, "trustProxy">): (req: IncomingMessage) => string {
  const trust = proxyTrust(config);
  return (req) => proxyaddr(req, trust);
}

export interface Limiters {
  /** Authentication attempts (making a guest identity, logging in), per address. */
  auth: RateLimiterAbstract;
  /** Every other /api request, per client. */
  rest: RateLimiterAbstract;
  /** Wrong admin codes on /colyseus and /metrics, per address. */
  adminFailures: RateLimiterAbstract;
}

/** The server's limiters: the documented rules unless others are given (tests), in Redis when given. */
export function createLimiters(rules: Partial<typeof RATE_LIMITS> = {}, redis?: Redis): Limiters {
  const r = { ...RATE_LIMITS, ...rules };
  return {
    auth: createLimiter("auth", r.auth, redis),
    rest: createLimiter("rest", r.rest, redis),
    adminFailures: createLimiter("admin", r.adminFailures, redis),
  };
}

/**
 * A limiter for one rule: in this process's memory, or in Redis (shared by every server process)
 * when a Redis connection is given. A Redis outage falls back to the memory limiter rather than
 * refusing or waving through every request.
 */
export function createLimiter(name: string, rule: RateLimitRule, redis?: Redis): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix: `rl:${name}`, points: rule.points, duration: rule.durationS });
  if (!redis) return memory;
  return new RateLimiterRedis({ storeClient: redis, keyPrefix: `rl:${name}`, points: rule.points, duration: rule.durationS, insuranceLimiter: memory });
}

/** Counted per account when the request carries a valid server token, else per address. */
export function clientKey(secret: string): (req: Request) => string {
  return (req) => {
    const header = req.get("authorization");
    if (header) {
      try {
        // A watch token is counted with the account that made it.
        return `account:${verifyToken(bearerToken(header), secret, { watch: true }).sub}`;
      } catch {
        // An invalid token is counted by address (and answered 401 by the route).
      }
    }
    return `ip:${req.ip ?? "unknown"}`;
  };
}

export const addressKey = (req: Request) => `ip:${req.ip ?? "unknown"}`;

/**
 * Count the request against `limiter`. Every answer carries `RateLimit-Limit`, `RateLimit-Remaining`
 * and `RateLimit-Reset` (seconds until the window ends); over the limit it is 429 `RATE_LIMITED`
 * with `Retry-After`, and the client stays refused for the rest of the window.
 */
export function rateLimit(limiter: RateLimiterAbstract, keyOf: (req: Request) => string): RequestHandler {
  return (req, res, next) => {
    const limit = limiter.points;
    const headers = (r: RateLimiterRes) => {
      res.set("RateLimit-Limit", String(limit));
      res.set("RateLimit-Remaining", String(Math.max(0, r.remainingPoints)));
      res.set("RateLimit-Reset", String(Math.max(1, Math.ceil(r.msBeforeNext / 1000))));
    };
    limiter.consume(keyOf(req)).then(
      (r) => {
        headers(r);
        next();
      },
      (r: unknown) => {
        if (!(r instanceof RateLimiterRes)) return next(r);
        headers(r);
        const retry = Math.max(1, Math.ceil(r.msBeforeNext / 1000));
        res.set("Retry-After", String(retry));
        sendError(res, 429, "RATE_LIMITED", `Too many requests: at most ${limit} per ${limiter.duration} s; try again in ${retry} s`);
      },
    );
  };
}
