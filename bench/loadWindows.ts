import { mean, percentiles, quantile } from "./stats.js";

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
