import type { ClientKind } from "./loadClient.js";
import type { ConnectResult } from "./loadDriver.js";
import type { ClientWindow } from "./loadWindows.js";
import { fmt, fmtRatio, kb, ratio, round, table } from "./stats.js";
import type { RawFanoutResult } from "./rawFanout.js";
import { profileLines, type ProfileSummary } from "./cpuProfile.js";

/** The server process over one window (this process: the server and the harness's few timers). */
export interface ServerWindow {
  seconds: number;
  ticks: number;
  cpuPct: number;
  /** The main thread's part of cpuPct (bench/threadCpu.ts; undefined where it cannot be read). */
  mainThreadCpuPct?: number;
  elu: number;
  tick: { median: number; p99: number; max: number };
  /** Medians over the window's ticks (ms); rules+msgs = the rest of the tick (rules, events, world:update, player:sync). */
  stages: { syncState: number; updateViews: number; broadcastPatch: number; rest: number };
  maxTickGapMs: number;
  skippedTicks: number;
  playersInWorld: number;
  heapMB: number;
}

export interface PhaseResult {
  n: number;
  kind: ClientKind;
  connect: ConnectResult;
  clients: ClientWindow;
  server: ServerWindow;
  /** Disconnect, then until the room is empty and settled() (every leave saved). */
  leaveSeconds: number;
}

/** One N's /ws window against the raw-socket baseline of the same frames (bench/rawFanout.ts). */
export interface BaselineResult {
  n: number;
  /** What the server wrote to the /ws sockets over the window (and read from them), and its CPU per frame written (the whole process: commands, rules, views, JSON, sends). */
  ws: { frames: number; bytes: number; cpuUsPerFrame: number; mainThreadUsPerFrame?: number; inFrames: number; seconds: number };
  /** The same frames written, nothing read. */
  raw: RawFanoutResult;
  /** The same frames written while the same commands are read and parsed (none when /ws read none). */
  exchange?: RawFanoutResult;
}

const LABEL: Record<ClientKind, string> = { ws: "/ws", sdk: "sdk" };

/** The unmeasured pass that placed every character before the first window (bench/ws.ts). */
export interface Placement {
  characters: number;
  joinSeconds: number;
  ranOut: number;
  stragglers: number;
  seconds: number;
}

function placementLine(p: Placement | undefined): string {
  if (!p) return "none";
  const late = p.stragglers ? `, ${p.stragglers} not yet on their tile when the wait ended` : "";
  return `the largest N joined once, its ${p.ranOut} new characters ran to random tiles of the world${late}, and all left (${fmt(p.seconds, 1)} s, unmeasured)`;
}

/** recv KB/s per client: all payload bytes received, divided by the clients. */
const kbPerClient = (r: PhaseResult) => kb(r.clients.bytesPerSec / Math.max(1, r.clients.clients));
const shownPct = (r: PhaseResult) => (r.clients.sent > 0 ? (100 * r.clients.latency.count) / r.clients.sent : 0);

