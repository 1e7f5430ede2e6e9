import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { Router, type Request, type Response } from "express";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { createIdpVerifier, idpSettingsFrom, IdpError, loginWithIdp } from "../auth/idp.js";
import { AddressBannedError, createGuest } from "../auth/guest.js";
import { signToken, TokenError, verifyToken } from "../auth/tokens.js";
import type { ServerContext } from "../context.js";
import { clientAddressOf } from "../http/rateLimit.js";
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";

/**
 * Sign-in to /mcp by its URL alone, as the MCP authorization spec has it: the protected resource's
 * and the authorization server's metadata (RFC 9728, RFC 8414), dynamic client registration
 * (RFC 7591), the authorization code with PKCE (S256) and refresh tokens, on the official SDK's
 * handlers. The sign-in page makes a guest (anonymous mode) or takes a server token the player
 * already has (any mode). The access token is a plain server token of the account (ACCESS_TTL_S),
 * so /mcp checks it as any Bearer token; static Bearer tokens keep working.
 *
 * Nothing is stored: a client id, a sign-in request, a code and a refresh token are each sealed
 * (HMAC-SHA256 under a key derived from JWT_SECRET for that use alone, so none of them is ever a
 * valid access token), so any process of a cluster, and a restarted one, reads them. A code is
 * taken once per process (the ids of codes taken are kept until they expire); it lives CODE_TTL_S.
 */
export const ACCESS_TTL_S = 3600;
export const CODE_TTL_S = 300;
export const REQUEST_TTL_S = 900;
export const REFRESH_TTL_S = 30 * 24 * 3600;
export const OAUTH_PATHS = { authorize: "/oauth/authorize", token: "/oauth/token", register: "/oauth/register", signIn: "/oauth/sign-in" } as const;
/** The paths whose bodies are HTML forms (src/http/body.ts reads JSON everywhere else). */
export const OAUTH_FORM_PATHS = [OAUTH_PATHS.signIn, OAUTH_PATHS.token] as const;

type Purpose = "client" | "secret" | "request" | "code" | "refresh";

/** Seal and open the OAuth artefacts: base64url JSON, a dot, its HMAC under the purpose's key. */
class Seals {
  constructor(private readonly secret: string) {}

  private mac(purpose: Purpose, body: string) {
    return createHmac("sha256", `${this.secret}\u0000oauth:${purpose}`).update(body).digest("base64url");
  }

  seal(purpose: Purpose, payload: object): string {
    const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
    return `${body}.${this.mac(purpose, body)}`;
  }

  /** The payload, or undefined for anything forged, of another purpose, malformed or expired (`exp`, seconds). */
  open<T extends { exp?: number }>(purpose: Purpose, sealed: unknown): T | undefined {
    if (typeof sealed !== "string" || sealed.length > 8192) return undefined;
    const dot = sealed.indexOf(".");
    if (dot <= 0) return undefined;
    const body = sealed.slice(0, dot);
    const given = Buffer.from(sealed.slice(dot + 1));
    const wanted = Buffer.from(this.mac(purpose, body));
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return undefined;
    try {
      const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as T;
      if (typeof payload !== "object" || payload === null) return undefined;
      if (payload.exp !== undefined && payload.exp < Date.now() / 1000) return undefined;
      return payload;
    } catch {
      return undefined;
    }
  }

  /** A confidential client's secret: derived from its id, so it needs no storing either. */
  secretOf(clientId: string) {
    return this.mac("secret", clientId);
  }
}

/** What a client id holds: the registered metadata. */
type SealedClient = Omit<OAuthClientInformationFull, "client_id" | "client_secret" | "client_secret_expires_at">;
interface SealedRequest {
  c: string;
  r: string;
  ch: string;
  s?: string;
  exp: number;
}
interface SealedCode {
  a: string;
  g: boolean;
  c: string;
  r: string;
  ch: string;
  j: string;
  exp: number;
}
interface SealedRefresh {
  a: string;
  g: boolean;
  c: string;
  exp: number;
}

class OAuthError extends Error {
  constructor(
    readonly error: "invalid_grant" | "invalid_request",
    message: string,
  ) {
    super(message);
  }
}

const now = () => Math.floor(Date.now() / 1000);

/** The server's origin as the client reached it (Express's `trust proxy` decides X-Forwarded-Proto and -Host). */
export const originOf = (req: Request) => `${req.protocol}://${req.get("host")}`;
export const resourceMetadataUrl = (req: Request, mcpPath: string) => `${originOf(req)}/.well-known/oauth-protected-resource${mcpPath}`;

