import { createPublicKey, randomUUID, type KeyObject } from "node:crypto";
import type { PrismaClient, User } from "@prisma/client";
import type { JWTVerifyGetKey } from "jose";
import { z } from "zod";
import type { Config } from "../config.js";
import { isUniqueViolation } from "../db/characterRepo.js";
import { DEFAULT_TOKEN_TTL_SECONDS, signToken } from "./tokens.js";

/**
 * Identity-provider login: verify the provider's access token (an asymmetrically signed JWT) and
 * find or create the account it names. Pure of Express; src/http/authRoutes.ts answers with it.
 * The provider's app secret is never used here: verifying access tokens needs only public keys.
 */

/** Server tokens made by a provider login live this long (guests get GUEST_TOKEN_TTL_SECONDS). */
export const IDP_TOKEN_TTL_SECONDS = DEFAULT_TOKEN_TTL_SECONDS;
/** Tolerated clock skew between the provider and this server for exp/nbf/iat. */
export const IDP_CLOCK_TOLERANCE_SECONDS = 30;
/** A token naming an unknown key id refetches the JWKS, at most once per this many ms. */
export const JWKS_COOLDOWN_MS = 30_000;
/** Keys fetched from the JWKS are trusted this long before they are fetched again. */
export const JWKS_MAX_AGE_MS = 10 * 60_000;
/** How long one JWKS fetch may take. */
export const JWKS_TIMEOUT_MS = 5_000;

/** Asymmetric signature algorithms only: never HS* (a public key is no secret), never none. */
const ASYMMETRIC_ALGORITHMS = ["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA", "Ed25519"];

export type IdpErrorCode = "INVALID_IDP_TOKEN" | "IDP_NOT_CONFIGURED" | "IDP_UNAVAILABLE";

/** A login that cannot go on: the HTTP status and code the client is told. The message never holds the token. */
export class IdpError extends Error {
  constructor(
    public readonly status: 401 | 503,
    public readonly code: IdpErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "IdpError";
  }
}

const invalid = (why: string) => new IdpError(401, "INVALID_IDP_TOKEN", `The identity provider token is invalid: ${why}`);

export interface IdpSettings {
  appId: string;
  issuer: string;
  jwksUrl?: string;
  /** PEM (SPKI public key or X.509 certificate). Wins over jwksUrl when both are set. */
  verificationKey?: string;
}

/** The provider settings of a config, or undefined in anonymous mode (no app id). */
export function idpSettingsFrom(config: Config): IdpSettings | undefined {
  if (!config.idpAppId) return undefined;
  return { appId: config.idpAppId, issuer: config.idpIssuer, jwksUrl: config.idpJwksUrl, verificationKey: config.idpVerificationKey };
}

/** Who a verified provider token names. */
export interface IdpIdentity {
  /** The provider's user id (the token's `sub`). */
  userId: string;
  /** Linked social identities found in the token, e.g. {"farcaster": "123"}; {} when none. */
  socialIds: Record<string, string>;
}

export interface IdpVerifier {
  /** Verify a provider access token; throws IdpError. */
  verify(token: string): Promise<IdpIdentity>;
}

export interface IdpVerifierOptions {
  jwksCooldownMs?: number;
  jwksMaxAgeMs?: number;
  jwksTimeoutMs?: number;
}

/** The algorithms a PEM key can verify, by its type. */
function algorithmsFor(key: KeyObject): string[] {
  switch (key.asymmetricKeyType) {
    case "ec": {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      if (curve === "prime256v1" || curve === "P-256") return ["ES256"];
      if (curve === "secp384r1" || curve === "P-384") return ["ES384"];
      if (curve === "secp521r1" || curve === "P-521") return ["ES512"];
      return [];
    }
    case "rsa":
      return ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"];
    case "rsa-pss":
      return ["PS256", "PS384", "PS512"];
    case "ed25519":
      return ["EdDSA", "Ed25519"];
    default:
      return [];
  }
}

type KeySource = { key: KeyObject | JWTVerifyGetKey; algorithms: string[] } | { error: IdpError };

