import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "../../src/db/localPostgres.js";
import { ROOT } from "../../src/paths.js";

/**
 * The real server as a child process, started the way `npm start` starts it (as test/process.test.ts
 * does), for tests that must kill it for real. Every process started here is remembered so that a
 * suite's `after` can kill whatever is still running with `killServerProcesses()`, even when the
 * test failed half-way.
 */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Settles when the process has exited: its exit code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
}

const running = new Set<ChildProcess>();

export function spawnServerProcess(env: Record<string, string>, port: number): ServerProcess {
  const child = spawn(process.execPath, ["src/launch.mjs"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "development",
      DISABLE_RATE_LIMIT: "true",
      LOG_LEVEL: "warn",
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, port, url: `http://127.0.0.1:${port}`, exited, output: () => output };
}

/**
 * Start the server and resolve once GET /health answers 200 (polled: the one wait that is about
 * time, "until it answers"). Rejects, with the process's output, when it exits first or is not
 * healthy within `timeoutMs`.
 */
export async function startServerProcess(env: Record<string, string>, options: { timeoutMs?: number; port?: number } = {}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const p = spawnServerProcess(env, port);
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  let gone = false;
  void p.exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`the server exited before /health answered:\n${p.output()}`);
    try {
      const res = await fetch(`${p.url}/health`, { signal: AbortSignal.timeout(3_000) });
      if (res.status === 200) return p;
      await res.body?.cancel();
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      p.child.kill("SIGKILL");
      throw new Error(`/health did not answer 200 within ${options.timeoutMs ?? 20_000} ms:\n${p.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** SIGKILL every server process started here that is still running; resolves once they have exited. */
export async function killServerProcesses(): Promise<void> {
  const children = [...running];
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGKILL");
        }),
    ),
  );
  for (const c of children) running.delete(c);
}