/** The OAuth provider the SDK's handlers call. */
function provider(ctx: ServerContext, seals: Seals, offers: SignInOffers): OAuthServerProvider & { taken: Map<string, number> } {
  const secret = ctx.config.jwtSecret;
  const taken = new Map<string, number>();
  const clientsStore: OAuthRegisteredClientsStore = {
    getClient(clientId) {
      const m = seals.open<SealedClient & { exp?: number }>("client", clientId);
      if (!m) return undefined;
      const confidential = m.token_endpoint_auth_method !== "none";
      return { ...m, client_id: clientId, ...(confidential ? { client_secret: seals.secretOf(clientId), client_secret_expires_at: 0 } : {}) };
    },
    registerClient(client) {
      const { client_secret: _secret, client_secret_expires_at: _expires, ...metadata } = client as OAuthClientInformationFull;
      const clientId = seals.seal("client", { ...metadata, client_id_issued_at: now() });
      const confidential = metadata.token_endpoint_auth_method !== "none";
      return {
        ...metadata,
        client_id: clientId,
        client_id_issued_at: now(),
        ...(confidential ? { client_secret: seals.secretOf(clientId), client_secret_expires_at: 0 } : {}),
      };
    },
  };
  const tokensFor = (accountId: string, guest: boolean, clientId: string): OAuthTokens => ({
    access_token: signToken({ sub: accountId, role: "player", guest }, secret, ACCESS_TTL_S),
    token_type: "Bearer",
    expires_in: ACCESS_TTL_S,
    refresh_token: seals.seal("refresh", { a: accountId, g: guest, c: clientId, exp: now() + REFRESH_TTL_S } satisfies SealedRefresh),
  });
  const codeOf = (client: OAuthClientInformationFull, code: string) => {
    const c = seals.open<SealedCode>("code", code);
    if (!c || c.c !== client.client_id) throw new OAuthError("invalid_grant", "The authorization code is invalid, expired, or not this client's");
    return c;
  };
  return {
    clientsStore,
    taken,
    async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response) {
      const request = seals.seal("request", {
        c: client.client_id,
        r: params.redirectUri,
        ch: params.codeChallenge,
        ...(params.state !== undefined ? { s: params.state } : {}),
        exp: now() + REQUEST_TTL_S,
      } satisfies SealedRequest);
      res
        .status(200)
        .type("html")
        .set(PAGE_HEADERS)
        .send(signInPage(client.client_name ?? "An MCP client", request, offers));
    },
    async challengeForAuthorizationCode(client, code) {
      return codeOf(client, code).ch;
    },
    async exchangeAuthorizationCode(client, code, _verifier, redirectUri) {
      const c = codeOf(client, code);
      if (redirectUri !== undefined && redirectUri !== c.r) throw new OAuthError("invalid_grant", "redirect_uri is not the one the code was issued for");
      for (const [id, exp] of taken) if (exp < now()) taken.delete(id);
      if (taken.has(c.j)) throw new OAuthError("invalid_grant", "The authorization code was already used");
      taken.set(c.j, c.exp);
      return tokensFor(c.a, c.g, client.client_id);
    },
    async exchangeRefreshToken(client, refreshToken) {
      const r = seals.open<SealedRefresh>("refresh", refreshToken);
      if (!r || r.c !== client.client_id) throw new OAuthError("invalid_grant", "The refresh token is invalid, expired, or not this client's");
      return tokensFor(r.a, r.g, client.client_id);
    },
    async verifyAccessToken(token) {
      const claims = verifyToken(token, secret);
      return { token, clientId: claims.sub, scopes: [], expiresAt: claims.exp };
    },
  };
}

/**
 * The OAuth routes at the server's root: the two metadata documents, registration, the
 * authorization endpoint and its sign-in page, and the token endpoint. `mcpPath` is the resource.
 */
