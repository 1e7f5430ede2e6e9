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
 * Usage: npm run bench:trade [-- --pairs 20 --seconds 20 --warmup 2 --databases pglite,postgres
 *        --repeat-ms 0 --send-rate 50 --step-timeout 10]
 */
import os from "node:os";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { matchMaker } from "@colyseus/core";
import type { WorldRoom } from "../rooms/WorldRoom.js";
import { openDatabase, type Database } from "../src/db/client.js";
import { findPostgresBinaries } from "../src/db/localPostgres.js";
import { TRADE_LIMITS } from "../src/game/trade.js";
import { silentLogger } from "../src/logger.js";
import { WS_LIMITS } from "../src/ws/protocol.js";
import { createTestDatabase, stopTestPostgres, type TestDatabase } from "../test/helpers/postgres.js";
import { startTestServer } from "../test/helpers/server.js";
import { benchArgs } from "./args.js";
import { fmt, fmtRatio, percentiles, ratio, table } from "./stats.js";
import { BenchTrader, newTrouble, note, type Trouble } from "./tradeClient.js";

type DbKind = "pglite" | "postgres";

interface Options {
  pairs: number;
  seconds: number;
  warmupS: number;
  databases: DbKind[];
  /** The server's repeat-request limit for this bench (ms); the pairs wait it out. */
  repeatMs: number;
  /** Frames each client sends per second at most (the server allows WS_LIMITS.messagesPerSecond). */
  sendRate: number;
  stepTimeoutS: number;
}

function parseOptions(): Options {
  const a = benchArgs("npm run bench:trade", {
    pairs: "20",
    seconds: "20",
    warmup: "2",
    databases: "pglite,postgres",
    "repeat-ms": "0",
    "send-rate": "50",
    "step-timeout": "10",
  });
  return {
    pairs: Math.max(1, Math.floor(Number(a.pairs))),
    seconds: Math.max(1, Number(a.seconds)),
    warmupS: Math.max(0, Number(a.warmup)),
    databases: a.databases.split(",").filter((d): d is DbKind => d === "pglite" || d === "postgres"),
    repeatMs: Math.max(0, Number(a["repeat-ms"])),
    sendRate: Math.min(WS_LIMITS.messagesPerSecond, Math.max(5, Number(a["send-rate"]))),
    stepTimeoutS: Math.max(1, Number(a["step-timeout"])),
  };
}

const opts = parseOptions();
const startedAt = performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (msg: string) => console.error(`[${((performance.now() - startedAt) / 1000).toFixed(1)}s] ${msg}`);

// Whatever happens, the benchmark stops by itself.
const timeLimitS = opts.databases.length * (opts.seconds + opts.warmupS + opts.stepTimeoutS + 60);
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
    await Promise.all([x.send("tradeAddItem", { tradeId, inventorySlot: x.coinsSlot, quantity: 1 }), y.send("tradeAddItem", { tradeId, inventorySlot: y.coinsSlot, quantity: 1 })]);
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

interface DbResult {
  kind: DbKind;
  label: string;
  skipped?: string;
  clients?: number;
  windowS?: number;
  completed?: number;
  completedLate?: number;
  perSecond?: number;
  commit?: { median: number; p99: number; max: number };
  trade?: { median: number; p99: number; max: number };
  /** Medians of the commit's three legs (ms). */
  legs?: { toServer: number; server: number; serverP99: number; toClient: number };
  /** This process (server and clients) over the window. */
  process?: { cpuPct: number; elu: number; loopDelayP99Ms: number; machinePct: number };
  trouble?: Trouble;
  coins?: { expected: number; found: number };
}

const LABEL: Record<DbKind, string> = { pglite: "PGlite", postgres: "PostgreSQL" };

