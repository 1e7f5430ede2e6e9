import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";
import { APP_ID, pemOf, providerKey, providerToken } from "../http/idpProvider.js";
import { mcpConnect, mcpPost, INITIALIZE } from "./helpers.js";

const REDIRECT = "http://127.0.0.1:9/callback";

/** An OAuth client as an MCP host keeps one: in memory, sending its user to `follow` to sign in. */
class TestOAuthClient implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Arena test host",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The sign-in page's form fields (the sealed request). */
async function signInRequestOf(url: URL, clientName = "Arena test host"): Promise<string> {
  const page = await fetch(url, { redirect: "manual" });
  assert.equal(page.status, 200, await page.clone().text());
  const html = await page.text();
  assert.ok(html.includes(clientName), "the page names the client");
  const m = /name="request" value="([^"]+)"/.exec(html);
  assert.ok(m, "the page carries the sealed request");
  return m[1].replace(/&#(\d+);/g, (_s, c) => String.fromCharCode(Number(c)));
}

/** Post the sign-in form; resolves with the redirect's code (and state). */
async function signIn(server: TestServer, request: string, fields: Record<string, string>) {
  const res = await fetch(`${server.url}/oauth/sign-in`, { method: "POST", redirect: "manual", body: new URLSearchParams({ request, ...fields }) });
  return res;
}