export function printReport(results: PhaseResult[], baselines: BaselineResult[], meta: Record<string, unknown>) {
  const sizes = [...new Set(results.map((r) => r.n))];
  const find = (n: number, kind: ClientKind) => results.find((r) => r.n === n && r.kind === kind);
  const out: string[] = [""];
  out.push(`/ws vs @colyseus/sdk — ${meta.cpus}, node ${meta.node}; one WorldRoom, world ${JSON.stringify(meta.worldBounds)}`);
  const pids = meta.clientPids as number[];
  out.push(
    `server: this process (pid ${meta.serverPid}); clients: ${pids.length === 1 ? "one child process" : `${pids.length} child processes`} (pid ${pids.join(", ")}), real WebSockets over 127.0.0.1, no compression`,
  );
  out.push(
    `each client moves once a second to a walkable tile 1-2 tiles away (moves spread over the second; a client whose last move has not shown yet skips that second: "held"); characters placed first (spawn ${JSON.stringify(meta.spawn)}): ${placementLine(meta.placement as Placement | undefined)}`,
  );
  out.push(
    `window ${meta.windowS} s after ${meta.warmupS} s of walking; both phases of an N play the same N characters (guest token i = client i); periodic save kept out of the windows (SAVE_INTERVAL=${meta.saveIntervalS}s)`,
  );
  out.push(
    `move→shown: from writing the move to the start of the message event of the first world:update (/ws) or state patch (SDK) with the client's own player on the target tile.`,
  );
  out.push(
    `  A move waits for the next 600 ms tick (300 ms on average): ~300 ms median is the floor; above it is the tick's own work before that client's frame goes out, the send, and the client process's queue (its loop delay below).`,
  );
  out.push("");
  const rows: string[][] = [];
  for (const n of sizes) {
    const w = find(n, "ws");
    const s = find(n, "sdk");
    for (const r of [w, s]) {
      if (!r) continue;
      const c = r.clients;
      rows.push([
        String(n),
        LABEL[r.kind],
        `${c.clients}/${r.server.playersInWorld}`,
        fmt(c.framesPerSec, 0),
        fmt(c.perClientFramesPerSec.median, 2),
        fmt(kbPerClient(r), 2),
        fmt(c.sentPerSec, 0),
        fmt(c.latency.median, 0),
        fmt(c.latency.p99, 0),
        fmt(shownPct(r), 1),
        fmt(r.server.tick.median, 1),
        fmt(r.server.tick.p99, 1),
        fmt(r.server.cpuPct, 0),
        fmt(c.cpuPct, 0),
      ]);
    }
    if (w && s) {
      rows.push([
        String(n),
        "/ws÷sdk",
        "",
        fmtRatio(ratio(w.clients.framesPerSec, s.clients.framesPerSec)),
        fmtRatio(ratio(w.clients.perClientFramesPerSec.median, s.clients.perClientFramesPerSec.median)),
        fmtRatio(ratio(kbPerClient(w), kbPerClient(s))),
        fmtRatio(ratio(w.clients.sentPerSec, s.clients.sentPerSec)),
        fmtRatio(ratio(w.clients.latency.median, s.clients.latency.median)),
        fmtRatio(ratio(w.clients.latency.p99, s.clients.latency.p99)),
        "",
        fmtRatio(ratio(w.server.tick.median, s.server.tick.median)),
        fmtRatio(ratio(w.server.tick.p99, s.server.tick.p99)),
        fmtRatio(ratio(w.server.cpuPct, s.server.cpuPct)),
        fmtRatio(ratio(w.clients.cpuPct, s.clients.cpuPct)),
      ]);
    }
  }
  out.push(
    table(
      [
        "N",
        "phase",
        "clients/in world",
        "recv msg/s",
        "recv msg/s/client med",
        "recv KB/s/client",
        "sent msg/s",
        "move→shown med ms",
        "p99 ms",
        "shown %",
        "tick med ms",
        "tick p99 ms",
        "server CPU %",
        "clients CPU %",
      ],
      rows,
    ),
  );
  if (baselines.length) {
    out.push("");
    out.push(
      "Server CPU per frame written: /ws over its window (everything the process did: commands, rules, views, JSON, sends) against the raw `ws` baselines of the same frames per tick of the same messages, JSON.stringify + send and nothing else:",
    );
    out.push("  fan-out: frames written only; exchange: the same, while the other side sends the commands /ws read at /ws's rate, each read and JSON.parse'd.");
    out.push(
      table(
        [
          "N",
          "/ws frames",
          "/ws bytes/frame",
          "/ws frames read",
          "/ws µs/frame",
          "baseline ticks",
          "fan-out µs/frame",
          "/ws÷fan-out",
          "exchange frames read",
          "exchange µs/frame",
          "/ws÷exchange",
          "raw bytes received",
        ],
        baselines.map((b) => [
          String(b.n),
          String(b.ws.frames),
          fmt(b.ws.bytes / Math.max(1, b.ws.frames), 0),
          String(b.ws.inFrames),
          fmt(b.ws.cpuUsPerFrame, 1),
          String(b.raw.ticks),
          fmt(b.raw.cpuUsPerFrame, 1),
          fmtRatio(ratio(b.ws.cpuUsPerFrame, b.raw.cpuUsPerFrame)),
          b.exchange ? String(b.exchange.inboundFrames) : "-",
          b.exchange ? fmt(b.exchange.cpuUsPerFrame, 1) : "-",
          b.exchange ? fmtRatio(ratio(b.ws.cpuUsPerFrame, b.exchange.cpuUsPerFrame)) : "-",
          String(b.raw.receivedBytes),
        ]),
      ),
    );
    if (baselines.some((b) => b.ws.mainThreadUsPerFrame !== undefined)) {
      out.push("");
      out.push(
        "The same split by thread: the main thread (the event loop) alone, and the process's other threads (garbage collection and compiler helpers, the embedded database's thread), µs a frame:",
      );
      const other = (r: { cpuUsPerFrame: number; mainThreadUsPerFrame?: number } | undefined) =>
        r?.mainThreadUsPerFrame === undefined ? "-" : fmt(r.cpuUsPerFrame - r.mainThreadUsPerFrame, 1);
      out.push(
        table(
          ["N", "/ws main", "/ws other", "fan-out main", "fan-out other", "/ws÷fan-out main", "exchange main", "exchange other", "/ws÷exchange main"],
          baselines.map((b) => [
            String(b.n),
            fmt(b.ws.mainThreadUsPerFrame, 1),
            other(b.ws),
            fmt(b.raw.mainThreadUsPerFrame, 1),
            other(b.raw),
            fmtRatio(ratio(b.ws.mainThreadUsPerFrame, b.raw.mainThreadUsPerFrame)),
            fmt(b.exchange?.mainThreadUsPerFrame, 1),
            other(b.exchange),
            fmtRatio(ratio(b.ws.mainThreadUsPerFrame, b.exchange?.mainThreadUsPerFrame)),
          ]),
        ),
      );
    }
  }
  out.push("");
  out.push("Both sides over each window (server stages: medians per tick, ms; the /ws JSON is built in updateViews and serialised and written in rules+msgs):");
  out.push(
    table(
      [
        "N",
        "phase",
        "syncState",
        "updateViews",
        "broadcastPatch",
        "rules+msgs",
        "tick max",
        "max gap ms",
        "skipped",
        "server ELU",
        "heap MB",
        "client ELU",
        "client loop delay p99 ms",
        "recv msgs by kind /s",
        "refused",
        "held",
        "timed out",
        "unconfirmed",
        "join s",
        "leave+save s",
      ],
      results.map((r) => [
        String(r.n),
        LABEL[r.kind],
        fmt(r.server.stages.syncState, 2),
        fmt(r.server.stages.updateViews, 2),
        fmt(r.server.stages.broadcastPatch, 2),
        fmt(r.server.stages.rest, 2),
        fmt(r.server.tick.max, 1),
        fmt(r.server.maxTickGapMs, 0),
        String(r.server.skippedTicks),
        fmt(r.server.elu, 2),
        fmt(r.server.heapMB, 0),
        fmt(r.clients.elu, 2),
        fmt(r.clients.loopDelayMs.p99, 1),
        Object.entries(r.clients.kindsPerSec)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k} ${fmt(v, 0)}`)
          .join(", "),
        Object.entries(r.clients.refused)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ") || "0",
        String(r.clients.held),
        String(r.clients.timedOut),
        String(r.clients.unconfirmed),
        fmt(r.connect.seconds, 1),
        fmt(r.leaveSeconds, 1),
      ]),
    ),
  );
  const failures = results.filter((r) => r.connect.failed > 0);
  for (const r of failures) out.push(`N=${r.n} ${LABEL[r.kind]}: ${r.connect.failed} clients failed to join (first: ${r.connect.firstFailure})`);
  const profile = meta.profile as (ProfileSummary & { file: string }) | undefined;
  if (profile) {
    out.push("");
    out.push(...profileLines(`Server CPU profile of the ${meta.profileWindow} window (${profile.file}, ${fmt(profile.totalMs, 0)} ms busy):`, profile));
  }
  if (meta.skipped) out.push(`skipped: ${(meta.skipped as string[]).join("; ")}`);
  out.push(`elapsed ${fmt(meta.elapsedS as number, 0)} s`);
  out.push("");
  console.log(out.join("\n"));

  const json = {
    bench: "ws",
    meta: { ...meta, profile: undefined, profileFile: profile?.file },
    results: results.map((r) => ({
      n: r.n,
      phase: r.kind,
      clients: r.clients.clients,
      playersInWorld: r.server.playersInWorld,
      windowSeconds: round(r.clients.seconds, 2),
      recvMsgsPerSec: round(r.clients.framesPerSec, 1),
      recvMsgsPerSecPerClient: {
        median: round(r.clients.perClientFramesPerSec.median, 3),
        mean: round(r.clients.perClientFramesPerSec.mean, 3),
        min: round(r.clients.perClientFramesPerSec.min, 3),
        max: round(r.clients.perClientFramesPerSec.max, 3),
      },
      recvMsgsPerSecByKind: Object.fromEntries(Object.entries(r.clients.kindsPerSec).map(([k, v]) => [k, round(v, 1)])),
      recvBytesPerSec: round(r.clients.bytesPerSec, 0),
      recvBytesPerSecPerClient: round(r.clients.bytesPerSec / Math.max(1, r.clients.clients), 1),
      sentMsgsPerSec: round(r.clients.sentPerSec, 1),
      moveToShownMs: {
        median: round(r.clients.latency.median, 1),
        p90: round(r.clients.latency.p90, 1),
        p99: round(r.clients.latency.p99, 1),
        max: round(r.clients.latency.max, 1),
        mean: round(r.clients.latency.mean, 1),
        samples: r.clients.latency.count,
      },
      movesSent: r.clients.sent,
      unconfirmed: r.clients.unconfirmed,
      heldMoves: r.clients.held,
      timedOut: r.clients.timedOut,
      refused: r.clients.refused,
      server: {
        cpuPct: round(r.server.cpuPct, 1),
        elu: round(r.server.elu, 3),
        tickMs: { median: round(r.server.tick.median, 2), p99: round(r.server.tick.p99, 2), max: round(r.server.tick.max, 2) },
        stagesMedianMs: Object.fromEntries(Object.entries(r.server.stages).map(([k, v]) => [k, round(v, 3)])),
        maxTickGapMs: round(r.server.maxTickGapMs, 1),
        skippedTicks: r.server.skippedTicks,
        heapMB: round(r.server.heapMB, 0),
      },
      clientProcesses: {
        cpuPct: round(r.clients.cpuPct, 1),
        elu: round(r.clients.elu, 3),
        loopDelayMs: Object.fromEntries(Object.entries(r.clients.loopDelayMs).map(([k, v]) => [k, round(v, 2)])),
      },
      joinSeconds: round(r.connect.seconds, 2),
      joinFailures: r.connect.failed,
      leaveSeconds: round(r.leaveSeconds, 2),
    })),
    rawBaseline: baselines.map((b) => ({
      n: b.n,
      ws: { ...b.ws, cpuUsPerFrame: round(b.ws.cpuUsPerFrame, 2) },
      raw: { ...b.raw, cpuUsPerFrame: round(b.raw.cpuUsPerFrame, 2) },
      wsToRawCpuPerFrame: ratio(b.ws.cpuUsPerFrame, b.raw.cpuUsPerFrame),
      wsToRawMainThreadPerFrame: ratio(b.ws.mainThreadUsPerFrame, b.raw.mainThreadUsPerFrame),
      exchange: b.exchange && { ...b.exchange, cpuUsPerFrame: round(b.exchange.cpuUsPerFrame, 2) },
      wsToExchangeCpuPerFrame: b.exchange ? ratio(b.ws.cpuUsPerFrame, b.exchange.cpuUsPerFrame) : null,
    })),
    ratiosWsToSdk: sizes.flatMap((n) => {
      const w = find(n, "ws");
      const s = find(n, "sdk");
      if (!w || !s) return [];
      const r = (a: number, b: number) => {
        const v = ratio(a, b);
        return v === null ? null : round(v, 3);
      };
      return [
        {
          n,
          recvMsgsPerSec: r(w.clients.framesPerSec, s.clients.framesPerSec),
          recvMsgsPerSecPerClient: r(w.clients.perClientFramesPerSec.median, s.clients.perClientFramesPerSec.median),
          recvBytesPerSecPerClient: r(kbPerClient(w), kbPerClient(s)),
          sentMsgsPerSec: r(w.clients.sentPerSec, s.clients.sentPerSec),
          moveToShownMedian: r(w.clients.latency.median, s.clients.latency.median),
          moveToShownP99: r(w.clients.latency.p99, s.clients.latency.p99),
          serverTickMedian: r(w.server.tick.median, s.server.tick.median),
          serverTickP99: r(w.server.tick.p99, s.server.tick.p99),
          serverCpu: r(w.server.cpuPct, s.server.cpuPct),
          clientCpu: r(w.clients.cpuPct, s.clients.cpuPct),
        },
      ];
    }),
  };
  console.log(JSON.stringify(json));
}