/** jose, loaded by the first provider token a server verifies (its ~50 modules are no part of a start). */
type Jose = typeof import("jose");
let jose: Promise<Jose> | undefined;
const loadJose = () => (jose ??= import("jose"));

function keySource(settings: IdpSettings, options: IdpVerifierOptions, { createRemoteJWKSet, errors }: Jose): KeySource {
  if (settings.verificationKey) {
    let key: KeyObject;
    try {
      key = createPublicKey(settings.verificationKey);
    } catch {
      return {
        error: new IdpError(503, "IDP_NOT_CONFIGURED", "The identity provider's verification key (IDP_VERIFICATION_KEY) is not a readable PEM public key"),
      };
    }
    const algorithms = algorithmsFor(key);
    if (algorithms.length === 0) {
      return { error: new IdpError(503, "IDP_NOT_CONFIGURED", "The identity provider's verification key (IDP_VERIFICATION_KEY) is of an unsupported type") };
    }
    return { key, algorithms };
  }
  if (settings.jwksUrl) {
    const remote = createRemoteJWKSet(new URL(settings.jwksUrl), {
      cooldownDuration: options.jwksCooldownMs ?? JWKS_COOLDOWN_MS,
      cacheMaxAge: options.jwksMaxAgeMs ?? JWKS_MAX_AGE_MS,
      timeoutDuration: options.jwksTimeoutMs ?? JWKS_TIMEOUT_MS,
    });
    const getKey: JWTVerifyGetKey = async (header, token) => {
      try {
        return await remote(header, token);
      } catch (err) {
        // The token names no key (or an ambiguous one): the token's fault. Anything else is the
        // key set itself: the host down or slow, not 200, not a JWKS.
        if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) throw err;
        throw new IdpError(503, "IDP_UNAVAILABLE", "The identity provider's keys cannot be fetched right now; try again later", { cause: err });
      }
    };
    return { key: getKey, algorithms: ASYMMETRIC_ALGORITHMS };
  }
  return {
    error: new IdpError(
      503,
      "IDP_NOT_CONFIGURED",
      "Identity provider login is not set up on this server: it has no provider keys (IDP_JWKS_URL or IDP_VERIFICATION_KEY)",
    ),
  };
}

/** What a jose failure means, in words for the client (never the token or its contents). */
function describeJoseError(err: unknown, { errors }: Jose): IdpError | undefined {
  if (err instanceof errors.JWTExpired) return invalid("it has expired");
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.reason === "missing") return invalid(`it lacks the "${err.claim}" claim`);
    switch (err.claim) {
      case "iss":
        return invalid("its issuer is not the configured identity provider");
      case "aud":
        return invalid("it was issued for another app (audience)");
      case "nbf":
        return invalid("it is not valid yet");
      case "iat":
        return invalid("its issue time is unusable");
      default:
        return invalid("one of its claims fails validation");
    }
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return invalid("its signing algorithm is not accepted (asymmetric signatures only)");
  if (err instanceof errors.JWSSignatureVerificationFailed) return invalid("its signature does not verify with the identity provider's keys");
  if (err instanceof errors.JWKSNoMatchingKey) return invalid("it names no key the identity provider publishes");
  if (err instanceof errors.JWKSMultipleMatchingKeys) return invalid("it does not say which of the identity provider's keys signed it");
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return invalid("it is not a well-formed signed JWT");
  if (err instanceof errors.JOSEError) return invalid("it cannot be verified");
  // Node's crypto refusing a key for the token's algorithm (e.g. an RSA key for an EC signature).
  if (err instanceof TypeError) return invalid("its algorithm does not fit the identity provider's key");
  return undefined;
}

const LinkedAccount = z.object({
  type: z.string().min(1).max(64),
  subject: z.union([z.string(), z.number()]).optional(),
  fid: z.union([z.string(), z.number()]).optional(),
  username: z.string().optional(),
});

/**
 * Social ids from a `linked_accounts` claim: an array of {type, subject|fid|username}, or that
 * array as a JSON string (as some providers put it in their tokens). Anything unreadable is ignored:
 * a login never fails for its social ids.
 */
