import os from "node:os";
import type { WorldRoom } from "../rooms/WorldRoom.js";
import { MAX_AGENTS_PER_ACCOUNT } from "../src/http/api/agents.js";
import type { PhaseResult } from "./report.js";
import { fmt, fmtRatio, ratio, round, table } from "./stats.js";

/** The agents bench's options, what a phase measured, and the printed report. */

export interface Options {
  players: number;
  agents: number;
  ticks: number;
  warmup: number;
  spread: "world" | "spawn";
  concurrency: number;
  seed: number;
  /** A third window of this many ticks after the agents are stopped (0: none): does phase A still hold? */
  after: number;
  timeLimitS: number;
}

/** Counters on the agents' drivers (instance wrappers; src/agents is untouched). */
export interface AgentTally {
  orders: Map<string, number>;
  ordersTotal: number;
  /** Wall time in AgentDriver.act: deciding plus the room handling the orders it sends. */
  actMs: number;
  /** Of which the room handling the orders (sendToRoom → the room's message handlers). */
  handleMs: number;
  errors: Map<string, number>;
  goalChanges: number;
  /** player:move orders to the tile the same agent's move before last went to (walking back and forth). */
  backAndForth: number;
}
export interface Phase {
  name: string;
  agents: number;
  result: PhaseResult;
  p90: number;
  cpuPct: number;
  elu: number;
  agentTally: AgentTally;
  /** Per window tick, averaged: agents by goal (mind.goal.type) and by what their entity does. */
  activity: Map<string, number>;
  states: Map<string, number>;
  xpGained: Map<string, number>;
  stillAgents: number;
  gc: { count: number; ms: number; maxMs: number; inTicksMs: number };
  worst: { tick: number; totalMs: number; syncMs: number; viewsMs: number; patchMs: number; gcMs: number };
}

