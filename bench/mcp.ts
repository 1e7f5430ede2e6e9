/**
 * MCP benchmark: what MCP sessions acting every tick cost the world's tick, measured against the
 * same players alone, in ONE run on one server:
 *   phase A — P players (bench/population.ts: each walks or gathers every few seconds) in the world
 *             room; the tick's duration over a window of W ticks after a warm-up;
 *   phase B — the same players plus M MCP sessions (bench/mcpClients.ts, in a child process: the
 *             SDK's own Client over real HTTP at /mcp), each calling a tool every tick (move_to a
 *             tile nearby, then observe, in turn); the same warm-up and window.
 * Prints the tool calls per second, each tool's call latency (median, p99; move_to answers after
 * the tick that moves the player, so its latency includes waiting for that tick), and the tick's
 * median and p99 in both phases with their ratio.
 *
 * Usage: npm run bench:mcp [-- --players 100 --sessions 200 --ticks 60 --warmup 10 --concurrency 8 --seed 1]
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startTestServer } from "../test/helpers/server.js";
import { theWorld } from "../test/helpers/worldRoom.js";
import { benchArgs } from "./args.js";
import { Population } from "./population.js";
import { RoomProbe } from "./probe.js";
import { fmt, fmtRatio, percentiles, ratio, table } from "./stats.js";

const a = benchArgs("npm run bench:mcp", { players: "100", sessions: "200", ticks: "60", warmup: "10", concurrency: "8", seed: "1" });
const opts = {
  players: Math.max(0, Number(a.players)),
  sessions: Math.max(1, Number(a.sessions)),
  ticks: Math.max(5, Number(a.ticks)),
  warmup: Math.max(1, Number(a.warmup)),
  concurrency: Math.max(1, Number(a.concurrency)),
  seed: Number(a.seed),
};
const startedAt = performance.now();
const log = (msg: string) => console.error(`[${((performance.now() - startedAt) / 1000).toFixed(1)}s] ${msg}`);
console.warn = () => {};

/** The MCP sessions' child process, spoken to by messages. */
function mcpChild() {
  const child = fork(fileURLToPath(new URL("./mcpClients.ts", import.meta.url)), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const waiting: Array<{ type: string; resolve: (m: any) => void }> = [];
  child.on("message", (m: any) => {
    if (m?.type === "error") throw new Error(`mcp child: ${m.message}`);
    const i = waiting.findIndex((w) => w.type === m?.type);
    if (i >= 0) waiting.splice(i, 1)[0].resolve(m);
  });
  const ask = (m: unknown, answer: string) =>
    new Promise<any>((resolve) => {
      waiting.push({ type: answer, resolve });
      child.send(m as object);
    });
  return { ask, send: (m: unknown) => child.send(m as object), child };
}

async function main() {
  const server = await startTestServer({ env: { SAVE_INTERVAL: "3600" } });
  try {
    const room = await theWorld();
    const probe = new RoomProbe(room);
    const population = new Population(server, room, probe, { seed: opts.seed, scatter: true, concurrency: opts.concurrency });
    log(`joining ${opts.players} players`);
    await population.growTo(opts.players, performance.now() + 120_000);

    /** Warm up, then the window's tick durations (ms). */
    const window = async () => {
      await probe.waitTicks(opts.warmup);
      const from = probe.tick;
      await probe.waitTicks(opts.ticks);
      return probe.between(from, probe.tick).map((r) => r.totalMs);
    };
    log("phase A: the players alone");
    const alone = percentiles(await window());

    log(`opening ${opts.sessions} MCP sessions`);
    const tokens: string[] = [];
    for (let i = 0; i < opts.sessions; i++) {
      const res = await fetch(`${server.url}/api/auth/guest`, { method: "POST" });
      tokens.push(((await res.json()) as { token: string }).token);
    }
    const mcp = mcpChild();
    const ready = await mcp.ask({ type: "start", url: server.url, tokens, concurrency: opts.concurrency }, "ready");
    log(`${ready.opened} sessions open (${ready.failed} failed); acting every tick`);
    mcp.send({ type: "act" });
    await probe.waitTicks(opts.warmup);
    const from = probe.tick;
    const startMark = await mcp.ask({ type: "mark" }, "marked");
    const t0 = performance.now();
    await probe.waitTicks(opts.ticks);
    const endMark = await mcp.ask({ type: "mark" }, "marked");
    const seconds = (performance.now() - t0) / 1000;
    const records = probe.between(from, probe.tick);
    const withMcp = percentiles(records.map((r) => r.totalMs));
    const slowest = records.reduce((x, y) => (y.totalMs > x.totalMs ? y : x), records[0]);
    const report = await mcp.ask({ type: "stop" }, "report");

    const callsPerSecond = (endMark.calls - startMark.calls) / seconds;
    console.log(`\nbench:mcp — ${population.size} players, ${ready.opened} MCP sessions acting every tick, windows of ${opts.ticks} ticks\n`);
    console.log(
      `tool calls: ${fmt(callsPerSecond, 0)}/s (${endMark.calls - startMark.calls} in ${fmt(seconds, 1)} s), errors in the window: ${endMark.errors - startMark.errors}`,
    );
    if (Object.keys(report.errorCodes).length) console.log(`error codes over the run: ${JSON.stringify(report.errorCodes)}`);
    const rows = Object.entries(report.byTool as Record<string, number[]>).map(([tool, list]) => {
      const p = percentiles(list);
      return [tool, String(list.length), fmt(p.median), fmt(p.p99), fmt(p.max)];
    });
    const all = percentiles(Object.values(report.byTool as Record<string, number[]>).flat());
    rows.push(["all", String(Object.values(report.byTool as Record<string, number[]>).flat().length), fmt(all.median), fmt(all.p99), fmt(all.max)]);
    console.log(`\ncall latency (ms)\n${table(["tool", "calls", "p50", "p99", "max"], rows)}`);
    console.log(
      `\nworld tick (ms)\n${table(
        ["phase", "median", "p99", "max"],
        [
          ["players alone", fmt(alone.median, 2), fmt(alone.p99, 2), fmt(alone.max, 2)],
          [`players + ${ready.opened} MCP`, fmt(withMcp.median, 2), fmt(withMcp.p99, 2), fmt(withMcp.max, 2)],
          ["ratio", fmtRatio(ratio(withMcp.median, alone.median)), fmtRatio(ratio(withMcp.p99, alone.p99)), fmtRatio(ratio(withMcp.max, alone.max))],
        ],
      )}`,
    );
    if (slowest) {
      const phases = Object.entries(slowest.phases)
        .sort((x, y) => y[1] - x[1])
        .slice(0, 4)
        .map(([k, v]) => `${k} ${fmt(v, 1)}`)
        .join(", ");
      console.log(`\nslowest tick with MCP: ${fmt(slowest.totalMs, 1)} ms (garbage collection within it ${fmt(slowest.gcMs ?? 0, 1)} ms; ${phases})`);
    }
    // The report bench/ab.ts reads (its last line starting {"bench").
    console.log(
      JSON.stringify({
        bench: "mcp",
        players: population.size,
        sessions: ready.opened,
        callsPerSecond,
        latencyMs: { median: all.median, p99: all.p99 },
        tickMs: { alone: { median: alone.median, p99: alone.p99 }, withMcp: { median: withMcp.median, p99: withMcp.p99 } },
      }),
    );
    probe.close();
  } finally {
    await server.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
