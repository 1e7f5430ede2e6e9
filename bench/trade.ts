/**
 * Trade throughput benchmark: P pairs of real /ws clients (20 by default) trade continuously, every
 * pair in parallel, on one server, once over the embedded PGlite and once over a real PostgreSQL.
 * Per database it measures, over a window after a short warm-up:
 *   - completed trades per second (all pairs);
 *   - the commit latency: from writing the SECOND confirm-screen tradeAccept (the one that starts the
 *     database transaction) to receiving tradeCompleted on that same client (median, p99, max);
 *   - the whole trade, from tradeRequest to both tradeCompleted (median, p99);
 *   - every tradeCancelled, tradeError, /ws error and stalled step (there should be none);
 * and checks that the coins are conserved; then prints PostgreSQL's ratio to PGlite measured in the
 * same run.
 *
 * Design: the server runs in this process (test/helpers/server.ts, a real http server on a free
 * 127.0.0.1 port), the clients in a child process (bench/tradeFleet.ts), so their cost is not
 * charged to the server's event loop: real WebSockets over loopback that JSON-parse only the
 * frames they act on (trade*, player:sync, errors) and skip world updates unparsed. Each pair keeps
 * trading back and forth, the asker alternating (A asks B, then B asks A, ...); each trade is:
 * request, respond, 1 coin offered each way, both accept the offer screen, the asker accepts the
 * confirm screen, then the asked player's accept commits (so every character keeps its 25 coins).
 * The server refuses a repeat request in the same direction within 3 s: at 2 trades per 3 s per
 * pair that would measure the limit, not the database, so by default the bench lifts it
 * (tradeLimits.repeatRequestMs = 0) and says so; `--repeat-ms 3000` keeps it (the pairs then wait it
 * out). Each client paces itself under the /ws limit of 60 frames per second.
 * PGlite: in memory (openDatabase with no folder). PostgreSQL: TEST_DATABASE_URL when set, else a
 * throwaway local cluster (test/helpers/postgres.ts: fsync off), a fresh database dropped at the end.
 * The periodic world save is kept out of the run (SAVE_INTERVAL=3600).
 *
 * Each run is made with every pair count in --pairs (20 and 100 by default). After PostgreSQL's,
 * pgbench's simple-update script runs on the same server with as many connections as pairs: the
 * ceiling the trades are a ratio to (bench/pgbench.ts).
 *
 * Usage: npm run bench:trade [-- --pairs 20,100 --seconds 20 --warmup 2 --databases pglite,postgres
 *        --repeat-ms 0 --send-rate 50 --step-timeout 10 --profile file.cpuprofile]
 * --profile: a CPU profile of this process (the server) over the last run's window.
 */
import { fork, type ChildProcess } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { matchMaker } from "@colyseus/core";
import type { WorldRoom } from "../rooms/WorldRoom.js";
import { WS_LIMITS } from "../src/ws/protocol.js";
import { stopTestPostgres } from "../test/helpers/postgres.js";
import { startTestServer } from "../test/helpers/server.js";
import { benchArgs } from "./args.js";
import { fmt, percentiles } from "./stats.js";
import type { Trouble } from "./tradeClient.js";
import type { FleetReply, FleetRequest } from "./tradeFleet.js";
import { LABEL, openBenchDb, type DbKind } from "./tradeDatabases.js";
import { pgbenchCeiling } from "./pgbench.js";
import { CpuProfile, profileLines, summariseProfile } from "./cpuProfile.js";
import { machineTimes, printReport, type DbResult, type Options } from "./tradeReport.js";

function parseOptions(): Options {
  const a = benchArgs("npm run bench:trade", {
    pairs: "20,100",
    seconds: "20",
    warmup: "2",
    databases: "pglite,postgres",
    "repeat-ms": "0",
    "send-rate": "50",
    "step-timeout": "10",
    profile: undefined,
  });
  const pairCounts = a.pairs
    .split(",")
    .map((n) => Math.floor(Number(n)))
    .filter((n) => n > 0);
  return {
    pairCounts: pairCounts.length ? pairCounts : [20],
    pairs: pairCounts[0] ?? 20,
    seconds: Math.max(1, Number(a.seconds)),
    warmupS: Math.max(0, Number(a.warmup)),
    databases: a.databases.split(",").filter((d): d is DbKind => d === "pglite" || d === "postgres"),
    repeatMs: Math.max(0, Number(a["repeat-ms"])),
    sendRate: Math.min(WS_LIMITS.messagesPerSecond, Math.max(5, Number(a["send-rate"]))),
    stepTimeoutS: Math.max(1, Number(a["step-timeout"])),
    profile: a.profile,
  };
}

