/**
 * The settlement of a staked duel, in one transaction with a trade's guarantees: both characters
 * locked (id order), both inventories re-read and re-validated against the items table, the loser's
 * stake moved to the winner (who keeps their own), and one history row whose id is the duel's id.
 * The item move is tradeRepo's moveItemsInTransaction: one home for the rule.
 */
import { writeLedger } from "../../db/ledgerRepo.js";
import type { PrismaClient } from "@prisma/client";
import type { DuelRules, Settlement } from "./duelRules.js";
import type { ItemIndex } from "../../game/inventory.js";
import type { OfferItem } from "../../game/trade.js";
import { isUniqueViolation } from "../../db/characterRepo.js";
import { NOW_UTC, type SqlTx } from "../../db/sql.js";
import { lockCharacterRows, moveItemsInTransaction, TradeCommitError } from "../../db/tradeRepo.js";

type Tx = SqlTx;

export const DUEL_OUTCOMES = ["win", "forfeit", "disconnect"] as const;
/** How the duel was won: a kill, the other's forfeit, or the other's leaving the fight. */
export type DuelOutcome = (typeof DUEL_OUTCOMES)[number];

export interface DuelParty {
  characterId: string;
  name: string;
  stake: OfferItem[];
  /** The stake's worth by the items' values (offerValue). */
  value: number;
}

export interface DuelRecord {
  /** The duel's id: the history row's id, so a duel is settled at most once. */
  id: string;
  winner: DuelParty;
  loser: DuelParty;
  rules: DuelRules;
  arenaId: number;
  outcome: DuelOutcome;
}

/** Why a settlement was refused. */
export type DuelSettleCode = "stake_changed" | "inventory_full" | "already_settled" | "no_character";

/**
 * The settlement refused the duel; nothing was written. A TradeCommitError (reason offer_changed,
 * inventory_full or error), so the world saver treats it as a trade's refusal; `code` says why.
 */
export class DuelSettleError extends TradeCommitError {
  constructor(
    readonly code: DuelSettleCode,
    message: string,
  ) {
    super(code === "inventory_full" ? "inventory_full" : code === "stake_changed" ? "offer_changed" : "error", message);
    this.name = "DuelSettleError";
  }
}

/** Lock both duellists' character rows (id order). Call it before writing their save in the same transaction. */
export async function lockDuellists(tx: Tx, duel: Pick<DuelRecord, "winner" | "loser">): Promise<void> {
  if (!(await lockCharacterRows(tx, duel.winner.characterId, duel.loser.characterId))) {
    throw new DuelSettleError("no_character", "A duellist's character no longer exists");
  }
}

/**
 * Settle a duel inside the caller's transaction: lock, refuse a duel already settled, re-read both
 * inventories, check the winner's own stake is still held and move the loser's stake (same slot,
 * same item, enough of it, tradeable by the items table), write both inventories and the `duels`
 * row. Throws DuelSettleError (nothing of it written: the caller's transaction must roll back).
 */
export async function settleDuelInTransaction(tx: Tx, duel: DuelRecord, items: ItemIndex): Promise<Settlement> {
  if (duel.winner.characterId === duel.loser.characterId) throw new Error("a duel needs two different characters");
  if (!(DUEL_OUTCOMES as readonly string[]).includes(duel.outcome)) throw new Error(`unknown duel outcome ${String(duel.outcome)}`);
  await lockDuellists(tx, duel);
  if ((await tx.query(`SELECT 1 FROM "duels" WHERE "id" = $1`, [duel.id])).length) {
    throw new DuelSettleError("already_settled", "This duel was already settled");
  }
  let settlement: Settlement;
  try {
    const swap = await moveItemsInTransaction(
      tx,
      { characterId: duel.winner.characterId, name: duel.winner.name, offer: [], keeps: duel.winner.stake },
      { characterId: duel.loser.characterId, name: duel.loser.name, offer: duel.loser.stake },
      items,
    );
    settlement = { winner: swap.initiator, loser: swap.recipient, toWinner: swap.toInitiator };
  } catch (err) {
    if (err instanceof TradeCommitError) throw new DuelSettleError(err.reason === "inventory_full" ? "inventory_full" : "stake_changed", err.message);
    throw err;
  }
  try {
    await tx.query(
      `INSERT INTO "duels" ("id", "winnerId", "loserId", "winnerName", "loserName", "winnerStake", "loserStake", "winnerValue", "loserValue",
                            "rules", "arenaId", "outcome", "settledAt")
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::bigint, $9::bigint, $10::jsonb, $11, $12, ${NOW_UTC})`,
      [
        duel.id,
        duel.winner.characterId,
        duel.loser.characterId,
        duel.winner.name,
        duel.loser.name,
        JSON.stringify(duel.winner.stake),
        JSON.stringify(duel.loser.stake),
        String(Math.round(duel.winner.value)),
        String(Math.round(duel.loser.value)),
        JSON.stringify(duel.rules),
        duel.arenaId,
        duel.outcome,
      ],
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new DuelSettleError("already_settled", "This duel was already settled");
    throw err;
  }
  // The loser's stake left it and reached the winner (cause `staked`, the duel's id).
  await writeLedger(
    tx,
    null,
    duel.loser.stake.flatMap((o) => [
      { characterId: duel.loser.characterId, itemId: o.itemId, delta: -o.quantity, cause: "staked" as const, ref: duel.id, otherId: duel.winner.characterId },
      { characterId: duel.winner.characterId, itemId: o.itemId, delta: o.quantity, cause: "staked" as const, ref: duel.id, otherId: duel.loser.characterId },
    ]),
  );
  return settlement;
}

/** A character's settled duels, won or lost, newest first. */
export function duelHistory(prisma: PrismaClient, characterId: string, take = 50) {
  return prisma.duel.findMany({
    where: { OR: [{ winnerId: characterId }, { loserId: characterId }] },
    orderBy: { settledAt: "desc" },
    take,
  });
}
