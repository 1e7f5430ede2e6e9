import { matchMaker, type Presence } from "@colyseus/core";
import type { Logger } from "pino";
import type { WorldSpec } from "../../src/worldSpecs.js";
import { markStart } from "../../src/startupTimes.js";
import { PresenceClaims } from "./presenceClaims.js";

/**
 * Each configured world runs exactly once in the whole cluster (one process: exactly once there).
 *
 * - A world is hosted by the process holding its claim: a presence claim (rooms/cluster/presenceClaims.ts)
 *   under `world:<id>:host` held by the process id and kept alive by its holder; it expires `ttlS`
 *   after its holder stops refreshing it, and another process then takes the world over, loading
 *   it from the database as any start does.
 * - A process is alive while it listens on its Colyseus process channel (`p:<processId>`; Redis
 *   drops a dead process's subscriptions at once). A claim whose holder was not alive in two
 *   rounds running is taken from it, so a SIGKILLed process's worlds run again within seconds
 *   rather than after the claim's expiry; a holder that was only cut off finds its claim gone at
 *   its next round and closes the world's room (keepClaims).
 * - A process claims a free world while it runs fewer than its fair share (worlds ÷ live
 *   processes, rounded up); one running two worlds more than another process hands a world that
 *   nobody is in over (it closes the room, whose save is written, then frees the claim), one world
 *   per round, so that processes started one after another end up sharing the worlds. A world
 *   with players in it stays where it is.
 * - A process draining (`drain`: an upgrade, docs/DEPLOYMENT.md) claims nothing more and moves
 *   each of its worlds out with its players (rooms/worldMove.ts: saved, told `world:moving` with
 *   the process meant to take it, the one running the fewest worlds), frees its claim and says so
 *   on WORLD_FREED_CHANNEL, where that process runs a round at once to take it (the others take it
 *   at their next round should it not). The draining processes (DRAINING_KEY) count for no share.
 */

export const WORLD_CLAIM_TTL_S = 15;
export const WORLD_ROUND_MS = 1000;
/** How long a world a draining process meant for another process is left to it before anyone may take it. */
const LEFT_TO_MS = 3_000;
/** How many rounds between two sweeps of dead processes' room listings (cluster only). */
const SWEEP_EVERY_ROUNDS = 3;

export const worldHostKey = (worldId: number) => `world:${worldId}:host`;
/** The worlds' claims, by world id. */
export const worldClaims = (presence: Presence, ttlS = WORLD_CLAIM_TTL_S) => new PresenceClaims(presence, worldHostKey, ttlS);
/** The room id of a world's room, the same on whichever process runs it. */
export const worldRoomId = (worldId: number) => `world-${worldId}`;

/** The presence set of the processes draining: they take no world. */
export const DRAINING_KEY = "arena:draining";
/** Published `{world, to?}` when a draining process freed a world's claim: the process `to` (or, without it, any) takes it now, not at its next round. */
export const WORLD_FREED_CHANNEL = "arena:world-freed";

/** The processes alive now: those listening on their Colyseus process channel. */
export async function liveProcesses(presence: Presence): Promise<Set<string>> {
  return new Set(((await presence.channels("p:*")) ?? []).map((c) => c.slice(2)));
}

/** Of the `live` processes, those that share the worlds: draining ones are on their way out and count for no share. */
export async function sharingProcesses(presence: Presence, live: Iterable<string>): Promise<string[]> {
  const draining = new Set(await presence.smembers(DRAINING_KEY));
  return [...live].filter((pid) => !draining.has(pid));
}

/** How many worlds each of `processes` holds the claim of. */
function worldCounts(processes: Iterable<string>, holders: Map<number, string | undefined>): Map<string, number> {
  const counts = new Map([...processes].map((pid) => [pid, 0]));
  for (const holder of holders.values()) if (holder && counts.has(holder)) counts.set(holder, counts.get(holder)! + 1);
  return counts;
}

export interface HostingHooks {
  /** Make the world's room on this process (resolves once it runs). */
  open(spec: WorldSpec): Promise<void>;
  /** Is nobody in the world's room here (it may be handed over)? */
  isEmpty(spec: WorldSpec): boolean;
  /** Close the world's room here (resolves once its save is written). */
  close(spec: WorldSpec): Promise<void>;
  /**
   * Let the world's players go to wherever it runs next (rooms/worldMove.ts); how many there were.
   * `next`: the process expected to take it (its players may knock there first).
   */
  moveOut(spec: WorldSpec, next: string | undefined): Promise<number>;
}

