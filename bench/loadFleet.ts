import type { ClientKind } from "./loadClient.js";
import type { UpdatesForm } from "../src/protocol/index.js";
import { LoadDriver, type ConnectResult, type SpreadResult } from "./loadDriver.js";
import { mean, percentiles, quantile } from "./stats.js";
import type { MapInfo } from "./tiles.js";

/** What one load process measured over a window (bench/loadClients.ts report()). */
export interface RawWindow {
  clients: number;
  seconds: number;
  frames: number;
  bytes: number;
  /** Frames each client received. */
  perClientFrames: number[];
  /** Frames received, by kind. */
  kinds: Record<string, number>;
  sent: number;
  held: number;
  timedOut: number;
  refused: Record<string, number>;
  closedDuringWindow: number;
  /** CPU time (user + system) of the process over the window. */
  cpuMs: number;
  elu: number;
  loopDelayMs: { p50: number; p99: number; max: number };
  /** Move-to-shown times (ms) of the moves sent in the window. */
  latencies: number[];
  unconfirmed: number;
}

/** What the clients measured over one window, all load processes together. */
export interface ClientWindow {
  clients: number;
  seconds: number;
  framesPerSec: number;
  bytesPerSec: number;
  perClientFramesPerSec: { median: number; p99: number; max: number; min: number; mean: number };
  kindsPerSec: Record<string, number>;
  sentPerSec: number;
  sent: number;
  latency: { count: number; median: number; p90: number; p99: number; max: number; mean: number };
  unconfirmed: number;
  held: number;
  timedOut: number;
  refused: Record<string, number>;
  closedDuringWindow: number;
  /** CPU of all load processes together, as % of one core. */
  cpuPct: number;
  /** The busiest load process's event-loop utilisation and loop delay. */
  elu: number;
  loopDelayMs: { p50: number; p99: number; max: number };
}

export function mergeWindows(parts: RawWindow[]): ClientWindow {
  const seconds = Math.max(...parts.map((p) => p.seconds));
  const sum = (f: (p: RawWindow) => number) => parts.reduce((a, p) => a + f(p), 0);
  const perClient = parts.flatMap((p) => p.perClientFrames.map((f) => f / p.seconds));
  const latencies = parts.flatMap((p) => p.latencies).sort((a, b) => a - b);
  const kinds: Record<string, number> = {};
  const refused: Record<string, number> = {};
  for (const p of parts) {
    for (const [k, v] of Object.entries(p.kinds)) kinds[k] = (kinds[k] ?? 0) + v / p.seconds;
    for (const [k, v] of Object.entries(p.refused)) refused[k] = (refused[k] ?? 0) + v;
  }
  const sent = sum((p) => p.sent);
  return {
    clients: sum((p) => p.clients),
    seconds,
    framesPerSec: sum((p) => p.frames / p.seconds),
    bytesPerSec: sum((p) => p.bytes / p.seconds),
    perClientFramesPerSec: { ...percentiles(perClient), min: perClient.length ? Math.min(...perClient) : 0, mean: mean(perClient) },
    kindsPerSec: kinds,
    sentPerSec: sum((p) => p.sent / p.seconds),
    sent,
    latency: {
      count: latencies.length,
      median: quantile(latencies, 0.5),
      p90: quantile(latencies, 0.9),
      p99: quantile(latencies, 0.99),
      max: latencies[latencies.length - 1] ?? 0,
      mean: mean(latencies),
    },
    unconfirmed: sum((p) => p.unconfirmed),
    held: sum((p) => p.held),
    timedOut: sum((p) => p.timedOut),
    refused,
    closedDuringWindow: sum((p) => p.closedDuringWindow),
    cpuPct: sum((p) => (100 * p.cpuMs) / (p.seconds * 1000)),
    elu: Math.max(...parts.map((p) => p.elu)),
    loopDelayMs: {
      p50: Math.max(...parts.map((p) => p.loopDelayMs.p50)),
      p99: Math.max(...parts.map((p) => p.loopDelayMs.p99)),
      max: Math.max(...parts.map((p) => p.loopDelayMs.max)),
    },
  };
}

/**
 * One or more load processes acting as one: client i lives in process i mod K (so, for a given K,
 * client i always plays the same character), each request goes to all of them at once, and their
 * window figures are merged.
 */
export class LoadFleet {
  private constructor(private readonly drivers: LoadDriver[]) {}

  static async start(processes: number): Promise<LoadFleet> {
    const drivers: LoadDriver[] = [];
    try {
      for (let k = 0; k < processes; k++) drivers.push(await LoadDriver.start());
    } catch (err) {
      await Promise.all(drivers.map((d) => d.stop().catch(() => {})));
      throw err;
    }
    return new LoadFleet(drivers);
  }

  get pids() {
    return this.drivers.map((d) => d.pid);
  }

  private share(n: number, k: number) {
    const K = this.drivers.length;
    return Math.floor(n / K) + (k < n % K ? 1 : 0);
  }

  /** `wsUpdates`: the form of world:update the /ws clients ask for (PROTOCOL.md §4). */
  async setup(url: string, port: number, map: MapInfo, seed: number, wsUpdates: UpdatesForm) {
    await Promise.all(this.drivers.map((d, k) => d.setup(url, port, map, seed * 1000 + k, wsUpdates)));
  }

  async connect(kind: ClientKind, n: number, concurrency: number, spreadMaxDistance: number, timeoutMs: number): Promise<ConnectResult> {
    const K = this.drivers.length;
    const parts = await Promise.all(
      this.drivers.map((d, k) => d.connect(kind, this.share(n, k), Math.max(1, Math.round(concurrency / K)), spreadMaxDistance, timeoutMs)),
    );
    return {
      connected: parts.reduce((a, p) => a + p.connected, 0),
      failed: parts.reduce((a, p) => a + p.failed, 0),
      firstFailure: parts.find((p) => p.firstFailure)?.firstFailure,
      tokensSeconds: Math.max(...parts.map((p) => p.tokensSeconds)),
      seconds: Math.max(...parts.map((p) => p.seconds)),
    };
  }

  async spread(timeoutMs: number, maxDistance: number): Promise<SpreadResult> {
    const parts = await Promise.all(this.drivers.map((d) => d.spread(timeoutMs, maxDistance)));
    return {
      started: parts.reduce((a, p) => a + p.started, 0),
      stragglers: parts.reduce((a, p) => a + p.stragglers, 0),
      seconds: Math.max(...parts.map((p) => p.seconds)),
    };
  }

  async walk() {
    await Promise.all(this.drivers.map((d) => d.walk()));
  }

  async mark() {
    await Promise.all(this.drivers.map((d) => d.mark()));
  }

  async report(drainMs: number): Promise<ClientWindow> {
    return mergeWindows(await Promise.all(this.drivers.map((d) => d.report(drainMs))));
  }

  /** Every client leaves; returns what the clients logged since the last disconnect (lines, counted). */
  async disconnect(): Promise<Record<string, number>> {
    const lines: Record<string, number> = {};
    for (const { consoleLines } of await Promise.all(this.drivers.map((d) => d.disconnect()))) {
      for (const [line, n] of Object.entries(consoleLines)) lines[line] = (lines[line] ?? 0) + n;
    }
    return lines;
  }

  async stop() {
    await Promise.all(this.drivers.map((d) => d.stop().catch(() => {})));
  }
}
