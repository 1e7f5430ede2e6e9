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
 * 127.0.0.1 port), and so do the clients: real WebSockets over loopback that JSON-parse only the
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
 * --profile: a CPU profile of this process over the last run's window (server and clients alike).
 */
import os from "node:os";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { matchMaker } from "@colyseus/core";
import type { WorldRoom } from "../rooms/WorldRoom.js";
import { WS_LIMITS } from "../src/ws/protocol.js";
import { stopTestPostgres } from "../test/helpers/postgres.js";
import { startTestServer } from "../test/helpers/server.js";
import { benchArgs } from "./args.js";
import { fmt, percentiles } from "./stats.js";
import { BenchTrader, newTrouble, note, type Trouble } from "./tradeClient.js";
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

/** One trade, x asking y, y's confirm-screen accept committing it. */
async function tradeOnce(x: BenchTrader, y: BenchTrader, probe: CommitProbe): Promise<Sample> {
  let fail!: (err: Error) => void;
  const trouble = new Promise<never>((_, reject) => (fail = reject));
  trouble.catch(() => {});
  x.onTrouble = y.onTrouble = fail;
  const both = <T>(...ps: Promise<T>[]) => Promise.race([Promise.all(ps), trouble]);
  let tradeId: string | undefined;
  try {
    const incoming = y.waitFor("tradeIncoming", (d) => d.fromPlayerId === x.id);
    const t0 = await x.send("tradeRequest", { targetPlayerId: y.id });
    tradeId = ((await both(incoming))[0].data as { tradeId: string }).tradeId;
    const ofThis = (d: any) => d.tradeId === tradeId;
    let waits = [x.waitFor("tradeStarted", ofThis), y.waitFor("tradeStarted", ofThis)];
    await y.send("tradeRequestRespond", { tradeId, accept: true });
    await both(...waits);

    // Both offer a coin; nobody accepts before both offers are in (a change resets acceptances).
    const bothOffered = (d: any) => d.tradeId === tradeId && d.myOffer.items.length > 0 && d.theirOffer.items.length > 0;
    waits = [x.waitFor("tradeUpdated", bothOffered), y.waitFor("tradeUpdated", bothOffered)];
    await Promise.all([
      x.send("tradeAddItem", { tradeId, inventorySlot: x.coinsSlot, quantity: 1 }),
      y.send("tradeAddItem", { tradeId, inventorySlot: y.coinsSlot, quantity: 1 }),
    ]);
    await both(...waits);

    waits = [x.waitFor("tradeConfirmScreen", ofThis), y.waitFor("tradeConfirmScreen", ofThis)];
    await Promise.all([x.send("tradeAccept", { tradeId }), y.send("tradeAccept", { tradeId })]);
    await both(...waits);
    // The offer screen's updates came before the confirm screen on the same socket: drop them.
    x.forget(tradeId, "tradeUpdated");
    y.forget(tradeId, "tradeUpdated");

    const xAccepted = x.waitFor("tradeUpdated", (d) => d.tradeId === tradeId && d.myOffer.accepted);
    await x.send("tradeAccept", { tradeId });
    await both(xAccepted);
    waits = [x.waitFor("tradeCompleted", ofThis), y.waitFor("tradeCompleted", ofThis)];
    const commitSent = await y.send("tradeAccept", { tradeId });
    const [doneX, doneY] = await both(...waits);
    const server = probe.take(tradeId, y.id, x.id);
    return {
      at: doneY.at,
      commitMs: doneY.at - commitSent,
      toServerMs: server.accepted - commitSent,
      serverMs: server.completed - server.accepted,
      toClientMs: doneY.at - server.completed,
      tradeMs: Math.max(doneX.at, doneY.at) - t0,
    };
  } catch (err) {
    // Leave nothing open behind: the next trade starts clean.
    x.onTrouble = y.onTrouble = undefined;
    if (tradeId) await x.send("tradeCancel", { tradeId }).catch(() => {});
    await sleep(200);
    throw err;
  } finally {
    x.onTrouble = y.onTrouble = undefined;
    x.forget(tradeId);
    y.forget(tradeId);
  }
}

/** A pair trading back and forth until `endAt`, the asker alternating. */
async function runPair(a: BenchTrader, b: BenchTrader, endAt: number, samples: Sample[], trouble: Trouble, probe: CommitProbe) {
  const lastAsked = [-Infinity, -Infinity];
  for (let n = 0; ; n++) {
    const dir = n % 2;
    const [x, y] = dir === 0 ? [a, b] : [b, a];
    if (opts.repeatMs > 0) {
      const wait = lastAsked[dir] + opts.repeatMs + 100 - performance.now();
      if (wait > 0) await sleep(wait);
    }
    if (performance.now() >= endAt) return;
    lastAsked[dir] = performance.now();
    try {
      samples.push(await tradeOnce(x, y, probe));
    } catch (err) {
      const message = (err as Error).message;
      if (message.startsWith("stalled")) {
        trouble.stalls++;
        note(trouble, message);
      }
    }
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
  const trouble = newTrouble();
  const clients: BenchTrader[] = [];
  try {
    const server = await startTestServer({ db, env: { SAVE_INTERVAL: "3600" }, tradeLimits: { repeatRequestMs: opts.repeatMs } });
    try {
      log(`${label}: server on port ${server.port}; connecting ${2 * opts.pairs} /ws clients`);
      for (let i = 0; i < 2 * opts.pairs; i += 8) {
        const batch = Array.from({ length: Math.min(8, 2 * opts.pairs - i) }, async () => {
          const res = await fetch(`${server.url}/api/auth/guest`, { method: "POST" });
          if (res.status !== 201) throw new Error(`POST /api/auth/guest: ${res.status}`);
          const { token } = (await res.json()) as { token: string };
          return BenchTrader.connect(server.port, token, trouble, opts);
        });
        clients.push(...(await Promise.all(batch)));
      }
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
      await Promise.all(Array.from({ length: opts.pairs }, (_, p) => runPair(clients[2 * p], clients[2 * p + 1], endAt, samples, trouble, probe)));
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
      const ids = clients.map((c) => c.id);
      const rows = await db.prisma.inventoryItem.findMany({ where: { characterId: { in: ids }, itemId: "coins" } });
      const found = rows.reduce((n, r) => n + r.quantity, 0);

      const result: DbResult = {
        kind,
        label,
        clients: clients.length,
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
        coins: { expected: 25 * clients.length, found },
      };
      log(`${label}: ${fmt(result.perSecond, 1)} trades/s, commit p50 ${fmt(result.commit!.median, 1)} ms p99 ${fmt(result.commit!.p99, 1)} ms`);
      return result;
    } finally {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
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