export function socialIdsFrom(claim: unknown): Record<string, string> {
  let list = claim;
  if (typeof list === "string") {
    try {
      list = JSON.parse(list);
    } catch {
      return {};
    }
  }
  if (!Array.isArray(list)) return {};
  const out: Record<string, string> = {};
  for (const entry of list.slice(0, 32)) {
    const parsed = LinkedAccount.safeParse(entry);
    if (!parsed.success) continue;
    const type = parsed.data.type.toLowerCase().replace(/_oauth$/, "");
    if (!/^[a-z0-9_]{1,32}$/.test(type)) continue;
    const value = parsed.data.fid ?? parsed.data.subject ?? parsed.data.username;
    if (value === undefined) continue;
    const text = String(value);
    if (text.length === 0 || text.length > 200) continue;
    out[type] = text;
  }
  return out;
}

const Claims = z.object({
  sub: z.string().min(1).max(255),
  linked_accounts: z.unknown().optional(),
});

export function createIdpVerifier(settings: IdpSettings, options: IdpVerifierOptions = {}): IdpVerifier {
  let sourceOf: KeySource | undefined;
  return {
    async verify(token) {
      const jose = await loadJose();
      const source = (sourceOf ??= keySource(settings, options, jose));
      if ("error" in source) throw source.error;
      let payload: unknown;
      try {
        // jwtVerify takes a key or a key resolver; the union is the overload TypeScript cannot pick.
        const result = await jose.jwtVerify(token, source.key as never, {
          algorithms: source.algorithms,
          issuer: settings.issuer,
          audience: settings.appId,
          clockTolerance: IDP_CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ["sub", "exp", "iss", "aud"],
        });
        payload = result.payload;
      } catch (err) {
        if (err instanceof IdpError) throw err;
        const described = describeJoseError(err, jose);
        if (described) throw described;
        throw err;
      }
      const claims = Claims.safeParse(payload);
      if (!claims.success) throw invalid("its subject is not a usable user id");
      return { userId: claims.data.sub, socialIds: socialIdsFrom(claims.data.linked_accounts) };
    },
  };
}

const sameIds = (a: unknown, b: Record<string, string>) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The account of a provider user: found by idpUserId, or created at the first login. Two first
 * logins at once make one account (the unique idpUserId refuses the second insert, which re-reads).
 * Marks the account seen; social ids from the token are merged into the stored ones.
 */
export async function upsertIdpUser(prisma: PrismaClient, identity: IdpIdentity, now: Date = new Date()): Promise<User> {
  const touch = (user: User) => {
    const stored = user.socialIds && typeof user.socialIds === "object" && !Array.isArray(user.socialIds) ? (user.socialIds as Record<string, string>) : {};
    const merged = { ...stored, ...identity.socialIds };
    return prisma.user.update({
      where: { id: user.id },
      data: sameIds(stored, merged) ? { lastSeenAt: now } : { lastSeenAt: now, socialIds: merged },
    });
  };
  const existing = await prisma.user.findUnique({ where: { idpUserId: identity.userId } });
  if (existing) return touch(existing);
  try {
    return await prisma.user.create({
      data: {
        id: `u_${randomUUID()}`,
        idpUserId: identity.userId,
        socialIds: identity.socialIds,
        isGuest: false,
        roles: ["player"],
        createdAt: now,
        lastSeenAt: now,
      },
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const winner = await prisma.user.findUnique({ where: { idpUserId: identity.userId } });
    if (!winner) throw err;
    return touch(winner);
  }
}

export interface IdpLogin {
  token: string;
  accountId: string;
  expiresIn: number;
}

/** Verify a provider token, find or create its account, and make a server token for it. */
export async function loginWithIdp(prisma: PrismaClient, verifier: IdpVerifier, idpToken: string, secret: string): Promise<IdpLogin> {
  const identity = await verifier.verify(idpToken);
  const user = await upsertIdpUser(prisma, identity);
  return {
    // Staff roles are read from the database at every request and join, never from the token.
    token: signToken({ sub: user.id, role: "player" }, secret, IDP_TOKEN_TTL_SECONDS),
    accountId: user.id,
    expiresIn: IDP_TOKEN_TTL_SECONDS,
  };
}
