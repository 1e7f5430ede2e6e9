/**
 * Cluster benchmark: the same load on 1, 2 and 4 server processes (`--processes`), each a real
 * `npm start` process in cluster mode on one real Redis (Debian's redis-server, started here) and
 * one real PostgreSQL (TEST_DATABASE_URL, else a throwaway local server), offering the same worlds
 * (`--worlds`, 4 by default, so that every process count shares them evenly).
 *
 * The load: `--players` /ws players (400) spread evenly over the worlds, each connecting to a
 * process chosen round-robin (so most reach a process that does not run their world and follow
 * its `world:redirect`), then walking a few tiles every three ticks. Over a window after a
 * warm-up, per process count:
 *   - the tick: each process's `world_tick_duration_seconds{phase="total"}` histogram read from
 *     /metrics at the window's start and end: the mean, and the p99 as the upper bound of the
 *     histogram's bucket that holds it (buckets 1, 2.5, 5, 10, 25, 50, 100, 250, 600 ms), the
 *     worst process's; and each world's median and p99 over its latest ticks (/status);
 *   - players served (joined, in the world at the window's end) and the frames they received per
 *     second;
 *   - the cost of reaching a world on another process: a /ws join that followed a redirect against
 *     one that reached the world's own process first (median ms to `authenticated`). Nothing is
 *     relayed between processes: after the redirect every frame is a local one.
 * Each figure is printed with its ratio to the 1-process run of the same benchmark.
 *
 * The load generator runs in this process, on the same machine: with 2 cores the processes share
 * them with it. Timings differ between machines: compare figures from one run only.
 *
 * Usage: npm run bench:cluster [-- --processes 1,2,4 --worlds 4 --players 400 --seconds 20 --warmup 5]
 */
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import { freePort } from "../src/db/localPostgres.js";
import { seededRng } from "../src/game/random.js";
import { createTestDatabase, stopTestPostgres } from "../test/helpers/postgres.js";
import { startTestRedis } from "../test/helpers/redis.js";
import { killServerProcesses, startServerProcess, type ServerProcess } from "../test/helpers/serverProcess.js";
import { benchArgs } from "./args.js";
import { ClusterPlayer } from "./clusterClient.js";
import { fmt, fmtRatio, median, ratio, table } from "./stats.js";

const ADMIN_CODE = "bench-cluster-admin";
const BUCKETS_MS = [1, 2.5, 5, 10, 25, 50, 100, 250, 600];

interface Options {
  processes: number[];
  worlds: number;
  players: number;
  seconds: number;
  warmup: number;
}

interface Histogram {
  buckets: number[];
  count: number;
  sumS: number;
}

interface PhaseResult {
  processes: number;
  served: number;
  framesPerS: number;
  meanTickMs: number;
  p99BucketMs: number;
  worldTicks: Array<{ id: number; players: number; medianMs: number; p99Ms: number }>;
  joinDirectMs: number;
  joinRedirectedMs: number;
  redirected: number;
  errors: number;
  retries: number;
}

function parseOptions(): Options {
  const a = benchArgs("npm run bench:cluster", { processes: "1,2,4", worlds: "4", players: "400", seconds: "20", warmup: "5" });
  return {
    processes: a.processes.split(",").map(Number),
    worlds: Number(a.worlds),
    players: Number(a.players),
    seconds: Number(a.seconds),
    warmup: Number(a.warmup),
  };
}

/** The tick histogram (phase total) of one process, cumulative since it started. */
async function tickHistogram(p: ServerProcess): Promise<Histogram> {
  const res = await fetch(`${p.url}/metrics`, { headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_CODE}`).toString("base64")}` } });
  const text = await res.text();
  const line = (re: RegExp) => Number(re.exec(text)?.[1] ?? 0);
  return {
    buckets: BUCKETS_MS.map((ms) => line(new RegExp(`world_tick_duration_seconds_bucket\\{le="${ms / 1000}",phase="total"\\} (\\d+)`))),
    count: line(/world_tick_duration_seconds_count\{phase="total"\} (\d+)/),
    sumS: line(/world_tick_duration_seconds_sum\{phase="total"\} ([\d.e+-]+)/),
  };
}

/** The ticks between two readings: their mean, and the upper bound of the bucket holding the p99. */
function windowOf(before: Histogram, after: Histogram): { count: number; meanMs: number; p99BucketMs: number } {
  const count = after.count - before.count;
  const meanMs = count > 0 ? ((after.sumS - before.sumS) * 1000) / count : 0;
  const i = BUCKETS_MS.findIndex((_, k) => after.buckets[k]! - before.buckets[k]! >= 0.99 * count);
  return { count, meanMs, p99BucketMs: i < 0 ? Infinity : BUCKETS_MS[i]! };
}

async function status(
  p: ServerProcess,
): Promise<{ processId: string; worlds: number[]; ticks: Record<string, { players: number; medianMs: number; p99Ms: number }> }> {
  return (await fetch(`${p.url}/status`)).json() as never;
}

