/**
 * Agents benchmark: what 100 built-in agents acting in the world cost the WorldRoom's tick, measured
 * against 100 moving players alone, in ONE run on one server:
 *   phase A — P players (bench/population.ts: each walks or gathers every 3-6 s) in the world room;
 *             tick durations over a window of W ticks after a warm-up;
 *   phase B — the same players plus A agents, registered over REST (POST /api/agent/register, which
 *             creates the character and starts it in the built-in runtime, src/agents/); once all are
 *             in the world with a goal, the same warm-up and window.
 * Prints the tick duration (median, p90, p99, max) of both phases and the ratio B/A, where the tick
 * goes, the process's CPU use, the orders the agents sent and what they were doing (goals from each
 * driver's mind, actions from the world's entities, sampled every window tick).
 *
 * The agents decide and send after the tick (setImmediate) and the room handles each order when it
 * arrives, so their own CPU is outside the tick: it is shown separately (agent act ms/s).
 *
 * Usage: npm run bench:agents [-- --players 100 --agents 100 --ticks 60 --warmup 10
 *        --spread world|spawn --concurrency 8 --seed 1 --after 30 --time-limit 170]
 * (--after N: a third window of N ticks once the agents are stopped, to see that phase A still holds; 0: none)
 */
import os from "node:os";
import { PerformanceObserver, performance } from "node:perf_hooks";
import type { AgentDriver } from "../src/agents/driver.js";
import { MAX_AGENTS_PER_ACCOUNT } from "../src/http/api/agents.js";
import { startTestServer, type TestServer } from "../test/helpers/server.js";
import { theWorld } from "../test/helpers/traders.js";
import type { WorldRoom } from "../rooms/WorldRoom.js";
import { benchArgs } from "./args.js";
import { Population } from "./population.js";
import { RoomProbe } from "./probe.js";
import { summarise, type PhaseResult, type Snapshot } from "./report.js";
import { fmt, fmtRatio, median, quantile, ratio, round, table } from "./stats.js";

interface Options {
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

function parseOptions(): Options {
  const a = benchArgs("npm run bench:agents", {
    players: "100",
    agents: "100",
    ticks: "60",
    warmup: "10",
    spread: "world",
    concurrency: "8",
    seed: "1",
    after: "30",
    "time-limit": "170",
  });
  return {
    players: Math.max(0, Number(a.players)),
    agents: Math.max(0, Number(a.agents)),
    ticks: Math.max(5, Number(a.ticks)),
    warmup: Math.max(1, Number(a.warmup)),
    spread: a.spread === "spawn" ? "spawn" : "world",
    concurrency: Math.max(1, Number(a.concurrency)),
    seed: Number(a.seed),
    after: Math.max(0, Number(a.after)),
    timeLimitS: Number(a["time-limit"]),
  };
}

const opts = parseOptions();
const startedAt = performance.now();
const deadline = startedAt + opts.timeLimitS * 1000;
const watchdog = setTimeout(() => {
  console.error(`bench: time limit of ${opts.timeLimitS}s (+45 s) reached, stopping`);
  process.exit(2);
}, opts.timeLimitS * 1000 + 45_000);
watchdog.unref();

// @colyseus/schema warns on stderr when an encode outgrows its buffer: count instead of flooding.
let warningCount = 0;
console.warn = () => {
  warningCount++;
};
// Garbage collections (the main thread's pauses), to tell them apart from work in the slowest ticks.
const gcs: Array<{ at: number; ms: number }> = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push({ at: e.startTime, ms: e.duration });
}).observe({ entryTypes: ["gc"] });
const log = (msg: string) => console.error(`[${((performance.now() - startedAt) / 1000).toFixed(1)}s] ${msg}`);

