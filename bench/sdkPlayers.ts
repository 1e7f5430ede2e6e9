import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface SdkJoined {
  idx: number;
  sessionId: string;
  playerId: string;
}

export interface SdkReport {
  idx: number;
  bytes: number;
  frames: number;
  /** [tick, running byte total right after that tick's patch]. */
  /** Running totals after each tick's last patch: all bytes, and state bytes. */
  byTick: Array<[number, [number, number]]>;
}

/** The parent's handle on bench/sdkClients.ts: real @colyseus/sdk players in a child process. */
export class SdkPlayers {
  private waiting: Array<{ type: string; resolve: (m: any) => void; reject: (e: Error) => void }> = [];

  private constructor(private readonly child: ChildProcess) {
    child.on("message", (m: any) => {
      if (m?.type === "error") {
        for (const w of this.waiting.splice(0)) w.reject(new Error(`sdk child: ${m.message}`));
        return;
      }
      const i = this.waiting.findIndex((w) => w.type === m?.type);
      if (i >= 0) this.waiting.splice(i, 1)[0].resolve(m);
    });
    child.on("exit", (code) => {
      for (const w of this.waiting.splice(0)) w.reject(new Error(`sdk child exited (${code})`));
    });
  }

  static async start(timeoutMs = 30_000): Promise<SdkPlayers> {
    // The child inherits this process's execArgv, so it runs TypeScript through tsx as well.
    const child = fork(fileURLToPath(new URL("./sdkClients.ts", import.meta.url)), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const players = new SdkPlayers(child);
    await players.expect("ready", timeoutMs);
    return players;
  }

  private expect(type: string, timeoutMs: number): Promise<any> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`sdk child: no ${type} within ${timeoutMs} ms`)), timeoutMs);
      this.waiting.push({
        type,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
  }

  async join(url: string, names: string[]): Promise<SdkJoined[]> {
    const reply = this.expect("joined", 60_000);
    this.child.send({ type: "join", url, names });
    return (await reply).players;
  }

  send(idx: number, msgType: string, payload: unknown) {
    this.child.send({ type: "send", idx, msgType, payload });
  }

  async report(): Promise<SdkReport[]> {
    const reply = this.expect("report", 30_000);
    this.child.send({ type: "report" });
    return (await reply).players;
  }

  async stop() {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.send({ type: "leave" });
    const timer = setTimeout(() => this.child.kill(), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