async function openBenchDb(kind: DbKind): Promise<{ db: Database; label: string; cleanup: () => Promise<void> } | { skipped: string }> {
  if (kind === "pglite") {
    const db = await openDatabase({ logger: silentLogger });
    return { db, label: "PGlite (embedded, in memory)", cleanup: () => db.close() };
  }
  const fromEnv = Boolean(process.env.TEST_DATABASE_URL);
  if (!fromEnv && !findPostgresBinaries()) return { skipped: "no PostgreSQL binaries (initdb, pg_ctl) found and TEST_DATABASE_URL is not set" };
  let pg: TestDatabase | undefined;
  try {
    pg = await createTestDatabase();
    { const { default: PG } = await import("pg"); const u = new URL(pg.url); u.pathname = "/postgres"; const c = new PG.Client({ connectionString: u.toString() }); await c.connect(); await c.query("ALTER SYSTEM SET log_statement = 'all'"); await c.query("ALTER SYSTEM SET log_line_prefix = '%m [%p] '"); await c.query("SELECT pg_reload_conf()"); await c.end(); }
    const db = await openDatabase({ databaseUrl: pg.url, logger: silentLogger });
    const version = (await db.sql.query<{ v: string }>("SELECT current_setting('server_version') AS v").catch(() => []))[0]?.v ?? "?";
    const label = `PostgreSQL ${version} (${fromEnv ? "TEST_DATABASE_URL" : "local throwaway cluster, fsync off"})`;
    return { db, label, cleanup: async () => (await db.close(), await pg!.drop()) };
  } catch (err) {
    await pg?.drop().catch(() => {});
    return { skipped: `PostgreSQL unavailable: ${(err as Error).message.split("\n")[0]}` };
  }
}

