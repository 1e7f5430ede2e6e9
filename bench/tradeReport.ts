import os from "node:os";
import { performance } from "node:perf_hooks";
import { TRADE_LIMITS } from "../src/game/trade.js";
import { WS_LIMITS } from "../src/ws/protocol.js";
import { fmt, fmtRatio, ratio, table } from "./stats.js";
import { LABEL, type DbKind } from "./tradeDatabases.js";
import type { Trouble } from "./tradeClient.js";

/** The trade bench's options, one database's results, the machine's CPU time and the printed report. */

export interface Options {
  /** The pair counts to run, one after another. */
  pairCounts: number[];
  /** The pair count of the run under way. */
  pairs: number;
  seconds: number;
  warmupS: number;
  databases: DbKind[];
  /** The server's repeat-request limit for this bench (ms); the pairs wait it out. */
  repeatMs: number;
  /** Frames each client sends per second at most (the server allows WS_LIMITS.messagesPerSecond). */
  sendRate: number;
  stepTimeoutS: number;
  /** Write a CPU profile of the last run's window here (and print where its time went). */
  profile?: string;
}

export interface DbResult {
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
  /** This process (the server; the clients run in a child process) over the window. */
  process?: { cpuPct: number; elu: number; loopDelayP99Ms: number; machinePct: number };
  trouble?: Trouble;
  coins?: { expected: number; found: number };
}

/** CPU time of the whole machine so far (ms): busy and total, all cores. */
export function machineTimes() {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    const all = times.user + times.nice + times.sys + times.irq + times.idle;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

export function printReport(results: DbResult[], opts: Options, startedAt: number, ceiling?: { tps: number; command: string } | { skipped: string }) {
  const out: string[] = [""];
  out.push(`Trade throughput — ${os.cpus().length} x ${os.cpus()[0]?.model ?? "?"}, node ${process.version}`);
  out.push(
    `the server in this process, ${2 * opts.pairs} /ws clients (${opts.pairs} pairs) in a child process, real WebSockets over 127.0.0.1; all pairs trade in parallel, continuously`,
  );
  out.push(
    `each trade: request, respond, 1 coin offered each way, both accept the offer screen, asker accepts the confirm screen, then the asked player's accept commits; the asker alternates`,
  );
  if (opts.repeatMs < TRADE_LIMITS.repeatRequestMs) {
    out.push(
      `NOTE: the repeat-request limit was lifted for the bench (tradeLimits.repeatRequestMs = ${opts.repeatMs}; the server's default is ${TRADE_LIMITS.repeatRequestMs} ms, which would cap each pair at 2 trades per ${TRADE_LIMITS.repeatRequestMs / 1000} s)`,
    );
  } else out.push(`repeat-request limit kept at ${opts.repeatMs} ms: each pair waits it out before asking in the same direction again`);
  out.push(`window ${opts.seconds} s after ${opts.warmupS} s of warm-up (trades completed in the window); periodic save off (SAVE_INTERVAL=3600)`);
  out.push(
    `clients paced to <= ${opts.sendRate} frames/s each (/ws allows ${WS_LIMITS.messagesPerSecond}); each sends 4 frames per trade, so the pacing alone caps a pair at ${fmt(opts.sendRate / 4, 1)} trades/s ` +
      `and the run at ${fmt((opts.pairs * opts.sendRate) / 4, 0)} trades/s (frames held back are counted below)`,
  );
  out.push(`commit: from writing the second confirm-screen tradeAccept to that client's tradeCompleted; trade: from tradeRequest to both tradeCompleted`);
  out.push(
    `the commit's legs (ms): →server = until the server's trade desk receives that accept; server = from there to tradeCompleted handed to the socket (waiting behind the world saver's earlier writes of the same characters, + the transaction); →client = from there to the client's message event`,
  );
  out.push(
    `CPU %, loop util, loop delay: the server's process (server and PGlite; not the clients) over the window; machine CPU %: every process (PostgreSQL's too, and anything else running); 100% = one core of ${os.cpus().length}`,
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
    (r) => [
      String(r.completed),
      String(sumOf(r.trouble!.cancelled)),
      String(sumOf(r.trouble!.errors) + r.trouble!.stalls),
      r.coins!.found === r.coins!.expected ? "yes" : `NO (${r.coins!.found}/${r.coins!.expected})`,
    ],
  );
  section(
    ["commit →server p50 ms", "server p50 ms", "server p99 ms", "→client p50 ms", "CPU %", "machine CPU %", "loop util", "loop delay p99 ms"],
    (r) => [
      r.legs!.toServer,
      r.legs!.server,
      r.legs!.serverP99,
      r.legs!.toClient,
      r.process?.cpuPct,
      r.process?.machinePct,
      r.process?.elu,
      r.process?.loopDelayP99Ms,
    ],
    [1, 1, 1, 1, 0, 0, 2, 1],
  );
  for (const r of results) out.push(r.skipped ? `${LABEL[r.kind]}: run skipped — ${r.skipped}` : `${LABEL[r.kind]} = ${r.label}`);
  out.push("");
  for (const r of done) {
    const t = r.trouble!;
    const list = (m: Map<string, number>) => [...m].map(([k, v]) => `${k} ${v}`).join(", ") || "none";
    out.push(
      `${LABEL[r.kind]}: ${r.clients} clients; ${r.completed} trades in the window, ${r.completedLate} finished after it; cancelled: ${list(t.cancelled)}; errors: ${list(t.errors)}; stalled steps: ${t.stalls}; frames held back by the client pacer: ${t.pacedWaits}`,
    );
    for (const f of t.first) out.push(`  first trouble: ${f}`);
    const cap = (opts.pairs * opts.sendRate) / 4;
    if (r.perSecond! >= 0.9 * cap)
      out.push(
        `  ${fmt(r.perSecond, 1)} trades/s is at the clients' pacing cap (${fmt(cap, 0)}/s): a floor for what the server and database can do; run more --pairs`,
      );
  }
  out.push("");
  if (pgl && pg) {
    out.push(
      `Baseline measured in the same run: PostgreSQL ${fmt(pg.perSecond, 1)} trades/s vs PGlite ${fmt(pgl.perSecond, 1)} trades/s = ${fmtRatio(ratio(pg.perSecond!, pgl.perSecond!))} throughput; ` +
        `commit p50 ${fmt(pg.commit!.median, 1)} ms vs ${fmt(pgl.commit!.median, 1)} ms = ${fmtRatio(ratio(pg.commit!.median, pgl.commit!.median))}`,
    );
  } else
    out.push(
      `No PostgreSQL/PGlite comparison: ${
        results
          .filter((r) => r.skipped)
          .map((r) => `${r.label} skipped`)
          .join(", ") || "only one database was run"
      }`,
    );
  if (ceiling && "tps" in ceiling) {
    const trades = pg?.perSecond;
    out.push(
      `Ceiling measured in the same run: ${ceiling.command} on the same PostgreSQL: ${fmt(ceiling.tps, 0)} tps; ` +
        `PostgreSQL trades/s ÷ pgbench tps = ${trades === undefined ? "n/a" : `${fmt((100 * trades) / ceiling.tps, 2)} %`} (a trade is one transaction)`,
    );
  } else if (ceiling) out.push(`No pgbench ceiling: ${ceiling.skipped}`);
  out.push(`elapsed ${fmt((performance.now() - startedAt) / 1000, 0)} s`);
  out.push("");
  console.log(out.join("\n"));
}

export const sumOf = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
