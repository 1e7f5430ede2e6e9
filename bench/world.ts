/**
 * WorldRoom load benchmark: N simulated players (100, 500, 1000, 2000 by default) in ONE WorldRoom,
 * walking and gathering. Per N it measures, over a steady window of ticks after everyone joined:
 *   - the tick duration (median, p99): the whole tick, rules + world→schema sync + area of interest
 *     + per-client patch encoding and sending (Room.broadcastPatch runs inside the tick);
 *   - the bytes each client is sent per second (median over clients, and the total);
 * and prints each N's ratio to the N=100 baseline measured in the same run.
 *
 * Design: the players are in-memory transport clients (bench/benchClient.ts) joined through the real
 * matchmaker and the transport's join path; they count the bytes the room hands their socket and
 * never decode. A few real @colyseus/sdk players in a child process (bench/sdkClients.ts) check the
 * counting: each is mirrored by an in-memory twin sent the very same commands.
 *
 * Maps (--maps): "default", the shipped world, crowded at large N (every player in one 180×150
 * tile world); and "spread", the same world's areas copied --copies times side by side
 * (bench/spreadWorld.ts), so players are as dense as in a real game's world: new bots there are put
 * on a random tile at once (too far to walk). Each map runs every size in its own server and
 * reports its ratios to its own smallest N. --time-limit applies to each map.
 *
 * Each window is --window ticks, the largest N's --largest-window (150 by default): its p99 is then
 * the second slowest tick, not the slowest of 40 (a tick that met one stall of the machine).
 *
 * Usage: npm run bench:world [-- --sizes 100,500,1000,2000 --window 40 --largest-window 150 --warmup 5 --twins 2
 *        --spread world|spawn --concurrency 8 --seed 1 --time-limit 300 --profile file.cpuprofile
 *        --profile-joins file.cpuprofile
 *        --save-interval 3600 --measure-save true --send-cost true --maps default,spread --copies 16]
 */
import os from "node:os";
import { matchMaker } from "@colyseus/core";
import type { WorldRoom } from "../rooms/WorldRoom.js";
import { SAVE_SLICES } from "../rooms/worldTick.js";
import { TICK_MS } from "../src/protocol/vocabulary.js";
import { giveItem } from "../src/game/world/commands.js";
import { saveSlice } from "../src/db/worldSaver.js";
import { defaultGameData, startTestServer, type TestServer } from "../test/helpers/server.js";
import { spreadGameData } from "./spreadWorld.js";
import { benchArgs } from "./args.js";
import { CpuProfile, profileLines, summariseProfile } from "./cpuProfile.js";
import { collectGarbage } from "./heap.js";
import { Population } from "./population.js";
import { longestTickGap, RoomProbe, type TickRecord } from "./probe.js";
import { printReport, summarise, type JoinFigures, type PhaseResult, type Snapshot, type TwinCheck } from "./report.js";
import { SdkPlayers } from "./sdkPlayers.js";
import { median, peakWithin, percentiles } from "./stats.js";
import { ledgerTelling } from "../src/game/ledger.js";
import { measureSendCost } from "./sendCost.js";

interface Options {
  sizes: number[];
  window: number;
  /** The largest N's window (ticks): long enough for a p99 that is not one tick's. */
  largestWindow: number;
  warmup: number;
  twins: number;
  spread: "world" | "spawn";
  concurrency: number;
  seed: number;
  timeLimitS: number;
  /** Write a CPU profile of the last window here (and print where its time went). */
  profile?: string;
  /** Write a CPU profile of the largest N's joins here (and print where their time went). */
  profileJoins?: string;
  /** Save interval of the room (s); the default keeps the periodic save out of the windows. */
  saveInterval: number;
  /** Time a save of every character after each window. */
  measureSave: boolean;
  /** Calibrate the cost of a real WebSocket send at the end. */
  sendCost: boolean;
  maps: Array<"default" | "spread">;
  copies: number;
}

