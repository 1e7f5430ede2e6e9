import { ledgerStatement } from "./ledgerRepo.js";
import type { PrismaClient } from "@prisma/client";
import type { ItemIndex } from "../game/inventory.js";
import { checkOffer, NoRoomError, planSwap, type OfferItem, type Swap, type TradeRole } from "../game/trade.js";
import { GameError, INVENTORY_SIZE, type Inventory } from "../game/types.js";
import { inventoryChangesStatement, isUniqueViolation, writeInventoryChanges } from "./characterRepo.js";
import { inJsonList, insertRowsStatement, NOW_UTC, type SqlTx, type Statement } from "./sql.js";

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

/** The statement that locks characters' rows, in id order (lockCharacters); its rows are the ids that exist. */
function lockStatement(ids: string[]): Statement {
  return {
    sql: `SELECT "id" FROM "characters" WHERE "id" ${inJsonList(1)} ORDER BY "id" FOR UPDATE`,
    params: [JSON.stringify([...new Set(ids)].sort())],
  };
}

/**
 * Lock characters' rows, in id order, so two commits sharing a character never deadlock (a second
 * lock of the same rows in one transaction is free). The ids that still exist.
 * Every write to a character's items happens under this lock or in a save of the same process.
 */
async function lockCharacters(tx: Tx, ids: string[]): Promise<Set<string>> {
  const { sql, params } = lockStatement(ids);
  const rows = await tx.query<{ id: string }>(sql, params);
  return new Set(rows.map((r) => r.id));
}

/** Lock two characters' rows (lockCharacters); false when either no longer exists. */
export async function lockCharacterRows(tx: Tx, a: string, b: string): Promise<boolean> {
  return (await lockCharacters(tx, [a, b])).size === 2;
}

/** One side of an item move between two characters: who, named in refusals, and what they give. */
export interface MoveParty {
  characterId: string;
  name: string;
  offer: readonly OfferItem[];
  /** Stacks that do not move but must still be held, checked like an offer (a duel winner's own stake). */
  keeps?: readonly OfferItem[];
}

/** Characters' inventories as the database holds them, and the items it lets them trade. */
interface HeldItems {
  inventories: Map<string, Inventory>;
  /** The world's item index with `tradeable` as the items table has the last word on it. */
  lookup: ItemIndex;
}

/**
 * The statement that reads these characters' inventory rows, with the items table's tradeable flag
 * of what they hold: one row, the stacks as one JSON text (a row per stack costs the embedded
 * database more to hand over than to find).
 */
function heldStatement(ids: string[]): Statement {
  return {
    sql: `SELECT jsonb_agg(jsonb_build_array(i."characterId", i."slot", i."itemId", i."quantity", it."tradeable" AND it."active"))::text AS "stacks"
     FROM "inventory" i JOIN "items" it ON it."id" = i."itemId" WHERE i."characterId" ${inJsonList(1)}`,
    params: [JSON.stringify(ids)],
  };
}

/** What heldStatement's rows say. */
function heldItems(rows: unknown[], ids: string[], items: ItemIndex): HeldItems {
  const [row] = rows as { stacks: string | null }[];
  const stacks = JSON.parse(row?.stacks ?? "[]") as [string, number, string, number, boolean][];
  const inventories = new Map(ids.map((id) => [id, new Array(INVENTORY_SIZE).fill(null) as Inventory]));
  const lookup = new Map(items);
  for (const [characterId, slot, itemId, quantity, tradeable] of stacks) {
    inventories.get(characterId)![slot] = { itemId, quantity: Number(quantity) };
    const def = items.get(itemId);
    if (def) lookup.set(itemId, { ...def, tradeable: def.tradeable && tradeable === true });
  }
  return { inventories, lookup };
}

/**
 * Read these characters' inventories (heldStatement). The caller holds their characters' row
 * locks (lockCharacters): every write to a character's items happens under that lock or in a save
 * the world's saver orders with it, so the rows read stay as read until the transaction ends.
 */
async function readHeldItems(tx: Tx, ids: string[], items: ItemIndex): Promise<HeldItems> {
  const { sql, params } = heldStatement(ids);
  return heldItems(await tx.query(sql, params), ids, items);
}

/**
 * Lock these characters (lockCharacters), run `between` (a save's writes, which the read must
 * see) when there is one, and read what they hold (readHeldItems). Without `between`, the lock and
 * the read go in one batch, one round trip: the read is a statement of its own after the lock, so
 * it sees what the lock's last holder committed.
 */
async function lockAndRead(tx: Tx, ids: string[], items: ItemIndex, between?: () => Promise<void>): Promise<{ locked: Set<string>; held: HeldItems }> {
  if (between) {
    const locked = await lockCharacters(tx, ids);
    await between();
    return { locked, held: await readHeldItems(tx, ids, items) };
  }
  const [lockRows, heldRows] = await tx.batch([lockStatement(ids), heldStatement(ids)]);
  return { locked: new Set((lockRows as { id: string }[]).map((r) => r.id)), held: heldItems(heldRows, ids, items) };
}

/**
 * The rule of an item move, against inventories read under lock: every offered (and kept) stack
 * re-validated (same slot, same item, enough of it, tradeable by the items table), then both
 * offers swapped with planSwap. Refusals are TradeCommitError (offer_changed, or inventory_full
 * naming the side: "initiator" is `a`).
 */
