import assert from "node:assert/strict";
import { SignJWT } from "jose";
import { startTestServer, type TestServer } from "../helpers/server.js";
import {
  APP_ID,
  ISSUER,
  APP_SECRET,
  jwkOf,
  pemOf,
  now,
  providerToken,
  b64,
  JwksHost,
  startJwksHost,
  seenBodies,
  login,
  expectInvalid,
  providerKey,
  rsaKey,
  strangerKey,
} from "./idpProvider.js";

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
    for (const body of [
      {},
      { idpToken: "" },
      { idpToken: "   " },
      { idpToken: 42 },
      { idpToken: null },
      { token: "abc" },
      [],
      { idpToken: "x".repeat(20_000) },
    ]) {
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

  it("the app secret is in no response and not in /env.js or /env.json", async () => {
    const env = await (await fetch(`${server.url}/env.js`)).text();
    assert.match(env, new RegExp(APP_ID));
    assert.ok(!env.includes(APP_SECRET), "/env.js holds no secret");
    const json = await fetch(`${server.url}/env.json`);
    assert.match(json.headers.get("content-type") ?? "", /^application\/json/);
    const settings = await json.json();
    assert.deepEqual(JSON.parse(env.slice(env.indexOf("{}, ") + 4, env.lastIndexOf(")"))), settings, "the same settings as /env.js");
    assert.ok(!JSON.stringify(settings).includes(APP_SECRET), "/env.json holds no secret");
    assert.ok(seenBodies.length > 20);
    for (const body of seenBodies) assert.ok(!body.includes(APP_SECRET), `a response held the app secret: ${body}`);
  });
});
