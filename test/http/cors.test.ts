import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.js";

describe("CORS", function () {
  this.timeout(30_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({
      env: {
        CORS_ORIGINS: "https://play.game.example",
        CLIENT_URL: "https://client.game.example/app",
        PUBLIC_APP_URL: "https://app.game.example",
        AGENT_API_URL: "http://agents.internal:4001",
      },
    });
  });
  after(async () => {
    await server?.close();
  });

  const allowed = [
    "http://localhost:3000",
    "https://localhost:8443",
    "http://localhost",
    "http://127.0.0.1:5173",
    "https://play.game.example",
    "https://client.game.example",
    "https://app.game.example",
    "http://agents.internal:4001",
    "https://my-branch-abc123.vercel.app",
    "https://server-pr-12.up.railway.app",
    "https://auth.privy.io",
    "https://warpcast.com",
    "https://miniapps.farcaster.xyz",
    "https://123456789.discordsays.com",
  ];
  const disallowed = [
    "https://evil.example",
    "http://localhost.evil.example",
    "https://play.game.example.evil.example",
    "http://play.game.example",
    "https://vercel.app.evil.example",
    "https://evilvercel.app",
    "null",
  ];

  for (const origin of allowed) {
    it(`allows ${origin} on a simple request`, async () => {
      const res = await fetch(`${server.url}/status`, { headers: { origin } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("access-control-allow-origin"), origin);
      assert.equal(res.headers.get("access-control-allow-credentials"), "true");
      assert.equal(res.headers.get("access-control-allow-methods"), "GET, PUT, POST, DELETE, OPTIONS, PATCH");
      assert.equal(res.headers.get("access-control-allow-headers"), "Content-Type, Authorization, X-Requested-With");
    });
  }

  for (const origin of disallowed) {
    it(`gives ${origin} no CORS headers`, async () => {
      const res = await fetch(`${server.url}/status`, { headers: { origin } });
      assert.equal(res.status, 200);
      for (const h of ["access-control-allow-origin", "access-control-allow-credentials", "access-control-allow-methods", "access-control-allow-headers"]) {
        assert.equal(res.headers.get(h), null, h);
      }
    });
  }

  it("answers an allowed preflight with the four headers, never *", async () => {
    const res = await fetch(`${server.url}/api/auth/guest`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:3000", "access-control-request-method": "POST", "access-control-request-headers": "content-type,authorization" },
    });
    assert.ok(res.status === 204 || res.status === 200, String(res.status));
    assert.equal(res.headers.get("access-control-allow-origin"), "http://localhost:3000");
    assert.equal(res.headers.get("access-control-allow-credentials"), "true");
    assert.equal(res.headers.get("access-control-allow-methods"), "GET, PUT, POST, DELETE, OPTIONS, PATCH");
    assert.equal(res.headers.get("access-control-allow-headers"), "Content-Type, Authorization, X-Requested-With");
  });

  it("answers a disallowed preflight without CORS headers", async () => {
    const res = await fetch(`${server.url}/api/auth/guest`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    assert.equal(res.headers.get("access-control-allow-origin"), null);
    assert.equal(res.headers.get("access-control-allow-credentials"), null);
  });

  it("applies the same rule to the matchmaking routes", async () => {
    const evil = await fetch(`${server.url}/matchmake/joinOrCreate/world`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    assert.equal(evil.headers.get("access-control-allow-origin"), null);
    const good = await fetch(`${server.url}/matchmake/joinOrCreate/world`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:3000", "access-control-request-method": "POST" },
    });
    assert.equal(good.headers.get("access-control-allow-origin"), "http://localhost:3000");
  });

  it("never answers with a wildcard origin", async () => {
    for (const p of ["/health", "/status", "/env.js", "/api/nothing", "/manifests/npcs.json", "/matchmake/joinOrCreate/world"]) {
      const res = await fetch(`${server.url}${p}`, { headers: { origin: "https://evil.example" } });
      assert.notEqual(res.headers.get("access-control-allow-origin"), "*", p);
    }
  });
});
