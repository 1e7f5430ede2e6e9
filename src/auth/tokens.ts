import { createSecretKey, type KeyObject } from "node:crypto";
import { createRequire } from "node:module";
import type jwt from "jsonwebtoken";

/** jsonwebtoken, loaded by the first token signed or checked rather than at start (~50 ms of it). */
let jwtLoaded: typeof jwt | undefined;
const jwtLib = (): typeof jwt => (jwtLoaded ??= createRequire(import.meta.url)("jsonwebtoken") as typeof jwt);

/**
 * "spectator": a watch token (POST /api/agents/:agentId/watch). It watches one agent and acts
 * nowhere: every verifier refuses it (TOKEN_READ_ONLY) but the watching ones (`{ watch: true }`).
 */
export type Role = "player" | "admin" | "agent" | "spectator";

export interface TokenClaims {
  /** The account id. */
  sub: string;
  role: Role;
  /** Set on guest tokens. */
  guest?: boolean;
  /** Set on agent tokens: the character this token may drive; on spectator tokens: the character it watches. */
  characterId?: string;
  /** Set on spectator tokens: the agent it watches. */
  agentId?: string;
  exp: number;
  iat: number;
}

export class TokenError extends Error {
  constructor(
    public readonly code: "TOKEN_MISSING" | "TOKEN_INVALID" | "TOKEN_EXPIRED" | "TOKEN_READ_ONLY",
    message: string,
  ) {
    super(message);
    this.name = "TokenError";
  }
}

/** The HTTP status a refused token answers: 403 for a spectator token where it may not act, else 401. */
export const tokenErrorStatus = (err: TokenError): 401 | 403 => (err.code === "TOKEN_READ_ONLY" ? 403 : 401);

/** Server tokens are HS256 only: a token naming any other algorithm (or none) is refused. */
const ALGORITHM = "HS256" as const;
export const DEFAULT_TOKEN_TTL_SECONDS = 7 * 24 * 3600;
export const GUEST_TOKEN_TTL_SECONDS = 24 * 3600;

/**
 * The secret as a key object, made once per secret: given a string, jsonwebtoken first tries to
 * read it as a PEM public key on every call, and that failure costs more than the HMAC itself.
 */
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, "utf8"));
    if (keys.size >= 16) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

export function signToken(
  claims: { sub: string; role?: Role; guest?: boolean; characterId?: string; agentId?: string },
  secret: string,
  expiresInSeconds: number = DEFAULT_TOKEN_TTL_SECONDS,
): string {
  const payload: Record<string, unknown> = { role: claims.role ?? "player" };
  if (claims.guest) payload.guest = true;
  if (claims.characterId) payload.characterId = claims.characterId;
  if (claims.agentId) payload.agentId = claims.agentId;
  return jwtLib().sign(payload, keyOf(secret), { algorithm: ALGORITHM, subject: claims.sub, expiresIn: expiresInSeconds });
}

/** How far ahead of this server's clock a token's `iat` or `nbf` may be (another server's clock skew). */
export const CLOCK_SKEW_SECONDS = 60;

/** What a spectator token is told wherever it tries to act. */
export const READ_ONLY_MESSAGE = "A spectator token can watch an agent, never act: sign in as a player for that";

/**
 * The token's claims, checked. A spectator token is refused (TOKEN_READ_ONLY) unless `watch` is
 * set: only the ways of watching an agent take one.
 */
export function verifyToken(token: string | undefined | null, secret: string, options: { watch?: boolean } = {}): TokenClaims {
  if (!token) throw new TokenError("TOKEN_MISSING", "An authentication token is required");
  const lib = jwtLib();
  let decoded: string | jwt.JwtPayload;
  try {
    // `nbf` is checked below with the skew; `exp` stays exact (an expired token is refused at once).
    decoded = lib.verify(token, keyOf(secret), { algorithms: [ALGORITHM], ignoreNotBefore: true });
  } catch (err) {
    if (err instanceof lib.TokenExpiredError) throw new TokenError("TOKEN_EXPIRED", "The token has expired");
    throw new TokenError("TOKEN_INVALID", "The token is invalid");
  }
  if (typeof decoded === "string" || typeof decoded.sub !== "string" || typeof decoded.exp !== "number") {
    throw new TokenError("TOKEN_INVALID", "The token is invalid");
  }
  // A token issued, or valid from, more than the clock skew in the future was not issued by this clock.
  const latest = Math.floor(Date.now() / 1000) + CLOCK_SKEW_SECONDS;
  for (const claim of [decoded.iat, decoded.nbf]) {
    if (claim !== undefined && (typeof claim !== "number" || !Number.isFinite(claim) || claim > latest)) {
      throw new TokenError("TOKEN_INVALID", "The token is not valid yet");
    }
  }
  const role = decoded.role;
  if (role !== "player" && role !== "admin" && role !== "agent" && role !== "spectator") throw new TokenError("TOKEN_INVALID", "The token is invalid");
  const characterId = typeof decoded.characterId === "string" ? decoded.characterId : undefined;
  const agentId = typeof decoded.agentId === "string" ? decoded.agentId : undefined;
  if (role === "spectator") {
    if (!characterId || !agentId) throw new TokenError("TOKEN_INVALID", "The token is invalid");
    if (!options.watch) throw new TokenError("TOKEN_READ_ONLY", READ_ONLY_MESSAGE);
  }
  return {
    sub: decoded.sub,
    role,
    guest: decoded.guest === true ? true : undefined,
    characterId,
    ...(agentId ? { agentId } : {}),
    exp: decoded.exp,
    iat: typeof decoded.iat === "number" ? decoded.iat : 0,
  };
}

/** How long a relay mark is good: the one hop it is made for. */
const RELAY_MARK_TTL_S = 30;

/**
 * The mark one process of a cluster puts on a request it passes on to another (src/mcp/relay.ts):
 * the process it is meant for, and the address of the client that sent it (what bans and the
 * session's record go by). Signed with the cluster's token secret; it has no subject and no role,
 * so no verifier of player tokens takes it.
 */
export function signRelayMark(mark: { to: string; address: string }, secret: string): string {
  return jwtLib().sign({ relayTo: mark.to, address: mark.address }, keyOf(secret), { algorithm: ALGORITHM, expiresIn: RELAY_MARK_TTL_S });
}

/** A relay mark's content, if it is one this cluster signed and still good (else undefined). */
export function verifyRelayMark(text: string | undefined, secret: string): { to: string; address: string } | undefined {
  if (!text) return undefined;
  try {
    const d = jwtLib().verify(text, keyOf(secret), { algorithms: [ALGORITHM] });
    if (typeof d === "string" || d.sub !== undefined || typeof d.relayTo !== "string" || typeof d.address !== "string") return undefined;
    return { to: d.relayTo, address: d.address };
  } catch {
    return undefined;
  }
}

/** The token from an `Authorization: Bearer <token>` header, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}
