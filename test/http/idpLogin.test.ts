import assert from "node:assert/strict";
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT, type JWTPayload } from "jose";
import { upsertIdpUser } from "../../src/auth/idp.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const APP_ID = "app-test-123";
const ISSUER = "privy.io";
const APP_SECRET = "idp-app-secret-that-must-never-leak-0123456789";

interface KeyPair {
  kid: string;
  alg: string;
  publicKey: KeyObject;
  privateKey: KeyObject;
}

const ecPair = (kid: string): KeyPair => ({ kid, alg: "ES256", ...generateKeyPairSync("ec", { namedCurve: "P-256" }) });
const rsaPair = (kid: string): KeyPair => ({ kid, alg: "RS256", ...generateKeyPairSync("rsa", { modulusLength: 2048 }) });

const jwkOf = (k: KeyPair) => ({ ...k.publicKey.export({ format: "jwk" }), kid: k.kid, alg: k.alg, use: "sig" });
const pemOf = (k: KeyPair) => String(k.publicKey.export({ type: "spki", format: "pem" }));

const now = () => Math.floor(Date.now() / 1000);

/** A provider access token: the provider's usual claims, any of them overridable (undefined drops one). */
async function providerToken(
  key: KeyPair,
  claims: Partial<Record<"sub" | "iss" | "aud" | "exp" | "iat", string | number | undefined>> & Record<string, unknown> = {},
  header: { kid?: string; alg?: string } = {},
): Promise<string> {
  const payload: Record<string, unknown> = { sub: "did:privy:user-1", iss: ISSUER, aud: APP_ID, iat: now(), exp: now() + 3600, sid: "session-1", ...claims };
  for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k];
  return new SignJWT(payload as JWTPayload).setProtectedHeader({ alg: header.alg ?? key.alg, kid: header.kid ?? key.kid, typ: "JWT" }).sign(key.privateKey);
}

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");

/** A JWKS host the test controls: the keys it publishes, its status, how often it was asked. */
interface JwksHost {
  url: string;
  keys: KeyPair[];
  status: number;
  hits: number;
  close(): Promise<void>;
}

