/**
 * /ws vs @colyseus/sdk benchmark: for each N (100, 500, 1000 by default), two phases on the same
 * server in the same run — N plain /ws clients, then N @colyseus/sdk clients — each client moving
 * once a second to a walkable tile 1–2 tiles away. Per phase it measures over a window after a
 * warm-up: the messages per second the clients receive (total and per client) and send, and the
 * time from sending a move to the first world:update (/ws) or state patch (SDK) that shows the
 * client's own player on the target tile (median, p99); and prints the /ws figures' ratio to the
 * SDK's of the same N.
 *
 * Design: the server runs in this process (test/helpers/server.ts, a real http server on a free
 * 127.0.0.1 port, embedded database); the clients run in one child process (bench/loadClients.ts;
 * --client-procs K shares them among K), real WebSockets over loopback, so their decoding happens
 * off the server's event loop. On two cores one load process leaves the server a core of its own;
 * both sides report their CPU, and the clients their event-loop delay, over each window. Client i always uses guest token i, so the two phases of an N
 * play the same characters (and N=500 reuses N=100's). Every character is placed first, in one
 * unmeasured pass: the largest N joins, its new characters run out over the world as players would
 * be spread, and all leave. That pass also runs the server's code under the heaviest load before any
 * window, so V8 has compiled it as in a server that has run a while (with a few seconds of 100
 * clients instead, the first window paid several ms a second of optimising compiles on the
 * process's other threads). Between phases every client disconnects and the benchmark waits for
 * the room to be empty and settled() (every leave saved). Each window, and each baseline below,
 * starts after a full garbage collection (bench/heap.ts), so none pays for what came before it.
 *
 * Baselines: while each N's /ws window runs, every frame the server writes and reads is counted and
 * sampled (bench/rawFanout.ts); then, in the same run, the same number of frames per tick of those
 * same messages goes to N plain `ws` sockets with nothing but the `ws` package and JSON.stringify
 * (fan-out), and once more while those sockets send the commands /ws read, at its rate, each
 * parsed with JSON.parse (exchange), each after three ticks unmeasured. Each baseline runs until it
 * has written --baseline-frames frames, for at least --baseline-window and at most --window
 * seconds: a small N writes few frames a second, and a baseline of a few hundred ms of CPU in all
 * varied by half between runs. The server CPU per frame of /ws is printed as a ratio to each.
 * The exchange runs first, then the fan-out: the first baseline after a /ws phase pays for what the
 * process does once it goes quiet. When the fan-out ran first, at N=100 it came out above the
 * exchange (which does strictly more) in every run: run twice in a row, it gave 87-97 µs a frame
 * the first time and 52-57 µs the second (V8's memory reducer shrinking the heap the placement
 * left is part of it). So at small N the exchange's figure may be high and /ws÷exchange low;
 * /ws÷fan-out is the one to read. Each figure is also split by thread (bench/threadCpu.ts, Linux):
 * the main thread, where the room and the sockets run, and the rest of the process (garbage
 * collection and compiler helpers, the embedded database's thread saving deaths and leaves), which
 * /ws keeps busy and a bare socket does not.
 *
 * Usage: npm run bench:ws [-- --sizes 100,500,1000 --window 20 --warmup 3 --concurrency 16
 *        --seed 1 --time-limit 285 --spread-timeout 20 --drain 3 --phases ws,sdk --client-procs 1 --profile file.cpuprofile
 *        --ws-updates changes|whole --baseline-window 6 --baseline-frames 6000]
 * The /ws clients take world:update in the changes form by default (--ws-updates whole: every entity whole).
 */
import os from "node:os";
import { performance } from "node:perf_hooks";
import { matchMaker } from "@colyseus/core";
import type { WorldRoom } from "../rooms/WorldRoom.js";
import { TICK_MS } from "../src/protocol/vocabulary.js";
import { startTestServer } from "../test/helpers/server.js";
import { benchArgs } from "./args.js";
import { CpuProfile, summariseProfile } from "./cpuProfile.js";
import { collectGarbage } from "./heap.js";
import type { ClientKind } from "./loadClient.js";
import { LoadFleet } from "./loadFleet.js";
import { longestTickGap, RoomProbe } from "./probe.js";
import { median, percentiles } from "./stats.js";
import { mapInfoOf } from "./tiles.js";
import { printReport, type BaselineResult, type PhaseResult, type Placement, type ServerWindow } from "./wsReport.js";
import { FrameTap, rawFanout, type RawFanoutResult } from "./rawFanout.js";
import { mainThreadCpuSince, mainThreadCpuUs } from "./threadCpu.js";
import { UpdatesForm } from "../src/protocol/index.js";

