import type { PrismaClient } from "@prisma/client";
import type { StoreDeal } from "../game/world/stores.js";
import { NOW_UTC, type SqlTx } from "./sql.js";

type Tx = SqlTx;

/**
 * A world's store shelves and the ledger of store deals. Shelves are written as changes (a
 * purchase, a sale, restocks), each in the transaction that caused it, so the database's stock is
 * always the listed stock plus every change it committed, whatever order the world's saves run in.
 * Unlimited stock has no row.
 */

export interface StockRow {
  storeId: string;
  itemId: string;
  quantity: number;
}

export async function loadStoreStock(prisma: PrismaClient, world: string): Promise<StockRow[]> {
  return prisma.storeStock.findMany({ where: { world }, select: { storeId: true, itemId: true, quantity: true } });
}

/**
 * Change a shelf by `delta`; a shelf without a row starts from `base` (its listed stock, 0 for a
 * bought-in item). An update of the row when there is one, else an insert: an upsert would check
 * `quantity >= 0` on the row it proposes to insert even when it only updates, and a shelf above its
 * base going down proposes less than 0.
 */
export async function changeStock(tx: Tx, world: string, storeId: string, itemId: string, base: number, delta: number): Promise<void> {
  if (delta === 0) return;
  await tx.query(
    `WITH moved AS (
       UPDATE "store_stock" SET "quantity" = "quantity" + $5::int, "updatedAt" = ${NOW_UTC}
       WHERE "world" = $1 AND "storeId" = $2 AND "itemId" = $3 RETURNING 1
     )
     INSERT INTO "store_stock" ("world", "storeId", "itemId", "quantity", "updatedAt")
     SELECT $1, $2, $3, $4::int + $5::int, ${NOW_UTC} WHERE NOT EXISTS (SELECT 1 FROM moved)`,
    [world, storeId, itemId, base, delta],
  );
}

/** The ledger row of a deal: its id is the deal's, so a deal is written once. */
export async function recordStoreDeal(tx: Tx, world: string, deal: StoreDeal): Promise<void> {
  await tx.query(
    `INSERT INTO "store_deals" ("id", "world", "characterId", "storeId", "kind", "itemId", "quantity", "coins", "createdAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, ${NOW_UTC})`,
    [deal.id, world, deal.playerId, deal.storeId, deal.kind, deal.itemId, deal.quantity, deal.coins],
  );
}

/** A character's deals, newest first (REST and tests). */
export async function storeDealsOf(prisma: PrismaClient, characterId: string, take = 50) {
  return prisma.storeDeal.findMany({ where: { characterId }, orderBy: { createdAt: "desc" }, take });
}
