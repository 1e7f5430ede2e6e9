import type { PrismaClient } from "@prisma/client";
import type { Logger } from "pino";
import { standingOf, standingView } from "../db/staffRepo.js";
import { PROCESS_ID } from "./moderation.js";
import type { LocalWorlds } from "./restart.js";

/** How often a running server looks for the operator's role changes (npm run admin on PostgreSQL). */
export const OPERATOR_POLL_MS = 2000;

/**
 * The operator's command line changes roles in the database, outside any server: every running
 * server looks at the audit log for rows the command line wrote since the last look, and the
 * accounts they name take their new standing in the worlds of that process (each process its
 * own, so a session hears of it once). Changes made through a server reach every world at once
 * and are not looked for here, but for a content reload: the other processes of a cluster see its
 * row and take the same version (`followContent`, src/staff/contentReload.ts).
 */
export function watchOperatorChanges(
  prisma: PrismaClient,
  worlds: LocalWorlds,
  logger: Logger,
  followContent: (version: string) => Promise<void> = async () => {},
  everyMs = OPERATOR_POLL_MS,
): { stop(): void } {
  let last: bigint | undefined;
  let running = false;
  const look = async () => {
    if (running) return;
    running = true;
    try {
      if (last === undefined) {
        last = (await prisma.auditLog.aggregate({ _max: { id: true } }))._max.id ?? 0n;
        return;
      }
      const rows = await prisma.auditLog.findMany({
        where: { id: { gt: last }, OR: [{ via: "cli" }, { kind: "content.reload", NOT: { processId: PROCESS_ID } }] },
        orderBy: { id: "asc" },
        take: 100,
      });
      for (const row of rows) {
        last = row.id;
        const version = (row.args as { version?: unknown } | null)?.version;
        if (row.kind === "content.reload" && typeof version === "string") await followContent(version);
        else if (row.targetAccountId) worlds.applyStanding(row.targetAccountId, standingView(await standingOf(prisma, row.targetAccountId)));
      }
    } catch (err) {
      logger.warn({ err: (err as Error).message }, "the operator's changes could not be read (trying again)");
    } finally {
      running = false;
    }
  };
  void look();
  const timer = setInterval(() => void look(), everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