const opts = parseOptions();
const startedAt = performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (msg: string) => console.error(`[${((performance.now() - startedAt) / 1000).toFixed(1)}s] ${msg}`);

// Whatever happens, the benchmark stops by itself.
const timeLimitS = opts.pairCounts.length * (opts.databases.length + 1) * (opts.seconds + opts.warmupS + opts.stepTimeoutS + 60);
const watchdog = setTimeout(() => {
  console.error(`bench: time limit of ${timeLimitS}s reached, stopping`);
  void stopTestPostgres().finally(() => process.exit(2));
}, timeLimitS * 1000);
watchdog.unref();
// Interrupted: stop the PostgreSQL cluster this run started, if any.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`bench: ${signal}, stopping`);
    void stopTestPostgres().finally(() => process.exit(130));
  });
}

/** What the clients of one database's run saw go wrong, and how often they held back a frame. */
interface Sample {
  /** When the committing client received tradeCompleted. */
  at: number;
  commitMs: number;
  /** The commit's way: client → server (the accept's receipt), server (to tradeCompleted handed to the socket), server → client. */
  toServerMs: number;
  serverMs: number;
  toClientMs: number;
  tradeMs: number;
}

const key = (tradeId: unknown, playerId: string) => `${String(tradeId)}>${playerId}`;

/**
 * Where the commit's time goes, seen from the server: when the world room's trade desk received each
 * tradeAccept (it handles both rooms' trade messages) and when it handed tradeCompleted to a player's
 * connection. Wraps the room's methods in place (as bench/probe.ts reads the room's internals).
 */
class CommitProbe {
  private readonly accepted = new Map<string, number>();
  private readonly completed = new Map<string, number>();

  constructor(room: WorldRoom) {
    const desk = room.trades;
    const receive = desk.receive.bind(desk);
    desk.receive = (playerId, type, payload) => {
      if (type === "tradeAccept") this.accepted.set(key((payload as { tradeId?: unknown })?.tradeId, playerId), performance.now());
      receive(playerId, type, payload);
    };
    const r = room as unknown as { toPlayer(playerId: string, type: string, payload: unknown): void };
    const toPlayer = r.toPlayer.bind(room);
    r.toPlayer = (playerId, type, payload) => {
      if (type === "tradeCompleted") this.completed.set(key((payload as { tradeId: string }).tradeId, playerId), performance.now());
      toPlayer(playerId, type, payload);
    };
  }

  /** The last tradeAccept's receipt and the tradeCompleted's send for one player of a trade; the trade is forgotten. */
  take(tradeId: string, playerId: string, otherId: string) {
    const out = { accepted: this.accepted.get(key(tradeId, playerId)) ?? NaN, completed: this.completed.get(key(tradeId, playerId)) ?? NaN };
    for (const id of [playerId, otherId]) {
      this.accepted.delete(key(tradeId, id));
      this.completed.delete(key(tradeId, id));
    }
    return out;
  }
}

/** The clients' process (bench/tradeFleet.ts): asked one thing at a time, each answered once. */
class Fleet {
  private readonly child: ChildProcess;
  private pending?: { resolve(m: FleetReply): void; reject(e: Error): void };