/** CPU time of the whole machine so far (ms): busy and total, all cores. */
function machineTimes() {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    const all = times.user + times.nice + times.sys + times.irq + times.idle;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
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
      const markTimer = setTimeout(() => {
        mark = { cpu: process.cpuUsage(), elu: performance.eventLoopUtilization(), machine: machineTimes() };
        loopDelay.enable();
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

function printReport(results: DbResult[]) {
  const out: string[] = [""];
  out.push(`Trade throughput — ${os.cpus().length} x ${os.cpus()[0]?.model ?? "?"}, node ${process.version}`);
  out.push(`server and ${2 * opts.pairs} /ws clients (${opts.pairs} pairs) in this process, real WebSockets over 127.0.0.1; all pairs trade in parallel, continuously`);
  out.push(`each trade: request, respond, 1 coin offered each way, both accept the offer screen, asker accepts the confirm screen, then the asked player's accept commits; the asker alternates`);
  if (opts.repeatMs < TRADE_LIMITS.repeatRequestMs) {
    out.push(`NOTE: the repeat-request limit was lifted for the bench (tradeLimits.repeatRequestMs = ${opts.repeatMs}; the server's default is ${TRADE_LIMITS.repeatRequestMs} ms, which would cap each pair at 2 trades per ${TRADE_LIMITS.repeatRequestMs / 1000} s)`);
  } else out.push(`repeat-request limit kept at ${opts.repeatMs} ms: each pair waits it out before asking in the same direction again`);
  out.push(`window ${opts.seconds} s after ${opts.warmupS} s of warm-up (trades completed in the window); periodic save off (SAVE_INTERVAL=3600)`);
  out.push(
    `clients paced to <= ${opts.sendRate} frames/s each (/ws allows ${WS_LIMITS.messagesPerSecond}); each sends 4 frames per trade, so the pacing alone caps a pair at ${fmt(opts.sendRate / 4, 1)} trades/s ` +
      `and the run at ${fmt((opts.pairs * opts.sendRate) / 4, 0)} trades/s (frames held back are counted below)`,
  );
  out.push(`commit: from writing the second confirm-screen tradeAccept to that client's tradeCompleted; trade: from tradeRequest to both tradeCompleted`);
  out.push(
    `the commit's legs (ms): →server = until the server's trade desk receives that accept; server = from there to tradeCompleted handed to the socket (waiting for the world saver's queue, where every save and commit runs one at a time, + the transaction); →client = from there to the client's message event`,
  );
  out.push(
    `CPU %, loop util, loop delay: this process (server, PGlite, and the clients) over the window; machine CPU %: every process (PostgreSQL's too, and anything else running); 100% = one core of ${os.cpus().length}`,
  );
  out.push("");
  const done = results.filter((r) => !r.skipped);
  const pgl = done.find((r) => r.kind === "pglite");
  const pg = done.find((r) => r.kind === "postgres");
  // Each table: a row per database run, then PostgreSQL's ratio to PGlite when both ran.
  const section = (header: string[], cells: (r: DbResult) => Array<number | undefined>, digits: number[], trailer?: (r: DbResult) => string[]) => {
    const rows = done.map((r) => [LABEL[r.kind], ...cells(r).map((v, i) => fmt(v, digits[i])), ...(trailer?.(r) ?? [])]);
    if (pgl && pg) {
      const a = cells(pg);
      const b = cells(pgl);
      rows.push(["PostgreSQL÷PGlite", ...a.map((v, i) => fmtRatio(ratio(v ?? NaN, b[i] ?? NaN))), ...(trailer ? trailer(pg).map(() => "") : [])]);
    }
    out.push(table(["database", ...header], rows));
    out.push("");
  };
  section(
    ["trades/s", "commit p50 ms", "commit p99 ms", "commit max ms", "trade p50 ms", "trade p99 ms", "trades", "cancelled", "errors", "coins conserved"],
    (r) => [r.perSecond, r.commit!.median, r.commit!.p99, r.commit!.max, r.trade!.median, r.trade!.p99],
    [1, 1, 1, 1, 1, 1],
    (r) => [String(r.completed), String(sumOf(r.trouble!.cancelled)), String(sumOf(r.trouble!.errors) + r.trouble!.stalls), r.coins!.found === r.coins!.expected ? "yes" : `NO (${r.coins!.found}/${r.coins!.expected})`],
  );
  section(
    ["commit →server p50 ms", "server p50 ms", "server p99 ms", "→client p50 ms", "CPU %", "machine CPU %", "loop util", "loop delay p99 ms"],
    (r) => [r.legs!.toServer, r.legs!.server, r.legs!.serverP99, r.legs!.toClient, r.process?.cpuPct, r.process?.machinePct, r.process?.elu, r.process?.loopDelayP99Ms],
    [1, 1, 1, 1, 0, 0, 2, 1],
  );
  for (const r of results) out.push(r.skipped ? `${LABEL[r.kind]}: run skipped — ${r.skipped}` : `${LABEL[r.kind]} = ${r.label}`);
  out.push("");
  for (const r of done) {
    const t = r.trouble!;
    const list = (m: Map<string, number>) => [...m].map(([k, v]) => `${k} ${v}`).join(", ") || "none";
    out.push(`${LABEL[r.kind]}: ${r.clients} clients; ${r.completed} trades in the window, ${r.completedLate} finished after it; cancelled: ${list(t.cancelled)}; errors: ${list(t.errors)}; stalled steps: ${t.stalls}; frames held back by the client pacer: ${t.pacedWaits}`);
    for (const f of t.first) out.push(`  first trouble: ${f}`);
    const cap = (opts.pairs * opts.sendRate) / 4;
    if (r.perSecond! >= 0.9 * cap) out.push(`  ${fmt(r.perSecond, 1)} trades/s is at the clients' pacing cap (${fmt(cap, 0)}/s): a floor for what the server and database can do; run more --pairs`);
  }
  out.push("");
  if (pgl && pg) {
    out.push(
      `Baseline measured in the same run: PostgreSQL ${fmt(pg.perSecond, 1)} trades/s vs PGlite ${fmt(pgl.perSecond, 1)} trades/s = ${fmtRatio(ratio(pg.perSecond!, pgl.perSecond!))} throughput; ` +
        `commit p50 ${fmt(pg.commit!.median, 1)} ms vs ${fmt(pgl.commit!.median, 1)} ms = ${fmtRatio(ratio(pg.commit!.median, pgl.commit!.median))}`,
    );
  } else out.push(`No PostgreSQL/PGlite comparison: ${results.filter((r) => r.skipped).map((r) => `${r.label} skipped`).join(", ") || "only one database was run"}`);
  out.push(`elapsed ${fmt((performance.now() - startedAt) / 1000, 0)} s`);
  out.push("");
  console.log(out.join("\n"));
}

const sumOf = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

async function main() {
  const results: DbResult[] = [];
  try {
    for (const kind of opts.databases) results.push(await runOn(kind));
  } finally {
    await stopTestPostgres().catch(() => {});
  }
  printReport(results);
}

main()
  .then(() => process.exit(0))
  .catch((err) => {
    console.error("bench: failed", err);
    process.exit(1);
  });
