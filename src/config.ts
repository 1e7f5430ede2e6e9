import path from "node:path";
import proxyaddr from "proxy-addr";
import { z } from "zod";
import { keptSecret, MIN_SECRET_LENGTH } from "./keptSecret.js";
import { DEFAULT_WORLD_DIR, ROOT } from "./paths.js";
import { DEFAULT_WORLD_CAPACITY, MAX_WORLD_CAPACITY, parseWorlds, type WorldSpec } from "./worldSpecs.js";

/**
 * Every environment variable the server reads, parsed and validated once.
 * Nothing else in the project reads process.env: callers pass the environment in.
 */

/** The production asset host: the last resort when required manifests are missing locally. */
export const PRODUCTION_CDN_URL = "https://assets.hyperscape.club";

const bool = (name: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return false;
      const s = v.trim().toLowerCase();
      if (["1", "true", "yes", "on"].includes(s)) return true;
      if (["0", "false", "no", "off"].includes(s)) return false;
      ctx.addIssue({ code: "custom", message: `${name} must be true or false, got "${v}"` });
      return z.NEVER;
    });

const url = (name: string, protocols: string[]) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return undefined;
      let parsed: URL;
      try {
        parsed = new URL(v.trim());
      } catch {
        ctx.addIssue({ code: "custom", message: `${name} must be a URL (${protocols.join(" or ")}), got "${v}"` });
        return z.NEVER;
      }
      if (!protocols.includes(parsed.protocol.replace(/:$/, ""))) {
        ctx.addIssue({ code: "custom", message: `${name} must use ${protocols.join(" or ")}, got "${v}"` });
        return z.NEVER;
      }
      return v.trim().replace(/\/+$/, "");
    });

