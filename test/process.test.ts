import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Client } from "@colyseus/sdk";
import { openDatabase } from "../src/db/client.js";
import { freePort } from "../src/db/localPostgres.js";
import { silentLogger } from "../src/logger.js";
import { ROOT } from "../src/paths.js";

/** The real server process, started the way `npm start` starts it. */
async function startServerProcess(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "src/index.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production", LOG_LEVEL: "info", PORT: String(port), ...env },
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, port, exited, output: () => output };
}

/** Wait for an event (a line in the log), not for time. */
function waitForOutput(child: ChildProcess, text: string, read: () => string, timeoutMs: number) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${text}" within ${timeoutMs} ms:\n${read()}`)), timeoutMs);
    const check = () => {
      if (read().includes(text)) {
        clearTimeout(timer);
        child.stdout!.off("data", check);
        resolve();
      }
    };
    child.stdout!.on("data", check);
    child.on("exit", () => {
      clearTimeout(timer);
      reject(new Error(`server exited before "${text}":\n${read()}`));
    });
    check();
  });
}

describe("the server process", function () {
  this.timeout(60_000);
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "arena-proc-"));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("starts with the embedded database and the default world, serves /health in under 10 s, and stops cleanly on SIGTERM", async () => {
    const started = performance.now();
    const p = await startServerProcess({ DATA_DIR: dataDir, NODE_ENV: "development", LOG_LEVEL: "info" });
    try {
      await waitForOutput(p.child, "server listening", p.output, 10_000);
      const health = await fetch(`http://127.0.0.1:${p.port}/health`);
      const elapsed = performance.now() - started;
      assert.equal(health.status, 200);
      assert.equal((await health.json()).database.status, "ok");
      assert.ok(elapsed < 10_000, `health after ${Math.round(elapsed)} ms`);

      p.child.kill("SIGTERM");
      assert.equal(await p.exited, 0);
      assert.match(p.output(), /shutdown complete/);
    } finally {
      p.child.kill("SIGKILL");
    }
  });

  it("on SIGINT disconnects its players, closes the database and exits 0; the data survives a restart", async () => {
    const env = { DATA_DIR: dataDir, NODE_ENV: "test", LOG_LEVEL: "info", JWT_SECRET: "process-test-secret".padEnd(40, "q") };
    const first = await startServerProcess(env);
    try {
      await waitForOutput(first.child, "server listening", first.output, 15_000);
      const guest = await (await fetch(`http://127.0.0.1:${first.port}/api/auth/guest`, { method: "POST" })).json();
      const sdk = new Client(`http://127.0.0.1:${first.port}`);
      sdk.auth.token = guest.token;
      const room = await sdk.joinOrCreate("world");
      const left = new Promise<number>((resolve) => room.onLeave((code: number) => resolve(code)));

      first.child.kill("SIGINT");
      assert.ok((await left) > 0);
      assert.equal(await first.exited, 0);

      const second = await startServerProcess(env);
      try {
        await waitForOutput(second.child, "server listening", second.output, 15_000);
        const me = await fetch(`http://127.0.0.1:${second.port}/api/auth/me`, { headers: { authorization: `Bearer ${guest.token}` } });
        assert.equal(me.status, 200);
        assert.equal((await me.json()).accountId, guest.accountId);
        second.child.kill("SIGTERM");
        assert.equal(await second.exited, 0);
      } finally {
        second.child.kill("SIGKILL");
      }
    } finally {
      first.child.kill("SIGKILL");
    }
  });

  it("stops with exit code 1 and a message naming the file when a required manifest is missing everywhere", async () => {
    const deadPort = await freePort();
    const p = await startServerProcess({ DATA_DIR: dataDir, NODE_ENV: "development", WORLD: dataDir, PUBLIC_CDN_URL: `http://127.0.0.1:${deadPort}` });
    try {
      assert.equal(await p.exited, 1);
      assert.match(p.output(), /npcs\.json/);
    } finally {
      p.child.kill("SIGKILL");
    }
  });

  it("SIGTERM saves every online player before it exits", async () => {
    const env = { DATA_DIR: dataDir, NODE_ENV: "test", LOG_LEVEL: "info", JWT_SECRET: "process-test-secret".padEnd(40, "q"), SAVE_INTERVAL: "3600" };
    const p = await startServerProcess(env);
    let target = { x: 0, z: 0 };
    let characterId = "";
    try {
      await waitForOutput(p.child, "server listening", p.output, 15_000);
      const guest = await (await fetch(`http://127.0.0.1:${p.port}/api/auth/guest`, { method: "POST" })).json();
      const sdk = new Client(`http://127.0.0.1:${p.port}`);
      sdk.auth.token = guest.token;
      const room = await sdk.joinOrCreate("world");
      const sync = await new Promise<any>((resolve) => room.onMessage("player:sync", resolve));
      characterId = sync.id;
      target = { x: sync.position.x + 3, z: sync.position.z + 1 };
      room.send("player:move", target);
      // Wait for the patch that shows the player standing on the target tile.
      await new Promise<void>((resolve) => {
        room.onStateChange((state: any) => {
          const me = state.players.get(characterId);
          if (me && me.x === target.x && me.z === target.z) resolve();
        });
      });
      p.child.kill("SIGTERM");
      assert.equal(await p.exited, 0);
    } finally {
      p.child.kill("SIGKILL");
    }
    const db = await openDatabase({ dataDir, logger: silentLogger, migrate: false });
    try {
      const row = await db.prisma.character.findUniqueOrThrow({ where: { id: characterId } });
      assert.deepEqual([row.positionX, row.positionZ], [target.x, target.z]);
      const session = await db.prisma.playerSession.findFirstOrThrow({ where: { characterId } });
      assert.ok(session.endedAt, "the session was closed");
    } finally {
      await db.close();
    }
  });
});