function parseOptions(): Options {
  const a = benchArgs("npm run bench:world", {
    sizes: "100,500,1000,2000",
    window: "40",
    "largest-window": "150",
    warmup: "5",
    twins: "2",
    spread: "world",
    concurrency: "8",
    seed: "1",
    "time-limit": "300",
    profile: undefined,
    "profile-joins": undefined,
    "save-interval": "3600",
    "measure-save": "true",
    "send-cost": "true",
    maps: "default,spread",
    copies: "16",
  });
  return {
    sizes: a.sizes
      .split(",")
      .map(Number)
      .filter((n) => n > 0)
      .sort((x, y) => x - y),
    window: Math.max(5, Number(a.window)),
    largestWindow: Math.max(5, Number(a["largest-window"])),
    warmup: Math.max(1, Number(a.warmup)),
    twins: Math.max(0, Number(a.twins)),
    spread: a.spread === "spawn" ? "spawn" : "world",
    concurrency: Math.max(1, Number(a.concurrency)),
    seed: Number(a.seed),
    timeLimitS: Number(a["time-limit"]),
    profile: a.profile,
    profileJoins: a["profile-joins"],
    saveInterval: Number(a["save-interval"]),
    measureSave: a["measure-save"] !== "false",
    sendCost: a["send-cost"] !== "false",
    maps: a.maps.split(",").filter((m): m is "default" | "spread" => m === "default" || m === "spread"),
    copies: Math.max(1, Math.floor(Number(a.copies))),
  };
}

const opts = parseOptions();
const startedAt = performance.now();

// Whatever happens, the benchmark stops by itself.
const watchdog = setTimeout(
  () => {
    console.error(`bench: time limit of ${opts.timeLimitS}s reached, stopping`);
    process.exit(2);
  },
  opts.maps.length * (opts.timeLimitS * 1000 + 45_000),
);
watchdog.unref();

// @colyseus/schema warns on stderr each time an encode outgrows its buffer: count instead of flooding.
const warnings = new Map<string, number>();
let warningCount = 0;
console.warn = (...args: unknown[]) => {
  const key = String(args[0] ?? "")
    .split("\n")[0]
    .slice(0, 160);
  warnings.set(key, (warnings.get(key) ?? 0) + 1);
  warningCount++;
};

const log = (msg: string) => console.error(`[${((performance.now() - startedAt) / 1000).toFixed(1)}s] ${msg}`);

async function main() {
  for (const map of opts.maps) await runMap(map);
}