function planMove(a: MoveParty, b: MoveParty, held: HeldItems): Swap {
  const inv = (p: MoveParty) => held.inventories.get(p.characterId)!;
  try {
    for (const p of [a, b]) if (p.keeps) checkOffer(p.keeps, inv(p), held.lookup);
    return planSwap({ inventory: inv(a), offer: a.offer }, { inventory: inv(b), offer: b.offer }, held.lookup);
  } catch (err) {
    if (err instanceof NoRoomError) {
      const side = err.side === "initiator" ? a : b;
      throw new TradeCommitError("inventory_full", `${side.name}'s inventory does not have enough space`, err.side);
    }
    if (err instanceof GameError) throw new TradeCommitError("offer_changed", err.message);
    throw err;
  }
}

/**
 * The one home of moving items between two characters inside a commit transaction (a duel's
 * settlement; a trade's is commitTrades): re-read both inventories (their characters locked),
 * plan the move (planMove) and write both inventories. Refusals are TradeCommitError; the caller's
 * transaction then writes nothing.
 */
export async function moveItemsInTransaction(tx: Tx, a: MoveParty, b: MoveParty, items: ItemIndex): Promise<Swap> {
  const held = await readHeldItems(tx, [a.characterId, b.characterId], items);
  const swap = planMove(a, b, held);
  await writeInventoryChanges(tx, [
    { characterId: a.characterId, before: held.inventories.get(a.characterId)!, after: swap.initiator },
    { characterId: b.characterId, before: held.inventories.get(b.characterId)!, after: swap.recipient },
  ]);
  return swap;
}

const TRADE_COLUMNS = {
  id: "text",
  initiatorId: "text",
  recipientId: "text",
  initiatorName: "text",
  recipientName: "text",
  initiatorOffer: "jsonb",
  recipientOffer: "jsonb",
  initiatorValue: "bigint",
  recipientValue: "bigint",
};

/** The statement (its rows the JSON parameter $3) of these trades' history rows, and that parameter. */
function tradeRows(trades: TradeRecord[]): { statement: string; param: string } {
  const rows = trades.map((t) => ({
    id: t.id,
    initiatorId: t.initiator.characterId,
    recipientId: t.recipient.characterId,
    initiatorName: t.initiator.name,
    recipientName: t.recipient.name,
    initiatorOffer: t.initiator.offer,
    recipientOffer: t.recipient.offer,
    initiatorValue: Math.round(t.initiator.value),
    recipientValue: Math.round(t.recipient.value),
  }));
  return { statement: insertRowsStatement("trades", TRADE_COLUMNS, { constants: { completedAt: NOW_UTC } }, 3), param: JSON.stringify(rows) };
}

/**
 * Trades committed in one transaction (one, or a group: every trade accepted in one turn of the
 * loop), each with the guarantees of its own: every trader's character locked (in id order) and
 * inventory read once under that lock (lockAndRead; `save`, the writes of the save this commit
 * shares its transaction with, between the two), each trade re-validated and swapped in turn
 * (planMove, in the order given), then every changed inventory and every history row written in
 * one statement, the transaction's last (the history row's id is the trade's, so one trade can
 * never be written twice). A refused trade (or one whose trader no longer exists) writes nothing
 * of its own and its outcome is its TradeCommitError; the others commit.
 */
export async function commitTrades(tx: Tx, trades: TradeRecord[], items: ItemIndex, save?: () => Promise<void>): Promise<(Swap | TradeCommitError)[]> {
  const ids = [...new Set(trades.flatMap((t) => [t.initiator.characterId, t.recipient.characterId]))];
  const { locked, held } = await lockAndRead(tx, ids, items, save);
  // What the database holds (the plan replaces each trader's inventory as its trades go through).
  const read = new Map(held.inventories);
  const changed = new Set<string>();
  const committed: TradeRecord[] = [];
  const outcomes = trades.map((t) => {
    if (!locked.has(t.initiator.characterId) || !locked.has(t.recipient.characterId)) {
      return new TradeCommitError("error", "A trader's character no longer exists");
    }
    try {
      const swap = planMove(t.initiator, t.recipient, held);
      held.inventories.set(t.initiator.characterId, swap.initiator);
      held.inventories.set(t.recipient.characterId, swap.recipient);
      changed.add(t.initiator.characterId).add(t.recipient.characterId);
      committed.push(t);
      return swap;
    } catch (err) {
      if (err instanceof TradeCommitError) return err;
      throw err;
    }
  });
  if (committed.length === 0) return outcomes;
  const changes = [...changed].map((characterId) => ({ characterId, before: read.get(characterId)!, after: held.inventories.get(characterId)! }));
  try {
    await tx.batch([inventoryChangesStatement(changes, tradeRows(committed)), ledgerStatement(committed.flatMap(tradeLedger), null)], { last: true });
  } catch (err) {
    if (isUniqueViolation(err)) throw new TradeCommitError("error", "This trade was already completed");
    throw err;
  }
  return outcomes;
}

/** A trade's item ledger rows: what each side gave left it and reached the other (cause `traded`, the trade's id). */
function tradeLedger(t: TradeRecord) {
  return [
    [t.initiator, t.recipient],
    [t.recipient, t.initiator],
  ].flatMap(([from, to]) =>
    from.offer.flatMap((o) => [
      { characterId: from.characterId, itemId: o.itemId, delta: -o.quantity, cause: "traded" as const, ref: t.id, otherId: to.characterId },
      { characterId: to.characterId, itemId: o.itemId, delta: o.quantity, cause: "traded" as const, ref: t.id, otherId: from.characterId },
    ]),
  );
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
