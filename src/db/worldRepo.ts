import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import type { ItemStack, Tile } from "../game/types.js";
import { insertRows, NOW_UTC, type SqlTx } from "./sql.js";

/**
 * What a join needs to know of its account, in one statement: whether it still exists (a token
 * may outlive its account), and its first character's id (null: it has none yet), the one a join
 * naming no character plays (loadOrCreateCharacter's order).
 */
export async function accountOnJoin(sql: SqlTx, accountId: string): Promise<{ exists: boolean; guest: boolean; firstCharacterId: string | null }> {
  const [row] = await sql.query<{ exists: boolean; guest: boolean | null; first: string | null }>(
    `SELECT EXISTS (SELECT 1 FROM "users" WHERE "id" = $1) AS "exists",
            (SELECT "isGuest" FROM "users" WHERE "id" = $1) AS "guest",
            (SELECT "id" FROM "characters" WHERE "accountId" = $1 ORDER BY "createdAt" ASC, "id" ASC LIMIT 1) AS "first"`,
    [accountId],
  );
  return { exists: row?.exists === true, guest: row?.guest === true, firstCharacterId: row?.first ?? null };
}

/** Login and logout, one row per session: a login also stamps the character's last login and the account's last sighting. */
export async function startSession(
  sql: SqlTx,
  characterId: string,
  accountId: string,
  clientType: string,
  world: string,
  address: string | null = null,
): Promise<string> {
  const id = `s_${randomUUID()}`;
  // A guest seen in the world is not idle (guest cleanup goes by lastSeenAt).
  await sql.query(
    `WITH s AS (INSERT INTO "player_sessions" ("id", "characterId", "accountId", "clientType", "world", "startedAt", "address") VALUES ($1, $2, $3, $4, $5, ${NOW_UTC}, $6)),
          c AS (UPDATE "characters" SET "lastLoginAt" = ${NOW_UTC} WHERE "id" = $2)
     UPDATE "users" SET "lastSeenAt" = ${NOW_UTC} WHERE "id" = $3`,
    [id, characterId, accountId, clientType, world, address],
  );
  return id;
}

export async function endSession(sql: SqlTx, sessionId: string, reason: string): Promise<void> {
  await sql.query(
    `WITH s AS (UPDATE "player_sessions" SET "endedAt" = ${NOW_UTC}, "endReason" = $2 WHERE "id" = $1 AND "endedAt" IS NULL)
     UPDATE "users" SET "lastSeenAt" = ${NOW_UTC} WHERE "id" = (SELECT "accountId" FROM "player_sessions" WHERE "id" = $1)`,
    [sessionId, reason],
  );
}

/** Close every session of the world left open by a process that died (called as the world starts). */
export async function closeDanglingSessions(prisma: PrismaClient, world: string): Promise<number> {
  const r = await prisma.playerSession.updateMany({ where: { endedAt: null, world }, data: { endedAt: new Date(), endReason: "server_restart" } });
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
export async function recordDeath(
  tx: SqlTx,
  death: { id: string; characterId: string; at: Tile; items: ItemStack[]; killedBy: string | null; world: string },
): Promise<void> {
  await tx.query(`UPDATE "player_deaths" SET "resolvedAt" = ${NOW_UTC}, "resolution" = 'expired' WHERE "characterId" = $1 AND "resolvedAt" IS NULL`, [
    death.characterId,
  ]);
  await tx.query(
    `INSERT INTO "player_deaths" ("id", "characterId", "positionX", "positionY", "positionZ", "items", "killedBy", "world", "diedAt")
     VALUES ($1, $2, $3, 0, $4, $5::jsonb, $6, $7, ${NOW_UTC})`,
    [death.id, death.characterId, death.at.x, death.at.z, JSON.stringify(death.items), death.killedBy, death.world],
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

/** The piles of the open death locks of one world. */
export async function openDeaths(prisma: PrismaClient, world: string): Promise<OpenDeath[]> {
  const rows = await prisma.playerDeath.findMany({ where: { resolvedAt: null, world } });
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
