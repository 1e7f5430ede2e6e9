import assert from "node:assert/strict";
import { clusterSuite } from "../helpers/cluster.js";

/** Rate-limit counters shared through a real Redis by two server processes of one cluster. */
describe("rate limits with REDIS_URL", function () {
  this.timeout(90_000);
  const cluster = clusterSuite({
    worlds: "1",
    secret: "rate-limit-test-secret".padEnd(40, "r"),
    env: { DISABLE_RATE_LIMIT: "false", TRUST_PROXY: "loopback" },
  });

  it("the counters are shared by every server process", async () => {
    const one = await cluster.start();
    const two = await cluster.start();
    const at = (s: { url: string }) => fetch(`${s.url}/api/auth/guest`, { method: "POST", headers: { "x-forwarded-for": "198.51.100.77" } });
    for (let i = 0; i < 5; i++) assert.equal((await at(one)).status, 201);
    for (let i = 0; i < 5; i++) assert.equal((await at(two)).status, 201);
    assert.equal((await at(one)).status, 429);
    assert.equal((await at(two)).status, 429);
  });
});
