import type { Histogram } from "prom-client";

/** The engine's phases of a world room's tick, in their order (rooms/worldTick.ts); each feature desk's phase runs after `trades`. */
export type WorldTickPhase =
  | "players"
  | "npcs"
  | "resources"
  | "groundItems"
  | "stores"
  | "events"
  | "trades"
  | "sync"
  | "views"
  | "send"
  | "patch"
  | "handOver"
  | "save"
  | "watchdog"
  | "endTick";

/**
 * Times the named phases of a tick: each phase's duration goes to the tick histogram under its
 * `phase` label (the whole tick is observed as `phase="total"` by the tick loop), and the last
 * tick's durations are kept for benchmarks and the monitor.
 */
export class TickPhases<P extends string> {
  readonly lastMs = new Map<P, number>();

  constructor(private readonly histogram: Histogram<"phase">) {}

  run<T>(phase: P, work: () => T): T {
    const t0 = performance.now();
    try {
      return work();
    } finally {
      const ms = performance.now() - t0;
      this.lastMs.set(phase, ms);
      this.histogram.observe({ phase }, ms / 1000);
    }
  }
}