async function startJwksHost(keys: KeyPair[]): Promise<JwksHost> {
  const host: JwksHost = { url: "", keys, status: 200, hits: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    host.hits++;
    if (req.url !== "/.well-known/jwks.json" || host.status !== 200) {
      res.writeHead(req.url === "/.well-known/jwks.json" ? host.status : 404).end("no");
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: host.keys.map(jwkOf) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  host.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return host;
}

/** A loopback URL nothing listens on. */
async function deadUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/jwks.json`;
}

/** Every response body the suite saw, to check no secret was ever in one. */
const seenBodies: string[] = [];

async function login(server: TestServer, body: unknown, raw = false): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: raw ? (body as string) : JSON.stringify(body),
  });
  const text = await res.text();
  seenBodies.push(text);
  return { status: res.status, body: JSON.parse(text), text };
}

async function expectInvalid(server: TestServer, token: string, reason: RegExp) {
  const res = await login(server, { idpToken: token });
  assert.equal(res.status, 401, res.text);
  assert.equal(res.body.success, false);
  assert.equal(res.body.error.code, "INVALID_IDP_TOKEN");
  assert.match(res.body.error.message, reason);
  assert.ok(!res.text.includes(token), "the token is never echoed");
  return res;
}

const providerKey = ecPair("ec-a");
const rsaKey = rsaPair("rsa-1");
const strangerKey = ecPair("ec-a"); // same kid, another key pair: a forged token

describe("identity-provider login (JWKS)", function () {
  this.timeout(60_000);
  let jwks: JwksHost;
  let server: TestServer;

  before(async () => {
    jwks = await startJwksHost([providerKey, rsaKey]);
    server = await startTestServer({ env: { PUBLIC_IDP_APP_ID: APP_ID, IDP_JWKS_URL: jwks.url, IDP_APP_SECRET: APP_SECRET } });
  });
  after(async () => {
    await server?.close();
    await jwks?.close();
  });

  it("creates the account at the first login, with the provider user id and social ids", async () => {
    const token = await providerToken(providerKey, {
      sub: "did:privy:first",
      linked_accounts: [
        { type: "farcaster", fid: 1234, username: "fc-user" },
        { type: "discord_oauth", subject: "9876", username: "bob" },
        { type: "email", address: "someone@example.com" },
      ],
    });
    const res = await login(server, { idpToken: token });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ["accountId", "expiresIn", "token"]);
    assert.match(res.body.accountId, /^u_[0-9a-f-]{36}$/);
    assert.equal(res.body.expiresIn, 7 * 24 * 3600);

    const user = await server.ctx.db.prisma.user.findUniqueOrThrow({ where: { id: res.body.accountId } });
    assert.equal(user.idpUserId, "did:privy:first");
    assert.equal(user.isGuest, false);
    assert.deepEqual(user.roles, ["player"]);
    assert.deepEqual(user.socialIds, { farcaster: "1234", discord: "9876" });

    const me = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${res.body.token}` } });
    assert.equal(me.status, 200);
    const who = await me.json();
    seenBodies.push(JSON.stringify(who));
    assert.equal(who.accountId, res.body.accountId);
    assert.equal(who.guest, false);
    assert.equal(who.role, "player");
  });

  it("a second login is the same account, seen again", async () => {
    const first = await login(server, { idpToken: await providerToken(providerKey, { sub: "did:privy:again" }) });
    assert.equal(first.status, 200);
    const seen1 = (await server.ctx.db.prisma.user.findUniqueOrThrow({ where: { id: first.body.accountId } })).lastSeenAt;
    await new Promise((r) => setTimeout(r, 20));
    // Social ids as a JSON string (the provider's identity-token form) are read too.
    const second = await login(server, {
      idpToken: await providerToken(rsaKey, { sub: "did:privy:again", linked_accounts: JSON.stringify([{ type: "twitter_oauth", subject: "tw-1" }]) }),
    });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.accountId, first.body.accountId);
    const user = await server.ctx.db.prisma.user.findUniqueOrThrow({ where: { id: first.body.accountId } });
    assert.ok(user.lastSeenAt > seen1, "lastSeenAt moves on");
    assert.deepEqual(user.socialIds, { twitter: "tw-1" });
    assert.equal(await server.ctx.db.prisma.user.count({ where: { idpUserId: "did:privy:again" } }), 1);
  });

  it("concurrent first logins of one provider user make one account", async () => {
    const token = await providerToken(providerKey, { sub: "did:privy:racer" });
    const answers = await Promise.all(Array.from({ length: 8 }, () => login(server, { idpToken: token })));
    for (const a of answers) assert.equal(a.status, 200, a.text);
    assert.equal(new Set(answers.map((a) => a.body.accountId)).size, 1);
    assert.equal(await server.ctx.db.prisma.user.count({ where: { idpUserId: "did:privy:racer" } }), 1);
  });

  it("accepts a token expired within the clock tolerance", async () => {
    const res = await login(server, { idpToken: await providerToken(providerKey, { iat: now() - 3600, exp: now() - 10 }) });
    assert.equal(res.status, 200, res.text);
  });

  it("refuses a token for another app (audience)", async () => {
    await expectInvalid(server, await providerToken(providerKey, { aud: "another-app" }), /audience/);
  });

  it("refuses a token from another issuer", async () => {
    await expectInvalid(server, await providerToken(providerKey, { iss: "evil.example" }), /issuer/);
  });

  it("refuses an expired token", async () => {
    await expectInvalid(server, await providerToken(providerKey, { iat: now() - 7200, exp: now() - 120 }), /expired/);
  });

  it("refuses a token without an expiry or a subject", async () => {
    await expectInvalid(server, await providerToken(providerKey, { exp: undefined }), /"exp"/);
    await expectInvalid(server, await providerToken(providerKey, { sub: undefined }), /"sub"/);
  });

  it("refuses a token signed by another key", async () => {
    await expectInvalid(server, await providerToken(strangerKey), /signature/);
  });

  it("refuses a token naming a key the provider does not publish", async () => {
    await expectInvalid(server, await providerToken(providerKey, {}, { kid: "not-a-key" }), /names no key/);
  });

  it("refuses alg none", async () => {
    const payload = { sub: "did:privy:none", iss: ISSUER, aud: APP_ID, iat: now(), exp: now() + 600 };
    await expectInvalid(server, `${b64({ alg: "none", typ: "JWT" })}.${b64(payload)}.`, /algorithm/);
    await expectInvalid(server, `${b64({ alg: "none", typ: "JWT", kid: "ec-a" })}.${b64(payload)}.`, /algorithm/);
    assert.equal(await server.ctx.db.prisma.user.count({ where: { idpUserId: "did:privy:none" } }), 0);
  });

  it("refuses HS256, whatever the secret (the app secret, the public key, anything)", async () => {
    const payload = { sub: "did:privy:hmac", iss: ISSUER, aud: APP_ID };
    for (const secret of [APP_SECRET, pemOf(providerKey), JSON.stringify(jwkOf(providerKey)), "x".repeat(64)]) {
      for (const kid of ["ec-a", undefined]) {
        const token = await new SignJWT(payload)
          .setProtectedHeader(kid ? { alg: "HS256", kid } : { alg: "HS256" })
          .setIssuedAt()
          .setExpirationTime("1h")
          .sign(new TextEncoder().encode(secret));
        await expectInvalid(server, token, /algorithm/);
      }
    }
    assert.equal(await server.ctx.db.prisma.user.count({ where: { idpUserId: "did:privy:hmac" } }), 0);
  });

  it("refuses malformed tokens with 401", async () => {
    for (const token of ["garbage", "a.b.c", "x".repeat(500), `${b64({ alg: "ES256", kid: "ec-a" })}.${b64({ sub: "x" })}`]) {
      await expectInvalid(server, token, /well-formed/);
    }
    // The signature is checked over the raw parts before the payload is read.
    await expectInvalid(server, `${b64({ alg: "ES256", kid: "ec-a" })}.not-json.c2ln`, /signature/);
  });

  it("answers 400 for a missing or malformed body", async () => {
    for (const body of [{}, { idpToken: "" }, { idpToken: "   " }, { idpToken: 42 }, { idpToken: null }, { token: "abc" }, [], { idpToken: "x".repeat(20_000) }]) {
      const res = await login(server, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, "INVALID_PAYLOAD");
    }
    for (const raw of ["{not json", JSON.stringify("just a string")]) {
      const bad = await login(server, raw, true);
      assert.equal(bad.status, 400, raw);
      assert.equal(bad.body.success, false);
    }
    const none = await fetch(`${server.url}/api/auth/login`, { method: "POST" });
    assert.equal(none.status, 400);
    assert.equal((await none.json()).error.code, "INVALID_PAYLOAD");
  });

  it("guests are off while the provider is configured", async () => {
    const res = await fetch(`${server.url}/api/auth/guest`, { method: "POST" });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).error.code, "GUESTS_DISABLED");
  });

  it("the app secret is in no response and not in /env.js", async () => {
    const env = await (await fetch(`${server.url}/env.js`)).text();
    assert.match(env, new RegExp(APP_ID));
    assert.ok(!env.includes(APP_SECRET), "/env.js holds no secret");
    assert.ok(seenBodies.length > 20);
    for (const body of seenBodies) assert.ok(!body.includes(APP_SECRET), `a response held the app secret: ${body}`);
  });
});

