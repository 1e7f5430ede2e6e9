import type { Database } from "../../src/db/client.js";
import type { ChunkData } from "../../src/game/world/setup.js";

/** Quantities by item id. */
export type Bag = Map<string, number>;

export function addTo(bag: Bag, itemId: string, quantity: number): Bag {
  const n = (bag.get(itemId) ?? 0) + quantity;
  if (n === 0) bag.delete(itemId);
  else bag.set(itemId, n);
  return bag;
}

export function bagOf(stacks: Iterable<{ itemId: string; quantity: number }>): Bag {
  const bag: Bag = new Map();
  for (const s of stacks) addTo(bag, s.itemId, s.quantity);
  return bag;
}

/** A bag as a plain object with sorted keys (for assert.deepEqual and readable failures). */
export function plain(bag: Bag): Record<string, number> {
  return Object.fromEntries([...bag].filter(([, n]) => n !== 0).sort(([a], [b]) => a.localeCompare(b)));
}

/** Every item the database holds, by owner: each character's inventory, bank and equipment, and the ground. */
export interface Ledger {
  /** Per character: inventory + bank + equipment. */
  characters: Map<string, Bag>;
  /** Inventory rows per character, by slot. */
  inventories: Map<string, Array<{ slot: number; itemId: string; quantity: number }>>;
  /** Ground items: world chunks' ground items and the piles of open death locks. */
  ground: Bag;
  /** Everything. */
  total: Bag;
}

type Stack = { characterId: string; slot?: number; itemId: string; quantity: number };

/**
 * Every item the database holds, read in one REPEATABLE READ transaction: one snapshot, so a save
 * that commits while it reads (a drop writes the pack and the ground together) is seen whole or not
 * at all, never its ground without its pack.
 */
export async function readLedger(db: Database): Promise<Ledger> {
  const [characters, inventory, bank, equipment, chunks, deaths] = await db.sql.transaction(async (tx) => {
    await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    return [
      await tx.query<{ id: string }>(`SELECT "id" FROM "characters"`),
      await tx.query<Stack>(`SELECT "characterId", "slot", "itemId", "quantity" FROM "inventory" ORDER BY "characterId", "slot"`),
      await tx.query<Stack>(`SELECT "characterId", "itemId", "quantity" FROM "bank"`),
      await tx.query<Stack>(`SELECT "characterId", "itemId", "quantity" FROM "equipment"`),
      await tx.query<{ data: unknown }>(`SELECT "data" FROM "world_chunks"`),
      await tx.query<{ items: unknown }>(`SELECT "items" FROM "player_deaths" WHERE "resolvedAt" IS NULL`),
    ] as const;
  });
  const ledger: Ledger = { characters: new Map(), inventories: new Map(), ground: new Map(), total: new Map() };
  for (const c of characters) {
    ledger.characters.set(c.id, new Map());
    ledger.inventories.set(c.id, []);
  }
  for (const row of [...inventory, ...bank, ...equipment]) {
    addTo(ledger.characters.get(row.characterId)!, row.itemId, row.quantity);
    addTo(ledger.total, row.itemId, row.quantity);
  }
  for (const row of inventory) ledger.inventories.get(row.characterId)!.push({ slot: row.slot!, itemId: row.itemId, quantity: row.quantity });
  const onGround = [
    ...chunks.flatMap((c) => (c.data as unknown as Partial<ChunkData>).groundItems ?? []),
    ...deaths.flatMap((d) => (d.items as unknown as Array<{ itemId: string; quantity: number }>) ?? []),
  ];
  for (const g of onGround) {
    addTo(ledger.ground, g.itemId, g.quantity);
    addTo(ledger.total, g.itemId, g.quantity);
  }
  return ledger;
}
