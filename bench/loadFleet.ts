import type { ClientKind } from "./loadClient.js";
import type { UpdatesForm } from "../src/protocol/index.js";
import { LoadDriver, type ConnectResult, type SpreadResult } from "./loadDriver.js";
import { mergeWindows, type ClientWindow } from "./loadWindows.js";
import type { MapInfo } from "./tiles.js";

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
