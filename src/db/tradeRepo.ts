import type { PrismaClient } from "@prisma/client";
import type { ItemIndex } from "../game/inventory.js";
import { checkOffer, NoRoomError, planSwap, type OfferItem, type Swap, type TradeRole } from "../game/trade.js";
import { GameError, INVENTORY_SIZE, type Inventory } from "../game/types.js";
import { isUniqueViolation, replaceInventories } from "./characterRepo.js";
import { inJsonList, NOW_UTC, type SqlTx } from "./sql.js";

type Tx = SqlTx;

export interface TradeParty {
  characterId: string;
  name: string;
  offer: OfferItem[];
  value: number;
}

export interface TradeRecord {
  id: string;
  /** The player who asked. */
  initiator: TradeParty;
  recipient: TradeParty;
}

/** The commit refused the trade; nothing was written. `reason` is the tradeCancelled reason. */
export class TradeCommitError extends Error {
  constructor(
    readonly reason: "inventory_full" | "offer_changed" | "error",
    message: string,
    /** For inventory_full: whose inventory. */
    readonly side?: TradeRole,
  ) {
    super(message);
  }
}

/**
 * Lock two characters' rows, in id order, so two commits sharing a character never deadlock (a
 * second lock of the same rows in one transaction is free). False when either no longer exists.
 * Every write to a character's items happens under this lock or in a save of the same process.
 */
export async function lockCharacterRows(tx: Tx, a: string, b: string): Promise<boolean> {
  const ids = [a, b].sort();
  const rows = await tx.query(`SELECT "id" FROM "characters" WHERE "id" IN ($1, $2) ORDER BY "id" FOR UPDATE`, ids);
  return rows.length === 2;
}

/** Lock both traders' character rows (lockCharacterRows). */
export async function lockTraders(tx: Tx, trade: TradeRecord): Promise<void> {
  if (!(await lockCharacterRows(tx, trade.initiator.characterId, trade.recipient.characterId))) {
    throw new TradeCommitError("error", "A trader's character no longer exists");
  }
}

/** One side of an item move between two characters: who, named in refusals, and what they give. */
export interface MoveParty {
  characterId: string;
  name: string;
  offer: readonly OfferItem[];
  /** Stacks that do not move but must still be held, checked like an offer (a duel winner's own stake). */
  keeps?: readonly OfferItem[];
}

/**
 * The one home of moving items between two characters inside a commit transaction (a trade's swap,
 * a duel's settlement): re-read both inventories (rows locked), re-validate every offered stack
 * against them (same slot, same item, enough of it, still tradeable by the items table), move the
 * items with planSwap and write both inventories. Refusals are TradeCommitError (offer_changed, or
 * inventory_full naming the side: "initiator" is `a`); the caller's transaction then writes nothing.
 */
export async function moveItemsInTransaction(tx: Tx, a: MoveParty, b: MoveParty, items: ItemIndex): Promise<Swap> {
  const ids = [a.characterId, b.characterId];
  const rows = await tx.query<{ characterId: string; slot: number; itemId: string; quantity: number }>(
    `SELECT "characterId", "slot", "itemId", "quantity" FROM "inventory" WHERE "characterId" IN ($1, $2) FOR UPDATE`,
    ids,
  );
  const inventories = new Map(ids.map((id) => [id, new Array(INVENTORY_SIZE).fill(null) as Inventory]));
  for (const r of rows) inventories.get(r.characterId)![r.slot] = { itemId: r.itemId, quantity: Number(r.quantity) };

  // The items table has the last word on what may be traded.
  const offered = [...new Set([...a.offer, ...b.offer, ...(a.keeps ?? []), ...(b.keeps ?? [])].map((o) => o.itemId))];
  const tradeable = new Map<string, boolean>();
  if (offered.length) {
    const found = await tx.query<{ id: string; tradeable: boolean; active: boolean }>(
      `SELECT "id", "tradeable", "active" FROM "items" WHERE "id" ${inJsonList(1)}`,
      [JSON.stringify(offered)],
    );
    for (const f of found) tradeable.set(f.id, f.tradeable && f.active);
  }
  const lookup = new Map(items);
  for (const id of offered) {
    const def = items.get(id);
    if (def) lookup.set(id, { ...def, tradeable: def.tradeable && tradeable.get(id) === true });
  }

  let swap: Swap;
  try {
    for (const p of [a, b]) if (p.keeps) checkOffer(p.keeps, inventories.get(p.characterId)!, lookup);
    swap = planSwap({ inventory: inventories.get(ids[0])!, offer: a.offer }, { inventory: inventories.get(ids[1])!, offer: b.offer }, lookup);
  } catch (err) {
    if (err instanceof NoRoomError) {
      const side = err.side === "initiator" ? a : b;
      throw new TradeCommitError("inventory_full", `${side.name}'s inventory does not have enough space`, err.side);
    }
    if (err instanceof GameError) throw new TradeCommitError("offer_changed", err.message);
    throw err;
  }

  await replaceInventories(tx, [
    { characterId: ids[0], inventory: swap.initiator },
    { characterId: ids[1], inventory: swap.recipient },
  ]);
  return swap;
}

/**
 * The swap inside the commit transaction: move both offers (moveItemsInTransaction) and write the
 * history row. The history row's id is the trade's id, so one trade can never be written twice.
 */
export async function swapInTransaction(tx: Tx, trade: TradeRecord, items: ItemIndex): Promise<Swap> {
  const swap = await moveItemsInTransaction(tx, trade.initiator, trade.recipient, items);
  try {
    await tx.query(
      `INSERT INTO "trades" ("id", "initiatorId", "recipientId", "initiatorName", "recipientName", "initiatorOffer", "recipientOffer",
                             "initiatorValue", "recipientValue", "completedAt")
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::bigint, $9::bigint, ${NOW_UTC})`,
      [
        trade.id,
        trade.initiator.characterId,
        trade.recipient.characterId,
        trade.initiator.name,
        trade.recipient.name,
        JSON.stringify(trade.initiator.offer),
        JSON.stringify(trade.recipient.offer),
        String(Math.round(trade.initiator.value)),
        String(Math.round(trade.recipient.value)),
      ],
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new TradeCommitError("error", "This trade was already completed");
    throw err;
  }
  return swap;
}

/** Serialization failures and deadlocks: the transaction may simply be run again. */
export function isRetryableTxError(err: unknown): boolean {
  const e = err as { code?: string; message?: string; meta?: { driverAdapterError?: { cause?: { originalCode?: string; kind?: string } } } };
  const original = e?.meta?.driverAdapterError?.cause?.originalCode;
  return (
    e?.code === "P2034" ||
    e?.code === "40001" ||
    e?.code === "40P01" ||
    original === "40001" ||
    original === "40P01" ||
    /could not serialize|deadlock detected|write conflict/i.test(String(e?.message ?? ""))
  );
}

/** A character's completed trades, newest first (the trade history). */
export function tradeHistory(prisma: PrismaClient, characterId: string, take = 50) {
  return prisma.trade.findMany({
    where: { OR: [{ initiatorId: characterId }, { recipientId: characterId }] },
    orderBy: { completedAt: "desc" },
    take,
  });
}
