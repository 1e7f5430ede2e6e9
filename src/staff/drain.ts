import type { Presence } from "@colyseus/core";
import type { Logger } from "pino";
import { GameError } from "../game/types.js";

/** The channel a process hears a drain asked of it on (from another process's route, or `npm run admin -- drain`). */
export const drainChannel = (processId: string) => `arena:drain:${processId}`;

/** What a drain needs of this process's world hosting (rooms/cluster/worldHosting.ts). */
export interface DrainableHosting {
  drain(): Promise<{ worlds: number[]; players: number }>;
}

export interface DrainState {
  processId: string;
  startedAt: string;
  by: string;
  /** Set once every world moved: the worlds and how many players went with them. */
  moved?: { worlds: number[]; players: number; ms: number };
}

/**
 * Draining this process for an upgrade (`POST /api/admin/drain`, `npm run admin -- drain`): it
 * takes no world any more, each of its worlds moves with its players to the other processes of the
 * cluster (rooms/cluster/worldHosting.ts, rooms/worldMove.ts), and then it stops as on SIGTERM and
 * exits 0, for its supervisor to start the new version. Asked twice, it answers the drain under way.
 */
export class ProcessDrain {
  private hosting: DrainableHosting | undefined;
  private state: DrainState | undefined;
  /** Ends the process (src/index.ts: the graceful stop, exit code 0). */
  exit: () => void = () => {};
  /** Settles once the drain has moved every world and called `exit`. */
  done: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;
  private processId = "";
  private cluster = false;

  constructor(private readonly logger: Logger) {}

  /** The hosting of this process's worlds, and the presence channel drains asked by other processes come on. */
  async attach(hosting: DrainableHosting, presence: Presence, processId: string, cluster: boolean) {
    this.hosting = hosting;
    this.processId = processId;
    this.cluster = cluster;
    const channel = drainChannel(processId);
    const heard = (data: { by?: unknown } | null) => {
      try {
        this.start(typeof data?.by === "string" ? data.by.slice(0, 64) : "another process");
      } catch (err) {
        this.logger.warn({ err: (err as Error).message }, "a drain asked of this process was refused");
      }
    };
    await presence.subscribe(channel, heard);
    this.unsubscribe = () => presence.unsubscribe(channel, heard);
  }

  get current(): DrainState | undefined {
    return this.state;
  }

  /** Start draining (once): every world moves, then the process exits 0. */
  start(by: string): DrainState {
    if (this.state) return this.state;
    if (!this.hosting || !this.cluster) {
      throw new GameError(
        "NO_CLUSTER",
        "A drain hands this process's worlds to the other processes of a cluster (REDIS_URL): this server runs alone; use POST /api/admin/restart",
      );
    }
    const state: DrainState = { processId: this.processId, startedAt: new Date().toISOString(), by };
    this.state = state;
    this.logger.warn({ by }, "draining: every world moves to the other processes, then this process exits");
    const began = Date.now();
    this.done = this.hosting
      .drain()
      .then((moved) => {
        state.moved = { ...moved, ms: Date.now() - began };
        this.logger.warn(state.moved, "drained: every world moved; the process stops");
      })
      .catch((err) => this.logger.error({ err }, "draining failed; the graceful stop saves whatever is left"))
      .finally(() => {
        this.unsubscribe?.();
        this.exit();
      });
    return state;
  }
}

const drains = new WeakMap<object, ProcessDrain>();
/** The drain of a server context (made on first use). */
export function drainOf(ctx: { logger: Logger }): ProcessDrain {
  let d = drains.get(ctx);
  if (!d) drains.set(ctx, (d = new ProcessDrain(ctx.logger)));
  return d;
}
