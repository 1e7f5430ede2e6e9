import assert from "node:assert/strict";
import WebSocket from "ws";
import { ConfigError, loadConfig } from "../../src/config.js";
import { RATE_LIMITS } from "../../src/http/rateLimit.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/**
 * Whose address a request counts as: the socket's, unless the socket's peer is a proxy named in
 * TRUST_PROXY, whose X-Forwarded-For is then believed; the same for HTTP and /ws.
 */

const guest = (server: TestServer, forwardedFor?: string) =>
  fetch(`${server.url}/api/auth/guest`, { method: "POST", headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} });

/** A /ws connection without a token (it makes a guest: an authentication attempt): the first frame and how it closed, if it did. */
async function wsGuest(server: TestServer, forwardedFor: string): Promise<{ type: string; code?: string; close?: number }> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, { headers: { "x-forwarded-for": forwardedFor } });
  const first = await new Promise<{ type: string; data: { code?: string } }>((resolve, reject) => {
    ws.once("message", (data) => resolve(JSON.parse(String(data))));
    ws.once("error", reject);
  });
  if (first.type === "authenticated") {
    ws.close();
    await new Promise((resolve) => ws.once("close", resolve));
    return { type: first.type };
  }
  const close = await new Promise<number>((resolve) => (ws.readyState === WebSocket.CLOSED ? resolve(-1) : ws.once("close", (code) => resolve(code))));
  return { type: first.type, code: first.data.code, close };
}

describe("client address and TRUST_PROXY", function () {
  this.timeout(60_000);
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("without TRUST_PROXY, X-Forwarded-For is ignored: a local client cannot dodge the authentication limit, over HTTP or /ws", async () => {
    server = await startTestServer({ rateLimits: RATE_LIMITS, wsAuthenticateWithinMs: 200 });
    for (let i = 0; i < 10; i++) assert.equal((await guest(server, `198.51.100.${i + 1}`)).status, 201, `guest ${i + 1}`);
    const refused = await guest(server, "198.51.100.200");
    assert.equal(refused.status, 429, "a new X-Forwarded-For is the same socket address");
    assert.equal((await refused.json()).error.code, "RATE_LIMITED");
    const ws = await wsGuest(server, "203.0.113.50");
    assert.deepEqual(ws, { type: "error", code: "RATE_LIMITED", close: 4029 });
  });

  it("with TRUST_PROXY=loopback, the forwarded address is the client's, over HTTP and /ws alike", async () => {
    server = await startTestServer({ rateLimits: RATE_LIMITS, wsAuthenticateWithinMs: 200, env: { TRUST_PROXY: "loopback" } });
    for (let i = 0; i < 10; i++) assert.equal((await guest(server, "198.51.100.7")).status, 201);
    assert.equal((await guest(server, "198.51.100.7")).status, 429);
    // Another client behind the same proxy has its own count; so has the proxy itself.
    assert.equal((await guest(server, "198.51.100.8")).status, 201);
    assert.equal((await guest(server)).status, 201);
    // The rightmost untrusted address counts: a client cannot prepend one of its choosing.
    assert.equal((await guest(server, "192.0.2.1, 198.51.100.7")).status, 429);
    // /ws: the same rule, the same counters.
    assert.deepEqual(await wsGuest(server, "198.51.100.7"), { type: "error", code: "RATE_LIMITED", close: 4029 });
    assert.deepEqual(await wsGuest(server, "198.51.100.9"), { type: "authenticated" });
  });

  it("a proxy list that does not hold the peer is not believed", async () => {
    server = await startTestServer({ rateLimits: RATE_LIMITS, env: { TRUST_PROXY: "10.0.0.1, 172.16.0.0/12" } });
    for (let i = 0; i < 10; i++) assert.equal((await guest(server, `198.51.100.${i + 1}`)).status, 201);
    assert.equal((await guest(server, "198.51.100.99")).status, 429);
  });

  it("TRUST_PROXY is validated: addresses, CIDRs and proxy-addr's names; default none", () => {
    assert.deepEqual(loadConfig({}).trustProxy, []);
    assert.deepEqual(loadConfig({ TRUST_PROXY: "127.0.0.1, 10.0.0.0/8,loopback, ::1" }).trustProxy, ["127.0.0.1", "10.0.0.0/8", "loopback", "::1"]);
    assert.throws(
      () => loadConfig({ TRUST_PROXY: "my-proxy.local" }),
      (err: unknown) => err instanceof ConfigError && /TRUST_PROXY/.test(err.message),
    );
    assert.throws(
      () => loadConfig({ TRUST_PROXY: "10.0.0.0/99" }),
      (err: unknown) => err instanceof ConfigError && /TRUST_PROXY/.test(err.message),
    );
  });
});