describe("identity-provider login: key rotation", function () {
  this.timeout(60_000);
  let jwks: JwksHost;
  let server: TestServer;
  const oldKey = ecPair("2024-key");
  const newKey = ecPair("2025-key");

  before(async () => {
    jwks = await startJwksHost([oldKey]);
    server = await startTestServer({ env: { PUBLIC_IDP_APP_ID: APP_ID, IDP_JWKS_URL: jwks.url } });
  });
  after(async () => {
    await server?.close();
    await jwks?.close();
  });

  it("fetches the keys once, refetches for an unknown kid at most every 30 s, then accepts the new key", async () => {
    assert.equal(jwks.hits, 0, "nothing fetched before the first login");
    assert.equal((await login(server, { idpToken: await providerToken(oldKey) })).status, 200);
    assert.equal((await login(server, { idpToken: await providerToken(oldKey, { sub: "did:privy:other" }) })).status, 200);
    assert.equal(jwks.hits, 1, "the key set is cached");

    // The provider rotates: a new key is published; tokens start naming it.
    jwks.keys = [oldKey, newKey];
    const rotated = await providerToken(newKey, { sub: "did:privy:rotated" });
    // The key set was fetched a moment ago: an unknown kid does not refetch yet (no fetch storm).
    for (let i = 0; i < 5; i++) await expectInvalid(server, await providerToken(newKey, { sub: `did:privy:flood-${i}` }), /names no key/);
    assert.equal(jwks.hits, 1, "no refetch within the cooldown");

    // 31 s later (the server's clock moved on), the unknown kid refetches once and is found.
    const realNow = Date.now;
    Date.now = () => realNow() + 31_000;
    try {
      const res = await login(server, { idpToken: rotated });
      assert.equal(res.status, 200, res.text);
      assert.equal(jwks.hits, 2);
      assert.equal((await login(server, { idpToken: rotated })).status, 200);
      assert.equal(jwks.hits, 2, "the new key set is cached");
    } finally {
      Date.now = realNow;
    }
  });
});

