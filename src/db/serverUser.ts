import { execFile } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { PostgresBinaries } from "./postgresBinaries.js";

const run = promisify(execFile);

export class ServerUserError extends Error {}

/** The system user a PostgreSQL server runs as when this process is root (PostgreSQL refuses root). */
export interface ServerUser {
  name: string;
  uid: number;
  gid: number;
}

/**
 * When this process is root (containers, CI), the server runs as the `postgres` system user
 * (Debian's package makes it), else as `nobody` (a machine with no system PostgreSQL, running the
 * npm package's binaries); undefined when this process is not root (the server runs as it).
 */
export async function serverUser(): Promise<ServerUser | undefined> {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) return undefined;
  for (const name of ["postgres", "nobody"]) {
    try {
      const { stdout: uid } = await run("id", ["-u", name]);
      const { stdout: gid } = await run("id", ["-g", name]);
      return { name, uid: Number(uid.trim()), gid: Number(gid.trim()) };
    } catch {
      // no such user: try the next
    }
  }
  throw new ServerUserError("running as root needs a 'postgres' or 'nobody' system user to run PostgreSQL as");
}

/** Run `file` as `user` (this process's own user when undefined). */
export function runAs(user: ServerUser | undefined, file: string, args: string[]) {
  if (!user) return run(file, args, { timeout: 60_000 });
  return run("runuser", ["-u", user.name, "--", file, ...args], { timeout: 60_000 });
}

/** Whether `user` may do `test -<flag>` on `file` (x: run it, w: write in it, r: read it). */
export async function userCan(user: ServerUser, flag: "x" | "w" | "r", file: string): Promise<boolean> {
  try {
    await run("runuser", ["-u", user.name, "--", "test", `-${flag}`, file], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** A folder of this process's user that no one else may write in (so what it holds is what was put there). */
function ownedAndClosed(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * The binaries as `user` can run them. A clone in a private folder (mode 0700: `mktemp -d`, /root)
 * holds the npm package's binaries where the server's user cannot reach them: their installation
 * (the folder above bin/, with lib/ and share/) is then copied once per machine into the system's
 * temporary folder, `arena-postgres-<hash of where it came from>`, readable by everyone and
 * writable by root alone, and run from there.
 */
export async function reachableBinaries(user: ServerUser | undefined, bins: PostgresBinaries): Promise<PostgresBinaries> {
  if (!user || ((await userCan(user, "x", bins.initdb)) && (await userCan(user, "x", bins.pgCtl)))) return bins;
  const binDir = path.dirname(bins.initdb);
  const install = path.dirname(binDir);
  const tag = createHash("sha256")
    .update(`${install}\n${lstatSync(bins.initdb).mtimeMs}`)
    .digest("hex")
    .slice(0, 12);
  const copy = path.join(os.tmpdir(), `arena-postgres-${tag}`);
  const moved = (dir: string): PostgresBinaries => ({
    ...bins,
    initdb: path.join(dir, path.basename(binDir), "initdb"),
    pgCtl: path.join(dir, path.basename(binDir), "pg_ctl"),
  });
  if (!ownedAndClosed(copy) || !existsSync(moved(copy).initdb)) {
    rmSync(copy, { recursive: true, force: true });
    // Made beside and renamed: a second test process starting at the same time never runs half of it.
    const making = mkdtempSync(`${copy}.part-`);
    try {
      cpSync(install, making, { recursive: true, verbatimSymlinks: true });
      await run("chmod", ["-R", "u+rwX,go+rX,go-w", making]);
      renameSync(making, copy);
    } catch (err) {
      rmSync(making, { recursive: true, force: true });
      if (!ownedAndClosed(copy) || !existsSync(moved(copy).initdb)) throw err;
    }
  }
  const reachable = moved(copy);
  if (!(await userCan(user, "x", reachable.initdb))) {
    throw new ServerUserError(
      `PostgreSQL runs as the '${user.name}' user, who can reach neither ${bins.initdb} nor its copy in ${copy}: make ${os.tmpdir()} reachable by that user (or set TMPDIR)`,
    );
  }
  return reachable;
}
