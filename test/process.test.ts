import assert from "node:assert/strict";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@colyseus/sdk";
import { openDatabase } from "../src/db/client.js";
import { freePort } from "../src/db/localPostgres.js";
import { silentLogger } from "../src/logger.js";
import { ROOT } from "../src/paths.js";

/** The real server process, started the way `npm start` starts it. */
async function startServerProcess(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ["src/launch.mjs"], {
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

  // No bound on the start's time here (a timed assertion fails on a slow or busy machine: this one
  // took 8.6-10 s, 6 s of it PGlite's WebAssembly start); the wait only guards against a hang.
  it("starts with the embedded database and the default world, serves /health, and stops cleanly on SIGTERM", async () => {
    const p = await startServerProcess({ DATA_DIR: dataDir, NODE_ENV: "development", LOG_LEVEL: "info" });
    try {
      await waitForOutput(p.child, "server listening", p.output, 30_000);
      const health = await fetch(`http://127.0.0.1:${p.port}/health`);
      assert.equal(health.status, 200);
      assert.equal((await health.json()).database.status, "ok");

      p.child.kill("SIGTERM");
      assert.equal(await p.exited, 0);
      assert.match(p.output(), /shutdown complete/);
    } finally {
      p.child.kill("SIGKILL");
    }
  });

  // `npm start` stopped by a signal to its process group (Ctrl-C in a terminal, a supervisor's stop): the server gets the
  // signal from the terminal and again from npm, which passes it on. The second must not cut the shutdown short.
  it("a second SIGTERM or SIGINT during the shutdown is ignored: the shutdown completes and the process exits 0", async () => {
    const p = await startServerProcess({ DATA_DIR: dataDir, NODE_ENV: "development", LOG_LEVEL: "info" });
    try {
      await waitForOutput(p.child, "server listening", p.output, 30_000);
      const stopping = waitForOutput(p.child, "shutting down", p.output, 30_000);
      p.child.kill("SIGTERM");
      await stopping;
      p.child.kill("SIGTERM");
      p.child.kill("SIGINT");
      assert.equal(await p.exited, 0, p.output());
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

  it("without JWT_SECRET (development), keeps the secret it made in DATA_DIR (0600, never logged): a guest's token and character survive a restart", async () => {
    const env = { DATA_DIR: dataDir, NODE_ENV: "development", LOG_LEVEL: "info" };
    /** Join the world with `token` and tell which character the server put us in. */
    const joinAs = async (port: number, token: string) => {
      const sdk = new Client(`http://127.0.0.1:${port}`);
      sdk.auth.token = token;
      const room = await sdk.joinOrCreate("world");
      const me = await new Promise<{ id: string; name: string }>((resolve) => room.onMessage("player:sync", resolve));
      room.onMessage("*", () => {});
      return { room, me };
    };
    const first = await startServerProcess(env);
    let secondChild: ChildProcess | undefined;
    try {
      await waitForOutput(first.child, "server listening", first.output, 30_000);
      const guest = await (await fetch(`http://127.0.0.1:${first.port}/api/auth/guest`, { method: "POST" })).json();
      const before = await joinAs(first.port, guest.token);
      const left = new Promise<number>((resolve) => before.room.onLeave((code: number) => resolve(code)));
      first.child.kill("SIGTERM");
      await left;
      assert.equal(await first.exited, 0);

      const file = path.join(dataDir, "jwt-secret");
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      const secret = (await readFile(file, "utf8")).trim();
      assert.ok(secret.length >= 32);

      const second = await startServerProcess(env);
      secondChild = second.child;
      await waitForOutput(second.child, "server listening", second.output, 30_000);
      const after = await joinAs(second.port, guest.token);
      assert.deepEqual(after.me, before.me, "the same character, by the same token");
      await after.room.leave();
      second.child.kill("SIGTERM");
      assert.equal(await second.exited, 0);
      for (const out of [first.output(), second.output()]) {
        assert.ok(!out.includes(secret), "the secret is never logged");
        assert.match(out, /secret kept in the data folder/);
      }
    } finally {
      first.child.kill("SIGKILL");
      secondChild?.kill("SIGKILL");
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

  it("a second server on the same data folder refuses to start (exit 1, saying who holds it); the first runs on", async () => {
    const first = await startServerProcess({ DATA_DIR: dataDir, NODE_ENV: "development" });
    try {
      await waitForOutput(first.child, "server listening", first.output, 30_000);
      const second = await startServerProcess({ DATA_DIR: dataDir, NODE_ENV: "development" });
      try {
        assert.equal(await second.exited, 1);
        assert.match(second.output(), new RegExp(`pid ${first.child.pid}\\) holds the embedded database`));
      } finally {
        second.child.kill("SIGKILL");
      }
      const health = await fetch(`http://127.0.0.1:${first.port}/health`);
      assert.equal(health.status, 200);
      first.child.kill("SIGTERM");
      assert.equal(await first.exited, 0);
    } finally {
      first.child.kill("SIGKILL");
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

  describe("npm start", () => {
    /** `npm start` as a hosting platform runs it; resolves once /health answers 200 (polled: "until it answers"). */
    async function npmStart(env: Record<string, string>) {
      const port = await freePort();
      const npm = spawn("npm", ["start"], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "development", LOG_LEVEL: "info", PORT: String(port), ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      npm.stdout!.on("data", (d) => (output += d));
      npm.stderr!.on("data", (d) => (output += d));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        npm.on("exit", (code, signal) => resolve({ code, signal })),
      );
      let gone = false;
      void exited.then(() => (gone = true));
      const deadline = Date.now() + 20_000;
      try {
        for (;;) {
          if (gone) throw new Error(`npm start exited before /health answered:\n${output}`);
          const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(3_000) }).catch(() => undefined);
          if (res?.status === 200) break;
          await res?.body?.cancel();
          if (Date.now() > deadline) throw new Error(`/health did not answer 200 within 20 s:\n${output}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        // The process npm started for the script: its only child.
        const children = await childrenOf(npm.pid!);
        assert.equal(children.length, 1, `npm's children: ${children.join(", ")}`);
        return { npm, port, exited, server: children[0], tree: await treeOf(npm.pid!), output: () => output };
      } catch (err) {
        killAll({ npm, tree: await treeOf(npm.pid!) });
        throw err;
      }
    }
    /** Every process under this one (to clean up after a failure). */
    const treeOf = async (pid: number) => {
      const tree: number[] = [];
      for (let next = [pid]; next.length;) {
        next = (await Promise.all(next.map(childrenOf))).flat();
        tree.push(...next);
      }
      return tree;
    };
    const childrenOf = async (pid: number) => {
      const { stdout } = await promisify(execFile)("pgrep", ["-P", String(pid)]).catch(() => ({ stdout: "" }));
      return stdout.trim().split("\n").filter(Boolean).map(Number);
    };
    /** Whatever is still running of that npm start (after a failure): SIGKILL. */
    const killAll = (p: { npm: ChildProcess; tree: number[] }) => {
      p.npm.kill("SIGKILL");
      for (const pid of p.tree) if (alive(pid)) process.kill(pid, "SIGKILL");
    };

    const within = <T>(p: Promise<T>, ms: number, what: string) =>
      Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} not within ${ms} ms`)), ms).unref())]);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const portClosed = (port: number) =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, "127.0.0.1");
        socket.once("connect", () => {
          socket.destroy();
          resolve(false);
        });
        socket.once("error", () => resolve(true));
      });

    it("SIGTERM to the process npm started shuts the server down: it exits 0 within 25 s and the port closes", async () => {
      const p = await npmStart({ DATA_DIR: dataDir });
      try {
        // npm runs the server itself, not a shell or a loader in between that would not pass the signal on.
        const { stdout: command } = await promisify(execFile)("ps", ["-o", "args=", "-p", String(p.server)]);
        assert.match(command, /^node src\/launch\.mjs/);
        process.kill(p.server, "SIGTERM");
        // npm ends with its script's exit code: 0 is the server's own graceful exit.
        assert.deepEqual(await within(p.exited, 25_000, "exit after SIGTERM"), { code: 0, signal: null });
        assert.ok(!alive(p.server), "the server process is gone");
        assert.match(p.output(), /server listening[\s\S]*shutting down[\s\S]*shutdown complete/);
        assert.ok(await portClosed(p.port), "the port is closed");
      } finally {
        killAll(p);
      }
    });

    it("SIGTERM to npm itself ends everything", async () => {
      const p = await npmStart({ DATA_DIR: dataDir });
      try {
        p.npm.kill("SIGTERM");
        await within(p.exited, 25_000, "npm's exit after SIGTERM");
        assert.ok(!alive(p.server), "the server process is gone too");
        assert.match(p.output(), /shutdown complete/);
        assert.ok(await portClosed(p.port), "the port is closed");
      } finally {
        killAll(p);
      }
    });
  });

  it("an unhandled rejection and an uncaught exception are logged through pino (stack inside the JSON line), nothing printed outside it", async () => {
    const script = path.join(dataDir, "crash.mts");
    await writeFile(
      script,
      [
        `import { createLogger } from ${JSON.stringify(path.join(ROOT, "src/logger.ts"))};`,
        `import { installProcessHandlers } from ${JSON.stringify(path.join(ROOT, "src/processHandlers.ts"))};`,
        `const logger = createLogger({ level: "info" });`,
        // As the server does: the exit waits for the logger's lines (its writes are asynchronous).
        `installProcessHandlers(logger, () => { logger.info("shutting down after the exception"); logger.flush(() => process.exit(1)); });`,
        `process.on("unhandledRejection", () => setImmediate(() => { logger.info("still running"); throw new Error("boom-exception"); }));`,
        `void Promise.reject(new Error("boom-rejection"));`,
      ].join("\n"),
    );
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: ROOT, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    assert.equal(stderr, "", "nothing printed outside the logger");
    // In the order they were logged: a fatal line is written at once, even past a line still being written (pino's asynchronous stdout).
    const lines = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .sort((x, y) => x.time - y.time);
    assert.deepEqual(
      lines.map((l) => [l.level, l.msg]),
      [
        [50, "unhandled promise rejection"],
        [30, "still running"],
        [60, "uncaught exception"],
        [30, "shutting down after the exception"],
      ],
    );
    assert.equal(lines[0].err.message, "boom-rejection");
    assert.match(lines[0].err.stack, /boom-rejection/);
    assert.equal(lines[2].err.message, "boom-exception");
    assert.equal(code, 1);
  });
});