const text = () =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const intIn = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return fallback;
      const n = Number(v.trim());
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: "custom", message: `${name} must be a whole number from ${min} to ${max}, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

/** A comma-separated setting as its trimmed, non-empty items (unset or blank: none). */
function commaList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

const EnvSchema = z.object({
  PORT: intIn("PORT", 0, 65535, 5555),
  NODE_ENV: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const s = v === undefined || v === "" ? "development" : v;
      if (s === "development" || s === "production" || s === "test") return s;
      ctx.addIssue({ code: "custom", message: `NODE_ENV must be development, production or test, got "${v}"` });
      return z.NEVER;
    }),
  WORLD: text(),
  DATA_DIR: text(),
  LOG_LEVEL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return undefined;
      const levels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
      if (levels.includes(v)) return v;
      ctx.addIssue({ code: "custom", message: `LOG_LEVEL must be one of ${levels.join(", ")}, got "${v}"` });
      return z.NEVER;
    }),
  DATABASE_URL: url("DATABASE_URL", ["postgres", "postgresql"]),
  USE_LOCAL_POSTGRES: bool("USE_LOCAL_POSTGRES"),
  JWT_SECRET: text(),
  ADMIN_CODE: text(),
  PUBLIC_IDP_APP_ID: text(),
  IDP_APP_SECRET: text(),
  IDP_JWKS_URL: url("IDP_JWKS_URL", ["http", "https"]),
  IDP_VERIFICATION_KEY: text(),
  IDP_ISSUER: text(),
  GUEST_IDLE_HOURS: intIn("GUEST_IDLE_HOURS", 1, 24 * 365, 72),
  MAX_CHARACTERS_PER_ACCOUNT: intIn("MAX_CHARACTERS_PER_ACCOUNT", 1, 100, 3),
  PUBLIC_CDN_URL: url("PUBLIC_CDN_URL", ["http", "https"]),
  PUBLIC_API_URL: url("PUBLIC_API_URL", ["http", "https"]),
  PUBLIC_WS_URL: url("PUBLIC_WS_URL", ["ws", "wss"]),
  PUBLIC_APP_URL: url("PUBLIC_APP_URL", ["http", "https"]),
  CLIENT_URL: url("CLIENT_URL", ["http", "https"]),
  CORS_ORIGINS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const list = commaList(v);
      for (const o of list) {
        let ok = false;
        try {
          const u = new URL(o);
          ok = (u.protocol === "http:" || u.protocol === "https:") && u.origin === o.replace(/\/+$/, "");
        } catch {
          ok = false;
        }
        if (!ok) {
          ctx.addIssue({ code: "custom", message: `CORS_ORIGINS must be a comma-separated list of origins like https://game.example, got "${o}"` });
          return z.NEVER;
        }
      }
      return list.map((o) => o.replace(/\/+$/, ""));
    }),
  SKIP_MANIFESTS: bool("SKIP_MANIFESTS"),
  SKIP_ASSETS: bool("SKIP_ASSETS"),
  CI: bool("CI"),
  SAVE_INTERVAL: intIn("SAVE_INTERVAL", 1, 3600, 60),
  RECONNECT_GRACE_S: intIn("RECONNECT_GRACE_S", 0, 600, 30),
  CHAT_RETENTION_DAYS: intIn("CHAT_RETENTION_DAYS", 0, 3650, 30),
  VIEW_PLAYER_CAP: intIn("VIEW_PLAYER_CAP", 1, 2000, 250),
  DISABLE_RATE_LIMIT: bool("DISABLE_RATE_LIMIT"),
  VOICE_API_KEY: text(),
  VOICE_API_SECRET: text(),
  VOICE_URL: url("VOICE_URL", ["http", "https", "ws", "wss"]),
  AGENT_API_URL: url("AGENT_API_URL", ["http", "https"]),
  REDIS_URL: url("REDIS_URL", ["redis", "rediss"]),
  WORLDS: text(),
  WORLD_CAPACITY: intIn("WORLD_CAPACITY", 1, MAX_WORLD_CAPACITY, DEFAULT_WORLD_CAPACITY),
  PUBLIC_ADDRESS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return undefined;
      const s = v.trim().replace(/\/+$/, "");
      // Colyseus's form: host[:port][/path], no scheme (the client adds ws:// or wss://).
      if (!/^[A-Za-z0-9.-]+(:\d{1,5})?(\/[A-Za-z0-9._~\/-]*)?$/.test(s)) {
        ctx.addIssue({
          code: "custom",
          message: `PUBLIC_ADDRESS must be host[:port][/path] without a scheme (e.g. game-2.example.com or 10.0.0.7:5555), got "${v}"`,
        });
        return z.NEVER;
      }
      return s;
    }),
  CLUSTER_ADDRESS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return undefined;
      const s = v.trim();
      if (!/^[A-Za-z0-9.-]+:\d{1,5}$/.test(s)) {
        ctx.addIssue({ code: "custom", message: `CLUSTER_ADDRESS must be host:port without a scheme or path (e.g. 10.0.0.7:5555 or game-2:5562), got "${v}"` });
        return z.NEVER;
      }
      return s;
    }),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const list = commaList(v);
      try {
        proxyaddr.compile(list);
      } catch {
        ctx.addIssue({
          code: "custom",
          message: `TRUST_PROXY must be a comma-separated list of proxy addresses or CIDRs (or loopback, linklocal, uniquelocal), got "${v}"`,
        });
        return z.NEVER;
      }
      return list;
    }),
  HTTP_HEADERS_TIMEOUT_S: intIn("HTTP_HEADERS_TIMEOUT_S", 1, 3600, 15),
  HTTP_REQUEST_TIMEOUT_S: intIn("HTTP_REQUEST_TIMEOUT_S", 1, 3600, 30),
  HTTP_KEEP_ALIVE_TIMEOUT_S: intIn("HTTP_KEEP_ALIVE_TIMEOUT_S", 1, 3600, 65),
  WS_GUEST_AFTER_MS: intIn("WS_GUEST_AFTER_MS", 0, 60_000, 1000),
  WS_MAX_CONNECTIONS_PER_ADDRESS: intIn("WS_MAX_CONNECTIONS_PER_ADDRESS", 1, 1_000_000, 20),
  MCP_IDLE_S: intIn("MCP_IDLE_S", 1, 86400, 300),
  MCP_MAX_SESSIONS_PER_ACCOUNT: intIn("MCP_MAX_SESSIONS_PER_ACCOUNT", 1, 1000, 5),
});

export type NodeEnv = "development" | "production" | "test";

