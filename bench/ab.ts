/**
 * A/B of two revisions on one benchmark, taking turns in one session: A, B, A, B, ... each run a
 * fresh process. On this kind of machine the same commit measured an hour apart differed by ×2 to ×6
 * in a tick phase (bench:world's spread map, `players`), so a change is judged against its parent
 * run beside it, not against a figure from another day.
 *
 * Each revision other than "." (the working tree) is checked out in a temporary git worktree that
 * shares this checkout's node_modules; the worktrees are removed at the end. Every run's last JSON
 * line (the report each benchmark prints) is read:
 *   - bench:world: per N, the tick median and p99 and the median of each tick phase;
 *   - bench:ws: per N, /ws's server CPU a frame and its ratio to the fan-out baseline.
 *   - bench:mcp: the tool calls a second, the calls' latency, the tick with the MCP sessions and
 *     its ratio to the players alone;
 *   - bench:client (bench/clientDraw.ts): the web client's draw time a frame, p50 to max.
 * With --same-bench, each side runs this checkout's bench/ files (copied into its worktree), so
 * only the server differs: for a revision whose benchmark printed no report yet.
 * It prints every run, then per side the median over its runs, and B ÷ A.
 *
 * Usage: npx tsx bench/ab.ts --a HEAD~1 --b . --bench world --runs 3
 *          --args="--maps spread --sizes 1000 --twins 0 --send-cost false --measure-save false"
 *        npx tsx bench/ab.ts --a HEAD~3 --b . --bench mcp --runs 2 --same-bench true
 *        npx tsx bench/ab.ts --a HEAD~5 --b . --bench client --same-bench true
 */
import { spawn } from "node:child_process";
import { benchArgs } from "./args.js";
import { fmt, fmtRatio, median, ratio, table } from "./stats.js";
import { checkout } from "./worktree.js";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "../src/paths.js";

const a = benchArgs("npx tsx bench/ab.ts", { a: "HEAD~1", b: ".", bench: "world", runs: "3", args: "", "same-bench": "false" });
const runs = Number(a.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs must be a whole number of at least 1");
/** Each benchmark's file under bench/. */
const FILES: Record<string, string> = { world: "world", ws: "ws", mcp: "mcp", client: "clientDraw" };
if (!(a.bench in FILES)) throw new Error(`--bench must be one of ${Object.keys(FILES).join(", ")}`);

/** The figures of one run, by name (e.g. "N=1000 tick median"). */
type Figures = Map<string, number>;

function figuresOf(bench: string, report: any): Figures {
  const out: Figures = new Map();
  if (bench === "world") {
    for (const r of report.results ?? []) {
      out.set(`N=${r.n} tick median`, r.tickMs.median);
      out.set(`N=${r.n} tick p99`, r.tickMs.p99);
      for (const [phase, ms] of Object.entries(r.phasesMedianMs ?? {})) if ((ms as number) >= 0.1) out.set(`N=${r.n} ${phase}`, ms as number);
    }
  } else if (bench === "mcp") {
    out.set("MCP tool calls/s", report.callsPerSecond);
    out.set("MCP call p50 ms", report.latencyMs.median);
    out.set("MCP call p99 ms", report.latencyMs.p99);
    out.set("tick median, players alone", report.tickMs.alone.median);
    out.set("tick median, with MCP", report.tickMs.withMcp.median);
    out.set("tick p99, with MCP", report.tickMs.withMcp.p99);
    out.set("tick median ratio (MCP ÷ alone)", report.tickMs.withMcp.median / report.tickMs.alone.median);
  } else if (bench === "client") {
    for (const [q, ms] of Object.entries(report.frameMs ?? {})) out.set(`frame ${q} ms`, ms as number);
  } else {
    for (const b of report.rawBaseline ?? []) {
      out.set(`N=${b.n} /ws µs a frame`, b.ws.cpuUsPerFrame);
      out.set(`N=${b.n} /ws ÷ fan-out`, b.wsToRawCpuPerFrame);
      if (b.wsToRawMainThreadPerFrame != null) out.set(`N=${b.n} /ws ÷ fan-out, main thread`, b.wsToRawMainThreadPerFrame);
    }
  }
  return out;
}

function runOnce(dir: string): Promise<Figures> {
  const args = ["--import", "tsx", `bench/${FILES[a.bench]}.ts`, ...a.args.split(/\s+/).filter(Boolean)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: dir, stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = stdout
        .split("\n")
        .reverse()
        .find((l) => l.startsWith('{"bench"'));
      if (code !== 0 || !line) return reject(new Error(`bench/${FILES[a.bench]}.ts in ${dir} exited ${code} without its report`));
      resolve(figuresOf(a.bench, JSON.parse(line)));
    });
  });
}

async function main() {
  const sides = [checkout(a.a), checkout(a.b)];
  if (a["same-bench"] === "true")
    for (const s of sides) if (s.dir !== ROOT) fs.cpSync(path.join(ROOT, "bench"), path.join(s.dir, "bench"), { recursive: true });
  const results: Figures[][] = [[], []];
  try {
    for (let i = 0; i < runs; i++) {
      for (const s of [0, 1]) {
        const figures = await runOnce(sides[s].dir);
        results[s].push(figures);
        console.log(`[run ${i + 1}, ${s ? "B" : "A"}] ${[...figures].map(([k, v]) => `${k} ${fmt(v, 2)}`).join("; ")}`);
      }
    }
  } finally {
    for (const s of sides) s.remove?.();
  }
  const names = [...new Set(results.flat().flatMap((f) => [...f.keys()]))];
  const mid = (s: number, name: string) => median(results[s].map((f) => f.get(name)).filter((v): v is number => v !== undefined));
  console.log(`\nA = ${sides[0].label}, B = ${sides[1].label}; bench:${a.bench} ${a.args}; ${runs} runs each, taking turns; medians over the runs:`);
  console.log(
    table(
      ["figure", "A", "B", "B ÷ A"],
      names.map((name) => {
        const [ma, mb] = [mid(0, name), mid(1, name)];
        return [name, fmt(ma, 2), fmt(mb, 2), fmtRatio(ratio(mb, ma))];
      }),
    ),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