interface Options {
  sizes: number[];
  windowS: number;
  /** Each raw baseline's shortest window (the same frames per tick, for at least this long). */
  baselineS: number;
  /** Each raw baseline runs until it has written this many frames (at most --window seconds). */
  baselineFrames: number;
  warmupS: number;
  concurrency: number;
  seed: number;
  timeLimitS: number;
  spreadTimeoutS: number;
  drainS: number;
  phases: ClientKind[];
  /** Load processes the clients are shared among (client i in process i mod K). */
  clientProcesses: number;
  /** Write a CPU profile of the server over the largest N's /ws window here. */
  profile?: string;
  /** The form of world:update the /ws clients take (PROTOCOL.md §4). */
  wsUpdates: UpdatesForm;
}

function parseOptions(): Options {
  const a = benchArgs("npm run bench:ws", {
    sizes: "100,500,1000",
    window: "20",
    warmup: "3",
    concurrency: "16",
    seed: "1",
    "time-limit": "285",
    "spread-timeout": "20",
    drain: "3",
    phases: "ws,sdk",
    "client-procs": "1",
    profile: undefined,
    "ws-updates": "changes",
    "baseline-window": "6",
    "baseline-frames": "6000",
  });
  const wsUpdates = UpdatesForm.safeParse(a["ws-updates"]);
  if (!wsUpdates.success) throw new Error(`--ws-updates: "whole" or "changes", not ${a["ws-updates"]}`);
  return {
    sizes: a.sizes
      .split(",")
      .map(Number)
      .filter((n) => n > 0)
      .sort((x, y) => x - y),
    windowS: Math.max(3, Number(a.window)),
    baselineS: Math.max(3, Number(a["baseline-window"])),
    baselineFrames: Math.max(0, Number(a["baseline-frames"])),
    warmupS: Math.max(1, Number(a.warmup)),
    concurrency: Math.max(1, Number(a.concurrency)),
    seed: Number(a.seed),
    timeLimitS: Number(a["time-limit"]),
    spreadTimeoutS: Number(a["spread-timeout"]),
    drainS: Number(a.drain),
    phases: a.phases.split(",").filter((p): p is ClientKind => p === "ws" || p === "sdk"),
    clientProcesses: Math.max(1, Math.floor(Number(a["client-procs"]))),
    profile: a.profile,
    wsUpdates: wsUpdates.data,
  };
}

/** After the time limit, the phase in progress gets this long before the benchmark stops anyway. */
const WATCHDOG_GRACE_S = 12;

/** New characters run to a random tile at most this far from the spawn (the whole default world; moves may go 200). */
const SPREAD_DISTANCE = 150;

/** How long each raw baseline runs, for a /ws window that wrote `framesPerSec`: --baseline-frames frames, within [--baseline-window, --window] s. */
function baselineSeconds(framesPerSec: number): number {
  const longest = Math.max(opts.baselineS, opts.windowS);
  return Math.min(longest, Math.max(opts.baselineS, opts.baselineFrames / Math.max(1, framesPerSec)));
}

const opts = parseOptions();
const startedAt = performance.now();
const deadline = startedAt + opts.timeLimitS * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (msg: string) => console.error(`[${((performance.now() - startedAt) / 1000).toFixed(1)}s] ${msg}`);

/** What has been measured so far, and how to print it (also from the watchdog). */
const results: PhaseResult[] = [];
const baselines: BaselineResult[] = [];
const skipped: string[] = [];
let report: (() => void) | undefined;

