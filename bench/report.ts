import type { ByteCounter } from "./benchClient.js";
import { longestTickGap, type TickRecord } from "./probe.js";
import { profileLines, type ProfileSummary } from "./cpuProfile.js";
import { fmt, fmtRatio, kb, mean, median, percentiles, ratio, round, sum, table } from "./stats.js";

/** Counters taken right after one tick. */
export interface SaveFigures {
  characters: number;
  wallMs: number;
  captureMs: number;
  skippedTicks: number;
  maxTickGapMs: number;
}

export interface Snapshot {
  tick: number;
  at: number;
  bots: Array<ByteCounter & { twin: boolean }>;
  sdkServer: Array<{ idx: number; bytes: number; frames: number; stateBytes: number; rawMs: number; ticksApart: number }>;
  commandsSent: number;
  commandMs: number;
  saves: number;
  skipped: number;
  /** TickLoop.durations at that moment. */
  durations: number[];
  /** console.warn calls so far (the schema encoder's buffer-overflow warnings). */
  warnings: number;
  /** Median over clients of the players in their view. */
  visiblePlayersMedian: number;
  /** Size of the schema encoder's shared buffer (each client's patch is encoded into it, one after another). */
  encoderBufferBytes: number;
}

export interface TwinCheck {
  sdkIdx: number;
  /** Bytes the SDK player's WebSocket delivered over the window. */
  sdkReceived: number;
  /** Bytes the room handed that player's WebSocket client (raw()) over the window. */
  serverSent: number;
  serverFrames: number;
  serverRawMs: number;
  /** Bytes its in-memory twin counted over the same window. */
  twinCounted: number;
  /** The same three, state frames only (the patches, which the views decide; messages can differ between two players side by side). */
  sdkStateReceived: number;
  serverStateSent: number;
  twinStateCounted: number;
  /** Window ticks after which the two stood on different tiles (their views may then differ). */
  ticksApart: number;
}

export interface PhaseResult {
  n: number;
  playersInWorld: number;
  ticks: number;
  seconds: number;
  tick: { median: number; p99: number; max: number; mean: number };
  /** Medians over the window's ticks of each stage (ms). */
  stages: { sync: number; views: number; patch: number; rest: number };
  /** Medians over the window's ticks of the room's own tick phases (ms), by phase name. */
  phases: Record<string, number>;
  /** The window's slowest tick: its duration, the garbage collection within it, and its phases (ms). */
  slowest: { ms: number; gcMs: number; phases: Record<string, number>; handedOver: number; handOverFrames: number };
  /** Garbage collection within the window's ticks, ms a tick on average. */
  gcMsPerTick: number;
  /** Median per tick of clients handed from one zone's view to another's, and of the frames made for them. */
  handOvers: { clients: number; frames: number };
  /** Median per tick of entities entering / leaving some client's view. */
  viewChanges: { entered: number; left: number };
  maxTickGapMs: number;
  skippedTicks: number;
  saves: number;
  bytes: {
    perClientMedian: number;
    perClientP99: number;
    perClientMin: number;
    perClientMax: number;
    total: number;
    wirePerClientMedian: number;
    statePct: number;
  };
  framesPerClientMedian: number;
  commandsPerSec: number;
  commandMsPerSec: number;
  heapMB: number;
  joins: JoinFigures;
  twins: TwinCheck[];
  /** Encoder overflow warnings during the window. */
  warnings: number;
  totalFramesPerTick: number;
  visiblePlayersMedian: number;
  encoderBufferBytes: number;
  /** The periodic save run after the window, in its slices: its wall time, the most of it that runs in the tick starting a slice (captureMs), and the loop's gaps meanwhile. */
  save?: { characters: number; wallMs: number; captureMs: number; skippedTicks: number; maxTickGapMs: number };
  /** The same save with the item ledger off, in the same run (a coin more for every character before each), and the ledger's rows. */
  ledger?: { on: SaveFigures; off: SaveFigures; wallRatio: number; captureRatio: number; rowsPerPlayerHour: number };
  /** The tick with the ledger's change sites telling their causes (on) and not (off), alternating windows of this run. */
  ledgerTicks?: { on: { median: number; p99: number; max: number }; off: { median: number; p99: number; max: number }; p99Ratio: number };
}

