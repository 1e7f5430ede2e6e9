/** Shared fixtures of the game-rule tests: error matchers, item definitions, inventories. */
import { emptyInventory } from "../../src/game/inventory.js";
import { GameError, type Inventory } from "../../src/game/types.js";
import type { ItemDef } from "../../src/manifests/gameData.js";

/** assert.throws matcher: a GameError with this code. */
export const code = (c: string) => (e: unknown) => e instanceof GameError && e.code === c;

/** The code of the GameError `fn` throws, or undefined when it throws none (any other error is thrown on). */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof GameError) return err.code;
    throw err;
  }
  return undefined;
}

/** A minimal item definition (not stackable, value 1, tradeable) with overrides. */
export const item = (id: string, extra: Partial<ItemDef> = {}): ItemDef => ({
  id,
  name: id,
  type: "misc",
  stackable: false,
  value: 1,
  tradeable: true,
  source: "test",
  raw: {},
  ...extra,
});

/** An inventory with the given slots filled (slot -> [id, quantity]). */
export function inv(entries: Record<number, [string, number]> = {}): Inventory {
  const out = emptyInventory();
  for (const [slot, [itemId, quantity]] of Object.entries(entries)) out[Number(slot)] = { itemId, quantity };
  return out;
}
