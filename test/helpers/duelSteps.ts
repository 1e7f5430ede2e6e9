import assert from "node:assert/strict";
import type { Trader } from "./traders.js";

/** The steps of a duel, as both duellists take them, over either protocol (a Trader is any player). */

/** a challenges b, b accepts: resolves with the duel id once both see the rules screen. */
export async function openDuel(a: Trader, b: Trader): Promise<string> {
  const ma = a.mark();
  const mb = b.mark();
  a.send("duel:challenge", { targetPlayerId: b.id });
  const incoming = await b.next("duel:incoming", (d) => d.fromPlayerId === a.id, { since: mb });
  b.send("duel:respond", { duelId: incoming.duelId, accept: true });
  const [sa, sb] = await Promise.all([
    a.next("duel:screen", (d) => d.duelId === incoming.duelId && d.screen === "rules", { since: ma }),
    b.next("duel:screen", (d) => d.duelId === incoming.duelId && d.screen === "rules", { since: mb }),
  ]);
  assert.equal(sa.them.playerId, b.id);
  assert.equal(sb.them.playerId, a.id);
  return incoming.duelId;
}

/** Both accept the current screen; resolves with what `event` (matching `pred`) brought each. */
export async function bothAcceptDuel(a: Trader, b: Trader, duelId: string, event: string, pred: (d: any) => boolean = () => true) {
  const ma = a.mark();
  const mb = b.mark();
  a.send("duel:accept", { duelId });
  await a.next("duel:screen", (d) => d.duelId === duelId && d.me.accepted, { since: ma });
  b.send("duel:accept", { duelId });
  return Promise.all([
    a.next(event, (d) => d.duelId === duelId && pred(d), { since: ma }),
    b.next(event, (d) => d.duelId === duelId && pred(d), { since: mb }),
  ]);
}

/** Stake some of a slot; resolves with the screen showing it. */
export async function stake(t: Trader, duelId: string, inventorySlot: number, quantity: number) {
  const m = t.mark();
  t.send("duel:stake", { duelId, inventorySlot, quantity });
  return t.next("duel:screen", (d) => d.duelId === duelId && d.me.stake.some((s: any) => s.inventorySlot === inventorySlot), { since: m });
}

/** Through every screen (rules as given, the stakes), into the arena: resolves once both are told to fight. */
export async function duelToFight(a: Trader, b: Trader, stakes: { a?: [number, number]; b?: [number, number] }, rules: Record<string, boolean> = {}) {
  const duelId = await openDuel(a, b);
  for (const [rule, on] of Object.entries(rules)) {
    const m = a.mark();
    a.send("duel:rule", { duelId, rule, on });
    await a.next("duel:screen", (d) => d.duelId === duelId && d.rules[rule] === on, { since: m });
  }
  await bothAcceptDuel(a, b, duelId, "duel:screen", (d) => d.screen === "stakes");
  if (stakes.a) await stake(a, duelId, ...stakes.a);
  if (stakes.b) await stake(b, duelId, ...stakes.b);
  await bothAcceptDuel(a, b, duelId, "duel:screen", (d) => d.screen === "confirm");
  await bothAcceptDuel(a, b, duelId, "duel:countdown");
  const m = [a.mark(), b.mark()];
  await Promise.all([a.next("duel:fight", (d) => d.duelId === duelId, { since: m[0] }), b.next("duel:fight", (d) => d.duelId === duelId, { since: m[1] })]);
  return duelId;
}