describe("identity-provider login (PEM verification key)", function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    // As environment files often carry it: one line with \n escapes.
    const pem = pemOf(providerKey).trim().replace(/\n/g, "\\n");
    server = await startTestServer({ env: { PUBLIC_IDP_APP_ID: APP_ID, IDP_VERIFICATION_KEY: pem, IDP_APP_SECRET: APP_SECRET } });
  });
  after(async () => {
    await server?.close();
  });

  it("accepts a token signed by the provider's key, with or without a kid", async () => {
    const a = await login(server, { idpToken: await providerToken(providerKey, { sub: "did:privy:pem" }) });
    assert.equal(a.status, 200, a.text);
    const noKid = await new SignJWT({ sub: "did:privy:pem", iss: ISSUER, aud: APP_ID }).setProtectedHeader({ alg: "ES256" }).setIssuedAt().setExpirationTime("5m").sign(providerKey.privateKey);
    const b = await login(server, { idpToken: noKid });
    assert.equal(b.status, 200, b.text);
    assert.equal(b.body.accountId, a.body.accountId);
  });

  it("refuses another key, another algorithm family, HS256 and alg none", async () => {
    await expectInvalid(server, await providerToken(strangerKey), /signature/);
    await expectInvalid(server, await providerToken(rsaKey), /algorithm/);
    const hs = await new SignJWT({ sub: "x", iss: ISSUER, aud: APP_ID }).setProtectedHeader({ alg: "HS256" }).setExpirationTime("5m").sign(new TextEncoder().encode(pemOf(providerKey)));
    await expectInvalid(server, hs, /algorithm/);
    await expectInvalid(server, `${b64({ alg: "none" })}.${b64({ sub: "x", iss: ISSUER, aud: APP_ID, exp: now() + 60 })}.`, /algorithm/);
    await expectInvalid(server, await providerToken(providerKey, { aud: "another-app" }), /audience/);
  });

  it("an RSA verification key accepts RS256", async () => {
    const rsaServer = await startTestServer({ env: { PUBLIC_IDP_APP_ID: APP_ID, IDP_VERIFICATION_KEY: pemOf(rsaKey) } });
    try {
      assert.equal((await login(rsaServer, { idpToken: await providerToken(rsaKey) })).status, 200);
      await expectInvalid(rsaServer, await providerToken(providerKey), /algorithm/);
    } finally {
      await rsaServer.close();
    }
  });
});

