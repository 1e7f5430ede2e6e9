import { spawn } from "node:child_process";
import { ROOT } from "../../src/paths.js";

/**
 * One of the operator's commands (`npm run admin`, `audit`, `backup`, `restore`) as they run it:
 * its script under tsx, in the repository, with only `env` beside PATH and HOME; its exit code and
 * everything it printed.
 */
export function runCli(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ code, output }));
  });
}
