import assert from "node:assert/strict";
import { SignJWT } from "jose";
import { upsertIdpUser } from "../../src/auth/idp.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import {
  APP_ID,
  ISSUER,
  APP_SECRET,
  ecPair,
  pemOf,
  now,
  providerToken,
  b64,
  JwksHost,
  startJwksHost,
  deadUrl,
  login,
  expectInvalid,
  providerKey,
  rsaKey,
  strangerKey,
} from "./idpProvider.js";

/** Identity-provider login: key rotation, PEM keys, an unusable provider, accounts on both databases. */

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
    const noKid = await new SignJWT({ sub: "did:privy:pem", iss: ISSUER, aud: APP_ID })
      .setProtectedHeader({ alg: "ES256" })
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(providerKey.privateKey);
    const b = await login(server, { idpToken: noKid });
    assert.equal(b.status, 200, b.text);
    assert.equal(b.body.accountId, a.body.accountId);
  });

  it("refuses another key, another algorithm family, HS256 and alg none", async () => {
    await expectInvalid(server, await providerToken(strangerKey), /signature/);
    await expectInvalid(server, await providerToken(rsaKey), /algorithm/);
    const hs = await new SignJWT({ sub: "x", iss: ISSUER, aud: APP_ID })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode(pemOf(providerKey)));
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
      const users = await Promise.all(
        Array.from({ length: 10 }, () => upsertIdpUser(t.db.prisma, { userId: "did:privy:concurrent", socialIds: { farcaster: "7" } })),
      );
      assert.equal(new Set(users.map((u) => u.id)).size, 1);
      const rows = await t.db.prisma.user.findMany({ where: { idpUserId: "did:privy:concurrent" } });
      assert.equal(rows.length, 1);
      assert.deepEqual(rows[0].socialIds, { farcaster: "7" });
      assert.equal(rows[0].isGuest, false);
    });
  });
}
