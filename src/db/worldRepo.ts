import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import type { ItemStack, Tile } from "../game/types.js";
import { insertRows, NOW_UTC, type SqlTx } from "./sql.js";

/** Login and logout, one row per session. */
export async function startSession(prisma: PrismaClient, characterId: string, accountId: string, clientType: string): Promise<string> {
  const id = `s_${randomUUID()}`;
  await prisma.playerSession.create({ data: { id, characterId, accountId, clientType } });
  await prisma.character.update({ where: { id: characterId }, data: { lastLoginAt: new Date() } });
  // A guest seen in the world is not idle (guest cleanup goes by lastSeenAt).
  await prisma.user.updateMany({ where: { id: accountId }, data: { lastSeenAt: new Date() } });
  return id;
}

export async function endSession(db: PrismaClient, sessionId: string, reason: string): Promise<void> {
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

/** Add to a character's kill counts (one statement for every npc type). */
export async function addNpcKills(tx: SqlTx, characterId: string, kills: Map<string, number>): Promise<void> {
  const rows = [...kills].map(([npcId, count]) => ({ characterId, npcId, count }));
  await insertRows(tx, "npc_kills", { characterId: "text", npcId: "text", count: "int" }, rows, {
    constants: { lastKilledAt: NOW_UTC },
    suffix: `ON CONFLICT ("characterId", "npcId") DO UPDATE SET "count" = "npc_kills"."count" + EXCLUDED."count", "lastKilledAt" = EXCLUDED."lastKilledAt"`,
  });
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
export async function recordDeath(tx: SqlTx, death: { id: string; characterId: string; at: Tile; items: ItemStack[]; killedBy: string | null }): Promise<void> {
  await tx.query(`UPDATE "player_deaths" SET "resolvedAt" = ${NOW_UTC}, "resolution" = 'expired' WHERE "characterId" = $1 AND "resolvedAt" IS NULL`, [
    death.characterId,
  ]);
  await tx.query(
    `INSERT INTO "player_deaths" ("id", "characterId", "positionX", "positionY", "positionZ", "items", "killedBy", "diedAt")
     VALUES ($1, $2, $3, 0, $4, $5::jsonb, $6, ${NOW_UTC})`,
    [death.id, death.characterId, death.at.x, death.at.z, JSON.stringify(death.items), death.killedBy],
  );
}

/** Resolve an open death lock; true only for the one caller that resolved it. */
export async function resolveDeath(tx: SqlTx, deathId: string, characterId: string, resolution: "reclaimed" | "expired"): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE "player_deaths" SET "resolvedAt" = ${NOW_UTC}, "resolution" = $3 WHERE "id" = $1 AND "characterId" = $2 AND "resolvedAt" IS NULL RETURNING "id"`,
    [deathId, characterId, resolution],
  );
  return rows.length === 1;
}

/** Resolve a death lock whose pile expired, whoever's it is (no-op when already resolved). */
export async function expireDeathLock(sql: SqlTx, deathId: string): Promise<void> {
  await sql.query(`UPDATE "player_deaths" SET "resolvedAt" = ${NOW_UTC}, "resolution" = 'expired' WHERE "id" = $1 AND "resolvedAt" IS NULL`, [deathId]);
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

/** Write these chunks' ground (one statement for all of them). */
export async function writeChunks(tx: SqlTx, world: string, chunks: ChunkRecord[]): Promise<void> {
  const rows = chunks.map((c) => ({ world, chunkX: c.chunkX, chunkZ: c.chunkZ, data: c.data }));
  await insertRows(tx, "world_chunks", { world: "text", chunkX: "int", chunkZ: "int", data: "jsonb" }, rows, {
    constants: { updatedAt: NOW_UTC },
    suffix: `ON CONFLICT ("world", "chunkX", "chunkZ") DO UPDATE SET "data" = EXCLUDED."data", "updatedAt" = EXCLUDED."updatedAt"`,
  });
}