export interface Config {
  port: number;
  nodeEnv: NodeEnv;
  /** The world directory: manifests live in `${world}/manifests`. */
  world: string;
  /** Where the embedded database (and a local PostgreSQL cluster) keep their files. */
  dataDir: string;
  logLevel: string;
  databaseUrl?: string;
  useLocalPostgres: boolean;
  jwtSecret: string;
  /** Where the secret is kept when JWT_SECRET is not set (outside production): `$DATA_DIR/jwt-secret`. */
  jwtSecretFile?: string;
  adminCode?: string;
  idpAppId?: string;
  idpAppSecret?: string;
  /** Where the provider's public signing keys are published (JWKS). */
  idpJwksUrl?: string;
  /** Or the provider's public verification key as PEM. */
  idpVerificationKey?: string;
  /** The `iss` the provider's tokens carry. */
  idpIssuer: string;
  /** Guest accounts (and their characters) idle this long are removed. */
  guestIdleHours: number;
  /** Characters one account may have. */
  maxCharactersPerAccount: number;
  publicCdnUrl: string;
  publicApiUrl: string;
  publicWsUrl: string;
  publicAppUrl?: string;
  clientUrl?: string;
  corsOrigins: string[];
  skipManifests: boolean;
  skipAssets: boolean;
  ci: boolean;
  /** Seconds between saves of dirty characters. */
  saveInterval: number;
  /** Seconds a dropped SDK player stays in the world for its client to reconnect (0: it leaves at once). */
  reconnectGraceS: number;
  /** Days every chat line is kept for the staff (0: no chat is kept, beyond what a report attaches). */
  chatRetentionDays: number;
  /** Most other players one client sees at once (its view radius shrinks while over it). */
  viewPlayerCap: number;
  /** DISABLE_RATE_LIMIT, honoured in development only. */
  rateLimitDisabled: boolean;
  voice: { apiKey?: string; apiSecret?: string; url?: string };
  agentApiUrl: string;
  redisUrl?: string;
  /**
   * Cluster mode (REDIS_URL set): Colyseus's Redis presence and driver, PostgreSQL as the one
   * database; `publicAddress` is where clients reach this process (host[:port][/path]), derived from
   * the host name and port when unset; `address` is where the cluster's other processes reach this
   * one's HTTP port (CLUSTER_ADDRESS, host:port; 127.0.0.1 and PORT when unset): an MCP request
   * for a session another process holds is passed there (src/mcp/relay.ts).
   */
  cluster?: { redisUrl: string; publicAddress?: string; address: string };
  /** The worlds offered (WORLDS, WORLD_CAPACITY): one world, id 1, unless set. */
  worlds: WorldSpec[];
  /** TRUST_PROXY: the proxies whose X-Forwarded-For is believed (proxy-addr's syntax); empty = none. */
  trustProxy: string[];
  /** Slow clients: headers and the whole request must arrive within these; idle keep-alive connections close after the last. */
  http: { headersTimeoutS: number; requestTimeoutS: number; keepAliveTimeoutS: number };
  /**
   * /ws: without a token in anonymous mode, how long to wait for a first frame before making a
   * guest (an `authenticate` first makes none); how many sockets one address may hold open.
   */
  ws: { guestAfterMs: number; maxConnectionsPerAddress: number };
  /** /mcp: an MCP session with no request for `idleS` seconds ends (its player leaves); open sessions per account. */
  mcp: { idleS: number; maxSessionsPerAccount: number };
  version: string;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Parse and validate the environment. Throws ConfigError with one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv, options: { version?: string; cwd?: string } = {}): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0] ?? "environment");
    const message = issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
    throw new ConfigError(`Invalid configuration: ${message}`);
  }
  const e = parsed.data;
  const cwd = options.cwd ?? process.cwd();
  const nodeEnv = e.NODE_ENV as NodeEnv;

  if (nodeEnv === "production") {
    if (!e.DATABASE_URL) throw new ConfigError("Invalid configuration: DATABASE_URL is required in production (postgres://user:pass@host:5432/db)");
    if (!e.JWT_SECRET) throw new ConfigError("Invalid configuration: JWT_SECRET is required in production (at least 32 characters)");
    if (e.USE_LOCAL_POSTGRES) throw new ConfigError("Invalid configuration: USE_LOCAL_POSTGRES is for development only; set DATABASE_URL in production");
  }
  if (e.JWT_SECRET !== undefined && e.JWT_SECRET.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`Invalid configuration: JWT_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  if (nodeEnv === "production" && e.PUBLIC_IDP_APP_ID && !e.IDP_JWKS_URL && !e.IDP_VERIFICATION_KEY) {
    throw new ConfigError("Invalid configuration: PUBLIC_IDP_APP_ID needs the provider's keys in production: set IDP_JWKS_URL or IDP_VERIFICATION_KEY (PEM)");
  }
  if (e.HTTP_HEADERS_TIMEOUT_S > e.HTTP_REQUEST_TIMEOUT_S) {
    throw new ConfigError("Invalid configuration: HTTP_HEADERS_TIMEOUT_S must not be longer than HTTP_REQUEST_TIMEOUT_S");
  }
  if (e.USE_LOCAL_POSTGRES && e.DATABASE_URL) {
    throw new ConfigError("Invalid configuration: USE_LOCAL_POSTGRES and DATABASE_URL are exclusive; set one");
  }
  if (e.REDIS_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      "Invalid configuration: REDIS_URL runs this process in a cluster, whose processes share one PostgreSQL: set DATABASE_URL (the embedded database belongs to one process)",
    );
  }
  let worlds: WorldSpec[];
  try {
    worlds = parseWorlds(e.WORLDS, e.WORLD_CAPACITY);
  } catch (err) {
    throw new ConfigError(`Invalid configuration: ${(err as Error).message}`);
  }

  const dataDir = e.DATA_DIR ? path.resolve(cwd, e.DATA_DIR) : path.join(ROOT, ".data");
  let kept: { secret: string; file: string } | undefined;
  if (e.JWT_SECRET === undefined) {
    try {
      kept = keptSecret(dataDir);
    } catch (err) {
      throw new ConfigError(
        `Invalid configuration: JWT_SECRET is not set and the secret kept in DATA_DIR cannot be used (${(err as Error).message}): set JWT_SECRET or make ${dataDir} writable`,
      );
    }
  }
  const port = e.PORT;
  const publicApiUrl = e.PUBLIC_API_URL ?? `http://localhost:${port}`;
  const publicWsUrl = e.PUBLIC_WS_URL ?? publicApiUrl.replace(/^http/, "ws") + "/ws";

  return {
    port,
    nodeEnv,
    world: e.WORLD ? path.resolve(cwd, e.WORLD) : DEFAULT_WORLD_DIR,
    dataDir,
    logLevel: e.LOG_LEVEL ?? (nodeEnv === "test" ? "silent" : "info"),
    databaseUrl: e.DATABASE_URL,
    useLocalPostgres: e.USE_LOCAL_POSTGRES,
    jwtSecret: e.JWT_SECRET ?? kept!.secret,
    jwtSecretFile: kept?.file,
    adminCode: e.ADMIN_CODE,
    idpAppId: e.PUBLIC_IDP_APP_ID,
    idpAppSecret: e.IDP_APP_SECRET,
    idpJwksUrl: e.IDP_JWKS_URL,
    // A PEM given on one line with \n escapes (as environment files often carry it) is unescaped.
    idpVerificationKey: e.IDP_VERIFICATION_KEY?.replace(/\\n/g, "\n"),
    idpIssuer: e.IDP_ISSUER ?? "privy.io",
    guestIdleHours: e.GUEST_IDLE_HOURS,
    maxCharactersPerAccount: e.MAX_CHARACTERS_PER_ACCOUNT,
    publicCdnUrl: e.PUBLIC_CDN_URL ?? PRODUCTION_CDN_URL,
    publicApiUrl,
    publicWsUrl,
    publicAppUrl: e.PUBLIC_APP_URL,
    clientUrl: e.CLIENT_URL,
    corsOrigins: e.CORS_ORIGINS,
    skipManifests: e.SKIP_MANIFESTS,
    skipAssets: e.SKIP_ASSETS || e.CI,
    ci: e.CI,
    saveInterval: e.SAVE_INTERVAL,
    reconnectGraceS: e.RECONNECT_GRACE_S,
    chatRetentionDays: e.CHAT_RETENTION_DAYS,
    viewPlayerCap: e.VIEW_PLAYER_CAP,
    rateLimitDisabled: e.DISABLE_RATE_LIMIT && nodeEnv === "development",
    voice: { apiKey: e.VOICE_API_KEY, apiSecret: e.VOICE_API_SECRET, url: e.VOICE_URL },
    agentApiUrl: e.AGENT_API_URL ?? "http://localhost:4001",
    redisUrl: e.REDIS_URL,
    cluster: e.REDIS_URL ? { redisUrl: e.REDIS_URL, publicAddress: e.PUBLIC_ADDRESS, address: e.CLUSTER_ADDRESS ?? `127.0.0.1:${port}` } : undefined,
    worlds,
    trustProxy: e.TRUST_PROXY,
    http: { headersTimeoutS: e.HTTP_HEADERS_TIMEOUT_S, requestTimeoutS: e.HTTP_REQUEST_TIMEOUT_S, keepAliveTimeoutS: e.HTTP_KEEP_ALIVE_TIMEOUT_S },
    ws: { guestAfterMs: e.WS_GUEST_AFTER_MS, maxConnectionsPerAddress: e.WS_MAX_CONNECTIONS_PER_ADDRESS },
    mcp: { idleS: e.MCP_IDLE_S, maxSessionsPerAccount: e.MCP_MAX_SESSIONS_PER_ACCOUNT },
    version: options.version ?? "0.0.0",
  };
}

/** The settings a browser may see: served by /env.js. Never add a secret here. */
export function publicSettings(config: Config): Record<string, string> {
  const out: Record<string, string> = {
    PUBLIC_API_URL: config.publicApiUrl,
    PUBLIC_WS_URL: config.publicWsUrl,
    PUBLIC_CDN_URL: config.publicCdnUrl,
    API_URL: config.publicApiUrl,
    WS_URL: config.publicWsUrl,
  };
  if (config.idpAppId) out.PUBLIC_IDP_APP_ID = config.idpAppId;
  if (config.publicAppUrl) out.PUBLIC_APP_URL = config.publicAppUrl;
  return out;
}
