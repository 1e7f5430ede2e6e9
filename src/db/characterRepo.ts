import { holdingsOf } from "../game/ledger.js";
import { LEDGER_COLUMNS } from "./ledgerRepo.js";
import { randomUUID } from "node:crypto";
import type { CharacterSnapshot } from "../game/world/entities.js";
import {
  EQUIPMENT_SLOTS,
  INVENTORY_SIZE,
  SKILLS,
  type Bank,
  type Equipment,
  type EquipmentSlot,
  type Inventory,
  type SkillName,
  type SkillXp,
  type Tile,
} from "../game/types.js";
import { inJsonList, insertRows, insertRowsStatement, NOW_UTC, type Columns, type SqlRunner, type SqlTx, type Statement } from "./sql.js";
import { combatLevel, defaultSkillXp, levelForXp, maxHealth, skillLevels, xpForLevel } from "../game/skills.js";

/** The column pair of each skill in the characters table. */
const levelColumn = (s: SkillName) => `${s}Level` as const;
const xpColumn = (s: SkillName) => `${s}Xp` as const;

export class CharacterAccessError extends Error {
  constructor(
    public readonly code: "CHARACTER_NOT_FOUND" | "NOT_YOUR_CHARACTER",
    message: string,
  ) {
    super(message);
  }
}

/** Character names: 1-12 letters, digits and single spaces; unique ignoring case (database index). */
export const CHARACTER_NAME = /^(?=.{1,12}$)[A-Za-z0-9]+( [A-Za-z0-9]+)*$/;

export interface NewCharacter {
  accountId: string;
  name?: string;
  isAgent?: boolean;
  spawn: Tile;
  /** What the character starts with (see startingInventory). */
  inventory: Inventory;
  /** Skill levels that differ from the defaults (a character template). */
  levels?: Partial<Record<SkillName, number>>;
}

/** A characters row with its item and quest rows, as CHARACTER_SELECT reads it. */
interface CharacterRow {
  id: string;
  accountId: string;
  name: string;
  isAgent: boolean;
  positionX: number;
  positionZ: number;
  health: number;
  prayerPoints: number | null;
  vars: Record<string, number | boolean> | null;
  inventory: Array<{ slot: number; itemId: string; quantity: number }>;
  equipment: Array<{ slot: EquipmentSlot; itemId: string; quantity: number }>;
  bank: Array<{ slot: number; itemId: string; quantity: number; tab: number }>;
  quests: Array<{ questId: string; stage: number; count: number; completions: number }>;
}

function rowToSnapshot(row: CharacterRow): CharacterSnapshot {
  const xp = {} as SkillXp;
  for (const s of SKILLS) xp[s] = (row as unknown as Record<string, number>)[xpColumn(s)] ?? 0;
  const inventory: Inventory = new Array(INVENTORY_SIZE).fill(null);
  for (const r of row.inventory) if (r.slot >= 0 && r.slot < INVENTORY_SIZE) inventory[r.slot] = { itemId: r.itemId, quantity: r.quantity };
  const equipment: Equipment = {};
  for (const r of row.equipment) equipment[r.slot] = { itemId: r.itemId, quantity: r.quantity };
  const bank: Bank = [...row.bank].sort((a, b) => a.slot - b.slot).map((r) => ({ itemId: r.itemId, quantity: r.quantity, ...(r.tab ? { tab: r.tab } : {}) }));
  return {
    id: row.id,
    accountId: row.accountId,
    name: row.name,
    isAgent: row.isAgent,
    tile: { x: Math.round(row.positionX), z: Math.round(row.positionZ) },
    xp,
    health: row.health,
    ...(row.prayerPoints != null ? { prayerPoints: row.prayerPoints } : {}),
    inventory,
    equipment,
    bank,
    quests: row.quests.map((q) => ({ questId: q.questId, stage: q.stage, count: q.count, completions: q.completions })),
    vars: { ...(row.vars ?? {}) },
  };
}

/** The rows of `table` of the character `c` as one JSON array of these fields. */
const rowsOf = (table: string, fields: string[]) =>
  `COALESCE((SELECT jsonb_agg(jsonb_build_object(${fields.map((f) => `'${f}', t."${f}"`).join(", ")})) FROM "${table}" t WHERE t."characterId" = c."id"), '[]'::jsonb)`;

/** A character with every item and quest row, in one statement (one round trip, whatever it holds). */
const CHARACTER_SELECT = `SELECT c.*,
  ${rowsOf("inventory", ["slot", "itemId", "quantity"])} AS "inventory",
  ${rowsOf("equipment", ["slot", "itemId", "quantity"])} AS "equipment",
  ${rowsOf("bank", ["slot", "itemId", "quantity", "tab"])} AS "bank",
  ${rowsOf("character_quests", ["questId", "stage", "count", "completions"])} AS "quests"
  FROM "characters" c`;

