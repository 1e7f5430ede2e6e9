import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import type { Logger } from "pino";
import type { GameData } from "../src/manifests/index.js";
import { closeDanglingSessions, loadChunks, openDeaths } from "../src/db/worldRepo.js";
import { loadStoreStock } from "../src/db/storeRepo.js";
import { populateWorld, restoreChunk, restoreDeathPile, restoreStock, type ChunkData } from "../src/game/world/setup.js";
import { World, type WorldOptions } from "../src/game/world/World.js";

export function createWorld(data: GameData, options: Partial<WorldOptions> = {}): World {
  const world = new World(data, { rng: Math.random, newId: randomUUID, ...options });
  populateWorld(world);
  return world;
}

/**
 * Put back what the database remembers of the world: ground items and depleted nodes per chunk,
 * the piles of open death locks and the stores' shelves; close sessions a crashed process left open
 * (all of them the world's own: rows are kept under the world's key).
 */
export async function restoreWorld(world: World, worldKey: string, prisma: PrismaClient, logger: Logger) {
  const chunks = await loadChunks(prisma, worldKey);
  for (const c of chunks) restoreChunk(world, c.data as ChunkData);
  const deaths = await openDeaths(prisma, worldKey);
  for (const d of deaths) restoreDeathPile(world, d);
  const shelves = await loadStoreStock(prisma, worldKey);
  restoreStock(world, shelves);
  const closed = await closeDanglingSessions(prisma, worldKey);
  logger.info({ world: worldKey, chunks: chunks.length, deathPiles: deaths.length, shelves: shelves.length, closedSessions: closed }, "world restored");
}