export async function oauthRoutes(ctx: ServerContext, mcpPath: string, guestLimiter?: RateLimiterAbstract): Promise<Router> {
  const [{ authorizationHandler }, { tokenHandler }, { clientRegistrationHandler }, errors] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/auth/handlers/authorize.js"),
    import("@modelcontextprotocol/sdk/server/auth/handlers/token.js"),
    import("@modelcontextprotocol/sdk/server/auth/handlers/register.js"),
    import("@modelcontextprotocol/sdk/server/auth/errors.js"),
  ]);
  const seals = new Seals(ctx.config.jwtSecret);
  // One verifier of the provider's tokens for the page (it caches the provider's keys), when one is configured.
  const idpSettings = idpSettingsFrom(ctx.config);
  const idp = idpSettings ? createIdpVerifier(idpSettings) : undefined;
  const offers: SignInOffers = { guests: !ctx.config.idpAppId, provider: Boolean(idp) };
  const p = provider(ctx, seals, offers);
  const addressOf = clientAddressOf(ctx.config);
  // The SDK's token handler answers its own OAuthErrors; ours become its InvalidGrantError.
  const sdkProvider: OAuthServerProvider = {
    ...p,
    clientsStore: p.clientsStore,
    challengeForAuthorizationCode: (c, code) => p.challengeForAuthorizationCode(c, code).catch(asSdk),
    exchangeAuthorizationCode: (c, code, v, r) => p.exchangeAuthorizationCode(c, code, v, r).catch(asSdk),
    exchangeRefreshToken: (c, t) => p.exchangeRefreshToken(c, t).catch(asSdk),
  };
  function asSdk(err: unknown): never {
    if (err instanceof OAuthError)
      throw err.error === "invalid_grant" ? new errors.InvalidGrantError(err.message) : new errors.InvalidRequestError(err.message);
    throw err;
  }
  const router = Router();
  const resource = (req: Request) => ({
    resource: `${originOf(req)}${mcpPath}`,
    authorization_servers: [originOf(req)],
    bearer_methods_supported: ["header"],
    resource_name: "The game server's MCP endpoint",
    resource_documentation: `${originOf(req)}/api/docs`,
  });
  router.get(["/.well-known/oauth-protected-resource", `/.well-known/oauth-protected-resource${mcpPath}`], (req, res) => {
    res.set("Access-Control-Allow-Origin", "*").json(resource(req));
  });
  router.get(["/.well-known/oauth-authorization-server", `/.well-known/oauth-authorization-server${mcpPath}`], (req, res) => {
    const o = originOf(req);
    res.set("Access-Control-Allow-Origin", "*").json({
      issuer: o,
      authorization_endpoint: `${o}${OAUTH_PATHS.authorize}`,
      token_endpoint: `${o}${OAUTH_PATHS.token}`,
      registration_endpoint: `${o}${OAUTH_PATHS.register}`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_post"],
      service_documentation: `${o}/api/docs`,
    });
  });
  router.use(OAUTH_PATHS.register, clientRegistrationHandler({ clientsStore: p.clientsStore, clientSecretExpirySeconds: 0 }));
  router.use(OAUTH_PATHS.authorize, authorizationHandler({ provider: sdkProvider }));
  router.use(OAUTH_PATHS.token, tokenHandler({ provider: sdkProvider }));
  // The form's body is parsed by the server's one body reader (src/http/body.ts).
  const again = (request: unknown, problem: string) => signInPage("Your MCP client", String(request), offers, problem);
  router.post(OAUTH_PATHS.signIn, async (req, res, next) => {
    try {
      const form = (req.body ?? {}) as Record<string, unknown>;
      const request = seals.open<SealedRequest>("request", form.request);
      if (!request)
        return void res.status(400).type("text").send("This sign-in page has expired or was changed: start the sign-in again from your MCP client.");
      const back = new URL(request.r);
      let account: { id: string; guest: boolean };
      if (form.mode === "guest") {
        if (!offers.guests)
          return void res.status(403).type("text").send("Guest accounts are off on this server: sign in with the identity provider or your server token.");
        // New guests count against the same per-address limit as POST /api/auth/guest and /ws guests.
        try {
          await guestLimiter?.consume(`ip:${addressOf(req)}`);
        } catch (err) {
          if (!(err instanceof RateLimiterRes)) throw err;
          return void res
            .status(429)
            .set("Retry-After", String(Math.ceil(err.msBeforeNext / 1000)))
            .type("text")
            .send("Too many new guest accounts from your address: try again in a minute.");
        }
        let guest;
        try {
          guest = await createGuest(ctx.db.sql, ctx.config.jwtSecret, addressOf(req));
        } catch (err) {
          if (!(err instanceof AddressBannedError)) throw err;
          return void res.status(403).type("html").set(PAGE_HEADERS).send(again(form.request, err.message));
        }
        account = { id: guest.accountId, guest: true };
      } else if (form.mode === "token") {
        try {
          const claims = verifyToken(typeof form.token === "string" ? form.token.trim() : "", ctx.config.jwtSecret);
          if (claims.role === "agent") throw new TokenError("TOKEN_INVALID", "An agent token drives its character directly: use it as the Bearer token");
          account = { id: claims.sub, guest: claims.guest === true };
        } catch (err) {
          if (!(err instanceof TokenError)) throw err;
          return void res.status(401).type("html").set(PAGE_HEADERS).send(again(form.request, err.message));
        }
      } else if (form.mode === "provider" && idp) {
        try {
          const login = await loginWithIdp(ctx.db.prisma, idp, typeof form.idpToken === "string" ? form.idpToken.trim() : "", ctx.config.jwtSecret);
          account = { id: login.accountId, guest: false };
        } catch (err) {
          if (!(err instanceof IdpError)) throw err;
          return void res
            .status(err.status === 503 ? 503 : 401)
            .type("html")
            .set(PAGE_HEADERS)
            .send(again(form.request, `${err.code}: ${err.message}`));
        }
      } else {
        return void res
          .status(400)
          .type("text")
          .send(`Choose how to sign in: mode is ${idp ? "provider, " : ""}${offers.guests ? "guest, " : ""}or token.`);
      }
      const code = seals.seal("code", {
        a: account.id,
        g: account.guest,
        c: request.c,
        r: request.r,
        ch: request.ch,
        j: randomUUID(),
        exp: now() + CODE_TTL_S,
      } satisfies SealedCode);
      back.searchParams.set("code", code);
      if (request.s !== undefined) back.searchParams.set("state", request.s);
      res.redirect(302, back.href);
    } catch (err) {
      next(err);
    }
  });
  return router;
}

