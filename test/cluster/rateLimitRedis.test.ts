import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { RATE_LIMITS } from "../../src/http/rateLimit.js";
import { startTestRedis, type TestRedis } from "../helpers/redis.js";
import { killServerProcesses, startServerProcess } from "../helpers/serverProcess.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/** Rate-limit counters shared through a real Redis by two server processes. */
describe("rate limits with REDIS_URL", function () {
  this.timeout(60_000);
  const servers: TestServer[] = [];
  const start = async (options: Parameters<typeof startTestServer>[0] = {}) => {
    const s = await startTestServer({ rateLimits: RATE_LIMITS, ...options });
    servers.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  let redis: TestRedis;
  before(async () => {
    redis = await startTestRedis();
  });
  after(async () => {
    await redis?.stop();
  });

  it("the counters are shared by every server process", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "arena-rl-"));
    try {
      const one = await start({ env: { REDIS_URL: redis.url, TRUST_PROXY: "loopback" } });
      // A second server process on the same Redis (its own embedded database), limits on.
      const two = await startServerProcess({
        REDIS_URL: redis.url,
        NODE_ENV: "test",
        DISABLE_RATE_LIMIT: "false",
        DATA_DIR: dataDir,
        JWT_SECRET: "rate-limit-test-secret".padEnd(40, "r"),
        TRUST_PROXY: "loopback",
      });
      const at = (s: { url: string }) => fetch(`${s.url}/api/auth/guest`, { method: "POST", headers: { "x-forwarded-for": "198.51.100.77" } });
      for (let i = 0; i < 5; i++) assert.equal((await at(one)).status, 201);
      for (let i = 0; i < 5; i++) assert.equal((await at(two)).status, 201);
      assert.equal((await at(one)).status, 429);
      assert.equal((await at(two)).status, 429);
    } finally {
      await killServerProcesses();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
