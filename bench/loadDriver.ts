import { fork, type ChildProcess } from "node:child_process";
import type { UpdatesForm } from "../src/protocol/index.js";
import { fileURLToPath } from "node:url";
import type { ClientKind } from "./loadClient.js";
import type { RawWindow } from "./loadWindows.js";
import type { MapInfo } from "./tiles.js";

export interface ConnectResult {
  connected: number;
  failed: number;
  firstFailure?: string;
  tokensSeconds: number;
  seconds: number;
}

export interface SpreadResult {
  started: number;
  stragglers: number;
  seconds: number;
}

/** The parent's handle on the load process (bench/loadClients.ts): one request at a time, answered by id. */
export class LoadDriver {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (m: any) => void; reject: (e: Error) => void }>();

  private constructor(private readonly child: ChildProcess) {
    child.on("message", (m: any) => {
      const w = this.waiting.get(m?.id);
      if (!w) return;
      this.waiting.delete(m.id);
      const { id: _id, ok, ...body } = m;
      if (ok) w.resolve(body);
      else w.reject(new Error(`load process: ${m.error}`));
    });
    child.on("exit", (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`load process exited (${code})`));
      this.waiting.clear();
    });
  }

  /** Fork one load process (it inherits this process's execArgv, so it runs TypeScript through tsx too). */
  static async start(timeoutMs = 30_000): Promise<LoadDriver> {
    const child = fork(fileURLToPath(new URL("./loadClients.ts", import.meta.url)), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const driver = new LoadDriver(child);
    await driver.await(0, timeoutMs, "ready");
    return driver;
  }

  get pid() {
    return this.child.pid;
  }

  private await(id: number, timeoutMs: number, what: string): Promise<any> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`load process: no answer to ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(id, {
        resolve: (m) => (clearTimeout(timer), resolve(m)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
    });
  }

  private request<T>(type: string, body: object, timeoutMs: number): Promise<T> {
    const id = this.nextId++;
    const answer = this.await(id, timeoutMs, type);
    this.child.send({ id, type, ...body });
    return answer;
  }

  setup(url: string, port: number, map: MapInfo, seed: number, wsUpdates: UpdatesForm) {
    return this.request<object>("setup", { url, port, map, seed, wsUpdates }, 10_000);
  }

  /** Join N clients; new characters (on the spawn tile) start running to a random tile within `spreadMaxDistance` at once. */
  connect(kind: ClientKind, n: number, concurrency: number, spreadMaxDistance: number, timeoutMs: number) {
    return this.request<ConnectResult>("connect", { kind, n, concurrency, spreadMaxDistance }, timeoutMs);
  }

  spread(timeoutMs: number, maxDistance: number) {
    return this.request<SpreadResult>("spread", { timeoutMs, maxDistance }, timeoutMs + 10_000);
  }

  walk() {
    return this.request<object>("walk", {}, 10_000);
  }

  mark() {
    return this.request<object>("mark", {}, 10_000);
  }

  report(drainMs: number) {
    return this.request<RawWindow>("report", { drainMs }, drainMs + 20_000);
  }

  disconnect() {
    return this.request<{ seconds: number; consoleLines: Record<string, number> }>("disconnect", {}, 60_000);
  }

  async stop() {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.send({ id: -1, type: "exit" });
    const timer = setTimeout(() => this.child.kill(), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
