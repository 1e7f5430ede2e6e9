import type { LedgerEvent } from "../game/ledger.js";
import { insertRows, insertRowsStatement, NOW_UTC, type SqlTx, type Statement } from "./sql.js";

/** The item ledger in the database (migration 0007_item_ledger; src/game/ledger.ts). */

export const LEDGER_COLUMNS = { characterId: "text", itemId: "text", delta: "bigint", cause: "text", ref: "text", otherId: "text", world: "text" };

type LedgerRow = LedgerEvent & { characterId: string };
const rowsOf = (rows: LedgerRow[], world: string | null) =>
  rows.map((r) => ({ characterId: r.characterId, itemId: r.itemId, delta: r.delta, cause: r.cause, ref: r.ref ?? null, otherId: r.otherId ?? null, world }));

/** Write ledger rows (one statement), in the transaction that writes the items they describe. */
export async function writeLedger(tx: SqlTx, world: string | null, rows: LedgerRow[]): Promise<void> {
  await insertRows(tx, "item_ledger", LEDGER_COLUMNS, rowsOf(rows, world), { constants: { at: NOW_UTC } });
}

/** The same rows as one statement of a batch (a trade's commit). */
export function ledgerStatement(rows: LedgerRow[], world: string | null): Statement {
  return { sql: insertRowsStatement("item_ledger", LEDGER_COLUMNS, { constants: { at: NOW_UTC } }), params: [JSON.stringify(rowsOf(rows, world))] };
}

/** A character's holding of an item that its ledger does not sum to. */
export interface LedgerMismatch {
  characterId: string;
  name: string | null;
  itemId: string;
  /** What the ledger sums to. */
  expected: number;
  /** What the character holds (pack, worn and bank). */
  found: number;
}

/**
 * A transfer whose sides do not match: a trade's or a duel's stakes (what left one side did not
 * all reach the other), or a player's drop picked up for more than it held (`imbalance` > 0).
 */
export interface TransferMismatch {
  cause: string;
  ref: string;
  itemId: string;
  /** The sum over both sides: 0 when it matches. */
  imbalance: number;
}

/**
 * The conservation check (npm run audit, GET /api/admin/audit/conservation): for every character
 * (or one), its holdings against the sum of its ledger, item by item; and every transfer's two
 * sides (rows of a trade or a duel's stakes sum to nothing over both characters).
 */
export async function conservation(
  sql: SqlTx,
  characterId?: string,
): Promise<{ characters: number; holdings: LedgerMismatch[]; transfers: TransferMismatch[] }> {
  const only = characterId ? `WHERE "characterId" = $1` : "";
  const params = characterId ? [characterId] : [];
  const holdings = await sql.query<LedgerMismatch>(
    `WITH held AS (
       SELECT "characterId", "itemId", SUM("quantity")::bigint AS n FROM (
         SELECT "characterId", "itemId", "quantity" FROM "inventory" ${only}
         UNION ALL SELECT "characterId", "itemId", "quantity" FROM "equipment" ${only}
         UNION ALL SELECT "characterId", "itemId", "quantity" FROM "bank" ${only}
       ) h GROUP BY "characterId", "itemId"
     ), told AS (
       SELECT "characterId", "itemId", SUM("delta")::bigint AS n FROM "item_ledger" ${only} GROUP BY "characterId", "itemId"
     )
     SELECT COALESCE(held."characterId", told."characterId") AS "characterId", c."name",
            COALESCE(held."itemId", told."itemId") AS "itemId",
            COALESCE(told.n, 0)::float8 AS "expected", COALESCE(held.n, 0)::float8 AS "found"
     FROM held FULL OUTER JOIN told ON held."characterId" = told."characterId" AND held."itemId" = told."itemId"
     LEFT JOIN "characters" c ON c."id" = COALESCE(held."characterId", told."characterId")
     WHERE COALESCE(held.n, 0) <> COALESCE(told.n, 0)
       AND c."id" IS NOT NULL
     ORDER BY 1, 3`,
    params,
  );
  const transfers = characterId
    ? []
    : await sql.query<TransferMismatch>(
        `SELECT "cause", "ref", "itemId", SUM("delta")::float8 AS "imbalance" FROM "item_ledger"
         WHERE "cause" IN ('traded', 'staked') AND "ref" IS NOT NULL
         GROUP BY "cause", "ref", "itemId" HAVING SUM("delta") <> 0
         UNION ALL
         -- A player's drop picked up more than it held (picked up twice).
         SELECT 'picked_up', "ref", "itemId", SUM("delta")::float8 FROM "item_ledger"
         WHERE "cause" IN ('dropped', 'picked_up') AND "ref" IS NOT NULL
         GROUP BY "ref", "itemId" HAVING SUM("delta") > 0 AND bool_or("cause" = 'dropped')
         ORDER BY 1, 2, 3`,
      );
  const [count] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "characters" ${characterId ? `WHERE "id" = $1` : ""}`, params);
  return { characters: count?.n ?? 0, holdings, transfers };
}

/** A page of a character's ledger, newest first (`before`: a row id from the previous page). */
export async function ledgerPage(
  sql: SqlTx,
  characterId: string,
  options: { limit: number; before?: string; itemId?: string },
): Promise<Array<{ id: string; at: string; itemId: string; delta: number; cause: string; ref: string | null; otherId: string | null; world: string | null }>> {
  const params: unknown[] = [characterId, options.limit];
  let where = `"characterId" = $1`;
  if (options.before) {
    params.push(options.before);
    where += ` AND "id" < $${params.length}::bigint`;
  }
  if (options.itemId) {
    params.push(options.itemId);
    where += ` AND "itemId" = $${params.length}`;
  }
  return sql.query(
    `SELECT "id"::text AS "id", to_char("at", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "at", "itemId", "delta"::float8 AS "delta", "cause", "ref", "otherId", "world"
     FROM "item_ledger" WHERE ${where} ORDER BY "id" DESC LIMIT $2`,
    params,
  );
}