// Whatever happens, the benchmark stops by itself, printing what it has (its children exit with it).
const watchdog = setTimeout(
  () => {
    console.error(`bench: time limit of ${opts.timeLimitS}s (+${WATCHDOG_GRACE_S}s grace) reached, stopping`);
    skipped.push("the rest (watchdog)");
    report?.();
    process.exit(2);
  },
  (opts.timeLimitS + WATCHDOG_GRACE_S) * 1000,
);
watchdog.unref();

// @colyseus/schema warns on stderr when an encode outgrows its buffer: count instead of flooding.
const warnings = new Map<string, number>();
/** What the load clients logged (an SDK decoder that could not place a patch, unexpected closes), by phase. */
const clientConsole: Record<string, Record<string, number>> = {};
/** Note what the clients logged in a phase (the placement, or N and kind). */
function noteClientConsole(phase: string, lines: Record<string, number>) {
  if (Object.keys(lines).length === 0) return;
  clientConsole[phase] = lines;
  log(
    `${phase}: the clients logged ${Object.entries(lines)
      .map(([line, n]) => `${n} × ${JSON.stringify(line)}`)
      .join(", ")}`,
  );
}
console.warn = (...args: unknown[]) => {
  const key = String(args[0] ?? "")
    .split("\n")[0]
    .slice(0, 160);
  warnings.set(key, (warnings.get(key) ?? 0) + 1);
};

interface ServerMark {
  at: number;
  tick: number;
  cpu: NodeJS.CpuUsage;
  mainThreadUs: number | undefined;
  elu: ReturnType<typeof performance.eventLoopUtilization>;
  skipped: number;
}

