import { matchMaker } from "@colyseus/core";
import type { Config } from "../config.js";

/**
 * Origins allowed to call the API with credentials. Built-in patterns, in order:
 * - any localhost / 127.0.0.1 / [::1] origin, http or https, any port (development clients);
 * - preview deployments of the frontend (*.vercel.app) and of the server (*.up.railway.app);
 * - the identity provider's origins (*.privy.io);
 * - the two social-frame integrations (Farcaster: *.farcaster.xyz and *.warpcast.com; Discord activities: *.discordsays.com);
 * plus the configured ones: CORS_ORIGINS (the production frontends), PUBLIC_APP_URL, CLIENT_URL
 * and AGENT_API_URL. Anything else gets no CORS headers at all.
 */
export const BUILT_IN_ORIGIN_PATTERNS: RegExp[] = [
  /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/,
  /^https:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*\.vercel\.app$/,
  /^https:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*\.up\.railway\.app$/,
  /^https:\/\/([a-z0-9-]+\.)*privy\.io$/,
  /^https:\/\/([a-z0-9-]+\.)*farcaster\.xyz$/,
  /^https:\/\/([a-z0-9-]+\.)*warpcast\.com$/,
  /^https:\/\/([a-z0-9-]+\.)*discordsays\.com$/,
];

export const ALLOWED_METHODS = "GET, PUT, POST, DELETE, OPTIONS, PATCH";
export const ALLOWED_HEADERS = "Content-Type, Authorization, X-Requested-With";

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

export function makeOriginCheck(config: Config): (origin: string) => boolean {
  const exact = new Set<string>(
    [...config.corsOrigins, originOf(config.publicAppUrl), originOf(config.clientUrl), originOf(config.agentApiUrl)].filter((o): o is string => Boolean(o)),
  );
  return (origin) => exact.has(origin) || BUILT_IN_ORIGIN_PATTERNS.some((re) => re.test(origin));
}

/** The CORS response headers for a request's Origin: all four for an allowed origin, none otherwise. */
export function corsHeaders(config: Config): (origin: string | null | undefined) => Record<string, string> {
  const allowed = makeOriginCheck(config);
  return (origin): Record<string, string> => {
    if (!origin || !allowed(origin)) return { Vary: "Origin" };
    return {
      Vary: "Origin",
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Allow-Credentials": "true",
      "Access-Control-Allow-Methods": ALLOWED_METHODS,
      "Access-Control-Allow-Headers": ALLOWED_HEADERS,
      "Access-Control-Max-Age": "600",
    };
  };
}

/**
 * Colyseus answers every OPTIONS request itself and stamps CORS headers on every HTTP response
 * (Express routes included) from its matchmaking controller, by default reflecting any origin.
 * Replace that policy with ours so there is one CORS rule for the whole port.
 */
export function installCorsPolicy(config: Config) {
  const headersFor = corsHeaders(config);
  (matchMaker.controller as { DEFAULT_CORS_HEADERS: Record<string, string> }).DEFAULT_CORS_HEADERS = {};
  matchMaker.controller.getCorsHeaders = (headers: Headers) => headersFor(headers.get("origin"));
}
