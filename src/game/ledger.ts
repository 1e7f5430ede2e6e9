import type { Bank, Equipment, Inventory } from "./types.js";

/**
 * The item ledger's rules (README "The item ledger"): a character's holdings as counts per item (pack,
 * worn and bank together: moving an item between them changes nothing), the change between two
 * holdings, and that change told by its causes. The causes the rules know are recorded as events
 * while they happen; what a save finds changed beyond them is written as `unattributed`, so the
 * ledger always sums to what a character holds and a row of that cause shows where the
 * attribution is still missing.
 */

/** Why a character's holdings changed. */
export type LedgerCause =
  | "opening"
  | "starter_kit"
  | "gathered"
  | "made"
  | "cooked"
  | "bought"
  | "sold"
  | "traded"
  | "staked"
  | "dropped"
  | "picked_up"
  | "stolen"
  | "death_lost"
  | "pvp_lost"
  | "reclaimed"
  | "quest"
  | "consumed"
  | "given"
  | "paid"
  | "unattributed";

/** One cause's change of one item: what it is about (a node, a recipe, a deal, a trade, a ground item, an audit row) and the other party. */
export interface LedgerEvent {
  itemId: string;
  delta: number;
  cause: LedgerCause;
  ref?: string | null;
  otherId?: string | null;
}

export type Holdings = Map<string, number>;

/** What a character holds, as its items (a snapshot's, never changed after): counted when a save needs it. */
export interface Held {
  inventory: Inventory;
  equipment: Equipment;
  bank: Bank;
}

/** What a character holds, per item id: pack, worn and bank together. */
export function holdingsOf(h: Held): Holdings {
  const out: Holdings = new Map();
  const add = (itemId: string, n: number) => out.set(itemId, (out.get(itemId) ?? 0) + n);
  for (const s of h.inventory) if (s) add(s.itemId, s.quantity);
  for (const s of Object.values(h.equipment)) if (s) add(s.itemId, s.quantity);
  for (const s of h.bank) if (s.quantity > 0) add(s.itemId, s.quantity);
  return out;
}

/** After minus before, per item; items that did not change are left out. */
export function holdingsChange(before: Holdings, after: Holdings): Holdings {
  const out: Holdings = new Map();
  for (const [id, n] of after) {
    const d = n - (before.get(id) ?? 0);
    if (d !== 0) out.set(id, d);
  }
  for (const [id, n] of before) if (!after.has(id)) out.set(id, -n);
  return out;
}

/**
 * A change told by its causes: the events recorded (merged per item, cause, ref and other party),
 * then, per item, whatever they leave unexplained as one `unattributed` row. The rows sum to the
 * change, item by item.
 */
export function ledgerRows(change: Holdings, events: readonly LedgerEvent[]): LedgerEvent[] {
  const merged = new Map<string, LedgerEvent>();
  const told: Holdings = new Map();
  for (const e of events) {
    if (e.delta === 0) continue;
    const key = `${e.itemId}\u0000${e.cause}\u0000${e.ref ?? ""}\u0000${e.otherId ?? ""}`;
    const m = merged.get(key);
    if (m) m.delta += e.delta;
    else merged.set(key, { ...e });
    told.set(e.itemId, (told.get(e.itemId) ?? 0) + e.delta);
  }
  const rows = [...merged.values()].filter((e) => e.delta !== 0);
  const items = new Set([...change.keys(), ...told.keys()]);
  for (const itemId of items) {
    const rest = (change.get(itemId) ?? 0) - (told.get(itemId) ?? 0);
    if (rest !== 0) rows.push({ itemId, delta: rest, cause: "unattributed" });
  }
  return rows;
}

/** What a character holds now, kept as it is (pack and bank are replaced, never changed in place; the worn items are copied). */
export function heldOf(p: Held): Held {
  return { inventory: p.inventory, equipment: { ...p.equipment }, bank: p.bank };
}

/**
 * Whether the change sites tell their causes. Always on in a server: bench:world turns it off for
 * one window to measure what telling costs the tick (the save then writes such changes unattributed).
 */
export const ledgerTelling = { on: true };

/**
 * Tell the change of `p`'s holdings since `before` (heldOf, taken just before) by its cause: one
 * event per item that changed, for its next save to write.
 */
export function noteChange(p: Held & { ledgerEvents: LedgerEvent[] }, before: Held, cause: LedgerCause, ref?: string | null, otherId?: string | null): void {
  if (!ledgerTelling.on) return;
  for (const [itemId, delta] of changeOfParts(before, p)) p.ledgerEvents.push({ itemId, delta, cause, ref, otherId });
}

/**
 * The change between two holdings, counting only the parts that were replaced (pack and bank are
 * replaced whole, never changed in place, and each worn slot holds its own stack): a change in the
 * pack does not walk the bank. The same as holdingsChange of the whole holdings.
 */
export function changeOfParts(before: Held, after: Held): Holdings {
  const out: Holdings = new Map();
  const add = (stacks: Iterable<{ itemId: string; quantity: number } | null | undefined>, sign: 1 | -1) => {
    for (const s of stacks) if (s) out.set(s.itemId, (out.get(s.itemId) ?? 0) + sign * s.quantity);
  };
  if (before.inventory !== after.inventory) {
    add(before.inventory, -1);
    add(after.inventory, 1);
  }
  if (before.bank !== after.bank) {
    add(before.bank, -1);
    add(after.bank, 1);
  }
  for (const slot of new Set([...Object.keys(before.equipment), ...Object.keys(after.equipment)]) as Set<keyof Equipment>) {
    if (before.equipment[slot] === after.equipment[slot]) continue;
    add([before.equipment[slot]], -1);
    add([after.equipment[slot]], 1);
  }
  for (const [itemId, n] of out) if (n === 0) out.delete(itemId);
  return out;
}
