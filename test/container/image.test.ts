import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { ROOT } from "../../src/paths.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";

/**
 * The image of the Dockerfile, built and run with podman (`npm run test:container`; needs podman,
 * runc and debootstrap: `apt-get install podman runc debootstrap`, as root). The base image it
 * starts FROM is made locally when podman has none of that name (test/container/base-image.sh).
 * The server runs in the container on a data volume with the embedded database; a /ws guest walks
 * and changes a setting; `podman stop` (SIGTERM) saves it; started again on the same volume, the
 * character stands where it walked with its setting, and the guest's token still works (the
 * secret is kept on the volume too). Each step prints its time.
 *
 * The flags this machine's podman needs are here, never in the Dockerfile or compose.yaml: runc
 * (podman's default crun and its default limits are refused by the sandbox), explicit limits,
 * the host's network (the test reaches the server on 127.0.0.1), and for the build the machine's
 * npm CA file (its registry is reached through a TLS-inspecting proxy) as a global npmrc.
 * ARENA_PODMAN_FLAGS replaces the first three (`--network host` stays).
 */

const IMAGE = "localhost/arena-world:container-test";
const BASE_IMAGE = "docker.io/library/node:20-bookworm-slim";
const LABEL = "arena.container-test";
const RESULTS = path.join(ROOT, "test-results", "container");
const MACHINE_FLAGS = (process.env.ARENA_PODMAN_FLAGS ?? "--runtime runc --ulimit nofile=20000:20000 --ulimit nproc=4096:4096").split(/\s+/).filter(Boolean);
const FLAGS = [...MACHINE_FLAGS, "--network", "host"];
/** podman stop's wait before SIGKILL: the server's own shutdown deadline is 25 s. */
const STOP_TIMEOUT_S = 30;

const started = performance.now();
let stepStart = started;
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** Print a step with the time since the suite began and since the previous step. */
function step(what: string) {
  const now = performance.now();
  console.log(`      [${secs(now - started).padStart(7)} | +${secs(now - stepStart).padStart(7)}] ${what}`);
  stepStart = now;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run a command; `onLine` sees its stdout line by line (with the time it came). Rejects on a non-zero exit unless `allowFail`. */
function run(
  cmd: string,
  args: string[],
  opts: { allowFail?: boolean; log?: string; onLine?: (line: string, at: number) => void; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env: opts.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    const log = opts.log ? createWriteStream(opts.log) : undefined;
    let stdout = "";
    let stderr = "";
    let partial = "";
    child.stdout.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      stdout += text;
      log?.write(text);
      if (!opts.onLine) return;
      const lines = (partial + text).split("\n");
      partial = lines.pop()!;
      for (const line of lines) opts.onLine(line, performance.now());
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      log?.write(chunk);
    });
    child.on("error", reject);
    child.on("close", (code) => {
      log?.end();
      if (partial && opts.onLine) opts.onLine(partial, performance.now());
      const result = { code: code ?? -1, stdout, stderr };
      if (code !== 0 && !opts.allowFail) {
        reject(new Error(`${cmd} ${args.join(" ")} exited ${code}:\n${(stderr || stdout).split("\n").slice(-25).join("\n")}`));
      } else resolve(result);
    });
  });
}