/** Counters on the agents' drivers (instance wrappers; src/agents is untouched). */
interface AgentTally {
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
const newTally = (): AgentTally => ({ orders: new Map(), ordersTotal: 0, actMs: 0, handleMs: 0, errors: new Map(), goalChanges: 0, backAndForth: 0 });
const copyTally = (t: AgentTally): AgentTally => ({ ...t, orders: new Map(t.orders), errors: new Map(t.errors) });
const bump = (m: Map<string, number>, k: string, by = 1) => m.set(k, (m.get(k) ?? 0) + by);

function instrument(d: AgentDriver, tally: AgentTally) {
  const act = d.act.bind(d);
  const sendToRoom = d.sendToRoom.bind(d);
  const send = d.send.bind(d);
  const goalChange = d.onGoalChange;
  const moves: string[] = [];
  d.act = () => {
    const t = performance.now();
    try {
      act();
    } finally {
      tally.actMs += performance.now() - t;
    }
  };
  d.sendToRoom = (type: string, payload?: unknown) => {
    tally.ordersTotal++;
    bump(tally.orders, type);
    if (type === "player:move") {
      const to = JSON.stringify(payload);
      if (moves.length === 2 && moves[0] === to && moves[1] !== to) tally.backAndForth++;
      moves.push(to);
      if (moves.length > 2) moves.shift();
    }
    const t = performance.now();
    try {
      sendToRoom(type, payload);
    } finally {
      tally.handleMs += performance.now() - t;
    }
  };
  d.send = (type: any, message?: any) => {
    if (type === "error") bump(tally.errors, String(message?.code ?? "ERROR"));
    return send(type, message);
  };
  d.onGoalChange = (goal, previous) => {
    tally.goalChanges++;
    goalChange?.(goal, previous);
  };
}

interface Phase {
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

async function main() {
  const server = await startTestServer({ env: { SAVE_INTERVAL: "3600" } });
  const runtime = server.arena.agents;
  const agentIds: string[] = [];
  let population: Population | undefined;
  try {
    const room = await theWorld();
    const probe = new RoomProbe(room);
    const tally = newTally();
    const drivers = () => agentIds.flatMap((id) => runtime.driver(id) ?? []);

    // Snapshots right after a tick (first listener), as bench/world.ts takes them.
    type Snap = Snapshot & { cpu: NodeJS.CpuUsage; elu: ReturnType<typeof performance.eventLoopUtilization>; tally: AgentTally; xp: Map<string, number>; tiles: Map<string, string> };
    const captures: Array<{ tick: number; resolve: (s: Snap) => void }> = [];
    let sampling: { from: number; to: number; goals: Map<string, number>; states: Map<string, number>; n: number } | undefined;
    probe.onTick((tick) => {
      if (sampling && tick > sampling.from && tick <= sampling.to) sample(room, drivers(), sampling, tick);
      for (let i = captures.length - 1; i >= 0; i--) {
        if (tick < captures[i].tick) continue;
        captures[i].resolve(snapshot(tick));
        captures.splice(i, 1);
      }
    });
    const snapshot = (tick: number): Snap => ({
      tick,
      at: performance.now(),
      bots: population!.bots.map((b) => ({ ...b.client.counter, twin: false })),
      sdkServer: [],
      commandsSent: population!.commandsSent,
      commandMs: population!.commandMs,
      saves: room.saver.stats.saves,
      skipped: room.loop.skipped,
      durations: [...room.loop.durations],
      warnings: warningCount,
      visiblePlayersMedian: median([...room.sync.viewers.values()].map((v) => v.visible.player.size)),
      encoderBufferBytes: 0,
      cpu: process.cpuUsage(),
      elu: performance.eventLoopUtilization(),
      tally: copyTally(tally),
      ...agentXpAndTiles(room, drivers()),
    });
    const captureAt = (tick: number) =>
      new Promise<Snap>((resolve, reject) => {
        captures.push({ tick, resolve });
        setTimeout(() => reject(new Error(`no tick ${tick}`)), (tick - probe.tick + 20) * 2_000).unref();
      });

    /** Warm up, then measure one window. */
    const measure = async (name: string, ticks: number): Promise<Phase> => {
      const start = await captureAt(probe.tick + opts.warmup);
      sampling = { from: start.tick, to: start.tick + ticks, goals: new Map(), states: new Map(), n: 0 };
      const end = await captureAt(start.tick + ticks);
      const s = sampling;
      sampling = undefined;
      const result = summarise(population!.size, room.world.players.size, start, end, probe.between(start.tick, end.tick), [], 0);
      if (result.ticks !== ticks) log(`${name}: the window has ${result.ticks} ticks, not ${ticks}`);
      const cpu = process.cpuUsage(start.cpu);
      const wallMs = end.at - start.at;
      const avg = (m: Map<string, number>) => new Map([...m].map(([k, v]) => [k, v / Math.max(1, s.n)]));
      const xpGained = new Map<string, number>();
      for (const [k, v] of end.xp) xpGained.set(k, v - (start.xp.get(k) ?? 0));
      const records = probe.between(start.tick, end.tick);
      const inWindow = gcs.filter((g) => g.at >= start.at && g.at <= end.at);
      const gcDuring = (r: { startedAt: number; totalMs: number }) => inWindow.filter((g) => g.at >= r.startedAt && g.at <= r.startedAt + r.totalMs).reduce((n, g) => n + g.ms, 0);
      const w = records.reduce((x, y) => (y.totalMs > x.totalMs ? y : x), records[0]);
      let still = 0;
      for (const [id, at] of end.tiles) if (start.tiles.get(id) === at) still++;
      const phase: Phase = {
        name,
        agents: drivers().filter((d) => room.world.players.has(d.userData?.playerId)).length,
        result,
        p90: quantile(end.durations.slice(-(end.tick - start.tick)), 0.9),
        cpuPct: (100 * (cpu.user + cpu.system)) / 1000 / wallMs,
        elu: performance.eventLoopUtilization(end.elu, start.elu).utilization,
        agentTally: diffTally(end.tally, start.tally),
        activity: avg(s.goals),
        states: avg(s.states),
        xpGained,
        stillAgents: still,
        gc: { count: inWindow.length, ms: inWindow.reduce((n, g) => n + g.ms, 0), maxMs: Math.max(0, ...inWindow.map((g) => g.ms)), inTicksMs: records.reduce((n, r) => n + gcDuring(r), 0) },
        worst: { tick: w.tick, totalMs: w.totalMs, syncMs: w.syncMs, viewsMs: w.viewsMs, patchMs: w.patchMs, gcMs: gcDuring(w) },
      };
      log(`${name}: tick median ${fmt(result.tick.median, 2)} ms, p90 ${fmt(phase.p90, 2)}, p99 ${fmt(result.tick.p99, 2)}, max ${fmt(result.tick.max, 2)}; CPU ${fmt(phase.cpuPct, 0)}%`);
      return phase;
    };

    // Phase A: the players alone.
    population = new Population(server, room, probe, { seed: opts.seed, scatter: opts.spread === "world", concurrency: opts.concurrency });
    const joinStart = performance.now();
    await population.growTo(opts.players, deadline);
    log(`${population.size} players joined in ${fmt((performance.now() - joinStart) / 1000, 1)} s; spreading out`);
    const scatterLimit = probe.tick + 15;
    await probe.waitUntil((t) => population!.scattering === 0 || t >= scatterLimit, 120_000, "players to spread out");
    const phases: Phase[] = [await measure("A players", opts.ticks)];

    // Phase B: the agents come in over REST, each started by the runtime as it registers.
    const regStart = performance.now();
    const reg = await registerAgents(server, opts.agents, Math.min(opts.concurrency, 4));
    agentIds.push(...reg.ids);
    for (const d of drivers()) instrument(d, tally);
    const regS = (performance.now() - regStart) / 1000;
    log(`${reg.ids.length} agents registered in ${fmt(regS, 1)} s (${reg.failures} failed); waiting for them to be in the world with a goal`);
    const ready = () => drivers().filter((d) => d.mind.goal && room.world.players.has(d.userData?.playerId)).length;
    const readyStart = performance.now();
    await probe.waitUntil(() => ready() >= reg.ids.length || performance.now() > deadline, 120_000, "agents in the world with goals").catch(() => {});
    const readyS = (performance.now() - readyStart) / 1000;
    log(`${ready()}/${reg.ids.length} agents in the world with a goal after ${fmt(readyS, 1)} s more (runtime.running=${runtime.running})`);
    phases.push(await measure("B players+agents", opts.ticks));

    let after: Phase | undefined;
    if (opts.after > 0 && performance.now() < deadline) {
      for (const id of agentIds) runtime.stop(id);
      await probe.waitUntil(() => drivers().length === 0 && room.world.players.size <= population!.size, 60_000, "agents to leave").catch(() => {});
      after = await measure("A' agents stopped", opts.after);
      phases.push(after);
    }

    printReport(phases, { regS, readyS, regFailures: reg.failures, room });
  } finally {
    for (const id of agentIds) runtime.stop(id);
    for (const b of population?.bots ?? []) b.client.disconnect();
    log(`cleanup: ${runtime.running} agents still running, closing the server`);
    await server.close().catch((err) => log(`server close failed: ${(err as Error).message}`));
  }
}

/** POST /api/agent/register for `count` agents, MAX_AGENTS_PER_ACCOUNT per guest account. */
async function registerAgents(server: TestServer, count: number, concurrency: number) {
  const post = async (path: string, token?: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const owners: string[] = [];
  for (let i = 0; i < Math.ceil(count / MAX_AGENTS_PER_ACCOUNT); i++) {
    const g = await post("/api/auth/guest");
    if (g.status !== 201) throw new Error(`guest: ${g.status}`);
    owners.push(g.body.token);
  }
  const ids: string[] = [];
  let next = 0;
  let failures = 0;
  const worker = async () => {
    while (next < count && performance.now() < deadline) {
      const i = next++;
      const r = await post("/api/agent/register", owners[Math.floor(i / MAX_AGENTS_PER_ACCOUNT)], { name: `Agent${String(i + 1).padStart(4, "0")}` }).catch((err) => ({ status: 0, body: String(err) }));
      if (r.status === 201) ids.push(r.body.agentId);
      else if (++failures <= 3) console.error(`bench: register failed: ${r.status} ${JSON.stringify(r.body)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { ids, failures };
}

/** One window tick: each agent's goal, and what its entity is doing. */
function sample(room: WorldRoom, drivers: AgentDriver[], s: { goals: Map<string, number>; states: Map<string, number>; n: number }, _tick: number) {
  s.n++;
  for (const d of drivers) {
    const goal = d.mind.goal?.type ?? "none";
    const p = room.world.players.get(d.userData?.playerId);
    const state = !p ? "offline" : p.health <= 0 ? "dead" : p.path.length > 0 ? (p.action ? "walking to target" : "walking") : p.action?.type === "gather" ? "gathering" : p.action?.type === "attack" ? "fighting" : p.action?.type === "pickup" ? "picking up" : goal === "bank" && d.sight.self?.bank ? "at bank" : "standing";
    bump(s.goals, goal);
    bump(s.states, state);
    bump(s.states, `${goal}|${state}`);
  }
}

function agentXpAndTiles(room: WorldRoom, drivers: AgentDriver[]) {
  const xp = new Map<string, number>();
  const tiles = new Map<string, string>();
  for (const d of drivers) {
    const p = room.world.players.get(d.userData?.playerId);
    if (!p) continue;
    for (const [skill, v] of Object.entries(p.xp)) bump(xp, skill, v as number);
    tiles.set(p.id, `${p.tile.x},${p.tile.z}`);
  }
  return { xp, tiles };
}

function diffTally(b: AgentTally, a: AgentTally): AgentTally {
  const d = (x: Map<string, number>, y: Map<string, number>) => new Map([...x].map(([k, v]) => [k, v - (y.get(k) ?? 0)] as [string, number]).filter(([, v]) => v !== 0));
  return { orders: d(b.orders, a.orders), ordersTotal: b.ordersTotal - a.ordersTotal, actMs: b.actMs - a.actMs, handleMs: b.handleMs - a.handleMs, errors: d(b.errors, a.errors), goalChanges: b.goalChanges - a.goalChanges, backAndForth: b.backAndForth - a.backAndForth };
}

function printReport(phases: Phase[], meta: { regS: number; readyS: number; regFailures: number; room: WorldRoom }) {
  const [a, b] = phases;
  const out: string[] = [""];
  out.push(`Agents benchmark — ${os.cpus().length} x ${os.cpus()[0]?.model ?? "?"}, node ${process.version}; one world room ${JSON.stringify(meta.room.world.map.bounds)}, 600 ms tick, embedded PGlite in memory, SAVE_INTERVAL=3600 s`);
  out.push(`phase A: ${opts.players} players (in-memory clients, bench/population.ts: walk or gather every 3-6 s, spread=${opts.spread}); phase B: the same + ${opts.agents} built-in agents registered over REST (${MAX_AGENTS_PER_ACCOUNT} per guest account), all in the world with a goal before the warm-up`);
  out.push(`each window: ${opts.ticks} ticks after ${opts.warmup} warm-up ticks; baseline = phase A of this run; p99 is sample floor(0.99·n) of the sorted durations (with n=${opts.ticks}: the largest)`);
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
  out.push("Where the tick goes (medians, ms) and the process around it (CPU = user+system over the window, % of one core; the agents' act runs outside the tick):");
  out.push(
    table(
      ["phase", "syncState", "updateViews", "broadcastPatch", "rules+msgs", "view in/out", "CPU %", "loop util", "heap MB", "player cmds/s", "player cmd ms/s", "agent orders/s", "agent act ms/s", "of which room handling", "B/player/s med"],
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
      phases.map((p) => [p.name, String(p.gc.count), fmt(p.gc.ms, 1), fmt(p.gc.maxMs, 1), fmt(p.gc.inTicksMs, 1), String(p.worst.tick), fmt(p.worst.totalMs, 1), fmt(p.worst.syncMs, 1), fmt(p.worst.viewsMs, 1), fmt(p.worst.patchMs, 1), fmt(p.worst.gcMs, 1)]),
    ),
  );
  if (b) {
    out.push("");
    out.push(`Agents in phase B, averaged over the window's ticks: goal (driver mind.goal.type) × what the world entity does (walking = a path left after a move order, walking to target = to the node/npc of its action; gathering/fighting = that action, at the target):`);
    const goals = [...b.activity.keys()].sort();
    const states = ["walking", "walking to target", "gathering", "fighting", "picking up", "at bank", "standing", "dead", "offline"].filter((s) => b.states.has(s));
    out.push(
      table(
        ["goal", "agents", ...states],
        [...goals.map((g) => [g, fmt(b.activity.get(g), 1), ...states.map((s) => fmt(b.states.get(`${g}|${s}`) ?? 0, 1))]), ["all", fmt([...b.activity.values()].reduce((x, y) => x + y, 0), 1), ...states.map((s) => fmt(b.states.get(s), 1))]],
      ),
    );
    const t = b.agentTally;
    const perS = (v: number) => fmt(v / r(b).seconds, 2);
    out.push(`orders/s by type: ${[...t.orders].sort((x, y) => y[1] - x[1]).map(([k, v]) => `${k} ${perS(v)}`).join(", ") || "none"}`);
    out.push(`refusals the agents received (error events): ${[...t.errors].sort((x, y) => y[1] - x[1]).map(([k, v]) => `${k} ${v}`).join(", ") || "none"}; goal changes ${t.goalChanges}; move orders back to the tile of the agent's move before last: ${t.backAndForth} of ${t.orders.get("player:move") ?? 0}`);
    out.push(`xp the agents gained in the window: ${[...b.xpGained].filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v}`).join(", ") || "none"}; agents on the same tile at both ends of the window: ${b.stillAgents}/${b.agents}`);
  }
  if (warningCount) out.push(`console.warn calls (schema encoder): ${warningCount}`);
  out.push(`elapsed ${fmt((performance.now() - startedAt) / 1000, 0)} s`);
  out.push("");
  console.log(out.join("\n"));
  const json = {
    bench: "agents",
    options: opts,
    phases: phases.map((p) => ({
      name: p.name,
      players: r(p).n,
      agents: p.agents,
      tickMs: { median: round(r(p).tick.median, 3), p90: round(p.p90, 3), p99: round(r(p).tick.p99, 3), max: round(r(p).tick.max, 3), mean: round(r(p).tick.mean, 3) },
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

main()
  .then(() => process.exit(0))
  .catch((err) => {
    console.error("bench: failed", err);
    process.exit(1);
  });