export function printReport(
  phases: Phase[],
  meta: { regS: number; readyS: number; regFailures: number; room: WorldRoom; warnings: number; startedAt: number },
  opts: Options,
) {
  const [a, b] = phases;
  const out: string[] = [""];
  out.push(
    `Agents benchmark — ${os.cpus().length} x ${os.cpus()[0]?.model ?? "?"}, node ${process.version}; one world room ${JSON.stringify(meta.room.world.map.bounds)}, 600 ms tick, embedded PGlite in memory, SAVE_INTERVAL=3600 s`,
  );
  out.push(
    `phase A: ${opts.players} players (in-memory clients, bench/population.ts: walk or gather every 3-6 s, spread=${opts.spread}); phase B: the same + ${opts.agents} built-in agents registered over REST (${MAX_AGENTS_PER_ACCOUNT} per guest account), all in the world with a goal before the warm-up`,
  );
  out.push(
    `each window: ${opts.ticks} ticks after ${opts.warmup} warm-up ticks; baseline = phase A of this run; p99 is sample floor(0.99·n) of the sorted durations (with n=${opts.ticks}: the largest)`,
  );
  out.push(`agents: registration ${fmt(meta.regS, 1)} s (${meta.regFailures} failed), then ${fmt(meta.readyS, 1)} s until all were in the world with a goal`);
  out.push("");
  const r = (p: Phase) => p.result;
  out.push(
    table(
      ["phase", "players", "agents", "in world", "tick med ms", "p90", "p99", "max", "mean", "x med", "x p90", "x p99", "x max", "skipped", "max gap ms"],
      phases.map((p) => [
        p.name,
        String(r(p).n),
        String(p.agents),
        String(r(p).playersInWorld),
        fmt(r(p).tick.median, 2),
        fmt(p.p90, 2),
        fmt(r(p).tick.p99, 2),
        fmt(r(p).tick.max, 2),
        fmt(r(p).tick.mean, 2),
        fmtRatio(ratio(r(p).tick.median, r(a).tick.median)),
        fmtRatio(ratio(p.p90, a.p90)),
        fmtRatio(ratio(r(p).tick.p99, r(a).tick.p99)),
        fmtRatio(ratio(r(p).tick.max, r(a).tick.max)),
        String(r(p).skippedTicks),
        fmt(r(p).maxTickGapMs, 0),
      ]),
    ),
  );
  out.push("");
  out.push(
    "Where the tick goes (medians, ms) and the process around it (CPU = user+system over the window, % of one core; the agents' act runs outside the tick):",
  );
  out.push(
    table(
      [
        "phase",
        "syncState",
        "updateViews",
        "broadcastPatch",
        "rules+msgs",
        "view in/out",
        "CPU %",
        "loop util",
        "heap MB",
        "player cmds/s",
        "player cmd ms/s",
        "agent orders/s",
        "agent act ms/s",
        "of which room handling",
        "B/player/s med",
      ],
      phases.map((p) => [
        p.name,
        fmt(r(p).stages.sync, 2),
        fmt(r(p).stages.views, 2),
        fmt(r(p).stages.patch, 2),
        fmt(r(p).stages.rest, 2),
        `${fmt(r(p).viewChanges.entered, 0)}/${fmt(r(p).viewChanges.left, 0)}`,
        fmt(p.cpuPct, 1),
        fmt(p.elu, 3),
        fmt(r(p).heapMB, 0),
        fmt(r(p).commandsPerSec, 1),
        fmt(r(p).commandMsPerSec, 1),
        fmt(p.agentTally.ordersTotal / r(p).seconds, 1),
        fmt(p.agentTally.actMs / r(p).seconds, 1),
        fmt(p.agentTally.handleMs / r(p).seconds, 1),
        fmt(r(p).bytes.perClientMedian, 0),
      ]),
    ),
  );
  out.push("");
  out.push("Garbage collection (main thread) in each window, and the slowest tick:");
  out.push(
    table(
      ["phase", "GCs", "GC ms", "longest GC ms", "GC ms inside ticks", "slowest tick", "ms", "syncState", "updateViews", "broadcastPatch", "GC in it ms"],
      phases.map((p) => [
        p.name,
        String(p.gc.count),
        fmt(p.gc.ms, 1),
        fmt(p.gc.maxMs, 1),
        fmt(p.gc.inTicksMs, 1),
        String(p.worst.tick),
        fmt(p.worst.totalMs, 1),
        fmt(p.worst.syncMs, 1),
        fmt(p.worst.viewsMs, 1),
        fmt(p.worst.patchMs, 1),
        fmt(p.worst.gcMs, 1),
      ]),
    ),
  );
  if (b) {
    out.push("");
    out.push(
      `Agents in phase B, averaged over the window's ticks: goal (driver mind.goal.type) × what the world entity does (walking = a path left after a move order, walking to target = to the node/npc of its action; gathering/fighting = that action, at the target):`,
    );
    const goals = [...b.activity.keys()].sort();
    const states = ["walking", "walking to target", "gathering", "fighting", "picking up", "at bank", "standing", "dead", "offline"].filter((s) =>
      b.states.has(s),
    );
    out.push(
      table(
        ["goal", "agents", ...states],
        [
          ...goals.map((g) => [g, fmt(b.activity.get(g), 1), ...states.map((s) => fmt(b.states.get(`${g}|${s}`) ?? 0, 1))]),
          [
            "all",
            fmt(
              [...b.activity.values()].reduce((x, y) => x + y, 0),
              1,
            ),
            ...states.map((s) => fmt(b.states.get(s), 1)),
          ],
        ],
      ),
    );
    const t = b.agentTally;
    const perS = (v: number) => fmt(v / r(b).seconds, 2);
    out.push(
      `orders/s by type: ${
        [...t.orders]
          .sort((x, y) => y[1] - x[1])
          .map(([k, v]) => `${k} ${perS(v)}`)
          .join(", ") || "none"
      }`,
    );
    out.push(
      `refusals the agents received (error events): ${
        [...t.errors]
          .sort((x, y) => y[1] - x[1])
          .map(([k, v]) => `${k} ${v}`)
          .join(", ") || "none"
      }; goal changes ${t.goalChanges}; move orders back to the tile of the agent's move before last: ${t.backAndForth} of ${t.orders.get("player:move") ?? 0}`,
    );
    out.push(
      `xp the agents gained in the window: ${
        [...b.xpGained]
          .filter(([, v]) => v > 0)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ") || "none"
      }; agents on the same tile at both ends of the window: ${b.stillAgents}/${b.agents}`,
    );
  }
  if (meta.warnings) out.push(`console.warn calls (schema encoder): ${meta.warnings}`);
  out.push(`elapsed ${fmt((performance.now() - meta.startedAt) / 1000, 0)} s`);
  out.push("");
  console.log(out.join("\n"));
  const json = {
    bench: "agents",
    options: opts,
    phases: phases.map((p) => ({
      name: p.name,
      players: r(p).n,
      agents: p.agents,
      tickMs: {
        median: round(r(p).tick.median, 3),
        p90: round(p.p90, 3),
        p99: round(r(p).tick.p99, 3),
        max: round(r(p).tick.max, 3),
        mean: round(r(p).tick.mean, 3),
      },
      ratioToA: { median: rnd3(ratio(r(p).tick.median, r(a).tick.median)), p90: rnd3(ratio(p.p90, a.p90)), p99: rnd3(ratio(r(p).tick.p99, r(a).tick.p99)) },
      cpuPct: round(p.cpuPct, 1),
      gcMs: round(p.gc.ms, 1),
      agentOrdersPerSec: round(p.agentTally.ordersTotal / r(p).seconds, 2),
      agentActMsPerSec: round(p.agentTally.actMs / r(p).seconds, 2),
      goals: Object.fromEntries([...p.activity].map(([k, v]) => [k, round(v, 1)])),
      states: Object.fromEntries([...p.states].filter(([k]) => !k.includes("|")).map(([k, v]) => [k, round(v, 1)])),
    })),
  };
  console.log(JSON.stringify(json));
}

const rnd3 = (v: number | null) => (v === null ? null : round(v, 3));
