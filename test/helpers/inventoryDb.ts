import type { PrismaClient } from "@prisma/client";
import { syncItems } from "../../src/db/itemSync.js";
import type { OfferItem } from "../../src/game/trade.js";
import { item } from "../game/fixtures.js";
import { openTestDb, type TestDb, type TestDbKind } from "./database.js";

/**
 * A database of characters and their inventories, for the suites of the item moves (trade commits,
 * duel settlements): the items they move, one account, and characters made and read slot by slot.
 */

/** What the world believes: every item tradeable. The items table says otherwise for quest_key. */
export const ITEMS = new Map([
  ["coins", item("coins", { stackable: true, value: 1 })],
  ["sword", item("sword", { value: 100 })],
  ["logs", item("logs", { value: 4 })],
  ["quest_key", item("quest_key", { value: 10 })],
]);
const ROWS = [...ITEMS.values()].map((d) => ({ ...d, tradeable: d.id !== "quest_key" }));

/** An inventory by slot: item id and quantity. */
export type Slots = Record<number, [string, number]>;

/** An offered (or staked) stack. */
export const stack = (inventorySlot: number, itemId: string, quantity: number): OfferItem => ({ inventorySlot, itemId, quantity });

/**
 * The hooks of such a suite on one kind of database: a migrated database with the items and the
 * account "acc", closed after the suite. Characters are named `${prefix}1`, `${prefix}2`, ...; their
 * ids sort in the order they were made.
 */
export function inventoryDb(kind: TestDbKind, prefix: string) {
  let t: TestDb;
  let n = 0;
  before(async () => {
    t = await openTestDb(kind);
    await syncItems(t.db.sql, ROWS);
    await t.db.prisma.user.create({ data: { id: "acc", isGuest: true } });
  });
  after(async () => {
    await t?.cleanup();
  });
  const prisma = (): PrismaClient => t.db.prisma;
  return {
    get db() {
      return t.db;
    },
    prisma,
    /** A new character holding these slots. */
    async character(slots: Slots): Promise<{ id: string; name: string }> {
      n++;
      const c = { id: `${prefix.toLowerCase()}${String(n).padStart(3, "0")}`, name: `${prefix}${n}` };
      await prisma().character.create({ data: { id: c.id, accountId: "acc", name: c.name } });
      const data = Object.entries(slots).map(([slot, [itemId, quantity]]) => ({ characterId: c.id, slot: Number(slot), itemId, quantity }));
      if (data.length) await prisma().inventoryItem.createMany({ data });
      return c;
    },
    /** What the character's inventory rows hold, by slot. */
    async slotsOf(characterId: string): Promise<Slots> {
      const rows = await prisma().inventoryItem.findMany({ where: { characterId }, orderBy: { slot: "asc" } });
      return Object.fromEntries(rows.map((r) => [r.slot, [r.itemId, r.quantity]]));
    },
  };
}
