/**
 * `npm run bench:startup [-- --runs 5]`: how long `npm start` takes from the command to GET /health
 * answering 200, with a new data folder (a new embedded database) and with the one the run before
 * left (the usual restart), against the least a Colyseus + Express server is
 * (bench/startupBaseline.ts), started the same way through npm in the same run. Each round starts
 * the three in turn, each a fresh process on a fresh port, and stops it with SIGTERM before the
 * next. It prints each one's median, fastest and slowest time, the median's ratio to the baseline,
 * and when the server's own log lines came (the manifests, the database, the listening socket).
 *
 * --runs   rounds (default 5)
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "../src/db/localPostgres.js";
import { ROOT } from "../src/paths.js";
import { benchArgs } from "./args.js";
import { fmt, fmtRatio, percentiles, ratio, table } from "./stats.js";

const args = benchArgs("npm run bench:startup", { runs: "5" });
const runs = Math.max(1, Number(args.runs));

/** Log lines of the server whose arrival is reported, in the order they come. */
const MILESTONES = { "game data": /game data loaded/, database: /database ready/, "items synced": /item definitions synced/, listening: /server listening/ };

interface Start {
  /** ms from the spawn to the first 200 from /health. */
  healthMs: number;
  /** ms from the spawn to each milestone's log line. */
  lines: Record<string, number>;
}

async function timeStart(script: string, env: Record<string, string>): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn("npm", ["run", "--silent", script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Record<string, number> = {};
  let output = "";
  const read = (d: Buffer) => {
    const text = d.toString();
    output += text;
    for (const [name, re] of Object.entries(MILESTONES)) if (lines[name] === undefined && re.test(text)) lines[name] = performance.now() - started;
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
    return { healthMs, lines };
  } finally {
    child.kill("SIGKILL");
  }
}

const kinds = ["new data folder", "existing data folder", "baseline"] as const;
const starts: Record<(typeof kinds)[number], Start[]> = { "new data folder": [], "existing data folder": [], baseline: [] };
for (let round = 1; round <= runs; round++) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "arena-bench-startup-"));
  try {
    const env = { DATA_DIR: dataDir };
    starts["new data folder"].push(await timeStart("start", env));
    starts["existing data folder"].push(await timeStart("start", env));
    starts.baseline.push(await timeStart("bench:startup:baseline", {}));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  console.log(`round ${round}: ${kinds.map((k) => `${k} ${fmt(starts[k][round - 1].healthMs, 0)} ms`).join(", ")}`);
}

const baseline = percentiles(starts.baseline.map((s) => s.healthMs)).median;
console.log(`\nnpm start → GET /health 200 (ms over ${runs} rounds; this machine, this run)\n`);
console.log(
  table(
    ["start", "median", "fastest", "slowest", "÷ baseline"],
    kinds.map((k) => {
      const times = starts[k].map((s) => s.healthMs);
      const p = percentiles(times);
      return [k, fmt(p.median, 0), fmt(Math.min(...times), 0), fmt(p.max, 0), fmtRatio(ratio(p.median, baseline))];
    }),
  ),
);
console.log(`\nwhen the server's log lines came (median ms after the command)\n`);
console.log(
  table(
    ["start", ...Object.keys(MILESTONES), "/health"],
    kinds
      .filter((k) => k !== "baseline")
      .map((k) => [
        k,
        ...Object.keys(MILESTONES).map((name) => {
          const at = starts[k].map((s) => s.lines[name]).filter((v): v is number => v !== undefined);
          return at.length ? fmt(percentiles(at).median, 0) : "-";
        }),
        fmt(percentiles(starts[k].map((s) => s.healthMs)).median, 0),
      ]),
  ),
);