/** Dynamic client registration (a public client with the test's redirect). */
const registerClient = async (server: Pick<TestServer, "url">, clientName: string) =>
  (await (
    await fetch(`${server.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: clientName, redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
    })
  ).json()) as { client_id: string };

const tokenRequest = (server: TestServer, body: Record<string, string>) =>
  fetch(`${server.url}/oauth/token`, { method: "POST", body: new URLSearchParams(body) }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as any,
  }));

describe("/mcp: sign-in by URL (OAuth 2.1 with PKCE, dynamic client registration)", function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  it("a 401 names the protected-resource metadata (RFC 9728), and an invalid token is named so", async () => {
    const none = await mcpPost(server, undefined, INITIALIZE);
    assert.equal(none.status, 401);
    const challenge = none.headers.get("www-authenticate")!;
    assert.match(challenge, /^Bearer realm="mcp", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/);
    const bad = await mcpPost(server, "not-a-token", INITIALIZE);
    assert.match(bad.headers.get("www-authenticate")!, /error="invalid_token", resource_metadata=/);
    const prm = await (await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`)).json();
    assert.deepEqual([prm.resource, prm.authorization_servers], [`${server.url}/mcp`, [server.url]]);
    const as = await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json();
    assert.deepEqual(as.code_challenge_methods_supported, ["S256"]);
    assert.equal(as.registration_endpoint, `${server.url}/oauth/register`);
  });

  it("the SDK client's OAuth flow end to end: registration, the sign-in page (a guest), the code with PKCE, tools over the access token, a refresh", async () => {
    const host = new TestOAuthClient();
    const url = new URL(`${server.url}/mcp`);
    const first = new StreamableHTTPClientTransport(url, { authProvider: host });
    await assert.rejects(new Client({ name: "oauth-test", version: "1" }).connect(first), UnauthorizedError);
    assert.ok(host.info?.client_id, "registered");
    assert.ok(host.authorizationUrl, "sent to sign in");
    assert.equal(host.authorizationUrl!.searchParams.get("code_challenge_method"), "S256");
    const request = await signInRequestOf(host.authorizationUrl!);
    const back = await signIn(server, request, { mode: "guest" });
    assert.equal(back.status, 302, await back.clone().text());
    const to = new URL(back.headers.get("location")!);
    assert.equal(`${to.origin}${to.pathname}`, REDIRECT);
    assert.equal(to.searchParams.get("state"), host.authorizationUrl!.searchParams.get("state"));
    await first.finishAuth(to.searchParams.get("code")!);
    assert.ok(host.saved?.access_token && host.saved.refresh_token);
    const client = new Client({ name: "oauth-test", version: "1" });
    const transport = new StreamableHTTPClientTransport(url, { authProvider: host });
    await client.connect(transport);
    const seen = (await client.callTool({ name: "observe", arguments: {} })) as unknown as { structuredContent: { you: { name: string } } };
    assert.ok(seen.structuredContent.you.name, "plays a character");
    await transport.terminateSession().catch(() => {});
    await client.close();
    // A refresh gives a new access token for the same account.
    const refreshed = await tokenRequest(server, { grant_type: "refresh_token", refresh_token: host.saved!.refresh_token!, client_id: host.info!.client_id });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    const again = await mcpConnect(server, refreshed.body.access_token);
    assert.equal((await again.call("observe")).body.you.name, seen.structuredContent.you.name);
    await again.close();
  });

  it("refuses forged, replayed, other clients' codes and a wrong PKCE verifier; neither a code nor a refresh token is an access token", async () => {
    const a = await registerClient(server, "Scripted");
    const b = await registerClient(server, "Scripted");
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const authorize = new URL(`${server.url}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: "code",
      client_id: a.client_id,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s1",
    }))
      authorize.searchParams.set(k, v);
    const request = await signInRequestOf(authorize, "Scripted");
    const codeOf = async () => new URL((await signIn(server, request, { mode: "guest" })).headers.get("location")!).searchParams.get("code")!;
    const code = await codeOf();
    const exchange = (c: string, clientId: string, v = verifier) =>
      tokenRequest(server, { grant_type: "authorization_code", code: c, code_verifier: v, client_id: clientId, redirect_uri: REDIRECT });
    assert.equal((await exchange(code, a.client_id, randomBytes(32).toString("base64url"))).body.error, "invalid_grant", "wrong verifier");
    assert.equal((await exchange(code, b.client_id)).body.error, "invalid_grant", "another client's code");
    assert.equal((await exchange(`${code}x`, a.client_id)).body.error, "invalid_grant", "forged");
    const ok = await exchange(code, a.client_id);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal((await exchange(code, a.client_id)).body.error, "invalid_grant", "replayed");
    // The artefacts are sealed for their own use: as Bearer tokens they are refused.
    for (const notAccess of [code, ok.body.refresh_token, a.client_id]) assert.equal((await mcpPost(server, notAccess, INITIALIZE)).status, 401);
    // A changed sign-in request is refused; an unknown mode too; a bad token shows the page again.
    assert.equal((await signIn(server, `${request}x`, { mode: "guest" })).status, 400);
    assert.equal((await signIn(server, request, { mode: "admin" })).status, 400);
    const wrong = await signIn(server, request, { mode: "token", token: "nonsense" });
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /The token is invalid/);
    // An existing player's server token signs in as that account.
    const me = await guestToken(server);
    const mine = new URL((await signIn(server, request, { mode: "token", token: me.token })).headers.get("location")!).searchParams.get("code")!;
    const tokens = await exchange(mine, a.client_id);
    assert.equal(tokens.status, 200);
    const claims = JSON.parse(Buffer.from(tokens.body.access_token.split(".")[1], "base64url").toString());
    assert.equal(claims.sub, me.accountId);
    // An unregistered client may not start a sign-in.
    const stranger = new URL(authorize);
    stranger.searchParams.set("client_id", "made-up");
    assert.notEqual((await fetch(stranger, { redirect: "manual" })).status, 200);
  });

  it("static Bearer tokens keep working", async () => {
    const c = await mcpConnect(server, (await guestToken(server)).token);
    assert.equal((await c.call("observe")).isError, false);
    await c.close();
  });

  it("new guests from the sign-in page count against the address's guest limit (429 past it, no account made)", async () => {
    const limited = await startTestServer({ rateLimits: { auth: { points: 3, durationS: 60 } } });
    try {
      const client = await registerClient(limited, "Greedy");
      const authorize = new URL(`${limited.url}/oauth/authorize`);
      for (const [k, v] of Object.entries({
        response_type: "code",
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        code_challenge: "x".repeat(43),
        code_challenge_method: "S256",
      }))
        authorize.searchParams.set(k, v);
      const request = await signInRequestOf(authorize, "Greedy");
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await signIn(limited, request, { mode: "guest" })).status);
      assert.deepEqual(statuses, [302, 302, 302, 429, 429]);
      const guests = await limited.ctx.db.prisma.user.count({ where: { isGuest: true } });
      assert.equal(guests, 3, "no account made past the limit");
    } finally {
      await limited.close();
    }
  });
});

describe("/mcp: sign-in by URL with an identity provider configured", function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { PUBLIC_IDP_APP_ID: APP_ID, IDP_VERIFICATION_KEY: pemOf(providerKey) } });
  });
  after(async () => {
    await server?.close();
  });

  it("the page offers the provider's login and no guests; a bad provider token shows the page again; a good one signs in as the provider's account", async () => {
    const client = await registerClient(server, "Provider host");
    const verifier = randomBytes(32).toString("base64url");
    const authorize = new URL(`${server.url}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    }))
      authorize.searchParams.set(k, v);
    const html = await (await fetch(authorize, { redirect: "manual" })).text();
    assert.match(html, /id="idp-token"/);
    assert.doesNotMatch(html, /id="guest"/);
    const request = await signInRequestOf(authorize, "Provider host");
    assert.equal((await signIn(server, request, { mode: "guest" })).status, 403, "no guests beside a provider");
    const bad = await signIn(server, request, { mode: "provider", idpToken: "not-a-token" });
    assert.equal(bad.status, 401);
    assert.match(await bad.text(), /INVALID_IDP_TOKEN/);
    const good = await signIn(server, request, { mode: "provider", idpToken: await providerToken(providerKey, { sub: "did:privy:mcp-host" }) });
    assert.equal(good.status, 302);
    const code = new URL(good.headers.get("location")!).searchParams.get("code")!;
    const tokens = await tokenRequest(server, {
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      client_id: client.client_id,
      redirect_uri: REDIRECT,
    });
    assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
    const users = await server.ctx.db.prisma.user.findMany({ where: { isGuest: false } });
    assert.equal(users.length, 1, "the provider's user has an account");
    const claims = JSON.parse(Buffer.from(tokens.body.access_token.split(".")[1], "base64url").toString());
    assert.equal(claims.sub, users[0]!.id);
    const c = await mcpConnect(server, tokens.body.access_token);
    assert.equal((await c.call("observe")).isError, false);
    await c.close();
  });
});
