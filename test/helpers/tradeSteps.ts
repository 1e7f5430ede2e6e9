import assert from "node:assert/strict";
import type { Trader } from "./traders.js";

/** The steps of a trade, as both traders take them, over either protocol. */

/** The slot holding `itemId` in a player:sync, and what it holds. */
export const slotOf = (sync: any, itemId: string): number => sync.inventory.find((s: { itemId: string }) => s.itemId === itemId)?.slot;
export const countOf = (sync: any, itemId: string) => sync.inventory.filter((s: any) => s.itemId === itemId).reduce((n: number, s: any) => n + s.quantity, 0);

/** Open a trade between a and b (a asks, b accepts); resolves with the trade id once both have tradeStarted. */
export async function openTrade(a: Trader, b: Trader): Promise<string> {
  const ma = a.mark();
  const mb = b.mark();
  a.send("tradeRequest", { targetPlayerId: b.id });
  const incoming = await b.next("tradeIncoming", (d) => d.fromPlayerId === a.id, { since: mb });
  b.send("tradeRequestRespond", { tradeId: incoming.tradeId, accept: true });
  const [sa, sb] = await Promise.all([
    a.next("tradeStarted", (d) => d.tradeId === incoming.tradeId, { since: ma }),
    b.next("tradeStarted", (d) => d.tradeId === incoming.tradeId, { since: mb }),
  ]);
  assert.equal(sa.partnerId, b.id);
  assert.equal(sb.partnerId, a.id);
  return incoming.tradeId;
}

/** Both accept the current screen; resolves with what the given event brought each. */
export async function bothAccept(a: Trader, b: Trader, tradeId: string, event: string) {
  const ma = a.mark();
  const mb = b.mark();
  a.send("tradeAccept", { tradeId });
  await a.next("tradeUpdated", (d) => d.tradeId === tradeId && d.myOffer.accepted, { since: ma });
  b.send("tradeAccept", { tradeId });
  return Promise.all([a.next(event, (d) => d.tradeId === tradeId, { since: ma }), b.next(event, (d) => d.tradeId === tradeId, { since: mb })]);
}

export async function offer(t: Trader, tradeId: string, inventorySlot: number, quantity: number) {
  const m = t.mark();
  t.send("tradeAddItem", { tradeId, inventorySlot, quantity });
  return t.next("tradeUpdated", (d) => d.tradeId === tradeId && d.myOffer.items.some((i: any) => i.inventorySlot === inventorySlot), { since: m });
}
