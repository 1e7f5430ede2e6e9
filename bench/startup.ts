/**
 * `npm run bench:startup [-- --runs 5]`: how long `npm start` takes from the command to GET /health
 * answering 200, with a new data folder (a new embedded database) and with the one the run before
 * left (the usual restart), against the least a Colyseus + Express server is
 * (bench/startupBaseline.ts), started the same way through npm in the same run. Each round starts
 * the three in turn, each a fresh process on a fresh port, and stops it with SIGTERM before the
 * next. It prints each one's median, fastest and slowest time and their ratios to the baseline's,
 * and where the server's time went, phase by phase: the `startup` field of its "server listening"
 * line (src/startupTimes.ts) says when each phase ended, in ms since its process began. The
 * server's bundle (src/launch.mjs) is made before the first round, so no round times a build.
 *
 * --runs      rounds (default 5)
 * --compare   a revision (e.g. HEAD~3) to start beside this checkout in every round, from a temporary
 *             git worktree sharing node_modules: its two starts come first in each round, and the
 *             report has its rows and its phases too (before and after a change, in one run)
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { freePort } from "../src/db/localPostgres.js";
import { ROOT } from "../src/paths.js";
import { benchArgs } from "./args.js";
import { fmt, fmtRatio, median, percentiles, ratio, table } from "./stats.js";
import { checkout, type Checkout } from "./worktree.js";

const args = benchArgs("npm run bench:startup", { runs: "5", compare: undefined });
const runs = Math.max(1, Number(args.runs));

interface Start {
  /** ms from the spawn to the first 200 from /health. */
  healthMs: number;
  /** ms from the spawn to the "server listening" line. */
  listeningMs?: number;
  /** The server's own account: when each phase ended, ms since its process began. */
  phases?: Record<string, number>;
}

/** The `startup` field of the "server listening" line (JSON, or pino-pretty's line with the fields as JSON). */
function phasesIn(line: string): Record<string, number> | undefined {
  const m = /"startup":(\{[^}]*\})/.exec(line);
  return m ? (JSON.parse(m[1]) as Record<string, number>) : undefined;
}

async function timeStart(script: string, env: Record<string, string>, cwd = ROOT): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn("npm", ["run", "--silent", script], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const start: Partial<Start> = {};
  let output = "";
  const read = (d: Buffer) => {
    const lineStart = output.lastIndexOf("\n") + 1;
    output += d.toString();
    if (start.listeningMs !== undefined) return;
    const line = output
      .slice(lineStart)
      .split("\n")
      .find((l, i, all) => i < all.length - 1 && l.includes("server listening"));
    if (line) {
      start.listeningMs = performance.now() - started;
      start.phases = phasesIn(line);
    }
  };
  child.stdout.on("data", read);
  child.stderr.on("data", read);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));
  try {
    for (;;) {
      if (gone) throw new Error(`${script} exited before /health answered:\n${output}`);
      const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
      if (res?.status === 200) break;
      await res?.body?.cancel();
      if (performance.now() - started > 60_000) throw new Error(`${script}: no 200 from /health within 60 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const healthMs = performance.now() - started;
    child.kill("SIGTERM");
    await exited;
    return { ...start, healthMs };
  } finally {
    child.kill("SIGKILL");
  }
}

/** The servers started: the revision compared (when asked) and this checkout. */
const servers: Array<Checkout & { name: string }> = [];
if (args.compare) servers.push({ ...checkout(args.compare), name: args.compare });
servers.push({ dir: ROOT, label: "this checkout", name: "" });
const kindsOf = (name: string) => [`new data folder${name && ` (${name})`}`, `existing data folder${name && ` (${name})`}`] as const;
const kinds = [...servers.flatMap((s) => kindsOf(s.name)), "baseline"];
const starts: Record<string, Start[]> = Object.fromEntries(kinds.map((k) => [k, []]));
try {
  // Each server's bundle made now if its sources changed, so that no round below times a build.
  for (const server of servers) {
    const launcher = path.join(server.dir, "src", "launch.mjs");
    if (!existsSync(launcher)) continue;
    const made = performance.now();
    const { bundle } = (await import(pathToFileURL(launcher).href)) as { bundle(): Promise<string> };
    await bundle();
    console.log(`${server.label}: the server's bundle ready (${fmt(performance.now() - made, 0)} ms)`);
  }
  for (let round = 1; round <= runs; round++) {
    for (const server of servers) {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), "arena-bench-startup-"));
      try {
        const env = { DATA_DIR: dataDir };
        const [fresh, existing] = kindsOf(server.name);
        starts[fresh].push(await timeStart("start", env, server.dir));
        starts[existing].push(await timeStart("start", env, server.dir));
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    }
    starts.baseline.push(await timeStart("bench:startup:baseline", {}));
    console.log(`round ${round}: ${kinds.map((k) => `${k} ${fmt(starts[k][round - 1].healthMs, 0)} ms`).join(", ")}`);
  }
} finally {
  for (const server of servers) server.remove?.();
}
if (args.compare) console.log(`\n(${args.compare}) = ${servers[0].label}`);

