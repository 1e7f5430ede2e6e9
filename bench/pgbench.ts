import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { findPostgresBinaries, systemPostgresDirs } from "../src/db/postgresBinaries.js";
import { createTestDatabase } from "../test/helpers/postgres.js";

const run = promisify(execFile);

/** pgbench: beside the system's pg_ctl (Debian's server package; npm's package has none), else on PATH. */
function pgbenchPath(): string {
  const bins = findPostgresBinaries(systemPostgresDirs());
  const beside = bins && path.join(path.dirname(bins.pgCtl), "pgbench");
  return beside && existsSync(beside) ? beside : "pgbench";
}

/**
 * The ceiling the trade bench compares itself to: pgbench's built-in simple-update script (one
 * account's read-modify-write and a history insert per transaction) with `clients` connections for
 * `seconds`, on a fresh database of the same PostgreSQL server the bench traded on.
 */
export async function pgbenchCeiling(clients: number, seconds: number): Promise<{ tps: number; command: string } | { skipped: string }> {
  const bin = pgbenchPath();
  let db: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  try {
    db = await createTestDatabase();
    await run(bin, ["-i", "-q", "-s", "10", db.url], { timeout: 120_000 });
    const args = ["-b", "simple-update", "-n", "-c", String(clients), "-j", "2", "-T", String(seconds), db.url];
    const { stdout } = await run(bin, args, { timeout: (seconds + 60) * 1000 });
    const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
    if (!Number.isFinite(tps)) return { skipped: `no tps in pgbench's output: ${stdout.slice(-200)}` };
    return { tps, command: `pgbench -b simple-update -n -c ${clients} -j 2 -T ${seconds} (scale 10)` };
  } catch (err) {
    return { skipped: `pgbench failed: ${(err as Error).message.split("\n")[0]}` };
  } finally {
    await db?.drop().catch(() => {});
  }
}
