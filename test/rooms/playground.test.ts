import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Client } from "@colyseus/sdk";
import { startTestServer, TEST_SECRET } from "../helpers/server.js";
import { killServerProcesses, startServerProcess } from "../helpers/serverProcess.js";

/**
 * @colyseus/playground at /playground: in development only. The development server runs as its
 * own process (as `npm start` runs it), since the playground, once loaded, patches Colyseus's Room
 * for the whole process.
 */
describe("the Colyseus playground at /playground", function () {
  this.timeout(60_000);
  let dataDir: string | undefined;

  after(async () => {
    await killServerProcesses();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("in development: /playground leads to the playground's page, and players still join the world", async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "arena-playground-"));
    const server = await startServerProcess({ NODE_ENV: "development", DATA_DIR: dataDir }, { timeoutMs: 40_000 });

    const bare = await fetch(`${server.url}/playground`, { redirect: "manual" });
    assert.equal(bare.status, 302);
    assert.equal(bare.headers.get("location"), "/playground/");
    const page = await fetch(`${server.url}/playground/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(await page.text(), /<html/i);
    const rooms = await fetch(`${server.url}/playground/rooms`);
    assert.deepEqual((await rooms.json()).roomsByType, { world: 1 });

    // The playground's @colyseus/auth must not take over the rooms' authentication.
    const guest = await (await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).json();
    const sdk = new Client(server.url);
    sdk.auth.token = guest.token;
    const room = await sdk.joinOrCreate("world");
    const sync = await new Promise<any>((resolve) => room.onMessage("player:sync", resolve));
    room.onMessage("*", () => {});
    assert.ok(sync.id);
    await room.leave();

    server.child.kill("SIGTERM");
    assert.deepEqual(await server.exited, { code: 0, signal: null });
  });

  it("in test and in production there is no playground (404)", async () => {
    const environments: Array<Record<string, string>> = [
      { NODE_ENV: "test" },
      { NODE_ENV: "production", JWT_SECRET: TEST_SECRET, DATABASE_URL: "postgres://unused@127.0.0.1:9/unused" },
    ];
    for (const env of environments) {
      // (The test server opens its own in-memory database whatever DATABASE_URL says.)
      const server = await startTestServer({ env });
      try {
        for (const at of ["/playground", "/playground/", "/playground/rooms"]) {
          const res = await fetch(`${server.url}${at}`, { redirect: "manual" });
          assert.equal(res.status, 404, `${env.NODE_ENV} ${at}`);
          await res.body?.cancel();
        }
      } finally {
        await server.close();
      }
    }
  });
});