const podman = (args: string[], opts?: Parameters<typeof run>[2]) => run("podman", args, opts);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Wait until /health answers 200 (the server's world made), or fail with the container's last log lines. */
async function waitHealthy(port: number, container: string, timeoutMs = 90_000): Promise<unknown> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return await res.json();
    } catch {
      // not listening yet
    }
    const state = (await podman(["inspect", "--format", "{{.State.Status}}", container], { allowFail: true })).stdout.trim();
    if (state !== "running" || Date.now() > until) {
      const logs = await podman(["logs", "--tail", "30", container], { allowFail: true });
      throw new Error(`the container did not answer /health (state ${state}):\n${logs.stdout}${logs.stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The machine's npm settings the build's npm needs (its CA file, a registry of its own), as mounts of `podman build`. */
async function npmMounts(): Promise<string[]> {
  const get = async (key: string) => (await run("npm", ["config", "get", key], { allowFail: true })).stdout.trim();
  const lines: string[] = [];
  const mounts: string[] = [];
  const cafile = await get("cafile");
  if (cafile && cafile !== "null" && cafile !== "undefined" && existsSync(cafile)) {
    mounts.push("-v", `${cafile}:/run/arena-host-ca.crt:ro`);
    lines.push("cafile=/run/arena-host-ca.crt");
  }
  const registry = await get("registry");
  if (registry && registry !== "https://registry.npmjs.org/") lines.push(`registry=${registry}`);
  if (!lines.length) return [];
  const npmrc = path.join(RESULTS, "build-npmrc");
  writeFileSync(npmrc, `${lines.join("\n")}\n`);
  // The base image's npm lives under /usr/local: this is its global npmrc.
  return [...mounts, "-v", `${npmrc}:/usr/local/etc/npmrc:ro`];
}

/** Containers and volumes an interrupted run left behind. */
async function removeLeftovers() {
  const containers = (await podman(["ps", "-a", "-q", "--filter", `label=${LABEL}`], { allowFail: true })).stdout.split("\n").filter(Boolean);
  if (containers.length) await podman(["rm", "-f", "-t", "0", ...containers], { allowFail: true });
  const volumes = (await podman(["volume", "ls", "-q", "--filter", `label=${LABEL}`], { allowFail: true })).stdout.split("\n").filter(Boolean);
  if (volumes.length) await podman(["volume", "rm", "-f", ...volumes], { allowFail: true });
}

/** A /ws player's position and settings, from its first player:sync. */
async function join(port: number, token: string): Promise<{ player: WsPlayer; id: string; x: number; z: number; vars: Record<string, unknown> }> {
  const player = await wsConnect(port, `?token=${encodeURIComponent(token)}`);
  const auth = await player.next("authenticated");
  const sync = await player.next("player:sync");
  return { player, id: auth.data.playerId, x: sync.data.position.x, z: sync.data.position.z, vars: sync.data.vars };
}

describe("the container image (podman)", function () {
  this.timeout(20 * 60_000);
  // Each test builds on the one before: the first failure ends the suite.
  this.bail(true);
  const name = `arena-container-test-${process.pid}`;
  const volume = `${name}-data`;
  let port = 0;
  let token = "";
  let walked = { x: 0, z: 0 };
  let player: WsPlayer | undefined;

  before(async () => {
    // runc for the flags above; debootstrap (as root) only when the base image is to be made.
    for (const tool of ["podman", ...(FLAGS.includes("runc") ? ["runc"] : [])]) {
      if ((await run("sh", ["-c", `command -v ${tool}`], { allowFail: true })).code !== 0) {
        throw new Error(`test:container needs ${tool}: apt-get install podman runc debootstrap (as root)`);
      }
    }
    mkdirSync(RESULTS, { recursive: true });
    await removeLeftovers();
    step("start");
  });

  after(async () => {
    player?.close();
    if (port) {
      const logs = await podman(["logs", name], { allowFail: true });
      writeFileSync(path.join(RESULTS, "server.log"), logs.stdout + logs.stderr);
    }
    await podman(["rm", "-f", "-t", "0", name], { allowFail: true });
    await podman(["volume", "rm", "-f", volume], { allowFail: true });
  });

  it("builds the image from the lock and the sources (its base made locally when podman has none)", async () => {
    await run(path.join(ROOT, "test/container/base-image.sh"), [BASE_IMAGE], { onLine: (line) => console.log(`        ${line}`) });
    step("base image ready");
    // Each step's time, roughly: from its line to the next step's (podman prints a stage's steps
    // when it reaches them, and a stage another one copies from in the middle of that one).
    const steps: Array<{ line: string; at: number }> = [];
    let cached = 0;
    await podman(["build", ...FLAGS, "--pull=never", "--format", "docker", ...(await npmMounts()), "-t", IMAGE, "."], {
      log: path.join(RESULTS, "build.log"),
      onLine: (line, at) => {
        const m = /^\[\d+\/\d+\] STEP \d+\/\d+: (.*)$/.exec(line);
        if (m) steps.push({ line: m[1]!, at });
        else if (line.startsWith("--> Using cache")) cached++;
      },
    });
    const end = performance.now();
    const slow = steps
      .map((s, i) => ({ ...s, ms: (steps[i + 1]?.at ?? end) - s.at }))
      .filter((s) => s.ms >= 1000)
      .sort((a, b) => b.ms - a.ms);
    for (const s of slow) console.log(`        ${secs(s.ms).padStart(7)}  ${s.line.replace(/\s+/g, " ").slice(0, 110)}`);
    const made = steps.filter((s) => !s.line.startsWith("FROM ")).length;
    step(`podman build: ${cached} of ${made} steps cached (log: test-results/container/build.log)`);
    const config = JSON.parse((await podman(["image", "inspect", "--format", "{{json .Config}}", IMAGE])).stdout);
    assert.equal(config.User, "node", "runs as the non-root user");
    assert.deepEqual(config.Cmd, ["node", "src/launch.mjs"]);
    assert.ok(config.Volumes && "/data" in config.Volumes, "/data is a volume");
    assert.equal(config.StopSignal, "SIGTERM");
    const health = (await podman(["image", "inspect", "--format", "{{json .HealthCheck}}", IMAGE])).stdout;
    assert.match(health, /\/health/, "a HEALTHCHECK on /health");
  });

  it("starts on a new data volume: /health answers 200, node is the container's main process as `node`, the health check passes, the web client builds", async () => {
    port = await freePort();
    await podman(["volume", "create", "--label", LABEL, volume]);
    // Development: the embedded database on the volume and the secret kept there (production
    // requires DATABASE_URL and JWT_SECRET; compose.yaml runs it so).
    await podman([
      "run",
      "-d",
      "--name",
      name,
      "--label",
      LABEL,
      ...FLAGS,
      "-e",
      `PORT=${port}`,
      "-e",
      "NODE_ENV=development",
      "-e",
      "SAVE_INTERVAL=3600",
      "-v",
      `${volume}:/data`,
      IMAGE,
    ]);
    step(`container started on port ${port}`);
    const health = (await waitHealthy(port, name)) as { status: string; database: { status: string } };
    assert.equal(health.status, "ok");
    assert.equal(health.database.status, "ok");
    step("/health answers 200");
    const ps = await podman(["exec", name, "sh", "-c", 'id -un; tr "\\0" " " </proc/1/cmdline']);
    const [user, pid1] = ps.stdout.trim().split("\n");
    assert.equal(user, "node");
    assert.equal(pid1!.trim(), "node src/launch.mjs", "node runs as the container's main process (not npm or a shell)");
    const check = await podman(["healthcheck", "run", name], { allowFail: true });
    assert.equal(check.code, 0, `the image's HEALTHCHECK: ${check.stdout}${check.stderr}`);
    const logs = await podman(["logs", name]);
    assert.doesNotMatch(
      logs.stdout + logs.stderr,
      /bundle could not be made|template could not be loaded/,
      "the bundle and the template made at build time are used",
    );
    const client = await fetch(`http://127.0.0.1:${port}/client/main.js`);
    assert.equal(client.status, 200);
    assert.ok((await client.text()).length > 10_000);
    step("pid 1 is `node src/launch.mjs` as node; podman healthcheck run passes; /client/main.js built");
  });

  it("a /ws guest walks and turns auto-retaliate off", async () => {
    const guest = await fetch(`http://127.0.0.1:${port}/api/auth/guest`, { method: "POST" });
    assert.equal(guest.status, 201);
    token = ((await guest.json()) as { token: string }).token;
    const me = await join(port, token);
    player = me.player;
    assert.equal(me.vars.autoRetaliate, true);
    // The first of these tiles the path finder reaches (the walk ends with a player:sync there).
    let arrived = false;
    for (const [dx, dz] of [
      [3, 0],
      [0, 3],
      [-3, 0],
      [0, -3],
      [2, 2],
      [-2, -2],
    ] as const) {
      const target = { x: me.x + dx, z: me.z + dz };
      const since = player.mark();
      player.send("player:move", target, `move-${dx}-${dz}`);
      const answer = await player.next(
        "*",
        (f) =>
          (f.type === "error" && f.id === `move-${dx}-${dz}`) || (f.type === "player:sync" && f.data.position.x === target.x && f.data.position.z === target.z),
        { since, timeoutMs: 15_000 },
      );
      if (answer.type === "player:sync") {
        walked = target;
        arrived = true;
        break;
      }
    }
    assert.ok(arrived, "no tile next to the spawn could be walked to");
    const since = player.mark();
    player.send("player:setting", { name: "autoRetaliate", value: false });
    await player.next("player:sync", (f) => f.data.vars.autoRetaliate === false, { since });
    step(`walked from (${me.x}, ${me.z}) to (${walked.x}, ${walked.z}); autoRetaliate off (SAVE_INTERVAL=3600: nothing saved yet)`);
  });

  it("podman stop (SIGTERM) saves the player still in the world and exits 0", async () => {
    const closed = player!.closed;
    await podman(["stop", "-t", String(STOP_TIMEOUT_S), name]);
    step("podman stop returned");
    assert.equal((await closed).code, 1001, "the server closed the socket at shutdown");
    const state = (await podman(["inspect", "--format", "{{.State.ExitCode}}", name])).stdout.trim();
    assert.equal(state, "0");
    const logs = await podman(["logs", name]);
    const text = logs.stdout + logs.stderr;
    assert.match(text, /shutting down.*SIGTERM/);
    assert.match(text, /shutdown complete/);
    player = undefined;
  });

  it("started again on the same volume, the character stands where it walked, auto-retaliate still off, the token still good", async () => {
    await podman(["start", name]);
    step("container started again");
    await waitHealthy(port, name);
    step("/health answers 200");
    const again = await join(port, token);
    player = again.player;
    assert.deepEqual({ x: again.x, z: again.z }, walked);
    assert.equal(again.vars.autoRetaliate, false);
    step(`back at (${again.x}, ${again.z}) with autoRetaliate off`);
    player.ws.close(1000);
    await player.closed;
    player = undefined;
  });
});