describe("identity-provider login when the provider cannot be used", function () {
  this.timeout(60_000);

  it("answers 503 IDP_UNAVAILABLE while the JWKS host is down or broken", async () => {
    const server = await startTestServer({ env: { PUBLIC_IDP_APP_ID: APP_ID, IDP_JWKS_URL: await deadUrl(), IDP_APP_SECRET: APP_SECRET } });
    const broken = await startJwksHost([providerKey]);
    broken.status = 500;
    const server2 = await startTestServer({ env: { PUBLIC_IDP_APP_ID: APP_ID, IDP_JWKS_URL: broken.url } });
    try {
      for (const s of [server, server2]) {
        const res = await login(s, { idpToken: await providerToken(providerKey) });
        assert.equal(res.status, 503, res.text);
        assert.equal(res.body.error.code, "IDP_UNAVAILABLE");
        assert.ok(!res.text.includes(APP_SECRET));
      }
      // The host comes back: logins work again.
      broken.status = 200;
      assert.equal((await login(server2, { idpToken: await providerToken(providerKey) })).status, 200);
    } finally {
      await server.close();
      await server2.close();
      await broken.close();
    }
  });

  it("answers 503 IDP_NOT_CONFIGURED with an app id but no keys", async () => {
    const server = await startTestServer({ env: { PUBLIC_IDP_APP_ID: APP_ID, IDP_APP_SECRET: APP_SECRET } });
    try {
      const res = await login(server, { idpToken: await providerToken(providerKey) });
      assert.equal(res.status, 503);
      assert.equal(res.body.error.code, "IDP_NOT_CONFIGURED");
      assert.ok(!res.text.includes(APP_SECRET));
      const env = await (await fetch(`${server.url}/env.js`)).text();
      assert.ok(!env.includes(APP_SECRET));
    } finally {
      await server.close();
    }
  });

  it("answers 503 IDP_NOT_CONFIGURED when the verification key is not a PEM key", async () => {
    const server = await startTestServer({ env: { PUBLIC_IDP_APP_ID: APP_ID, IDP_VERIFICATION_KEY: "not a key" } });
    try {
      const res = await login(server, { idpToken: await providerToken(providerKey) });
      assert.equal(res.status, 503);
      assert.equal(res.body.error.code, "IDP_NOT_CONFIGURED");
    } finally {
      await server.close();
    }
  });

  it("answers 403 IDP_DISABLED in anonymous mode (no app id), and guests still work", async () => {
    const server = await startTestServer();
    try {
      const res = await login(server, { idpToken: await providerToken(providerKey) });
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, "IDP_DISABLED");
      assert.equal((await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).status, 201);
    } finally {
      await server.close();
    }
  });
});

for (const kind of DATABASE_KINDS) {
  describe(`identity-provider accounts on ${kind}`, function () {
    this.timeout(60_000);
    let t: TestDb;
    before(async () => {
      t = await openTestDb(kind);
    });
    after(async () => {
      await t?.cleanup();
    });

    it("many first logins at once make one account", async () => {
      const users = await Promise.all(Array.from({ length: 10 }, () => upsertIdpUser(t.db.prisma, { userId: "did:privy:concurrent", socialIds: { farcaster: "7" } })));
      assert.equal(new Set(users.map((u) => u.id)).size, 1);
      const rows = await t.db.prisma.user.findMany({ where: { idpUserId: "did:privy:concurrent" } });
      assert.equal(rows.length, 1);
      assert.deepEqual(rows[0].socialIds, { farcaster: "7" });
      assert.equal(rows[0].isGuest, false);
    });
  });
}