async function runMap(map: "default" | "spread") {
  const deadline = performance.now() + opts.timeLimitS * 1000;
  const gameData = map === "spread" ? spreadGameData(await defaultGameData(), opts.copies) : undefined;
  const server = await startTestServer({ env: { SAVE_INTERVAL: String(opts.saveInterval) }, gameData });
  log(`map ${map}${map === "spread" ? ` (${opts.copies} copies of the default world's areas)` : ""}`);
  let sdk: SdkPlayers | undefined;
  let probed: RoomProbe | undefined;
  try {
    const [listing] = await matchMaker.query({ name: "world" });
    const room = matchMaker.getLocalRoomById(listing.roomId) as unknown as WorldRoom;
    const probe = (probed = new RoomProbe(room));

    // Snapshots are taken right after a tick, before any bot reacts to it (first listener).
    let population: Population;
    const captures: Array<{ tick: number; resolve: (s: Snapshot) => void }> = [];
    probe.onTick((tick) => {
      for (let i = captures.length - 1; i >= 0; i--) {
        if (tick < captures[i].tick) continue;
        captures[i].resolve(snapshot(tick));
        captures.splice(i, 1);
      }
    });
    const snapshot = (tick: number): Snapshot => ({
      tick,
      at: performance.now(),
      bots: population.bots.map((b) => ({ ...b.client.counter, twin: b.twinOf !== undefined })),
      sdkServer: [...population.sdkServer].map(([idx, c]) => ({ idx, ...c })),
      commandsSent: population.commandsSent,
      commandMs: population.commandMs,
      saves: room.saver.stats.saves,
      skipped: room.loop.skipped,
      durations: [...room.loop.durations],
      warnings: warningCount,
      visiblePlayersMedian: median([...room.interest.viewers()].map((id) => room.interest.seenBy(id)!.player.size)),
      encoderBufferBytes:
        (room as unknown as { _serializer?: { encoder?: { sharedBuffer?: Uint8Array } } })._serializer?.encoder?.sharedBuffer?.byteLength ?? 0,
    });
    const captureAt = (tick: number) =>
      new Promise<Snapshot>((resolve, reject) => {
        captures.push({ tick, resolve });
        setTimeout(() => reject(new Error(`no tick ${tick}`)), (tick - probe.tick + 20) * 2_000).unref();
      });

    if (opts.twins > 0) sdk = await SdkPlayers.start();
    population = new Population(
      server,
      room,
      probe,
      { seed: opts.seed, scatter: opts.spread === "world", concurrency: opts.concurrency, teleport: map === "spread" },
      sdk,
    );

    // Real SDK players, each with an in-memory twin that gets the same commands at the same time.
    const twins: Array<{ sdkIdx: number; botIdx: number }> = [];
    if (sdk) {
      for (let k = 0; k < opts.twins; k++) {
        const bot = await population.joinBot("T", k);
        const [joined] = await sdk.join(server.url, [`S${String(k + 1).padStart(5, "0")}`]);
        population.tapSdkClient(joined.idx, joined.sessionId, joined.playerId, bot);
        twins.push({ sdkIdx: joined.idx, botIdx: population.bots.indexOf(bot) });
      }
      for (const t of twins) population.start(population.bots[t.botIdx]);
      log(`${twins.length} SDK players and their in-memory twins joined`);
    }
    const sdkCount = twins.length;

    const results: PhaseResult[] = [];
    let profile: ReturnType<typeof summariseProfile> | undefined;
    const largest = opts.sizes[opts.sizes.length - 1];
    for (const n of opts.sizes) {
      if (performance.now() > deadline) {
        log(`skipping N=${n}: time limit`);
        break;
      }
      const joinStart = performance.now();
      const [joinTick, skipped0, joined0] = [probe.tick, room.loop.skipped, population.joinedAt.length];
      const profilingJoins = opts.profileJoins && n === largest ? new CpuProfile() : undefined;
      await profilingJoins?.start();
      await population.growTo(n - sdkCount, deadline);
      const joinS = (performance.now() - joinStart) / 1000;
      if (profilingJoins) {
        const joins = summariseProfile(await profilingJoins.stop(opts.profileJoins!));
        console.log(profileLines(`CPU profile of the joins up to N=${n} (${opts.profileJoins}, ${joins.totalMs.toFixed(0)} ms busy):`, joins).join("\n"));
      }
      // The tick loop over the joins: from the tick before them to the first after them.
      await probe.waitTicks(1);
      const joins = joinFigures(joinS, population.joinedAt.slice(joined0), room.loop.skipped - skipped0, probe.between(joinTick - 1, probe.tick));
      log(
        `N=${n}: ${population.size + sdkCount} players in (${joinS.toFixed(1)}s of joins, at most ${joins.peakPerSecond} in a second, ${joins.skippedTicks} ticks skipped, longest tick gap ${joins.maxTickGapMs.toFixed(0)} ms), spreading out`,
      );
      // Let the newcomers reach their first destination (bounded), then warm up and measure.
      const scatterLimit = probe.tick + 15;
      await probe.waitUntil((t) => population.scattering === 0 || t >= scatterLimit, 120_000, "players to spread out");
      const profiling = opts.profile && n === largest ? new CpuProfile() : undefined;
      // The window pays for its own garbage, not for the joins' (a full collection now, before the warm-up).
      collectGarbage();
      const start = await captureAt(probe.tick + opts.warmup);
      await profiling?.start();
      const end = await captureAt(start.tick + (n === largest ? opts.largestWindow : opts.window));
      if (profiling) profile = summariseProfile(await profiling.stop(opts.profile!));
      let twinChecks: TwinCheck[] = [];
      if (sdk) twinChecks = checkTwins(await sdk.report(), twins, start, end);
      const result = summarise(n, room.world.players.size, start, end, probe.between(start.tick, end.tick), twinChecks, joins);
      // The save grows linearly with N (see the report): time it at the smallest and largest N only.
      if (opts.measureSave && (n === opts.sizes[0] || n === largest)) {
        // The ledger's rows for the window just played: what the players' actions wrote, per player-hour.
        const rows0 = await ledgerRows(server);
        result.save = await timeSave(room, probe);
        // (Rows since the previous save over the player-hours of this window alone: an upper bound at the largest N.)
        const hours = ((opts.warmup + (n === largest ? opts.largestWindow : opts.window)) * TICK_MS) / 3_600_000;
        result.ledger = await compareLedger(room, probe, ((await ledgerRows(server)) - rows0) / (n * hours));
        if (n === largest) result.ledgerTicks = await compareLedgerTicks(probe, Math.max(opts.window, Math.round(opts.largestWindow / 2)));
      }
      results.push(result);
      log(
        `N=${n}: tick median ${result.tick.median.toFixed(1)} ms, p99 ${result.tick.p99.toFixed(1)} ms, ${(result.bytes.perClientMedian / 1000).toFixed(1)} KB/s per client`,
      );
    }

    let sendCost: Awaited<ReturnType<typeof measureSendCost>> | undefined;
    if (opts.sendCost && results.length && performance.now() < deadline) {
      const last = results[results.length - 1];
      const frameBytes = Math.max(16, Math.round(last.bytes.perClientMedian / last.framesPerClientMedian));
      sendCost = await measureSendCost(Math.min(500, last.playersInWorld), frameBytes).catch((err) => {
        log(`send cost calibration failed: ${(err as Error).message}`);
        return undefined;
      });
      if (sendCost) log(`a real WebSocket send of ${frameBytes} B: ${sendCost.usPerFrame.toFixed(1)} us`);
    }

    printReport(results, {
      design:
        "in-memory transport clients (counting, never decoding) joined via matchMaker.joinOrCreate + connectClientToRoom; real @colyseus/sdk twins in a child process validate the counts",
      cpus: `${os.cpus().length} x ${os.cpus()[0]?.model ?? "?"}`,
      node: process.version,
      spread: opts.spread,
      map: map === "spread" ? `spread (${opts.copies} copies)` : "default",
      windowTicks: opts.window,
      largestWindowTicks: opts.largestWindow,
      warmupTicks: opts.warmup,
      worldBounds: room.world.map.bounds,
      joinFailures: population.joinFailures,
      warnings: Object.fromEntries(warnings),
      saveIntervalS: opts.saveInterval,
      sendCost,
      profile: profile && { file: opts.profile, ...profile },
      elapsedS: (performance.now() - startedAt) / 1000,
    });
  } finally {
    probed?.close();
    await sdk?.stop().catch(() => {});
    await server.close().catch(() => {});
  }

  /** Each SDK player against its twin and against what the server handed its socket, over the window. */
  function checkTwins(
    reports: Awaited<ReturnType<SdkPlayers["report"]>>,
    pairs: Array<{ sdkIdx: number; botIdx: number }>,
    start: Snapshot,
    end: Snapshot,
  ): TwinCheck[] {
    return pairs.map(({ sdkIdx, botIdx }) => {
      const r = reports.find((x) => x.idx === sdkIdx);
      const byTick = new Map(r?.byTick ?? []);
      const at = (tick: number, which: 0 | 1 = 0) => {
        for (let t = tick; t > tick - 5; t--) if (byTick.has(t)) return byTick.get(t)![which];
        return NaN;
      };
      const server0 = start.sdkServer.find((s) => s.idx === sdkIdx);
      const server1 = end.sdkServer.find((s) => s.idx === sdkIdx);
      return {
        sdkIdx,
        sdkReceived: at(end.tick) - at(start.tick),
        serverSent: (server1?.bytes ?? NaN) - (server0?.bytes ?? NaN),
        serverFrames: (server1?.frames ?? NaN) - (server0?.frames ?? NaN),
        serverRawMs: (server1?.rawMs ?? NaN) - (server0?.rawMs ?? NaN),
        twinCounted: end.bots[botIdx].bytes - start.bots[botIdx].bytes,
        sdkStateReceived: at(end.tick, 1) - at(start.tick, 1),
        serverStateSent: (server1?.stateBytes ?? NaN) - (server0?.stateBytes ?? NaN),
        twinStateCounted: end.bots[botIdx].stateBytes - start.bots[botIdx].stateBytes,
        ticksApart: (server1?.ticksApart ?? 0) - (server0?.ticksApart ?? 0),
      };
    });
  }
}

/** The joins' figures: `joinedAt`, when each completed; `records`, the ticks from the last before they began to the first after. */
function joinFigures(seconds: number, joinedAt: number[], skippedTicks: number, records: TickRecord[]): JoinFigures {
  return { seconds, peakPerSecond: peakWithin(joinedAt, 1000), skippedTicks, maxTickGapMs: longestTickGap(records) };
}

/**
 * The room's periodic save (WorldSaver.saveDirty: every dirty character), run now as the room runs
 * it, in SAVE_SLICES slices started one after another: its wall time, the largest part of it that
 * runs in the tick starting a slice (the slice's picture of its characters), and how it holds up
 * the tick loop.
 */
async function timeSave(room: WorldRoom, probe: RoomProbe) {
  const dirty = [...room.world.players.values()].filter((p) => p.dirty).length;
  const skipped0 = room.loop.skipped;
  const firstTick = probe.tick;
  const t0 = performance.now();
  let captureMs = 0;
  const saving: Promise<void>[] = [];
  for (let slice = 0; slice < SAVE_SLICES; slice++) {
    const s0 = performance.now();
    saving.push(room.saver.saveDirty(room.world, undefined, [], saveSlice(slice, SAVE_SLICES)));
    captureMs = Math.max(captureMs, performance.now() - s0);
  }
  await Promise.all(saving);
  const wallMs = performance.now() - t0;
  await probe.waitTicks(1);
  const maxTickGapMs = longestTickGap(probe.between(firstTick - 1, probe.tick));
  const save = { characters: dirty, wallMs, captureMs, skippedTicks: room.loop.skipped - skipped0, maxTickGapMs };
  log(
    `save of ${dirty} characters: ${(wallMs / 1000).toFixed(2)} s (a slice's picture ${captureMs.toFixed(1)} ms at most), ${save.skippedTicks} ticks skipped`,
  );
  return save;
}

/**
 * The tick with the ledger's change sites telling their causes and not, in this run: four windows
 * of `ticks`, alternating (off, on, off, on), the p99 of each mode's ticks together.
 */
async function compareLedgerTicks(probe: RoomProbe, ticks: number) {
  const durations: Record<"on" | "off", number[]> = { on: [], off: [] };
  for (const mode of ["off", "on", "off", "on"] as const) {
    ledgerTelling.on = mode === "on";
    const from = probe.tick + 2;
    await probe.waitUntil((t) => t >= from + ticks, (ticks + 20) * 2_000, "a ledger window");
    durations[mode].push(...probe.between(from, from + ticks).map((r) => r.totalMs));
  }
  ledgerTelling.on = true;
  const on = percentiles(durations.on);
  const off = percentiles(durations.off);
  log(
    `item ledger, the tick (${durations.on.length} ticks each, alternating): median ${on.median.toFixed(1)} / ${off.median.toFixed(1)} ms, ` +
      `p99 ${on.p99.toFixed(1)} ms on, ${off.p99.toFixed(1)} ms off (${(on.p99 / off.p99).toFixed(2)}x)`,
  );
  return { on, off, p99Ratio: on.p99 / off.p99 };
}

/** Rows of the item ledger so far. */
async function ledgerRows(server: TestServer): Promise<number> {
  const [row] = await server.ctx.db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "item_ledger"`);
  return row?.n ?? 0;
}

/**
 * The periodic save with the item ledger on, then off, in this run: before each, every character
 * gets a coin more (a change the ledger tells, as a gathered log would be), so both saves write
 * every character's items. The ratios are on to off.
 */
async function compareLedger(room: WorldRoom, probe: RoomProbe, rowsPerPlayerHour: number) {
  const touchAll = () => {
    for (const p of room.world.players.values()) {
      if (p.inventoryFrozen) continue;
      try {
        giveItem(room.world, p.id, "coins", 1);
        p.ledgerEvents.push({ itemId: "coins", delta: 1, cause: "gathered", ref: "bench" });
      } catch {
        // a full pack: its save writes nothing new
      }
    }
  };
  // Three of each, alternating (off first once, on first once, ...): the medians, so one slow save does not decide.
  const runs: Record<"on" | "off", Awaited<ReturnType<typeof timeSave>>[]> = { on: [], off: [] };
  for (const order of [
    ["on", "off"],
    ["off", "on"],
    ["on", "off"],
  ] as const) {
    for (const mode of order) {
      touchAll();
      room.saver.ledger = mode === "on";
      runs[mode].push(await timeSave(room, probe));
    }
  }
  room.saver.ledger = true;
  const mid = (list: Awaited<ReturnType<typeof timeSave>>[]) => ({
    ...list[0],
    wallMs: median(list.map((x) => x.wallMs)),
    captureMs: median(list.map((x) => x.captureMs)),
    skippedTicks: Math.max(...list.map((x) => x.skippedTicks)),
    maxTickGapMs: Math.max(...list.map((x) => x.maxTickGapMs)),
  });
  const on = mid(runs.on);
  const off = mid(runs.off);
  const figures = { on, off, wallRatio: on.wallMs / off.wallMs, captureRatio: on.captureMs / Math.max(0.001, off.captureMs), rowsPerPlayerHour };
  log(
    `item ledger (medians of 3 saves each): save ${(on.wallMs / 1000).toFixed(2)} s on, ${(off.wallMs / 1000).toFixed(2)} s off (${figures.wallRatio.toFixed(2)}x); ` +
      `a slice's picture ${on.captureMs.toFixed(1)} / ${off.captureMs.toFixed(1)} ms (${figures.captureRatio.toFixed(2)}x); ${rowsPerPlayerHour.toFixed(0)} rows per player-hour`,
  );
  return figures;
}

main()
  .then(() => process.exit(0))
  .catch((err) => {
    console.error("bench: failed", err);
    process.exit(1);
  });
