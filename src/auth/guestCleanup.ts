import type { PrismaClient } from "@prisma/client";
import type { Logger } from "pino";

/**
 * Guest accounts are temporary: a guest idle longer than GUEST_IDLE_HOURS, and not in the world
 * right now, is removed with its characters (the users row cascades to characters and everything
 * they own; trade history keeps its rows with the party ids set to null).
 */

/** Guests looked at (and removed) per statement. */
export const GUEST_CLEANUP_BATCH = 500;
/** How often the cleanup runs after the first run at start. */
export const GUEST_CLEANUP_INTERVAL_MS = 60 * 60_000;

export interface RemoveIdleGuestsOptions {
  idleHours: number;
  /** The present; defaults to now. */
  now?: Date;
  /** Whether an account has a character in the world right now: such a guest is kept. */
  isOnline: (accountId: string) => boolean | Promise<boolean>;
  batchSize?: number;
}

/** Remove idle, offline guests; resolves with how many accounts were removed. */
export async function removeIdleGuests(prisma: PrismaClient, options: RemoveIdleGuestsOptions): Promise<number> {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - options.idleHours * 3600_000);
  const batchSize = options.batchSize ?? GUEST_CLEANUP_BATCH;
  let removed = 0;
  let after: string | undefined;
  for (;;) {
    // Walk the idle guests by id, so guests kept (online) are not looked at again.
    const page = await prisma.user.findMany({
      where: { isGuest: true, lastSeenAt: { lt: cutoff }, ...(after === undefined ? {} : { id: { gt: after } }) },
      select: { id: true },
      orderBy: { id: "asc" },
      take: batchSize,
    });
    if (page.length === 0) break;
    after = page[page.length - 1].id;
    const ids: string[] = [];
    for (const { id } of page) if (!(await options.isOnline(id))) ids.push(id);
    if (ids.length > 0) {
      // Idle conditions again in the delete: a guest seen since the read is kept.
      const result = await prisma.user.deleteMany({ where: { id: { in: ids }, isGuest: true, lastSeenAt: { lt: cutoff } } });
      removed += result.count;
    }
    if (page.length < batchSize) break;
  }
  return removed;
}

export interface GuestCleanup {
  /** Run once now (waits for a run already going instead of starting a second). */
  runNow(): Promise<number>;
  /** Stop the timer and wait for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Remove idle guests at start and every hour. The timer is unref'd (it never keeps the process
 * alive); a failed run is logged and the next one tries again.
 */
export function startGuestCleanup(
  prisma: PrismaClient,
  options: { idleHours: number; isOnline: RemoveIdleGuestsOptions["isOnline"]; logger: Logger; intervalMs?: number },
): GuestCleanup {
  let running: Promise<number> | undefined;
  let stopped = false;
  const runNow = () =>
    (running ??= (async () => {
      try {
        const removed = await removeIdleGuests(prisma, { idleHours: options.idleHours, isOnline: options.isOnline });
        if (removed > 0) options.logger.info({ removed, idleHours: options.idleHours }, "idle guest accounts removed");
        return removed;
      } catch (err) {
        options.logger.warn({ err }, "idle guest cleanup failed; it runs again later");
        return 0;
      } finally {
        running = undefined;
      }
    })());
  const timer = setInterval(() => {
    if (!stopped) void runNow();
  }, options.intervalMs ?? GUEST_CLEANUP_INTERVAL_MS);
  timer.unref();
  void runNow();
  return {
    runNow,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