  constructor() {
    // The child inherits this process's execArgv, so it runs TypeScript through tsx as well.
    this.child = fork(fileURLToPath(new URL("./tradeFleet.ts", import.meta.url)), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    this.child.on("message", (m: FleetReply) => {
      const p = this.pending;
      this.pending = undefined;
      if (m.type === "failed") p?.reject(new Error(`trade clients: ${m.message}`));
      else p?.resolve(m);
    });
    this.child.on("exit", (code) => this.pending?.reject(new Error(`trade clients exited (${code})`)));
  }

  ask<T extends FleetReply["type"]>(m: FleetRequest, answer: T): Promise<Extract<FleetReply, { type: T }>> {
    return new Promise((resolve, reject) => {
      this.pending = {
        resolve: (r) => (r.type === answer ? resolve(r as Extract<FleetReply, { type: T }>) : reject(new Error(`trade clients answered ${r.type}`))),
        reject,
      };
      this.child.send(m);
    });
  }

  async close() {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.send({ type: "close" } satisfies FleetRequest);
    await Promise.race([exited, sleep(10_000).then(() => this.child.kill())]);
  }
}

/** The server's world room (one per process). */
async function worldRoom(): Promise<WorldRoom | undefined> {
  const [listing] = await matchMaker.query({ name: "world" });
  return listing && (matchMaker.getLocalRoomById(listing.roomId) as unknown as WorldRoom | undefined);
}

/** Wait until the world room is empty and every leave is saved (as bench/ws.ts does between phases). */
async function settleWorld(timeoutMs: number) {
  const room = await worldRoom();
  if (!room) return;
  const t0 = performance.now();
  while ((room.clients.length > 0 || room.world.players.size > 0) && performance.now() - t0 < timeoutMs) await sleep(50);
  await room.settled();
}

async function runOn(kind: DbKind): Promise<DbResult> {
  const opened = await openBenchDb(kind);
  if ("skipped" in opened) {
    log(`${LABEL[kind]}: skipped (${opened.skipped})`);
    return { kind, label: LABEL[kind], skipped: opened.skipped };
  }
  const { db, label } = opened;
  const fleet = new Fleet();
  try {
    const server = await startTestServer({ db, env: { SAVE_INTERVAL: "3600" }, tradeLimits: { repeatRequestMs: opts.repeatMs } });
    try {
      log(`${label}: server on port ${server.port}; connecting ${2 * opts.pairs} /ws clients from a process of their own`);
      const tokens: string[] = [];
      for (let i = 0; i < 2 * opts.pairs; i++) {
        const res = await fetch(`${server.url}/api/auth/guest`, { method: "POST" });
        if (res.status !== 201) throw new Error(`POST /api/auth/guest: ${res.status}`);
        tokens.push(((await res.json()) as { token: string }).token);
      }
      const pace = { sendRate: opts.sendRate, stepTimeoutS: opts.stepTimeoutS };
      const { ids } = await fleet.ask({ type: "connect", port: server.port, tokens, pace, repeatMs: opts.repeatMs }, "ready");
      const room = await worldRoom();
      if (!room) throw new Error("no world room");
      const probe = new CommitProbe(room);
      const t0 = performance.now();
      const measureFrom = t0 + opts.warmupS * 1000;
      const endAt = measureFrom + opts.seconds * 1000;
      log(`${label}: ${opts.pairs} pairs trading for ${opts.warmupS} s warm-up + ${opts.seconds} s`);
      const samples: Sample[] = [];
      const loopDelay = monitorEventLoopDelay({ resolution: 10 });
      let mark: { cpu: NodeJS.CpuUsage; elu: ReturnType<typeof performance.eventLoopUtilization>; machine: { busy: number; total: number } } | undefined;
      let windowed: DbResult["process"];
      const last = opts.pairs === opts.pairCounts[opts.pairCounts.length - 1] && kind === opts.databases[opts.databases.length - 1];
      const profiling = opts.profile && last ? new CpuProfile() : undefined;
      const markTimer = setTimeout(() => {
        mark = { cpu: process.cpuUsage(), elu: performance.eventLoopUtilization(), machine: machineTimes() };
        loopDelay.enable();
        void profiling?.start();
      }, measureFrom - performance.now());
      const endTimer = setTimeout(() => {
        loopDelay.disable();
        if (!mark) return;
        const cpu = process.cpuUsage(mark.cpu);
        const machine = machineTimes();
        windowed = {
          cpuPct: (100 * (cpu.user + cpu.system)) / 1000 / (opts.seconds * 1000),
          elu: performance.eventLoopUtilization(mark.elu).utilization,
          loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
          machinePct: (100 * os.cpus().length * (machine.busy - mark.machine.busy)) / Math.max(1, machine.total - mark.machine.total),
        };
      }, endAt - performance.now());
      const done = await fleet.ask({ type: "go", endAt: performance.timeOrigin + endAt }, "done");
      const trouble: Trouble = { ...done.trouble, cancelled: new Map(done.trouble.cancelled), errors: new Map(done.trouble.errors) };
      // The clients' times are on the clock they share with this process (epoch ms): back onto performance.now()'s.
      const here = (epoch: number) => epoch - performance.timeOrigin;
      for (const c of done.samples) {
        const server = probe.take(c.tradeId, c.committerId, c.askerId);
        samples.push({
          at: here(c.doneCommitter),
          commitMs: c.doneCommitter - c.commitSentAt,
          toServerMs: server.accepted - here(c.commitSentAt),
          serverMs: server.completed - server.accepted,
          toClientMs: here(c.doneCommitter) - server.completed,
          tradeMs: Math.max(c.doneAsker, c.doneCommitter) - c.startedAt,
        });
      }
      clearTimeout(markTimer);
      clearTimeout(endTimer);
      if (profiling) {
        const summary = summariseProfile(await profiling.stop(opts.profile!));
        console.log(
          profileLines(`CPU profile of the ${label} window with ${opts.pairs} pairs (${opts.profile}, ${summary.totalMs.toFixed(0)} ms busy):`, summary).join(
            "\n",
          ),
        );
      }
      const inWindow = samples.filter((s) => s.at >= measureFrom && s.at <= endAt);

      // Every trade moved one coin each way: each character still holds its 25.
      const rows = await db.prisma.inventoryItem.findMany({ where: { characterId: { in: ids }, itemId: "coins" } });
      const found = rows.reduce((n, r) => n + r.quantity, 0);

      const result: DbResult = {
        kind,
        label,
        clients: ids.length,
        windowS: opts.seconds,
        completed: inWindow.length,
        completedLate: samples.filter((s) => s.at > endAt).length,
        perSecond: inWindow.length / opts.seconds,
        commit: percentiles(inWindow.map((s) => s.commitMs)),
        trade: percentiles(inWindow.map((s) => s.tradeMs)),
        legs: {
          toServer: percentiles(inWindow.map((s) => s.toServerMs)).median,
          server: percentiles(inWindow.map((s) => s.serverMs)).median,
          serverP99: percentiles(inWindow.map((s) => s.serverMs)).p99,
          toClient: percentiles(inWindow.map((s) => s.toClientMs)).median,
        },
        process: windowed,
        trouble,
        coins: { expected: 25 * ids.length, found },
      };
      log(`${label}: ${fmt(result.perSecond, 1)} trades/s, commit p50 ${fmt(result.commit!.median, 1)} ms p99 ${fmt(result.commit!.p99, 1)} ms`);
      return result;
    } finally {
      await fleet.close().catch((err) => log(`trade clients: ${(err as Error).message}`));
      // Every leave saved before the shutdown: arena.shutdown() can resolve while a leave's save or
      // endSession is still running (WorldRoom.onDispose does not wait for them), and closing the
      // PostgreSQL pool under one leaves its connection idle in transaction: db.close() never returns.
      await settleWorld(10_000).catch((err) => log(`settle: ${(err as Error).message}`));
      await server.close().catch((err) => log(`server close: ${(err as Error).message}`));
    }
  } finally {
    await opened.cleanup().catch((err) => log(`database cleanup: ${(err as Error).message}`));
  }
}

async function main() {
  const reports: Array<{ pairs: number; results: DbResult[]; ceiling?: Awaited<ReturnType<typeof pgbenchCeiling>> }> = [];
  try {
    for (const pairs of opts.pairCounts) {
      opts.pairs = pairs;
      const results: DbResult[] = [];
      for (const kind of opts.databases) results.push(await runOn(kind));
      const ceiling = results.some((r) => r.kind === "postgres" && !r.skipped) ? await pgbenchCeiling(pairs, opts.seconds) : undefined;
      if (ceiling && "tps" in ceiling) log(`pgbench on the same PostgreSQL, ${pairs} connections: ${fmt(ceiling.tps, 0)} tps`);
      reports.push({ pairs, results, ceiling });
    }
  } finally {
    await stopTestPostgres().catch(() => {});
  }
  for (const r of reports) printReport(r.results, { ...opts, pairs: r.pairs }, startedAt, r.ceiling);
}

main()
  .then(() => process.exit(0))
  .catch((err) => {
    console.error("bench: failed", err);
    process.exit(1);
  });