async function main() {
  const server = await startTestServer({ env: { SAVE_INTERVAL: "3600" } });
  let driver: LoadFleet | undefined;
  let profile: ReturnType<typeof summariseProfile> | undefined;
  let profileWindow = "";
  let placement: Placement | undefined;
  try {
    const [listing] = await matchMaker.query({ name: "world" });
    const room = matchMaker.getLocalRoomById(listing.roomId) as unknown as WorldRoom;
    const probe = new RoomProbe(room);
    const map = mapInfoOf(room.world);
    driver = await LoadFleet.start(opts.clientProcesses);
    await driver.setup(server.url, server.port, map, opts.seed, opts.wsUpdates);
    log(`/ws clients take world:update in the ${opts.wsUpdates} form`);

    const markServer = (): ServerMark => ({
      at: performance.now(),
      tick: probe.tick,
      cpu: process.cpuUsage(),
      mainThreadUs: mainThreadCpuUs(),
      elu: performance.eventLoopUtilization(),
      skipped: room.loop.skipped,
    });
    const serverWindow = (a: ServerMark): ServerWindow => {
      const seconds = (performance.now() - a.at) / 1000;
      const cpu = process.cpuUsage(a.cpu);
      const mainUs = mainThreadCpuSince(a.mainThreadUs);
      const records = probe.between(a.tick, probe.tick);
      const p = percentiles(records.map((r) => r.totalMs));
      return {
        seconds,
        ticks: records.length,
        cpuPct: (100 * (cpu.user + cpu.system)) / 1000 / (seconds * 1000),
        mainThreadCpuPct: mainUs === undefined ? undefined : (100 * mainUs) / 1000 / (seconds * 1000),
        elu: performance.eventLoopUtilization(a.elu).utilization,
        tick: p,
        stages: {
          syncState: median(records.map((r) => r.syncMs)),
          updateViews: median(records.map((r) => r.viewsMs)),
          broadcastPatch: median(records.map((r) => r.patchMs)),
          rest: median(records.map((r) => r.totalMs - r.syncMs - r.viewsMs - r.patchMs)),
        },
        maxTickGapMs: longestTickGap(records),
        skippedTicks: room.loop.skipped - a.skipped,
        playersInWorld: room.world.players.size,
        heapMB: process.memoryUsage().heapUsed / 1e6,
      };
    };

    /** Run a raw baseline with the room's loop paused: the sockets' cost alone, not an empty world's ticks. */
    const whileLoopPaused = async <T>(run: () => Promise<T>): Promise<T> => {
      room.loop.stop();
      try {
        return await run();
      } finally {
        room.loop.begin();
      }
    };

    /** Wait until every client has left the room and every leave is saved. */
    const waitEmpty = async (timeoutMs: number) => {
      const t0 = performance.now();
      while ((room.clients.length > 0 || room.world.players.size > 0) && performance.now() - t0 < timeoutMs) await sleep(100);
      if (room.clients.length > 0 || room.world.players.size > 0)
        log(`room not empty after ${timeoutMs} ms: ${room.clients.length} clients, ${room.world.players.size} players`);
      await room.settled();
    };

    const pids = driver.pids;
    report = () =>
      printReport(results, baselines, {
        cpus: `${os.cpus().length} x ${os.cpus()[0]?.model ?? "?"}`,
        node: process.version,
        serverPid: process.pid,
        clientPids: pids,
        worldBounds: map.bounds,
        spawn: map.spawn,
        windowS: opts.windowS,
        warmupS: opts.warmupS,
        concurrency: opts.concurrency,
        seed: opts.seed,
        saveIntervalS: 3600,
        skipped: skipped.length ? skipped : undefined,
        warnings: warnings.size ? Object.fromEntries(warnings) : undefined,
        clientConsole: Object.keys(clientConsole).length ? clientConsole : undefined,
        profile: profile && { file: opts.profile, ...profile },
        profileWindow,
        placement,
        elapsedS: (performance.now() - startedAt) / 1000,
      });

    // Every character the run plays is placed in one unmeasured pass (see the top of the file).
    const largest = opts.sizes[opts.sizes.length - 1];
    if (largest && opts.phases.length) {
      const t0 = performance.now();
      const joined = await driver.connect(opts.phases[0], largest, opts.concurrency, SPREAD_DISTANCE, 240_000);
      await driver.walk();
      const ran = await driver.spread(opts.spreadTimeoutS * 1000, SPREAD_DISTANCE);
      noteClientConsole("placement", await driver.disconnect());
      await waitEmpty(60_000);
      const seconds = (performance.now() - t0) / 1000;
      placement = { characters: joined.connected, joinSeconds: joined.seconds, ranOut: ran.started, stragglers: ran.stragglers, seconds };
      log(
        `placed ${joined.connected} characters in ${seconds.toFixed(1)} s: joined in ${joined.seconds.toFixed(1)} s, ${ran.started} ran out over the world in ${ran.seconds.toFixed(1)} s (${ran.stragglers} still running), all left`,
      );
    }

    for (const n of opts.sizes) {
      for (const kind of opts.phases) {
        // What this phase will take: the fixed part, plus joins and leaves scaled from the last phase of
        // the same kind (they grow with N).
        const prev = [...results].reverse().find((r) => r.kind === kind);
        // (a /ws phase is followed by its two raw-socket baselines, each after its unmeasured ticks;
        // their length follows the frames a second, which grow with N like the last /ws window's)
        const prevBaseline = baselines[baselines.length - 1];
        const framesPerSec = prevBaseline ? (prevBaseline.ws.frames / prevBaseline.ws.seconds / prevBaseline.n) * n : 0;
        const fixedS = opts.warmupS + opts.windowS + opts.drainS + 2 + (kind === "ws" ? 2 * (baselineSeconds(framesPerSec) + 4) : 0);
        const estimateS = fixedS + (prev ? ((prev.connect.seconds + prev.leaveSeconds) * n) / prev.n : 20);
        if (performance.now() + estimateS * 1000 > deadline) {
          skipped.push(`N=${n} ${kind} (time limit: about ${estimateS.toFixed(0)} s needed)`);
          log(`skipping N=${n} ${kind}: not enough time left (about ${estimateS.toFixed(0)} s needed)`);
          continue;
        }
        // (every character was placed before: none is new, none spreads out)
        const connect = await driver.connect(kind, n, opts.concurrency, 0, 240_000);
        log(
          `N=${n} ${kind}: ${connect.connected} joined in ${connect.seconds.toFixed(1)} s (${connect.failed} failed; tokens ${connect.tokensSeconds.toFixed(1)} s); ${room.world.players.size} in world`,
        );
        await driver.walk();
        collectGarbage();
        await sleep(opts.warmupS * 1000);
        const profiling = opts.profile && kind === "ws" && n === largest ? new CpuProfile() : undefined;
        await profiling?.start();
        // The window starts half-way between two ticks and spans a whole number of ticks, so each
        // client is sent the same number of per-tick frames in every window.
        await probe.waitTicks(1);
        await sleep(TICK_MS / 2);
        const tap = kind === "ws" ? new FrameTap() : undefined;
        tap?.start();
        const mark = markServer();
        await driver.mark();
        const windowTicks = Math.max(1, Math.round((opts.windowS * 1000) / TICK_MS));
        await sleep(windowTicks * TICK_MS);
        const serverW = serverWindow(mark);
        tap?.stop();
        const clientW = await driver.report(opts.drainS * 1000);
        if (profiling) {
          profile = summariseProfile(await profiling.stop(opts.profile!));
          profileWindow = `N=${n} ${kind}`;
        }
        const leaveStart = performance.now();
        noteClientConsole(`N=${n} ${kind}`, await driver.disconnect());
        await waitEmpty(60_000);
        const leaveSeconds = (performance.now() - leaveStart) / 1000;
        results.push({ n, kind, connect, clients: clientW, server: serverW, leaveSeconds });
        if (tap && tap.frames > 0) {
          // The same frames per tick to as many plain sockets, with the world room empty (everyone left).
          const framesPerTick = tap.frames / windowTicks / Math.max(1, clientW.clients);
          const baselineTicks = Math.max(1, Math.round((baselineSeconds(tap.frames / serverW.seconds) * 1000) / TICK_MS));
          // The same again while the commands /ws read come in at its rate, each parsed.
          const inbound = { texts: tap.inSample, perSocketPerSec: tap.inFrames / serverW.seconds / Math.max(1, clientW.clients) };
          // The exchange runs first: the first baseline after a /ws phase pays for what the process
          // does once it goes quiet (see the top of the file), and the fan-out is the issue's baseline.
          const [exchange, raw] = await whileLoopPaused(async (): Promise<[RawFanoutResult | undefined, RawFanoutResult]> => [
            tap.inFrames > 0 ? await rawFanout(clientW.clients, tap.sample, framesPerTick, baselineTicks, TICK_MS, inbound) : undefined,
            await rawFanout(clientW.clients, tap.sample, framesPerTick, baselineTicks, TICK_MS),
          ]);
          const wsCpuUs = (serverW.cpuPct / 100) * serverW.seconds * 1e6;
          baselines.push({
            n,
            ws: {
              frames: tap.frames,
              bytes: tap.bytes,
              cpuUsPerFrame: wsCpuUs / tap.frames,
              mainThreadUsPerFrame:
                serverW.mainThreadCpuPct === undefined ? undefined : ((serverW.mainThreadCpuPct / 100) * serverW.seconds * 1e6) / tap.frames,
              inFrames: tap.inFrames,
              seconds: serverW.seconds,
            },
            raw,
            exchange,
          });
          log(
            `N=${n} raw ws baselines: ${raw.frames} frames to ${raw.sockets} sockets, ${raw.cpuUsPerFrame.toFixed(1)} µs CPU a frame; ` +
              `with ${exchange?.inboundFrames ?? 0} frames read, ${exchange?.cpuUsPerFrame.toFixed(1) ?? "-"} µs (/ws: ${(wsCpuUs / tap.frames).toFixed(1)} µs, ${tap.inFrames} read)`,
          );
        }
        log(
          `N=${n} ${kind}: ${clientW.framesPerSec.toFixed(0)} msg/s received, ${clientW.sentPerSec.toFixed(0)} sent, move→shown median ${clientW.latency.median.toFixed(0)} ms p99 ${clientW.latency.p99.toFixed(0)} ms; ` +
            `tick median ${serverW.tick.median.toFixed(1)} ms; server CPU ${serverW.cpuPct.toFixed(0)}%, clients CPU ${clientW.cpuPct.toFixed(0)}%; left and saved in ${leaveSeconds.toFixed(1)} s`,
        );
      }
    }

    report();
  } finally {
    await driver?.stop().catch(() => {});
    await server.close().catch(() => {});
  }
}

main()
  .then(() => process.exit(0))
  .catch((err) => {
    console.error("bench: failed", err);
    process.exit(1);
  });
