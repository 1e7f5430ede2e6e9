import assert from "node:assert/strict";
import jwt from "jsonwebtoken";
import { signToken } from "../../src/auth/tokens.js";
import { startTestServer, TEST_SECRET, type TestServer } from "../helpers/server.js";

describe("guest accounts and bearer tokens", function () {
  this.timeout(30_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  it("POST /api/auth/guest creates a temporary account and a token for it", async () => {
    const res = await fetch(`${server.url}/api/auth/guest`, { method: "POST" });
    assert.equal(res.status, 201);
    const body = await res.json();
    assert.deepEqual(Object.keys(body).sort(), ["accountId", "expiresIn", "token"]);
    assert.equal(typeof body.token, "string");
    assert.equal(body.expiresIn, 24 * 3600);
    const user = await server.ctx.db.prisma.user.findUniqueOrThrow({ where: { id: body.accountId } });
    assert.equal(user.isGuest, true);

    const me = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${body.token}` } });
    assert.equal(me.status, 200);
    const who = await me.json();
    assert.equal(who.accountId, body.accountId);
    assert.equal(who.guest, true);
  });

  it("each guest is a different account", async () => {
    const a = await (await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).json();
    const b = await (await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).json();
    assert.notEqual(a.accountId, b.accountId);
  });

  const now = () => Math.floor(Date.now() / 1000);
  const cases: Array<[string, () => Record<string, string>]> = [
    ["no Authorization header", () => ({})],
    ["a non-Bearer scheme", () => ({ authorization: `Basic ${Buffer.from("a:b").toString("base64")}` })],
    ["garbage", () => ({ authorization: "Bearer not-a-token" })],
    ["an expired token", () => ({ authorization: `Bearer ${jwt.sign({ role: "player", exp: now() - 5 }, TEST_SECRET, { subject: "a" })}` })],
    ["another secret", () => ({ authorization: `Bearer ${signToken({ sub: "a" }, "another-secret-".padEnd(40, "y"))}` })],
    [
      "alg none",
      () => {
        const h = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
        const p = Buffer.from(JSON.stringify({ sub: "a", role: "admin", exp: now() + 600 })).toString("base64url");
        return { authorization: `Bearer ${h}.${p}.` };
      },
    ],
  ];
  for (const [what, headers] of cases) {
    it(`answers 401 for ${what}`, async () => {
      const res = await fetch(`${server.url}/api/auth/me`, { headers: headers() });
      assert.equal(res.status, 401);
      const body = await res.json();
      assert.equal(body.success, false);
      assert.ok(["UNAUTHORIZED", "TOKEN_INVALID", "TOKEN_EXPIRED"].includes(body.error.code), body.error.code);
    });
  }

  it("a valid token for an account that no longer exists answers 401", async () => {
    const token = signToken({ sub: "acc_deleted_long_ago" }, TEST_SECRET);
    const res = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 401);
    assert.equal((await res.json()).error.code, "ACCOUNT_NOT_FOUND");
  });

  it("POST /api/auth/refresh: a valid token gives a new one of the same account and claims, with a full lifetime; a bad one is 401", async () => {
    const guest = await (await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).json();
    // A guest token half-way through its day.
    const old = jwt.sign({ role: "player", guest: true, iat: now() - 12 * 3600 }, TEST_SECRET, { subject: guest.accountId, expiresIn: 24 * 3600 });
    const res = await fetch(`${server.url}/api/auth/refresh`, { method: "POST", headers: { authorization: `Bearer ${old}` } });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.accountId, guest.accountId);
    assert.equal(body.expiresIn, 24 * 3600);
    const claims = jwt.verify(body.token, TEST_SECRET) as jwt.JwtPayload;
    assert.equal(claims.sub, guest.accountId);
    assert.equal(claims.guest, true);
    assert.equal(claims.role, "player");
    assert.ok(claims.exp! >= now() + 24 * 3600 - 60, "a full day from now");
    const me = await (await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${body.token}` } })).json();
    assert.equal(me.accountId, guest.accountId);
    // A token that claims admin is refreshed as what it is: a player's.
    const claimsAdmin = signToken({ sub: guest.accountId, role: "admin" }, TEST_SECRET);
    const asPlayer = await (await fetch(`${server.url}/api/auth/refresh`, { method: "POST", headers: { authorization: `Bearer ${claimsAdmin}` } })).json();
    assert.equal((jwt.verify(asPlayer.token, TEST_SECRET) as jwt.JwtPayload).role, "player");
    for (const headers of [
      {},
      { authorization: "Bearer not-a-token" },
      { authorization: `Bearer ${jwt.sign({ role: "player", exp: now() - 5 }, TEST_SECRET, { subject: guest.accountId })}` },
    ]) {
      const refused = await fetch(`${server.url}/api/auth/refresh`, { method: "POST", headers: headers as Record<string, string> });
      assert.equal(refused.status, 401);
      assert.equal((await refused.json()).success, false);
    }
  });

  it("expired tokens say so", async () => {
    const token = jwt.sign({ role: "player", exp: now() - 5 }, TEST_SECRET, { subject: "a" });
    const res = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal((await res.json()).error.code, "TOKEN_EXPIRED");
  });
});

describe("guest accounts with an identity provider configured", function () {
  this.timeout(30_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { PUBLIC_IDP_APP_ID: "app-123" } });
  });
  after(async () => {
    await server?.close();
  });

  it("are refused with 403 and no account is created", async () => {
    const before = await server.ctx.db.prisma.user.count();
    const res = await fetch(`${server.url}/api/auth/guest`, { method: "POST" });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).error.code, "GUESTS_DISABLED");
    assert.equal(await server.ctx.db.prisma.user.count(), before);
  });
});
