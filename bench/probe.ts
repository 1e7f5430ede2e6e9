import { PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import { StateView } from "@colyseus/schema";
import type { WorldRoom } from "../rooms/WorldRoom.js";
import { WorldSync } from "../rooms/interest/worldSync.js";

/**
 * Timing taps on a running WorldRoom, installed on the instance (the room's source is untouched):
 * each tick's start, its wall time, and the time spent in the three sync stages the room calls from
 * its tick — WorldInterest.syncState (world → schema), WorldInterest.updateViews (area of interest and
 * StateView add/remove) and Room.broadcastPatch (schema patch encoding per client view and sending).
 * It also counts, while updateViews runs, the StateView add/remove calls: how many entities came
 * into or went out of some client's view. Listeners run right after each tick (setImmediate).
 */
export interface TickRecord {
  tick: number;
  /** performance.now() when the tick began. */
  startedAt: number;
  /** Wall time of the whole tick callback (the same span TickLoop.durations records). */
  totalMs: number;
  syncMs: number;
  viewsMs: number;
  patchMs: number;
  /** Entities that came into / went out of some client's view this tick (StateView add / remove). */
  entered: number;
  left: number;
  /** The room's own timing of each named tick phase (WorldRoom.phases), ms. */
  phases: Record<string, number>;
  /** Clients handed from one zone's view to another's this tick, and the hand-over frames made for them. */
  handedOver: number;
  handOverFrames: number;
  /** Garbage collection pauses within the tick (ms, summed): filled in by `between`. */
  gcMs?: number;
}

type Listener = (tick: number) => void;

/** The longest time (ms) between the starts of two ticks in a row of `records`; 0 for fewer than two. */
export function longestTickGap(records: readonly TickRecord[]): number {
  let gap = 0;
  for (let i = 1; i < records.length; i++) gap = Math.max(gap, records[i].startedAt - records[i - 1].startedAt);
  return gap;
}

export class RoomProbe {
  readonly records: TickRecord[] = [];
  private readonly listeners = new Set<Listener>();
  private current = { syncMs: 0, viewsMs: 0, patchMs: 0, entered: 0, left: 0 };
  /** The process's garbage collection pauses (start, duration; ms), kept while the probe lives. */
  private readonly gcs: Array<[number, number]> = [];
  private readonly gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries() as PerformanceEntry[]) this.gcs.push([e.startTime, e.duration]);
  });
  /** Count StateView add/remove calls only while the interest's updateViews runs (outermost calls only). */
  private countingViews = false;

  constructor(readonly room: WorldRoom) {
    this.gcObserver.observe({ entryTypes: ["gc"] });
    const interest = room.interest;
    const syncState = interest.syncState.bind(interest);
    const updateViews = interest.updateViews.bind(interest);
    const broadcastPatch = room.broadcastPatch.bind(room);
    interest.syncState = () => {
      const t = performance.now();
      syncState();
      this.current.syncMs += performance.now() - t;
    };
    interest.updateViews = () => {
      const t = performance.now();
      this.countingViews = true;
      try {
        return updateViews();
      } finally {
        this.countingViews = false;
        this.current.viewsMs += performance.now() - t;
      }
    };
    this.countViewChanges();
    room.broadcastPatch = () => {
      const t = performance.now();
      const out = broadcastPatch();
      this.current.patchMs += performance.now() - t;
      return out;
    };
    // The loop's tick callback: time it whole and hand each finished tick to the listeners.
    const loop = room.loop as unknown as { onTick: () => void };
    // Hand-overs are the shared implementation's (none under the plain one).
    const handOvers = () => (room.interest instanceof WorldSync ? room.interest.views.handOvers : { clients: 0, frames: 0 });
    let handed = { ...handOvers() };
    const onTick = loop.onTick;
    loop.onTick = () => {
      this.current = { syncMs: 0, viewsMs: 0, patchMs: 0, entered: 0, left: 0 };
      const startedAt = performance.now();
      try {
        onTick();
      } finally {
        const totalMs = performance.now() - startedAt;
        const tick = room.world.tick;
        const h = handOvers();
        const phases = Object.fromEntries(room.phases.lastMs);
        this.records.push({
          tick,
          startedAt,
          totalMs,
          ...this.current,
          phases,
          handedOver: h.clients - handed.clients,
          handOverFrames: h.frames - handed.frames,
        });
        handed = { ...h };
        setImmediate(() => {
          for (const l of this.listeners) l(tick);
        });
      }
    };
  }

  private countViewChanges() {
    const proto = StateView.prototype as unknown as { add: (...a: unknown[]) => unknown; remove: (...a: unknown[]) => unknown };
    const add = proto.add;
    const remove = proto.remove;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const probe = this;
    let depth = 0;
    proto.add = function (this: unknown, ...args: unknown[]) {
      if (probe.countingViews && depth === 0) probe.current.entered++;
      depth++;
      try {
        return add.apply(this, args);
      } finally {
        depth--;
      }
    };
    proto.remove = function (this: unknown, ...args: unknown[]) {
      if (probe.countingViews && depth === 0) probe.current.left++;
      depth++;
      try {
        return remove.apply(this, args);
      } finally {
        depth--;
      }
    };
  }

  /** The garbage collection pauses within a tick (ms, summed; the observer is told of them shortly after). */
  private gcWithin(r: TickRecord): number {
    const end = r.startedAt + r.totalMs;
    let ms = 0;
    for (const [at, d] of this.gcs) if (at >= r.startedAt && at < end) ms += Math.min(d, end - at);
    return ms;
  }

  /** Stop observing garbage collection. */
  close() {
    this.gcObserver.disconnect();
  }

  get tick(): number {
    return this.room.world.tick;
  }

  /** Call `fn` after every tick, in registration order. */
  onTick(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Resolve after the tick `n` ticks from now has run (and its listeners). */
  waitTicks(n: number, timeoutMs = 60_000): Promise<number> {
    const target = this.tick + n;
    return this.waitUntil((tick) => tick >= target, timeoutMs, `tick ${target}`);
  }

  /** Resolve after the first tick for which `pred` holds. */
  waitUntil(pred: (tick: number) => boolean, timeoutMs: number, what = "condition"): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const off = this.onTick((tick) => {
        if (!pred(tick)) return;
        off();
        clearTimeout(timer);
        resolve(tick);
      });
    });
  }

  /** The records of ticks after `fromTick` up to and including `toTick`, with the garbage collection within each. */
  between(fromTick: number, toTick: number): TickRecord[] {
    const out = this.records.filter((r) => r.tick > fromTick && r.tick <= toTick);
    for (const r of out) r.gcMs = this.gcWithin(r);
    return out;
  }
}
