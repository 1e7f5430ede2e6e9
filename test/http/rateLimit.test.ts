import assert from "node:assert/strict";
import { RATE_LIMITS } from "../../src/http/rateLimit.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { wsConnect } from "../helpers/wsClient.js";

/** The documented limits, for real: 10 authentication attempts a minute per address, 100 REST requests per client. */

const guest = (server: TestServer, address: string) => fetch(`${server.url}/api/auth/guest`, { method: "POST", headers: { "x-forwarded-for": address } });

describe("rate limits", function () {
  this.timeout(60_000);
  const servers: TestServer[] = [];
  const start = async (options: Parameters<typeof startTestServer>[0] = {}) => {
    // The suite stands behind a proxy on loopback: X-Forwarded-For picks each request's address.
    const s = await startTestServer({ rateLimits: RATE_LIMITS, ...options, env: { TRUST_PROXY: "loopback", ...options.env } });
    servers.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it("authentication attempts: 10 a minute per address, then 429 with Retry-After and RateLimit headers for the rest of the window", async () => {
    const server = await start();
    for (let i = 0; i < 10; i++) {
      const res = await guest(server, "203.0.113.7");
      assert.equal(res.status, 201);
      assert.equal(res.headers.get("ratelimit-limit"), "10");
      assert.equal(res.headers.get("ratelimit-remaining"), String(9 - i));
    }
    for (let i = 0; i < 3; i++) {
      const res = await guest(server, "203.0.113.7");
      assert.equal(res.status, 429);
      const retry = Number(res.headers.get("retry-after"));
      assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
      assert.equal(res.headers.get("ratelimit-remaining"), "0");
      const body = await res.json();
      assert.equal(body.success, false);
      assert.equal(body.error.code, "RATE_LIMITED");
    }
    // Another address is counted on its own; the login endpoint shares the authentication count.
    assert.equal((await guest(server, "203.0.113.8")).status, 201);
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "x-forwarded-for": "203.0.113.7", "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(login.status, 429);
    // Checking a token is not an authentication attempt: it counts as an ordinary request.
    const me = await fetch(`${server.url}/api/auth/me`, { headers: { "x-forwarded-for": "203.0.113.7" } });
    assert.equal(me.status, 401);
    assert.equal(me.headers.get("ratelimit-limit"), "100");
  });

  it("a /ws guest identity is an authentication attempt too, counted with the HTTP ones", async () => {
    const server = await start();
    // Five over HTTP and five over /ws from this address (no proxy header: the socket's own).
    for (let i = 0; i < 5; i++) assert.equal((await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).status, 201);
    for (let i = 0; i < 5; i++) {
      const ws = await wsConnect(server.port);
      await ws.next("authenticated");
      ws.close();
      await ws.closed;
    }
    const refused = await wsConnect(server.port);
    const err = await refused.next("error");
    assert.equal(err.data.code, "RATE_LIMITED");
    assert.equal((await refused.closed).code, 4029);
    assert.equal((await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).status, 429);
    // A token still gets in.
    const other = await (await fetch(`${server.url}/api/auth/guest`, { method: "POST", headers: { "x-forwarded-for": "198.51.100.200" } })).json();
    const withToken = await wsConnect(server.port, `?token=${encodeURIComponent(other.token)}`);
    assert.ok(await withToken.next("authenticated"));
    withToken.close();
    await withToken.closed;
  });

  it("REST: 100 requests a minute per account when authenticated (per address otherwise)", async () => {
    const server = await start();
    const a = await (await guest(server, "198.51.100.1")).json();
    const b = await (await guest(server, "198.51.100.2")).json();
    const get = (token?: string) =>
      fetch(`${server.url}/api/v1/world`, { headers: { "x-forwarded-for": "198.51.100.9", ...(token ? { authorization: `Bearer ${token}` } : {}) } });
    for (let i = 0; i < 100; i++) assert.equal((await get(a.token)).status, 200, `request ${i + 1}`);
    const over = await get(a.token);
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers.get("retry-after")) >= 1);
    // Same address, another account: its own count. Same address, no token: the address's count.
    assert.equal((await get(b.token)).status, 200);
    assert.equal((await get()).status, 200);
  });

  it("a refused client is let in again once its window has passed", async () => {
    const server = await start({ rateLimits: { auth: { points: 2, durationS: 1 }, rest: RATE_LIMITS.rest } });
    assert.equal((await guest(server, "192.0.2.5")).status, 201);
    assert.equal((await guest(server, "192.0.2.5")).status, 201);
    const refused = await guest(server, "192.0.2.5");
    assert.equal(refused.status, 429);
    // The window is the wait: Retry-After says how long.
    await new Promise((r) => setTimeout(r, Number(refused.headers.get("retry-after")) * 1000 + 50));
    assert.equal((await guest(server, "192.0.2.5")).status, 201);
  });

  it("DISABLE_RATE_LIMIT is honoured in development only", async () => {
    const testing = await start({ env: { DISABLE_RATE_LIMIT: "true" } });
    for (let i = 0; i < 10; i++) await guest(testing, "192.0.2.9");
    assert.equal((await guest(testing, "192.0.2.9")).status, 429, "NODE_ENV=test keeps the limits");
    // One server per process at a time (Colyseus's matchmaker is process-wide).
    await servers.pop()!.close();
    const dev = await start({ env: { NODE_ENV: "development", DISABLE_RATE_LIMIT: "true" } });
    for (let i = 0; i < 12; i++) assert.equal((await guest(dev, "192.0.2.9")).status, 201);
  });
});
