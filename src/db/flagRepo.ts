import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient } from "@prisma/client";

/** What the watchdog flags (rooms/worldWatchdog.ts). */
export const FLAG_KINDS = ["movement", "action_rate", "xp_rate", "wealth"] as const;
export type FlagKind = (typeof FLAG_KINDS)[number];

/** One sighting: who, of what kind, and what shows it. */
export interface Sighting {
  kind: FlagKind;
  characterId: string;
  accountId: string;
  name: string;
  world: string;
  evidence: Record<string, unknown>;
}

/**
 * A sighting into the flagged list: the character's open flag of that kind counts it and takes its
 * evidence, or a new flag is opened (one open flag per character and kind, kept so by a partial
 * unique index: of two processes racing, the second's insert finds the first's and counts on it).
 */
export async function raiseFlag(prisma: PrismaClient, s: Sighting): Promise<void> {
  const evidence = s.evidence as Prisma.InputJsonValue;
  const counted = await prisma.flag.updateMany({
    where: { characterId: s.characterId, kind: s.kind, clearedAt: null },
    data: { count: { increment: 1 }, lastAt: new Date(), evidence, name: s.name, world: s.world },
  });
  if (counted.count > 0) return;
  try {
    await prisma.flag.create({ data: { id: `f_${randomUUID()}`, ...s, evidence } });
  } catch {
    await prisma.flag.updateMany({
      where: { characterId: s.characterId, kind: s.kind, clearedAt: null },
      data: { count: { increment: 1 }, lastAt: new Date(), evidence },
    });
  }
}