export async function loadCharacter(sql: SqlTx, characterId: string): Promise<CharacterSnapshot | null> {
  const [row] = await sql.query<CharacterRow>(`${CHARACTER_SELECT} WHERE c."id" = $1`, [characterId]);
  return row ? rowToSnapshot(row) : null;
}

/**
 * The account's character: the one asked for (it must be the account's), else its oldest, else
 * a new one made by `create`.
 */
export async function loadOrCreateCharacter(
  sql: SqlRunner,
  accountId: string,
  characterId: string | undefined,
  create: () => NewCharacter,
  /** The account's first character's id as just found (accountOnJoin; null: none): no search for it. */
  first?: string | null,
): Promise<CharacterSnapshot> {
  if (characterId) {
    const snap = await loadCharacter(sql, characterId);
    if (!snap) throw new CharacterAccessError("CHARACTER_NOT_FOUND", "No such character");
    if (snap.accountId !== accountId) throw new CharacterAccessError("NOT_YOUR_CHARACTER", "That character belongs to another account");
    return snap;
  }
  if (first === null) return createCharacter(sql, create());
  if (first !== undefined) {
    const snap = await loadCharacter(sql, first);
    // (Deleted since it was found: the account's first now, whichever that is.)
    if (snap?.accountId === accountId) return snap;
  }
  const [row] = await sql.query<CharacterRow>(`${CHARACTER_SELECT} WHERE c."accountId" = $1 ORDER BY c."createdAt" ASC, c."id" ASC LIMIT 1`, [accountId]);
  if (row) return rowToSnapshot(row);
  return createCharacter(sql, create());
}

/**
 * A new character's row and its pack's rows, in one statement (so all or nothing, one round trip):
 * a new character has nothing worn, banked or begun.
 */
async function insertCharacter(sql: SqlRunner, snap: CharacterSnapshot): Promise<void> {
  const row = { ...statRow(snap), accountId: snap.accountId, name: snap.name, isAgent: snap.isAgent };
  const items = inventoryRows([{ characterId: snap.id, inventory: snap.inventory }]);
  // The item ledger opens with the starter kit (src/game/ledger.ts).
  const ledger = [...holdingsOf(snap)].map(([itemId, delta]) => ({
    characterId: snap.id,
    itemId,
    delta,
    cause: "starter_kit",
    ref: null,
    otherId: null,
    world: null,
  }));
  // The pack's rows are checked against the character's row at the statement's end, when it is in.
  const character = insertRowsStatement("characters", NEW_CHARACTER_COLUMNS, { constants: { createdAt: NOW_UTC, updatedAt: NOW_UTC } });
  await sql.query(
    `WITH c AS (${character}), l AS (${insertRowsStatement("item_ledger", LEDGER_COLUMNS, { constants: { at: NOW_UTC } }, 3)}) ${insertRowsStatement("inventory", INVENTORY_COLUMNS, {}, 2)}`,
    [JSON.stringify([row]), JSON.stringify(items), JSON.stringify(ledger)],
  );
}

/** A new character with its starting items, in one statement; a generated name when none is given. */
export async function createCharacter(sql: SqlRunner, spec: NewCharacter): Promise<CharacterSnapshot> {
  for (let attempt = 0; attempt < 8; attempt++) {
    // A generated name follows the naming rule (12 characters at most) and leaves 900,000 to draw from.
    const name = spec.name ?? `Player${Math.floor(100_000 + Math.random() * 900_000)}`;
    const id = `c_${randomUUID()}`;
    const xp = defaultSkillXp();
    for (const [skill, level] of Object.entries(spec.levels ?? {}) as [SkillName, number][]) xp[skill] = xpForLevel(level);
    const inventory: Inventory = spec.inventory.map((s) => (s ? { ...s } : null));
    const snap: CharacterSnapshot = {
      id,
      accountId: spec.accountId,
      name,
      isAgent: spec.isAgent ?? false,
      tile: { ...spec.spawn },
      xp,
      health: maxHealth(levelForXp(xp.constitution)),
      inventory,
      equipment: {},
      bank: [],
      quests: [],
    };
    try {
      await insertCharacter(sql, snap);
    } catch (err) {
      // Another character took the generated name first: try another.
      if (!spec.name && isUniqueViolation(err)) continue;
      throw err;
    }
    return snap;
  }
  throw new Error("could not find a free character name");
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string; meta?: { driverAdapterError?: { cause?: { kind?: string } } } };
  return (
    e?.code === "P2002" ||
    e?.code === "23505" ||
    /unique constraint|duplicate key/i.test(String(e?.message ?? "")) ||
    e?.meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation"
  );
}

