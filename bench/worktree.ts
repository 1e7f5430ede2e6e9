import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../src/paths.js";

/** A revision to benchmark: its folder, a label for the report, and how to remove it when done. */
export interface Checkout {
  dir: string;
  label: string;
  remove?: () => void;
}

/**
 * `rev` checked out in a temporary git worktree that shares this checkout's node_modules (so it
 * runs with the same packages and nothing is installed), or this checkout itself for "." (the
 * working tree). Used by bench/ab.ts and `npm run bench:startup -- --compare <rev>`.
 */
export function checkout(rev: string): Checkout {
  if (rev === ".") return { dir: ROOT, label: "working tree" };
  const sha = execFileSync("git", ["rev-parse", "--verify", `${rev}^{commit}`], { cwd: ROOT, encoding: "utf8" }).trim();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ab-${sha.slice(0, 8)}-`));
  execFileSync("git", ["worktree", "add", "--detach", "--force", dir, sha], { cwd: ROOT, stdio: "ignore" });
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  return {
    dir,
    label: `${rev} (${sha.slice(0, 7)})`,
    remove: () => execFileSync("git", ["worktree", "remove", "--force", dir], { cwd: ROOT, stdio: "ignore" }),
  };
}
