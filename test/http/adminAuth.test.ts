import assert from "node:assert/strict";
import { RATE_LIMITS } from "../../src/http/rateLimit.js";
import { captureLogs, LEVEL } from "../helpers/logCapture.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";

/** The admin pages (/colyseus, /metrics): staff admins' tokens, the admin code as fallback; wrong credentials are limited per address. */

const CODE = "the-right-admin-code-17";
const basic = (pass: string) => `Basic ${Buffer.from(`admin:${pass}`).toString("base64")}`;

describe("admin code brute force", function () {
  this.timeout(60_000);
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("10 wrong codes a minute per address, then 429 with Retry-After even for the right code; each failure logged at warn with the address, never the code", async () => {
    const logs = captureLogs();
    // Behind a proxy on loopback, so that a second address can be shown unaffected.
    server = await startTestServer({ rateLimits: RATE_LIMITS, logger: logs.logger, env: { ADMIN_CODE: CODE, TRUST_PROXY: "loopback" } });
    const at = (path: string, pass: string, address = "203.0.113.66") =>
      fetch(`${server!.url}${path}`, { headers: { authorization: basic(pass), "x-forwarded-for": address } });

    for (let i = 0; i < 10; i++) {
      const res = await at(i % 2 ? "/metrics" : "/colyseus/api", `wrong-guess-${i}`);
      assert.equal(res.status, 401, `attempt ${i + 1}`);
      assert.equal((await res.json()).error.code, "UNAUTHORIZED");
    }
    for (const [path, pass] of [
      ["/colyseus/api", "wrong-guess-10"],
      ["/colyseus/api", CODE],
      ["/metrics", CODE],
    ]) {
      const res = await at(path, pass);
      assert.equal(res.status, 429, `${path} with ${pass === CODE ? "the right" : "a wrong"} code`);
      const retry = Number(res.headers.get("retry-after"));
      assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
      const body = await res.json();
      assert.equal(body.success, false);
      assert.equal(body.error.code, "RATE_LIMITED");
    }
    // Another address is not locked out.
    assert.equal((await at("/colyseus/api", CODE, "198.51.100.5")).status, 200);

    const failures = logs.lines.filter((l) => l.msg === "wrong admin credentials");
    // Once locked, a code is not even looked at.
    assert.equal(failures.length, 10, "every wrong code is logged");
    for (const line of failures) {
      assert.equal(line.level, LEVEL.warn);
      assert.equal(line.address, "203.0.113.66");
    }
    assert.ok(!/wrong-guess/.test(logs.text()), "the codes tried are never logged");
    assert.ok(!logs.text().includes(CODE), "nor the right one");
    assert.ok(!logs.lines.some((l) => l.level >= LEVEL.error), "nothing at error level");
  });

  it("asking without credentials (a browser's first request) only gets the challenge, and is not a failure; wrong codes of any length are 401", async () => {
    const s = await startTestServer({ rateLimits: RATE_LIMITS, env: { ADMIN_CODE: CODE } });
    server = s;
    for (let i = 0; i < 15; i++) {
      const res = await fetch(`${s.url}/colyseus/api`);
      assert.equal(res.status, 401);
      assert.match(res.headers.get("www-authenticate") ?? "", /^Basic /);
    }
    assert.equal((await fetch(`${s.url}/colyseus/api`, { headers: { authorization: basic(CODE) } })).status, 200);
    // Codes of any length are refused alike (compared in constant time, not by length first).
    for (const pass of ["", "x", CODE.slice(0, -1), `${CODE}x`, CODE.toUpperCase(), "y".repeat(4096)]) {
      assert.equal((await fetch(`${s.url}/metrics`, { headers: { authorization: basic(pass) } })).status, 401, JSON.stringify(pass.slice(0, 30)));
    }
    assert.equal((await fetch(`${s.url}/metrics`, { headers: { authorization: basic(CODE) } })).status, 200);
  });

  it("without ADMIN_CODE the monitor admits staff admins by their token (Bearer, or as the Basic password), one audit row per login; others are refused", async () => {
    const s = await startTestServer({ rateLimits: RATE_LIMITS });
    server = s;
    const admin = await guestToken(s);
    const player = await guestToken(s);
    await s.ctx.db.prisma.user.update({ where: { id: admin.accountId }, data: { roles: ["admin"] } });
    const moderator = await guestToken(s);
    await s.ctx.db.prisma.user.update({ where: { id: moderator.accountId }, data: { roles: ["moderator"] } });
    const get = (authorization?: string) => fetch(`${s.url}/colyseus/api`, { headers: authorization ? { authorization } : {} });
    assert.equal((await get()).status, 401);
    assert.equal((await get(`Bearer ${admin.token}`)).status, 200);
    assert.equal((await get(basic(admin.token))).status, 200, "a browser's prompt: the token as the password");
    for (const who of [player, moderator]) {
      const refused = await get(`Bearer ${who.token}`);
      assert.deepEqual([refused.status, (await refused.json()).error.code], [403, "FORBIDDEN"]);
    }
    assert.equal((await get(basic("no-code-is-set"))).status, 401, "no code works when none is set");
    const logins = await s.ctx.db.prisma.auditLog.findMany({ where: { kind: "monitor.login" } });
    assert.deepEqual(
      logins.map((r) => [r.actorAccountId, r.via]),
      [[admin.accountId, "monitor"]],
      "one row for the admin's logins within ten minutes",
    );
    assert.equal((await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${admin.token}` } })).status, 200);
  });
});
