/**
 * Trading rules, pure: what may be offered, what an offer is worth, and the swap of two offers
 * between two inventories. The same swap runs on the world's inventories (to check a trade before
 * it is committed) and on the rows the database re-reads inside the commit transaction.
 */
import { addItem, assertSlot, copyInventory, removeFromSlot, type ItemIndex } from "./inventory.js";
import { GameError, MAX_STACK, type Inventory, type ItemStack } from "./types.js";

/** One offered stack: part or all of one inventory slot. */
export interface OfferItem {
  inventorySlot: number;
  itemId: string;
  quantity: number;
}

export const TRADE_LIMITS = {
  /** Players must stand within this many tiles (Chebyshev) to request and to open a trade. */
  rangeTiles: 2,
  /** An unanswered request is cancelled after this long (reason timeout). */
  requestTimeoutMs: 30_000,
  /** An open trade with no activity from either player is cancelled after this long. */
  idleTimeoutMs: 5 * 60_000,
  /** A player may ask the same player again only after this long. */
  repeatRequestMs: 3_000,
};
export type TradeLimits = typeof TRADE_LIMITS;

/** An offer is flagged as lopsided when one side is worth at least this many times the other... */
export const LOPSIDED_RATIO = 2;
/** ...and at least this many coins more. */
export const LOPSIDED_MIN_DIFFERENCE = 50;

/** A quantity from a client: a whole number from 1 to MAX_STACK, anything else is INVALID_QUANTITY. */
export function assertTradeQuantity(quantity: unknown): asserts quantity is number {
  if (typeof quantity !== "number" || !Number.isSafeInteger(quantity) || quantity < 1 || quantity > MAX_STACK) {
    throw new GameError("INVALID_QUANTITY", `quantity must be a whole number from 1 to ${MAX_STACK} (got ${JSON.stringify(quantity) ?? String(quantity)})`);
  }
}

function assertTradeSlot(slot: unknown): asserts slot is number {
  assertSlot(typeof slot === "number" ? slot : Number.NaN);
}

function assertTradeable(itemId: string, items: ItemIndex) {
  const def = items.get(itemId);
  if (!def || !def.tradeable) throw new GameError("UNTRADEABLE", `${def?.name ?? itemId} can't be traded`);
}

/**
 * Offer `quantity` more from an inventory slot. Offering a slot already offered adds to it; the
 * total may not exceed what the slot holds.
 */
export function offerAdd(offer: readonly OfferItem[], inv: Inventory, slot: unknown, quantity: unknown, items: ItemIndex): OfferItem[] {
  assertTradeSlot(slot);
  const held = inv[slot];
  if (!held) throw new GameError("EMPTY_SLOT", `slot ${slot} is empty`);
  assertTradeable(held.itemId, items);
  assertTradeQuantity(quantity);
  const existing = offer.find((o) => o.inventorySlot === slot);
  const total = (existing?.quantity ?? 0) + quantity;
  if (total > held.quantity) {
    throw new GameError(
      "INVALID_QUANTITY",
      `slot ${slot} holds ${held.quantity}; ${existing ? `${existing.quantity} already offered, ` : ""}${quantity} more is too many`,
    );
  }
  if (existing) return offer.map((o) => (o === existing ? { ...o, quantity: total } : o));
  return [...offer, { inventorySlot: slot, itemId: held.itemId, quantity }];
}

/** Take back `quantity` (all when not given) of an offered slot. */
export function offerRemove(offer: readonly OfferItem[], slot: unknown, quantity?: unknown): OfferItem[] {
  assertTradeSlot(slot);
  const existing = offer.find((o) => o.inventorySlot === slot);
  if (!existing) throw new GameError("NOT_OFFERED", `slot ${slot} is not in your offer`);
  if (quantity === undefined) return offer.filter((o) => o !== existing);
  assertTradeQuantity(quantity);
  if (quantity > existing.quantity) throw new GameError("INVALID_QUANTITY", `only ${existing.quantity} of slot ${slot} is offered`);
  if (quantity === existing.quantity) return offer.filter((o) => o !== existing);
  return offer.map((o) => (o === existing ? { ...o, quantity: o.quantity - quantity } : o));
}