const STAT_COLUMNS = [...SKILLS.flatMap((s) => [levelColumn(s), xpColumn(s)]), "combatLevel", "health"] as const;

/** A new character's row: who it is, and its stats as statRow gives them. */
const NEW_CHARACTER_COLUMNS: Columns = {
  id: "text",
  accountId: "text",
  name: "text",
  isAgent: "boolean",
  ...Object.fromEntries(STAT_COLUMNS.map((c) => [c, "int"])),
  positionX: "float8",
  positionZ: "float8",
};

/** A character's skills, combat level, health, prayer points, player variables and position as its row's columns. */
function statRow(snap: CharacterSnapshot): Record<string, number | string | object> {
  const levels = skillLevels(snap.xp);
  const row: Record<string, number | string | object> = { id: snap.id, positionX: snap.tile.x, positionZ: snap.tile.z };
  for (const s of SKILLS) {
    row[levelColumn(s)] = levels[s];
    row[xpColumn(s)] = Math.floor(snap.xp[s]);
  }
  row.combatLevel = combatLevel(levels);
  row.health = Math.max(0, Math.floor(snap.health));
  if (snap.prayerPoints !== undefined) row.prayerPoints = Math.min(99, Math.max(0, Math.floor(snap.prayerPoints)));
  if (snap.vars !== undefined) row.vars = snap.vars;
  return row;
}

/**
 * Skills, combat level, health and position of many characters in one statement (the periodic
 * save writes every changed character at once).
 */
export async function writeCharacterStats(tx: SqlTx, snaps: CharacterSnapshot[]): Promise<void> {
  if (snaps.length === 0) return;
  const rows = snaps.map(statRow);
  const set = [
    ...STAT_COLUMNS.map((c) => `"${c}" = r."${c}"`),
    // Absent from a snapshot (never the world's): kept as it is.
    `"prayerPoints" = COALESCE(r."prayerPoints", c."prayerPoints")`,
    `"vars" = COALESCE(r."vars", c."vars")`,
    `"positionX" = r."positionX"`,
    `"positionZ" = r."positionZ"`,
    `"updatedAt" = ${NOW_UTC}`,
  ].join(", ");
  const types = [`"id" text`, ...STAT_COLUMNS.map((c) => `"${c}" int`), `"prayerPoints" int`, `"vars" jsonb`, `"positionX" float8`, `"positionZ" float8`].join(
    ", ",
  );
  await tx.query(`UPDATE "characters" AS c SET ${set} FROM jsonb_to_recordset($1::jsonb) AS r(${types}) WHERE c."id" = r."id"`, [JSON.stringify(rows)]);
}

const INVENTORY_COLUMNS = { characterId: "text", slot: "int", itemId: "text", quantity: "int" };
const EQUIPMENT_COLUMNS = { characterId: "text", slot: `"EquipmentSlot"`, itemId: "text", quantity: "int" };
const BANK_COLUMNS = { characterId: "text", itemId: "text", quantity: "int", slot: "int", tab: "int" };
const QUEST_COLUMNS = { characterId: "text", questId: "text", stage: "int", count: "int", completions: "int" };

/** The inventory rows of these characters' packs (the rows the `inventory` table holds for them). */
export function inventoryRows(packs: { characterId: string; inventory: Inventory }[]) {
  return packs.flatMap(({ characterId, inventory }) =>
    inventory.flatMap((s, slot) => (s ? [{ characterId, slot, itemId: s.itemId, quantity: s.quantity }] : [])),
  );
}

/** A character's inventory as the database holds it (read under its row lock) and as it is to be. */
export interface InventoryChange {
  characterId: string;
  before: Inventory;
  after: Inventory;
}

/**
 * The statement that writes these characters' inventories as changed from what the database holds
 * (`before`, read under their row locks in this transaction): only the slots whose stacks differ
 * are written (a trade moves a few stacks; the rest of a pack is left as it is), the slots emptied
 * deleted. `also` is one more data-modifying statement run in it, its JSON parameter being $3 (a
 * trade's history rows).
 */