/** The sign-in page is never cached nor framed (no clickjacking of the guest button), and runs no script. */
const PAGE_HEADERS = {
  "Cache-Control": "no-store",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What the sign-in page offers beside a server token: new guests (anonymous mode), the identity provider's login (when configured). */
interface SignInOffers {
  guests: boolean;
  provider: boolean;
}

/** The sign-in page an MCP client sends its user to: play as a new guest (anonymous mode), with the identity provider's token (when one is configured), or with a server token. */
function signInPage(clientName: string, request: string, offers: SignInOffers, problem?: string): string {
  const { guests, provider } = offers;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in to the game</title>
<style>body{font:16px system-ui,sans-serif;max-width:34em;margin:3em auto;padding:0 1em;background:#201a12;color:#eee4cc}
button{font:inherit;padding:.5em 1em;margin:.3em 0;background:#c9a12e;border:0;border-radius:4px;cursor:pointer}
input{font:inherit;width:100%;padding:.4em;box-sizing:border-box}.problem{color:#ff9a8a}fieldset{border:1px solid #7a6a48;margin:1em 0}</style></head>
<body><h1>Sign in to the game</h1>
<p><strong>${escape(clientName)}</strong> asks to play a character of yours over MCP.</p>
${problem ? `<p class="problem" role="alert">${escape(problem)}</p>` : ""}
${
  guests
    ? `<form method="post" action="${OAUTH_PATHS.signIn}"><input type="hidden" name="request" value="${escape(request)}"><input type="hidden" name="mode" value="guest">
<fieldset><legend>New here</legend><p>Play as a new guest: a character made for you at the first session.</p><button id="guest" type="submit">Play as a guest</button></fieldset></form>`
    : ""
}
${
  provider
    ? `<form method="post" action="${OAUTH_PATHS.signIn}"><input type="hidden" name="request" value="${escape(request)}"><input type="hidden" name="mode" value="provider">
<fieldset><legend>The identity provider</legend><label for="idp-token">Your identity provider's access token (as the web client asks for it):</label>
<input id="idp-token" name="idpToken" autocomplete="off" required><button id="use-provider" type="submit">Sign in with the provider</button></fieldset></form>`
    : ""
}
<form method="post" action="${OAUTH_PATHS.signIn}"><input type="hidden" name="request" value="${escape(request)}"><input type="hidden" name="mode" value="token">
<fieldset><legend>Your account</legend><label for="token">Your server token (the web client's or <code>POST /api/auth/login</code>'s):</label>
<input id="token" name="token" autocomplete="off" required><button id="use-token" type="submit">Sign in with this token</button></fieldset></form>
</body></html>`;
}
