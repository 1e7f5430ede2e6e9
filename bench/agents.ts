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
import { PerformanceObserver, performance } from "node:perf_hooks";
import type { AgentDriver } from "../src/agents/driver.js";
import { MAX_AGENTS_PER_ACCOUNT } from "../src/http/api/agents.js";
import { startTestServer, type TestServer } from "../test/helpers/server.js";
import { theWorld } from "../test/helpers/worldRoom.js";
import type { WorldRoom } from "../rooms/WorldRoom.js";
import { benchArgs } from "./args.js";
import { Population } from "./population.js";
import { RoomProbe } from "./probe.js";
import { summarise, type Snapshot } from "./report.js";
import { fmt, median, quantile } from "./stats.js";
import { printReport, type AgentTally, type Options, type Phase } from "./agentsReport.js";

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
const watchdog = setTimeout(
  () => {
    console.error(`bench: time limit of ${opts.timeLimitS}s (+45 s) reached, stopping`);
    process.exit(2);
  },
  opts.timeLimitS * 1000 + 45_000,
);
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
    type Snap = Snapshot & {
      cpu: NodeJS.CpuUsage;
      elu: ReturnType<typeof performance.eventLoopUtilization>;
      tally: AgentTally;
      xp: Map<string, number>;
      tiles: Map<string, string>;
    };
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
      visiblePlayersMedian: median([...room.interest.viewers()].map((id) => room.interest.seenBy(id)!.player.size)),
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
      const result = summarise(population!.size, room.world.players.size, start, end, probe.between(start.tick, end.tick), []);
      if (result.ticks !== ticks) log(`${name}: the window has ${result.ticks} ticks, not ${ticks}`);
      const cpu = process.cpuUsage(start.cpu);
      const wallMs = end.at - start.at;
      const avg = (m: Map<string, number>) => new Map([...m].map(([k, v]) => [k, v / Math.max(1, s.n)]));
      const xpGained = new Map<string, number>();
      for (const [k, v] of end.xp) xpGained.set(k, v - (start.xp.get(k) ?? 0));
      const records = probe.between(start.tick, end.tick);
      const inWindow = gcs.filter((g) => g.at >= start.at && g.at <= end.at);
      const gcDuring = (r: { startedAt: number; totalMs: number }) =>
        inWindow.filter((g) => g.at >= r.startedAt && g.at <= r.startedAt + r.totalMs).reduce((n, g) => n + g.ms, 0);
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
        gc: {
          count: inWindow.length,
          ms: inWindow.reduce((n, g) => n + g.ms, 0),
          maxMs: Math.max(0, ...inWindow.map((g) => g.ms)),
          inTicksMs: records.reduce((n, r) => n + gcDuring(r), 0),
        },
        worst: { tick: w.tick, totalMs: w.totalMs, syncMs: w.syncMs, viewsMs: w.viewsMs, patchMs: w.patchMs, gcMs: gcDuring(w) },
      };
      log(
        `${name}: tick median ${fmt(result.tick.median, 2)} ms, p90 ${fmt(phase.p90, 2)}, p99 ${fmt(result.tick.p99, 2)}, max ${fmt(result.tick.max, 2)}; CPU ${fmt(phase.cpuPct, 0)}%`,
      );
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

    printReport(phases, { regS, readyS, regFailures: reg.failures, room, warnings: warningCount, startedAt }, opts);
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
      const r = await post("/api/agent/register", owners[Math.floor(i / MAX_AGENTS_PER_ACCOUNT)], { name: `Agent${String(i + 1).padStart(4, "0")}` }).catch(
        (err) => ({ status: 0, body: String(err) }),
      );
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
    const state = !p
      ? "offline"
      : p.health <= 0
        ? "dead"
        : p.path.length > 0
          ? p.action
            ? "walking to target"
            : "walking"
          : p.action?.type === "gather"
            ? "gathering"
            : p.action?.type === "attack"
              ? "fighting"
              : p.action?.type === "pickup"
                ? "picking up"
                : goal === "bank" && d.sight.self?.bank
                  ? "at bank"
                  : "standing";
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
  const d = (x: Map<string, number>, y: Map<string, number>) =>
    new Map([...x].map(([k, v]) => [k, v - (y.get(k) ?? 0)] as [string, number]).filter(([, v]) => v !== 0));
  return {
    orders: d(b.orders, a.orders),
    ordersTotal: b.ordersTotal - a.ordersTotal,
    actMs: b.actMs - a.actMs,
    handleMs: b.handleMs - a.handleMs,
    errors: d(b.errors, a.errors),
    goalChanges: b.goalChanges - a.goalChanges,
    backAndForth: b.backAndForth - a.backAndForth,
  };
}

main()
  .then(() => process.exit(0))
  .catch((err) => {
    console.error("bench: failed", err);
    process.exit(1);
  });