export function inventoryChangesStatement(changes: InventoryChange[], also?: { statement: string; param: string }): Statement {
  const written: { characterId: string; slot: number; itemId: string; quantity: number }[] = [];
  const emptied: { characterId: string; slot: number }[] = [];
  for (const { characterId, before, after } of changes) {
    for (let slot = 0; slot < Math.max(before.length, after.length); slot++) {
      const was = before[slot] ?? null;
      const is = after[slot] ?? null;
      if (is && (!was || was.itemId !== is.itemId || was.quantity !== is.quantity))
        written.push({ characterId, slot, itemId: is.itemId, quantity: is.quantity });
      else if (!is && was) emptied.push({ characterId, slot });
    }
  }
  return {
    sql: `WITH ${also ? `extra AS (${also.statement}),` : ""}
       gone AS (DELETE FROM "inventory" i USING jsonb_to_recordset($2::jsonb) AS d("characterId" text, "slot" int)
         WHERE i."characterId" = d."characterId" AND i."slot" = d."slot")
     INSERT INTO "inventory" ("characterId", "slot", "itemId", "quantity")
     SELECT r.* FROM jsonb_to_recordset($1::jsonb) AS r("characterId" text, "slot" int, "itemId" text, "quantity" int)
     ON CONFLICT ("characterId", "slot") DO UPDATE SET "itemId" = EXCLUDED."itemId", "quantity" = EXCLUDED."quantity"`,
    params: [JSON.stringify(written), JSON.stringify(emptied), ...(also ? [also.param] : [])],
  };
}

/** Write these characters' inventories as changed (inventoryChangesStatement), in one statement. */
export async function writeInventoryChanges(tx: SqlTx, changes: InventoryChange[]): Promise<void> {
  const { sql, params } = inventoryChangesStatement(changes);
  await tx.query(sql, params);
}

/** Replace the inventory, equipment and bank rows of these characters with their snapshots. */
export async function writeCharacterItems(tx: SqlTx, snaps: CharacterSnapshot[]): Promise<void> {
  if (snaps.length === 0) return;
  await tx.query(
    `WITH i AS (DELETE FROM "inventory" WHERE "characterId" ${inJsonList(1)}),
          e AS (DELETE FROM "equipment" WHERE "characterId" ${inJsonList(1)})
     DELETE FROM "bank" WHERE "characterId" ${inJsonList(1)}`,
    [JSON.stringify(snaps.map((s) => s.id))],
  );
  const eq = snaps.flatMap((snap) =>
    EQUIPMENT_SLOTS.flatMap((slot) => {
      const s = snap.equipment[slot];
      return s ? [{ characterId: snap.id, slot, itemId: s.itemId, quantity: s.quantity }] : [];
    }),
  );
  const bank = snaps.flatMap((snap) => snap.bank.map((s, slot) => ({ characterId: snap.id, itemId: s.itemId, quantity: s.quantity, slot, tab: s.tab ?? 0 })));
  await insertRows(tx, "inventory", INVENTORY_COLUMNS, inventoryRows(snaps.map((s) => ({ characterId: s.id, inventory: s.inventory }))));
  await insertRows(tx, "equipment", EQUIPMENT_COLUMNS, eq);
  await insertRows(tx, "bank", BANK_COLUMNS, bank);
}

/** Replace the quest rows of these characters with their journals. */
export async function writeCharacterQuests(tx: SqlTx, snaps: CharacterSnapshot[]): Promise<void> {
  if (snaps.length === 0) return;
  await tx.query(`DELETE FROM "character_quests" WHERE "characterId" ${inJsonList(1)}`, [JSON.stringify(snaps.map((s) => s.id))]);
  const rows = snaps.flatMap((snap) =>
    (snap.quests ?? []).map((q) => ({ characterId: snap.id, questId: q.questId, stage: q.stage, count: q.count, completions: q.completions })),
  );
  await insertRows(tx, "character_quests", QUEST_COLUMNS, rows, { constants: { updatedAt: NOW_UTC } });
}

/** A fingerprint of a character's quest journal: equal fingerprints need no quest rows rewritten. */
export function questsFingerprint(snap: Pick<CharacterSnapshot, "quests">): string {
  return JSON.stringify((snap.quests ?? []).map((q) => [q.questId, q.stage, q.count, q.completions]));
}

/**
 * A fingerprint of what writeCharacterStats writes of a character (its place, health, prayer
 * points, player variables and experience; levels and combat level follow from the experience): equal fingerprints
 * need no stats row written.
 */
export function statsFingerprint(snap: Pick<CharacterSnapshot, "tile" | "health" | "prayerPoints" | "xp" | "vars">): string {
  let out = `${snap.tile.x},${snap.tile.z},${Math.floor(snap.health)},${snap.prayerPoints === undefined ? "" : Math.floor(snap.prayerPoints)}`;
  for (const s of SKILLS) out += `,${Math.floor(snap.xp[s])}`;
  return snap.vars === undefined ? out : `${out},${JSON.stringify(snap.vars)}`;
}

/** A fingerprint of a character's items: equal fingerprints need no item rows rewritten. */
export function itemsFingerprint(snap: Pick<CharacterSnapshot, "inventory" | "equipment" | "bank">): string {
  return JSON.stringify([snap.inventory, EQUIPMENT_SLOTS.map((slot) => snap.equipment[slot] ?? null), snap.bank]);
}