const baseline = percentiles(starts.baseline.map((s) => s.healthMs)).median;
const fastestBaseline = Math.min(...starts.baseline.map((s) => s.healthMs));
console.log(`\nnpm start → GET /health 200 (ms over ${runs} rounds; this machine, this run)\n`);
console.log(
  table(
    ["start", "median", "fastest", "slowest", "median ÷ baseline's", "fastest ÷ baseline's"],
    kinds.map((k) => {
      const times = starts[k].map((s) => s.healthMs);
      const p = percentiles(times);
      const fastest = Math.min(...times);
      return [k, fmt(p.median, 0), fmt(fastest, 0), fmt(p.max, 0), fmtRatio(ratio(p.median, baseline)), fmtRatio(ratio(fastest, fastestBaseline))];
    }),
  ),
);

/**
 * The server's phases, each from the end of the one it waits for to its own end (the database
 * opens on its own thread, started from "server code" on, beside the modules and the game data). "npm,
 * node" is the spawn to the launcher running: npm's own start, then Node's; the line's arrival
 * less the server's own time to it says when its process began.
 */
const PHASES: Array<{ name: string; from?: string; to: string }> = [
  { name: "npm, node", to: "node" },
  { name: "bundle found (src/launch.mjs)", from: "node", to: "bundle" },
  { name: "first modules (src/index.ts)", from: "bundle", to: "server code" },
  { name: "the rest of the modules", from: "server code", to: "modules" },
  { name: "database: its thread started", from: "server code", to: "database thread" },
  { name: "database: open, migrations checked", from: "database thread", to: "database" },
  { name: "game data (manifests)", from: "modules", to: "game data" },
  { name: "item definitions synced", from: "game data|database", to: "items" },
  { name: "worlds made", from: "items", to: "worlds" },
  { name: "routes, listening", from: "worlds", to: "listening" },
  { name: "first /health 200", from: "listening", to: "/health" },
];

/** ms after the command at which each phase of one start ended (undefined where the line was missing). */
function endsOf(s: Start): Record<string, number> | undefined {
  if (!s.phases || s.listeningMs === undefined || s.phases.listening === undefined) return undefined;
  const began = s.listeningMs - s.phases.listening;
  return { ...Object.fromEntries(Object.entries(s.phases).map(([k, v]) => [k, began + v])), "/health": s.healthMs };
}

const serverKinds = kinds.filter((k) => k !== "baseline");
const phaseRows = PHASES.map((p) => {
  const cells = serverKinds.flatMap((k) => {
    const spans: number[] = [];
    const ends: number[] = [];
    for (const s of starts[k]) {
      const e = endsOf(s);
      if (!e || e[p.to] === undefined) continue;
      const from = p.from === undefined ? 0 : Math.max(...p.from.split("|").map((f) => e[f] ?? NaN));
      if (Number.isNaN(from)) continue;
      spans.push(e[p.to] - from);
      ends.push(e[p.to]);
    }
    return spans.length ? [fmt(median(spans), 0), fmt(median(ends), 0)] : ["-", "-"];
  });
  return [p.name, ...cells];
});
console.log(`\nwhere the time went (median ms: each phase's own time, and when it ended after the command)\n`);
console.log(table(["phase", ...serverKinds.flatMap((k) => [`${k}: takes`, "ends"])], phaseRows));