/** The joins that brought the room to N: how long, their busiest second, and how the tick loop held up meanwhile. */
export interface JoinFigures {
  seconds: number;
  /** Most joins completed within any one second. */
  peakPerSecond: number;
  skippedTicks: number;
  maxTickGapMs: number;
}

export function summarise(
  n: number,
  playersInWorld: number,
  start: Snapshot,
  end: Snapshot,
  records: TickRecord[],
  twins: TwinCheck[],
  /** All zero when the caller did not time its joins (bench:agents). */
  joins: JoinFigures = { seconds: 0, peakPerSecond: 0, skippedTicks: 0, maxTickGapMs: 0 },
): PhaseResult {
  const ticks = end.tick - start.tick;
  const seconds = (end.at - start.at) / 1000;
  const durations = end.durations.slice(-ticks);
  const p = percentiles(durations);
  const perClient: number[] = [];
  const wire: number[] = [];
  const frames: number[] = [];
  let stateBytes = 0;
  let botBytes = 0;
  let totalFrames = 0;
  end.bots.forEach((b, i) => {
    const a = start.bots[i];
    perClient.push((b.bytes - a.bytes) / seconds);
    wire.push((b.wireBytes - a.wireBytes) / seconds);
    frames.push((b.frames - a.frames) / seconds);
    stateBytes += b.stateBytes - a.stateBytes;
    botBytes += b.bytes - a.bytes;
    totalFrames += b.frames - a.frames;
  });
  // The real SDK players are in the room too: count what the room handed their sockets.
  for (const s of end.sdkServer) {
    const a = start.sdkServer.find((x) => x.idx === s.idx);
    if (!a) continue;
    perClient.push((s.bytes - a.bytes) / seconds);
    totalFrames += s.frames - a.frames;
  }
  const pc = percentiles(perClient);
  const slowest = records.reduce<TickRecord | undefined>((a, r) => (!a || r.totalMs > a.totalMs ? r : a), undefined);
  return {
    n,
    playersInWorld,
    ticks,
    seconds,
    tick: { median: p.median, p99: p.p99, max: p.max, mean: mean(durations) },
    stages: {
      sync: median(records.map((r) => r.syncMs)),
      views: median(records.map((r) => r.viewsMs)),
      patch: median(records.map((r) => r.patchMs)),
      rest: median(records.map((r) => r.totalMs - r.syncMs - r.viewsMs - r.patchMs)),
    },
    phases: Object.fromEntries(Object.keys(records[0]?.phases ?? {}).map((k) => [k, median(records.map((r) => r.phases[k] ?? 0))])),
    slowest: {
      ms: slowest?.totalMs ?? 0,
      gcMs: slowest?.gcMs ?? 0,
      phases: slowest?.phases ?? {},
      handedOver: slowest?.handedOver ?? 0,
      handOverFrames: slowest?.handOverFrames ?? 0,
    },
    gcMsPerTick: mean(records.map((r) => r.gcMs ?? 0)),
    handOvers: { clients: median(records.map((r) => r.handedOver)), frames: median(records.map((r) => r.handOverFrames)) },
    viewChanges: { entered: median(records.map((r) => r.entered)), left: median(records.map((r) => r.left)) },
    maxTickGapMs: longestTickGap(records),
    skippedTicks: end.skipped - start.skipped,
    saves: end.saves - start.saves,
    bytes: {
      perClientMedian: pc.median,
      perClientP99: pc.p99,
      perClientMin: Math.min(...perClient),
      perClientMax: pc.max,
      total: sum(perClient),
      wirePerClientMedian: median(wire),
      statePct: botBytes > 0 ? (100 * stateBytes) / botBytes : 0,
    },
    framesPerClientMedian: median(frames),
    commandsPerSec: (end.commandsSent - start.commandsSent) / seconds,
    commandMsPerSec: (end.commandMs - start.commandMs) / seconds,
    heapMB: process.memoryUsage().heapUsed / 1e6,
    joins,
    twins,
    warnings: end.warnings - start.warnings,
    totalFramesPerTick: totalFrames / ticks,
    visiblePlayersMedian: end.visiblePlayersMedian,
    encoderBufferBytes: end.encoderBufferBytes,
  };
}

