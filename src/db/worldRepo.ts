import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient } from "@prisma/client";
import type { ItemStack, Tile } from "../game/types.js";

type Tx = Prisma.TransactionClient;

/** Login and logout, one row per session. */
export async function startSession(prisma: PrismaClient, characterId: string, accountId: string, clientType: string): Promise<string> {
  const id = `s_${randomUUID()}`;
  await prisma.playerSession.create({ data: { id, characterId, accountId, clientType } });
  await prisma.character.update({ where: { id: characterId }, data: { lastLoginAt: new Date() } });
  // A guest seen in the world is not idle (guest cleanup goes by lastSeenAt).
  await prisma.user.updateMany({ where: { id: accountId }, data: { lastSeenAt: new Date() } });
  return id;
}

export async function endSession(db: PrismaClient | Tx, sessionId: string, reason: string): Promise<void> {
  await db.playerSession.updateMany({ where: { id: sessionId, endedAt: null }, data: { endedAt: new Date(), endReason: reason } });
  await db.$executeRawUnsafe(
    `UPDATE "users" SET "lastSeenAt" = CURRENT_TIMESTAMP WHERE "id" = (SELECT "accountId" FROM "player_sessions" WHERE "id" = $1)`,
    sessionId,
  );
}

/** Close every session left open by a process that died (called at start-up). */
export async function closeDanglingSessions(prisma: PrismaClient): Promise<number> {
  const r = await prisma.playerSession.updateMany({ where: { endedAt: null }, data: { endedAt: new Date(), endReason: "server_restart" } });
  return r.count;
}

export async function addNpcKills(tx: Tx, characterId: string, kills: Map<string, number>): Promise<void> {
  for (const [npcId, count] of kills) {
    await tx.npcKill.upsert({
      where: { characterId_npcId: { characterId, npcId } },
      create: { characterId, npcId, count, lastKilledAt: new Date() },
      update: { count: { increment: count }, lastKilledAt: new Date() },
    });
  }
}

export interface OpenDeath {
  id: string;
  characterId: string;
  tile: Tile;
  items: ItemStack[];
  diedAt: Date;
}

/**
 * Record a death as the character's open death lock. A previous open lock of the same character
 * is resolved as expired first (its pile is gone): one open death per character.
 */
export async function recordDeath(tx: Tx, death: { id: string; characterId: string; at: Tile; items: ItemStack[]; killedBy: string | null }): Promise<void> {
  await tx.playerDeath.updateMany({ where: { characterId: death.characterId, resolvedAt: null }, data: { resolvedAt: new Date(), resolution: "expired" } });
  await tx.playerDeath.create({
    data: {
      id: death.id,
      characterId: death.characterId,
      positionX: death.at.x,
      positionY: 0,
      positionZ: death.at.z,
      items: death.items as unknown as Prisma.InputJsonValue,
      killedBy: death.killedBy,
    },
  });
}

/** Resolve an open death lock; true only for the one caller that resolved it. */
export async function resolveDeath(tx: Tx, deathId: string, characterId: string, resolution: "reclaimed" | "expired"): Promise<boolean> {
  const r = await tx.playerDeath.updateMany({ where: { id: deathId, characterId, resolvedAt: null }, data: { resolvedAt: new Date(), resolution } });
  return r.count === 1;
}

export async function openDeaths(prisma: PrismaClient): Promise<OpenDeath[]> {
  const rows = await prisma.playerDeath.findMany({ where: { resolvedAt: null } });
  return rows.map((r) => ({
    id: r.id,
    characterId: r.characterId,
    tile: { x: Math.round(r.positionX), z: Math.round(r.positionZ) },
    items: r.items as unknown as ItemStack[],
    diedAt: r.diedAt,
  }));
}

export interface ChunkRecord {
  chunkX: number;
  chunkZ: number;
  data: unknown;
}

export async function loadChunks(prisma: PrismaClient, world: string): Promise<ChunkRecord[]> {
  const rows = await prisma.worldChunk.findMany({ where: { world } });
  return rows.map((r) => ({ chunkX: r.chunkX, chunkZ: r.chunkZ, data: r.data }));
}

export async function writeChunks(tx: Tx, world: string, chunks: ChunkRecord[]): Promise<void> {
  for (const c of chunks) {
    const data = c.data as Prisma.InputJsonValue;
    await tx.worldChunk.upsert({
      where: { world_chunkX_chunkZ: { world, chunkX: c.chunkX, chunkZ: c.chunkZ } },
      create: { world, chunkX: c.chunkX, chunkZ: c.chunkZ, data },
      update: { data },
    });
  }
}