/** Every offered stack is still there: same slot, same item, enough of it, still tradeable. */
export function checkOffer(offer: readonly OfferItem[], inv: Inventory, items: ItemIndex): void {
  const seen = new Set<number>();
  for (const o of offer) {
    assertTradeSlot(o.inventorySlot);
    assertTradeQuantity(o.quantity);
    if (seen.has(o.inventorySlot)) throw new GameError("OFFER_CHANGED", `slot ${o.inventorySlot} is offered twice`);
    seen.add(o.inventorySlot);
    const held = inv[o.inventorySlot];
    if (!held || held.itemId !== o.itemId || held.quantity < o.quantity) {
      throw new GameError("OFFER_CHANGED", `slot ${o.inventorySlot} no longer holds ${o.quantity} x ${o.itemId}`);
    }
    assertTradeable(o.itemId, items);
  }
}

/** The receiving side has no room for what it would get. */
export class NoRoomError extends GameError {
  constructor(readonly side: TradeRole) {
    super("INVENTORY_FULL", "not enough inventory space");
  }
}

/** The two sides of a trade: the player who asked, and the player asked. */
export type TradeRole = "initiator" | "recipient";

/** Both inventories after a swap, and what each side receives. */
export interface Swap {
  initiator: Inventory;
  recipient: Inventory;
  toInitiator: ItemStack[];
  toRecipient: ItemStack[];
}

const stacksOf = (offer: readonly OfferItem[]): ItemStack[] => offer.map((o) => ({ itemId: o.itemId, quantity: o.quantity }));

/** One side of a swap to plan: its inventory and what it offers. */
export interface SwapSide {
  inventory: Inventory;
  offer: readonly OfferItem[];
}

/**
 * Swap two offers. Each side first gives its offer (which frees room), then receives the other's;
 * stackable items merge into an existing stack. Throws OFFER_CHANGED or UNTRADEABLE when an offer
 * no longer matches its inventory, NoRoomError when a side cannot hold what it gets.
 */
export function planSwap(initiator: SwapSide, recipient: SwapSide, items: ItemIndex): Swap {
  checkOffer(initiator.offer, initiator.inventory, items);
  checkOffer(recipient.offer, recipient.inventory, items);
  const give = (side: SwapSide) => side.offer.reduce((inv, o) => removeFromSlot(inv, o.inventorySlot, o.quantity).inventory, copyInventory(side.inventory));
  const receive = (inv: Inventory, stacks: ItemStack[], role: TradeRole) =>
    stacks.reduce((acc, s) => {
      const r = addItem(acc, s.itemId, s.quantity, items);
      if (r.added < s.quantity) throw new NoRoomError(role);
      return r.inventory;
    }, inv);
  const toInitiator = stacksOf(recipient.offer);
  const toRecipient = stacksOf(initiator.offer);
  return {
    initiator: receive(give(initiator), toInitiator, "initiator"),
    recipient: receive(give(recipient), toRecipient, "recipient"),
    toInitiator,
    toRecipient,
  };
}

/** What an offer is worth by the manifests' item values. */
export function offerValue(offer: readonly OfferItem[], items: ItemIndex): number {
  let total = 0;
  for (const o of offer) total += Math.max(0, items.get(o.itemId)?.value ?? 0) * o.quantity;
  return total;
}

export interface TradeValues {
  myOfferValue: number;
  theirOfferValue: number;
  /** What this side gains: their offer's value minus mine. */
  difference: number;
  /** One side gives far more than it gets (LOPSIDED_RATIO times, and LOPSIDED_MIN_DIFFERENCE coins more). */
  lopsided: boolean;
}

/** The wealth transfer of a trade from one side's point of view. */
export function tradeValues(mine: readonly OfferItem[], theirs: readonly OfferItem[], items: ItemIndex): TradeValues {
  const myOfferValue = offerValue(mine, items);
  const theirOfferValue = offerValue(theirs, items);
  const hi = Math.max(myOfferValue, theirOfferValue);
  const lo = Math.min(myOfferValue, theirOfferValue);
  return {
    myOfferValue,
    theirOfferValue,
    difference: theirOfferValue - myOfferValue,
    lopsided: hi - lo >= LOPSIDED_MIN_DIFFERENCE && hi >= LOPSIDED_RATIO * lo,
  };
}
