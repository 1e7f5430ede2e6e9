import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdir, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import type { Logger } from "pino";

const run = promisify(execFile);

export class LocalPostgresError extends Error {}

export interface LocalPostgres {
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

/** Where PostgreSQL's binaries may be: the search PATH, then Debian's /usr/lib/postgresql/<version>/bin. */
export function postgresSearchDirs(): string[] {
  // PATH is the operating system's search path, not a setting of this server.
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) dirs.push(path.join(debian, v, "bin"));
  }
  return dirs;
}

/** Find initdb and pg_ctl in the given folders. */
export function findPostgresBinaries(dirs: string[] = postgresSearchDirs()): { initdb: string; pgCtl: string } | undefined {
  for (const dir of dirs) {
    const initdb = path.join(dir, "initdb");
    const pgCtl = path.join(dir, "pg_ctl");
    if (existsSync(initdb) && existsSync(pgCtl)) return { initdb, pgCtl };
  }
  return undefined;
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

/**
 * PostgreSQL refuses to run as root. When this process is root (containers, CI), the server
 * runs as the `postgres` system user that Debian's package creates, and owns its files.
 */
async function serverUser(): Promise<{ uid: number; gid: number } | undefined> {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) return undefined;
  try {
    const { stdout: uid } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  } catch {
    throw new LocalPostgresError("running as root needs the 'postgres' system user (apt-get install postgresql creates it)");
  }
}

function runAs(user: { uid: number; gid: number } | undefined, file: string, args: string[]) {
  if (!user) return run(file, args, { timeout: 60_000 });
  return run("runuser", ["-u", "postgres", "--", file, ...args], { timeout: 60_000 });
}

/**
 * Start a PostgreSQL server from the installed binaries: initdb once into dataDir, then
 * pg_ctl start on a free loopback port (trust authentication, loopback only).
 */
export async function startLocalPostgres(options: { dataDir: string; port?: number; logger?: Logger; searchDirs?: string[] }): Promise<LocalPostgres> {
  const bins = findPostgresBinaries(options.searchDirs);
  if (!bins) {
    throw new LocalPostgresError(
      "USE_LOCAL_POSTGRES needs PostgreSQL's initdb and pg_ctl; install them (Debian/Ubuntu: sudo apt-get install postgresql, macOS: brew install postgresql) or unset USE_LOCAL_POSTGRES to use the embedded database",
    );
  }
  const dataDir = path.resolve(options.dataDir);
  const user = await serverUser();
  const logFile = path.join(path.dirname(dataDir), `${path.basename(dataDir)}.log`);
  await mkdir(dataDir, { recursive: true });
  await writeFile(logFile, "", { flag: "a" });
  if (user) for (const p of [dataDir, logFile]) await chown(p, user.uid, user.gid);
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    options.logger?.info({ dataDir }, "initialising local PostgreSQL cluster");
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