export class WorldHosting {
  /** The worlds this process holds the claim of (opening, running or closing). */
  readonly hosted = new Set<number>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  /** A round was asked for while one ran. */
  private again = false;
  private stopped = false;
  private rounds = 0;
  /** Set by `drain`: no world is claimed or kept from here on. */
  private draining = false;
  /** A world freed by a draining process: the process it was meant for takes it now; the others at their next round, should it not. */
  private readonly onFreed = (freed: { world?: unknown; to?: unknown } | null) => {
    if (typeof freed?.to === "string" && freed.to !== this.self.processId) {
      // Meant for another: left to it for a while, so that its players, sent there, find it there.
      if (typeof freed.world === "number") this.leftTo.set(freed.world, Date.now() + LEFT_TO_MS);
      return;
    }
    void this.round();
  };
  /** Worlds a draining process meant for another process, until when this one leaves them alone. */
  private readonly leftTo = new Map<number, number>();
  /** Holders found not alive in the last round, by world id. */
  private absentHolders = new Map<number, string>();
  private readonly claims: PresenceClaims<number>;

  constructor(
    private readonly presence: Presence,
    private readonly specs: WorldSpec[],
    private readonly self: { processId: string },
    private readonly hooks: HostingHooks,
    private readonly logger: Logger,
    private readonly options: { ttlS?: number; sweepDeadProcesses?: boolean; alive?: () => boolean } = {},
  ) {
    this.claims = worldClaims(presence, options.ttlS);
  }

  /** The first round (this process's share of the free worlds made), then a round every `everyMs`. */
  async start(everyMs = WORLD_ROUND_MS): Promise<void> {
    await this.round();
    markStart("worlds");
    if (this.stopped) return;
    await this.presence.subscribe(WORLD_FREED_CHANNEL, this.onFreed);
    this.timer = setInterval(() => void this.round(), everyMs);
    this.timer.unref();
  }

  /** No more rounds (a shutdown): each world room frees its claim once it is saved (WorldRoom, through worldClaims). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    this.presence.unsubscribe(WORLD_FREED_CHANNEL, this.onFreed);
    if (this.draining) await Promise.resolve(this.presence.srem(DRAINING_KEY, this.self.processId)).catch(() => {});
  }

  /**
   * Move every world of this process to the others (an upgrade): from now on it claims nothing; each
   * world's players are let go to its next host (`moveOut`), its room closed (saved) and its claim
   * freed, which the other processes hear of at once. Resolves with what moved.
   */
  async drain(): Promise<{ worlds: number[]; players: number }> {
    this.draining = true;
    await this.presence.sadd(DRAINING_KEY, this.self.processId);
    await this.running;
    const specs = this.specs.filter((s) => this.hosted.has(s.id));
    const next = await this.nextHosts(specs);
    const players = await Promise.all(specs.map((spec) => this.moveOut(spec, next.get(spec.id))));
    return { worlds: specs.map((s) => s.id), players: players.reduce((a, b) => a + b, 0) };
  }

  /** Which process each world moving off this one should go to: the one running the fewest worlds, in turn. */
  private async nextHosts(specs: WorldSpec[]): Promise<Map<number, string>> {
    const others = (await sharingProcesses(this.presence, await liveProcesses(this.presence))).filter((pid) => pid !== this.self.processId);
    const counts = worldCounts(others, await this.holders());
    const next = new Map<number, string>();
    for (const spec of specs) {
      const fewest = [...counts].sort(([a, m], [b, n]) => m - n || a.localeCompare(b))[0];
      if (!fewest) break;
      next.set(spec.id, fewest[0]);
      counts.set(fewest[0], fewest[1] + 1);
    }
    return next;
  }

  private async moveOut(spec: WorldSpec, next: string | undefined): Promise<number> {
    const began = Date.now();
    let players = 0;
    let outMs = 0;
    try {
      players = await this.hooks.moveOut(spec, next);
      outMs = Date.now() - began;
    } finally {
      this.hosted.delete(spec.id);
      try {
        await this.hooks.close(spec);
      } finally {
        await this.claims.release(spec.id, this.self.processId);
        await this.presence.publish(WORLD_FREED_CHANNEL, { world: spec.id, ...(next ? { to: next } : {}) });
      }
    }
    this.logger.info({ world: spec.id, players, playersOutMs: outMs, freedMs: Date.now() - began }, "draining: a world moved out, its claim freed");
    return players;
  }