const pct = (a: number, b: number) => (b > 0 ? `${(((a - b) / b) * 100).toFixed(2)}%` : "-");

export function printReport(results: PhaseResult[], meta: Record<string, unknown>) {
  const base = results[0];
  const out: string[] = [];
  out.push("");
  out.push(`WorldRoom benchmark — ${meta.cpus}, node ${meta.node}; one room, ${meta.map} map ${JSON.stringify(meta.worldBounds)}`);
  out.push(
    `players walk to a random tile within 20 tiles or gather a node within 20 tiles every 3-6 s; spread=${meta.spread}; window ${meta.windowTicks} ticks (the largest N's ${meta.largestWindowTicks}) after ${meta.warmupTicks} warm-up ticks`,
  );
  out.push(`clients: ${meta.design}`);
  out.push(
    `baseline: N=${base?.n} of this run; x = ratio to it. p99 over n ticks is sample floor(0.99·n) of the sorted durations: the largest one up to 100 ticks, the second largest from 101 to 200.`,
  );
  out.push("");
  out.push(
    table(
      ["N", "ticks", "tick med ms", "tick p99 ms", "x med", "x p99", "B/client/s med", "x", "total KB/s", "x", "players seen med", "players/N"],
      results.map((r) => [
        String(r.n),
        String(r.ticks),
        fmt(r.tick.median, 2),
        fmt(r.tick.p99, 2),
        fmtRatio(ratio(r.tick.median, base.tick.median)),
        fmtRatio(ratio(r.tick.p99, base.tick.p99)),
        fmt(r.bytes.perClientMedian, 0),
        fmtRatio(ratio(r.bytes.perClientMedian, base.bytes.perClientMedian)),
        fmt(kb(r.bytes.total), 1),
        fmtRatio(ratio(r.bytes.total, base.bytes.total)),
        fmt(r.visiblePlayersMedian, 0),
        `${r.playersInWorld}/${r.n}`,
      ]),
    ),
  );
  out.push("");
  out.push("Where the tick goes (medians, ms; rules+msgs = tickWorld, events, world:update, player:sync) and the rest of the picture:");
  out.push(
    table(
      [
        "N",
        "syncState",
        "updateViews",
        "broadcastPatch",
        "rules+msgs",
        "tick max",
        "max gap ms",
        "skipped",
        "view in/out per tick",
        "B/client/s p99",
        "frames/tick",
        "state %",
        "cmds/s",
        "cmd ms/s",
        "warn",
        "enc buf MB",
        "heap MB",
        "join s",
        "joins/s peak",
        "join skipped",
        "join max gap ms",
      ],
      results.map((r) => [
        String(r.n),
        fmt(r.stages.sync, 2),
        fmt(r.stages.views, 2),
        fmt(r.stages.patch, 2),
        fmt(r.stages.rest, 2),
        fmt(r.tick.max, 1),
        fmt(r.maxTickGapMs, 0),
        String(r.skippedTicks),
        `${fmt(r.viewChanges.entered, 0)}/${fmt(r.viewChanges.left, 0)}`,
        fmt(r.bytes.perClientP99, 0),
        fmt(r.totalFramesPerTick, 0),
        fmt(r.bytes.statePct, 1),
        fmt(r.commandsPerSec, 0),
        fmt(r.commandMsPerSec, 1),
        String(r.warnings),
        fmt(r.encoderBufferBytes / 1e6, 1),
        fmt(r.heapMB, 0),
        fmt(r.joins.seconds, 1),
        String(r.joins.peakPerSecond),
        String(r.joins.skippedTicks),
        fmt(r.joins.maxTickGapMs, 0),
      ]),
    ),
  );
  const phaseNames = Object.keys(results[0]?.phases ?? {});
  if (phaseNames.length) {
    out.push("");
    out.push(
      "The room's tick phases (WorldRoom.phases; medians, ms; send = world:update and player:sync; patch = the schema patch; handOver = the zone hand-over frames):",
    );
    out.push(
      table(
        ["N", ...phaseNames, "handed over/tick", "hand-over frames/tick"],
        results.map((r) => [String(r.n), ...phaseNames.map((k) => fmt(r.phases[k] ?? 0, 2)), fmt(r.handOvers.clients, 0), fmt(r.handOvers.frames, 0)]),
      ),
    );
    out.push("");
    out.push("The slowest tick of each window (the p99 of a window under 100 ticks), its phases (ms), and the garbage collection within the ticks:");
    out.push(
      table(
        ["N", "slowest tick ms", ...phaseNames, "handed over", "hand-over frames", "GC in it ms", "GC ms/tick mean"],
        results.map((r) => [
          String(r.n),
          fmt(r.slowest.ms, 1),
          ...phaseNames.map((k) => fmt(r.slowest.phases[k] ?? 0, 2)),
          String(r.slowest.handedOver),
          String(r.slowest.handOverFrames),
          fmt(r.slowest.gcMs, 1),
          fmt(r.gcMsPerTick, 2),
        ]),
      ),
    );
  }
  const sendCost = meta.sendCost as { usPerFrame: number } | undefined;
  if (sendCost) {
    out.push(
      `Not in the tick above: the socket write. A real WebSocket send measured ${fmt(sendCost.usPerFrame, 1)} us per frame here ` +
        `(loopback, reader in another process), i.e. about ` +
        results.map((r) => `+${fmt((r.totalFramesPerTick * sendCost.usPerFrame) / 1000, 1)} ms at N=${r.n}`).join(", ") +
        " per tick with real sockets.",
    );
  }
  const saves = results.filter((r) => r.save);
  if (saves.length) {
    out.push(
      `Periodic save (WorldSaver.saveDirty, kept out of the windows with SAVE_INTERVAL=${meta.saveIntervalS}s, run after each window): ` +
        saves
          .map(
            (r) =>
              `N=${r.n}: ${r.save!.characters} chars in ${fmt(r.save!.wallMs / 1000, 2)} s (at most ${fmt(r.save!.captureMs, 1)} ms in a tick: the picture of one of its slices), ${r.save!.skippedTicks} ticks skipped, longest tick gap ${fmt(r.save!.maxTickGapMs, 0)} ms`,
          )
          .join("; "),
    );
  }
  const checks = results.flatMap((r) => r.twins.map((t) => ({ n: r.n, ...t })));
  if (checks.length) {
    out.push("");
    out.push("Counting check over each window: a real SDK player (WebSocket over loopback) vs the bytes the room handed its socket vs its in-memory twin,");
    out.push(
      "all frames, then state frames alone (the patches, which the views decide; messages such as player:sync can differ between two players side by side):",
    );
    out.push(
      table(
        ["N", "sdk", "SDK received B", "room sent B", "diff", "in-memory twin B", "diff", "patches: SDK B", "room", "diff", "twin", "diff", "ticks apart"],
        checks.map((c) => [
          String(c.n),
          String(c.sdkIdx),
          String(c.sdkReceived),
          String(c.serverSent),
          pct(c.sdkReceived, c.serverSent),
          String(c.twinCounted),
          pct(c.twinCounted, c.sdkReceived),
          String(c.sdkStateReceived),
          String(c.serverStateSent),
          pct(c.sdkStateReceived, c.serverStateSent),
          String(c.twinStateCounted),
          pct(c.twinStateCounted, c.sdkStateReceived),
          String(c.ticksApart),
        ]),
      ),
    );
  }
  const profile = meta.profile as (ProfileSummary & { file: string }) | undefined;
  if (profile) {
    out.push("");
    out.push(
      ...profileLines(
        `CPU profile of the N=${results[results.length - 1].n} window (${profile.file}, ${fmt(profile.totalMs, 0)} ms of busy CPU sampled, shares of that):`,
        profile,
      ),
    );
  }
  const warnings = meta.warnings as Record<string, number>;
  if (Object.keys(warnings).length) {
    out.push("");
    for (const [w, count] of Object.entries(warnings)) out.push(`console.warn x${count}: ${w}`);
  }
  if (meta.joinFailures) out.push(`join failures: ${meta.joinFailures}`);
  out.push(`elapsed ${fmt(meta.elapsedS as number, 0)} s`);
  out.push("");
  console.log(out.join("\n"));

  const json = {
    bench: "world",
    meta: { ...meta, profile: undefined, profileFile: (meta.profile as { file?: string } | undefined)?.file },
    baselineN: base?.n,
    results: results.map((r) => ({
      n: r.n,
      playersInWorld: r.playersInWorld,
      windowTicks: r.ticks,
      windowSeconds: round(r.seconds, 2),
      tickMs: { median: round(r.tick.median, 3), p99: round(r.tick.p99, 3), max: round(r.tick.max, 3), mean: round(r.tick.mean, 3) },
      stagesMedianMs: {
        syncState: round(r.stages.sync, 3),
        updateViews: round(r.stages.views, 3),
        broadcastPatch: round(r.stages.patch, 3),
        rulesAndMessages: round(r.stages.rest, 3),
      },
      phasesMedianMs: Object.fromEntries(Object.entries(r.phases).map(([k, v]) => [k, round(v, 3)])),
      handOversPerTickMedian: r.handOvers,
      slowestTick: {
        ms: round(r.slowest.ms, 3),
        gcMs: round(r.slowest.gcMs, 3),
        handedOver: r.slowest.handedOver,
        handOverFrames: r.slowest.handOverFrames,
        phasesMs: Object.fromEntries(Object.entries(r.slowest.phases).map(([k, v]) => [k, round(v, 3)])),
      },
      gcMsPerTickMean: round(r.gcMsPerTick, 3),
      bytesPerClientPerSec: {
        median: round(r.bytes.perClientMedian, 1),
        p99: round(r.bytes.perClientP99, 1),
        min: round(r.bytes.perClientMin, 1),
        max: round(r.bytes.perClientMax, 1),
        wireMedian: round(r.bytes.wirePerClientMedian, 1),
      },
      totalBytesPerSec: round(r.bytes.total, 0),
      statePct: round(r.bytes.statePct, 1),
      framesPerClientPerSec: round(r.framesPerClientMedian, 2),
      ratios: {
        tickMedian: nullableRound(ratio(r.tick.median, base.tick.median)),
        tickP99: nullableRound(ratio(r.tick.p99, base.tick.p99)),
        bytesPerClientMedian: nullableRound(ratio(r.bytes.perClientMedian, base.bytes.perClientMedian)),
        totalBytes: nullableRound(ratio(r.bytes.total, base.bytes.total)),
        players: round(r.n / base.n, 2),
      },
      viewChangesPerTickMedian: r.viewChanges,
      maxTickGapMs: round(r.maxTickGapMs, 1),
      skippedTicks: r.skippedTicks,
      saves: r.saves,
      commandsPerSec: round(r.commandsPerSec, 1),
      commandMsPerSec: round(r.commandMsPerSec, 2),
      heapMB: round(r.heapMB, 0),
      joinSeconds: round(r.joins.seconds, 1),
      joins: { peakPerSecond: r.joins.peakPerSecond, skippedTicks: r.joins.skippedTicks, maxTickGapMs: round(r.joins.maxTickGapMs, 1) },
      framesPerTick: round(r.totalFramesPerTick, 1),
      visiblePlayersMedian: r.visiblePlayersMedian,
      encoderSharedBufferBytes: r.encoderBufferBytes,
      encoderWarnings: r.warnings,
      save: r.save && { ...r.save, wallMs: round(r.save.wallMs, 1), captureMs: round(r.save.captureMs, 2), maxTickGapMs: round(r.save.maxTickGapMs, 1) },
      twins: r.twins.map((t) => ({ ...t, serverRawMs: round(t.serverRawMs, 3) })),
    })),
  };
  console.log(JSON.stringify(json));
}

const nullableRound = (v: number | null) => (v === null ? null : round(v, 3));