async function runPhase(n: number, o: Options): Promise<PhaseResult> {
  const redis = await startTestRedis();
  const db = await createTestDatabase();
  const players: ClusterPlayer[] = [];
  try {
    const secret = randomBytes(32).toString("hex");
    const worlds = Array.from({ length: o.worlds }, (_, i) => i + 1);
    const procs = await Promise.all(
      Array.from({ length: n }, async () => {
        const port = await freePort();
        return startServerProcess(
          {
            REDIS_URL: redis.url,
            DATABASE_URL: db.url,
            WORLDS: String(o.worlds),
            PUBLIC_ADDRESS: `127.0.0.1:${port}`,
            JWT_SECRET: secret,
            ADMIN_CODE,
            SAVE_INTERVAL: "60",
            LOG_LEVEL: "warn",
            WS_MAX_CONNECTIONS_PER_ADDRESS: "1000000",
          },
          { port, timeoutMs: 60_000 },
        );
      }),
    );
    // Until the worlds are shared out as evenly as they can be (empty worlds move once a second) and all run.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const shares = (await Promise.all(procs.map(status))).map((s) => s.worlds.length);
      const listed = ((await (await fetch(`${procs[0]!.url}/api/v1/worlds`)).json()) as { worlds: Array<{ status: string }> }).worlds;
      const even = shares.reduce((a, b) => a + b, 0) === o.worlds && Math.max(...shares) - Math.min(...shares) <= 1;
      if (even && listed.every((w) => w.status === "online")) break;
      if (Date.now() > deadline) throw new Error(`the worlds were not shared out: ${JSON.stringify(shares)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    // Guests, then the players, joined 20 at a time through the processes in turn.
    const random = seededRng(20_261_127);
    for (let i = 0; i < o.players; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(20, o.players - i) }, async (_, k) => {
          const via = procs[(i + k) % n]!;
          const res = await fetch(`${via.url}/api/auth/guest`, { method: "POST" });
          const { token } = (await res.json()) as { token: string };
          const p = new ClusterPlayer(token, worlds[(i + k) % o.worlds]!);
          await p.join(via.port);
          return p;
        }),
      );
      players.push(...batch);
    }
    for (const p of players) p.walk(1800, random);
    await new Promise((r) => setTimeout(r, o.warmup * 1000));
    const before = await Promise.all(procs.map(tickHistogram));
    const framesBefore = players.reduce((a, p) => a + p.frames, 0);
    const started = performance.now();
    await new Promise((r) => setTimeout(r, o.seconds * 1000));
    const elapsedS = (performance.now() - started) / 1000;
    const framesPerS = (players.reduce((a, p) => a + p.frames, 0) - framesBefore) / elapsedS;
    const after = await Promise.all(procs.map(tickHistogram));
    const windows = procs.map((_, i) => windowOf(before[i]!, after[i]!));
    const statuses = await Promise.all(procs.map(status));
    const worldTicks = statuses.flatMap((s) => Object.entries(s.ticks).map(([id, t]) => ({ id: Number(id), ...t }))).sort((a, b) => a.id - b.id);
    const ticks = windows.reduce((a, w) => a + w.count, 0);
    return {
      processes: n,
      served: worldTicks.reduce((a, w) => a + w.players, 0),
      framesPerS,
      meanTickMs: ticks ? windows.reduce((a, w) => a + w.meanMs * w.count, 0) / ticks : 0,
      p99BucketMs: Math.max(...windows.map((w) => w.p99BucketMs)),
      worldTicks,
      joinDirectMs: median(players.filter((p) => !p.redirected).map((p) => p.joinMs)),
      joinRedirectedMs: median(players.filter((p) => p.redirected).map((p) => p.joinMs)),
      redirected: players.filter((p) => p.redirected).length,
      errors: players.reduce((a, p) => a + p.errors, 0),
      retries: players.reduce((a, p) => a + p.retries, 0),
    };
  } finally {
    for (const p of players) p.close();
    await killServerProcesses();
    await db.drop().catch(() => {});
    await redis.stop();
  }
}

function printReport(o: Options, results: PhaseResult[]) {
  const base = results.find((r) => r.processes === 1) ?? results[0]!;
  console.log(
    `\nbench:cluster: ${o.players} /ws players walking in ${o.worlds} worlds; window ${o.seconds} s after ${o.warmup} s; ratios to ${base.processes} process(es)\n`,
  );
  console.log(
    table(
      [
        "processes",
        "served",
        "frames/s",
        "×",
        "tick mean ms",
        "×",
        "tick p99 ≤ ms",
        "join direct ms",
        "join redirected ms",
        "redirect ×",
        "errors",
        "retried joins",
      ],
      results.map((r) => [
        String(r.processes),
        String(r.served),
        fmt(r.framesPerS, 0),
        fmtRatio(ratio(r.framesPerS, base.framesPerS)),
        fmt(r.meanTickMs, 2),
        fmtRatio(ratio(r.meanTickMs, base.meanTickMs)),
        String(r.p99BucketMs),
        r.joinDirectMs ? fmt(r.joinDirectMs, 1) : "-",
        r.joinRedirectedMs ? fmt(r.joinRedirectedMs, 1) : "-",
        r.joinDirectMs && r.joinRedirectedMs ? fmtRatio(ratio(r.joinRedirectedMs, r.joinDirectMs)) : "-",
        String(r.errors),
        String(r.retries),
      ]),
    ),
  );
  for (const r of results) {
    console.log(`\n${r.processes} process(es), each world's latest ticks (/status):`);
    console.log(
      table(
        ["world", "players", "median ms", "p99 ms"],
        r.worldTicks.map((w) => [String(w.id), String(w.players), fmt(w.medianMs, 2), fmt(w.p99Ms, 2)]),
      ),
    );
  }
  console.log(
    "\nA /ws frame is never relayed between processes: a client reaching a process that does not run its world is redirected once (the join cost above); every frame after is local.",
  );
}

async function main() {
  const o = parseOptions();
  const results: PhaseResult[] = [];
  try {
    for (const n of o.processes) {
      process.stdout.write(`${n} process(es)... `);
      const r = await runPhase(n, o);
      results.push(r);
      console.log(`${r.served} served, ${fmt(r.framesPerS, 0)} frames/s, tick mean ${fmt(r.meanTickMs, 2)} ms, p99 ≤ ${r.p99BucketMs} ms`);
    }
    printReport(o, results);
  } finally {
    await stopTestPostgres();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