  /** Which process holds each world's claim now (undefined: none). */
  async holders(): Promise<Map<number, string | undefined>> {
    const ids = await Promise.all(this.specs.map((s) => this.claims.holderOf(s.id)));
    return new Map(this.specs.map((s, i) => [s.id, ids[i]]));
  }

  /** One round, never two at once. */
  round(): Promise<void> {
    if (this.options.alive && !this.options.alive()) void this.stop();
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      // Asked again while one runs (a world freed meanwhile): another follows it.
      this.again = true;
      return this.running;
    }
    this.running = this.runRound()
      .catch((err) => this.logger.warn({ err }, "world hosting round failed"))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          void this.round();
        }
      });
    return this.running;
  }

  private async runRound() {
    // A SIGKILLed process's room listings stay until a health check sweeps them (Colyseus does not expire them).
    if (this.options.sweepDeadProcesses && this.rounds++ % SWEEP_EVERY_ROUNDS === 0) await matchMaker.healthCheckAllProcesses();
    await this.keepClaims();
    const live = await liveProcesses(this.presence);
    live.add(this.self.processId);
    const holders = await this.holders();
    await this.freeClaimsOfTheDead(holders, live);
    if (this.draining) return;
    const sharing = await sharingProcesses(this.presence, live);
    const fair = Math.ceil(this.specs.length / Math.max(1, sharing.length));
    const counts = worldCounts(sharing, holders);
    for (const spec of this.specs) {
      if (this.stopped || this.hosted.size >= fair) break;
      if ((this.leftTo.get(spec.id) ?? 0) > Date.now()) continue;
      this.leftTo.delete(spec.id);
      if (holders.get(spec.id) !== undefined || !(await this.claims.claim(spec.id, this.self.processId))) continue;
      this.hosted.add(spec.id);
      try {
        const began = Date.now();
        await this.hooks.open(spec);
        this.logger.info({ world: spec.id, openMs: Date.now() - began }, "world opened on this process");
      } catch (err) {
        this.logger.error({ err, world: spec.id }, "could not open a world; its claim is freed");
        this.hosted.delete(spec.id);
        await this.claims.release(spec.id, this.self.processId);
      }
    }
    // Two worlds or more ahead of another process: hand one empty world over.
    const someoneShort = [...counts].some(([pid, n]) => pid !== this.self.processId && n <= this.hosted.size - 2);
    if (!this.stopped && someoneShort) {
      const spec = this.specs.find((s) => this.hosted.has(s.id) && this.hooks.isEmpty(s));
      if (spec) await this.handOver(spec);
    }
  }

  /**
   * Refresh the claims held. A claim that lapsed while nobody took it (a round late under load) is
   * taken again; one another process holds now (this one stalled past its expiry, or was cut off)
   * is given up at once.
   */
  private async keepClaims() {
    for (const id of [...this.hosted]) {
      let holder = await this.claims.holderOf(id);
      if (holder === undefined && (await this.claims.claim(id, this.self.processId))) holder = this.self.processId;
      if (holder === this.self.processId) {
        await this.claims.refresh([id]);
        continue;
      }
      this.logger.error({ world: id, holder }, "this process lost its claim on a world (it stalled past the claim's expiry); closing its room here");
      this.hosted.delete(id);
      const spec = this.specs.find((s) => s.id === id);
      if (spec) await this.hooks.close(spec).catch((err) => this.logger.error({ err, world: id }, "could not close a world"));
    }
  }

  /** A claim whose holder was not alive this round and the last is freed (and counted free in `holders`). */
  private async freeClaimsOfTheDead(holders: Map<number, string | undefined>, live: Set<string>) {
    const absent = new Map<number, string>();
    for (const [id, holder] of holders) {
      if (!holder || live.has(holder)) continue;
      if (this.absentHolders.get(id) !== holder) {
        absent.set(id, holder);
        continue;
      }
      this.logger.warn({ world: id, holder }, "the process running a world is gone; taking the world over");
      await this.claims.release(id, holder);
      holders.set(id, undefined);
    }
    this.absentHolders = absent;
  }

  private async handOver(spec: WorldSpec) {
    this.logger.info({ world: spec.id }, "handing an empty world over to a process with fewer worlds");
    this.hosted.delete(spec.id);
    try {
      await this.hooks.close(spec);
    } finally {
      await this.claims.release(spec.id, this.self.processId);
    }
  }
}
