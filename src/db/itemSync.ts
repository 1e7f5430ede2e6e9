import { equipSlotOf } from "../game/equipment.js";
import type { SqlRunner } from "./sql.js";

export interface ItemRow {
  id: string;
  name: string;
  type: string;
  stackable: boolean;
  value: number;
  tradeable: boolean;
  /** The slot as the manifests name it; mapped by the equipment rules' own slot names. */
  equipSlot?: string;
}

/**
 * Bring the items table in line with the manifests: insert new definitions, update changed ones
 * (and only those: their `updatedAt` says when they last changed), mark the ones no longer defined
 * inactive (never delete: inventories, banks and trade history may still hold them). When the
 * table already is in line (the usual restart), one read finds so and nothing is written.
 */
export async function syncItems(sql: SqlRunner, items: Iterable<ItemRow>): Promise<{ active: number; deactivated: number }> {
  const rows = [...items].map((i) => ({
    id: i.id,
    name: i.name,
    type: i.type,
    stackable: i.stackable,
    value: Math.max(0, Math.min(2_147_483_647, Math.floor(i.value))),
    tradeable: i.tradeable,
    equipSlot: equipSlotOf(i) ?? null,
  }));
  // The usual restart: the table already holds these definitions, active, and no other active one.
  // One read says so (~20 ms on the embedded database) where the statements below take ~0.1 s.
  const held = await sql.query<Definition>(
    `SELECT "id", "name", "type", "stackable", "value", "tradeable", "equipSlot"::text AS "equipSlot" FROM "items" WHERE "active"`,
  );
  if (sameDefinitions(held, rows)) return { active: rows.length, deactivated: 0 };
  return sql.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO "items" ("id", "name", "type", "stackable", "value", "tradeable", "equipSlot", "active", "updatedAt")
       SELECT r."id", r."name", r."type", r."stackable", r."value", r."tradeable", r."equipSlot"::"EquipmentSlot", true, CURRENT_TIMESTAMP
       FROM jsonb_to_recordset($1::jsonb) AS r("id" text, "name" text, "type" text, "stackable" boolean, "value" int, "tradeable" boolean, "equipSlot" text)
       ON CONFLICT ("id") DO UPDATE SET
         "name" = EXCLUDED."name", "type" = EXCLUDED."type", "stackable" = EXCLUDED."stackable",
         "value" = EXCLUDED."value", "tradeable" = EXCLUDED."tradeable", "equipSlot" = EXCLUDED."equipSlot",
         "active" = true, "updatedAt" = CURRENT_TIMESTAMP
       -- A definition that did not change is not written again (a restart writes nothing).
       WHERE ("items"."name", "items"."type", "items"."stackable", "items"."value", "items"."tradeable", "items"."equipSlot", "items"."active")
         IS DISTINCT FROM (EXCLUDED."name", EXCLUDED."type", EXCLUDED."stackable", EXCLUDED."value", EXCLUDED."tradeable", EXCLUDED."equipSlot", true)`,
      [JSON.stringify(rows)],
    );
    const gone = await tx.query<{ id: string }>(
      `UPDATE "items" SET "active" = false, "updatedAt" = CURRENT_TIMESTAMP
       WHERE "active" AND NOT ("id" = ANY($1::text[])) RETURNING "id"`,
      [rows.map((r) => r.id)],
    );
    return { active: rows.length, deactivated: gone.length };
  });
}

/** Whether the active rows read are exactly the definitions (each field as the statement below writes it). */
type Definition = Omit<ItemRow, "equipSlot"> & { equipSlot: string | null };

function sameDefinitions(held: Definition[], rows: Definition[]): boolean {
  if (held.length !== rows.length) return false;
  const byId = new Map(held.map((h) => [h.id, h]));
  return rows.every((r) => {
    const h = byId.get(r.id);
    return (
      h !== undefined &&
      h.name === r.name &&
      h.type === r.type &&
      h.stackable === r.stackable &&
      Number(h.value) === r.value &&
      h.tradeable === r.tradeable &&
      h.equipSlot === r.equipSlot
    );
  });
}

/**
 * What the saved characters hold (pack, worn, bank) of items no longer defined (inactive): by
 * character and item. Such items stay held; a content reload reports them.
 */
export async function heldInactiveItems(sql: SqlRunner): Promise<Array<{ characterId: string; name: string; itemId: string; quantity: number }>> {
  const rows = await sql.query<{ characterId: string; name: string; itemId: string; quantity: string | number }>(
    `SELECT h."characterId", c."name", h."itemId", SUM(h."quantity")::bigint AS "quantity"
     FROM (SELECT "characterId", "itemId", "quantity" FROM "inventory"
           UNION ALL SELECT "characterId", "itemId", "quantity" FROM "equipment"
           UNION ALL SELECT "characterId", "itemId", "quantity" FROM "bank") h
     JOIN "items" i ON i."id" = h."itemId" AND NOT i."active"
     JOIN "characters" c ON c."id" = h."characterId"
     GROUP BY h."characterId", c."name", h."itemId"
     ORDER BY c."name", h."itemId"
     LIMIT 1000`,
  );
  return rows.map((r) => ({ ...r, quantity: Number(r.quantity) }));
}
