import assert from "node:assert/strict";
import { checkStakeRoom, DUEL_LIMITS, forbidden, noRules, pickArena, planSettlement, setRule, type DuelAct } from "../../../src/features/duel/duelRules.js";
import { NoRoomError, offerAdd, offerRemove, type OfferItem } from "../../../src/game/trade.js";
import { MAX_STACK, type Inventory } from "../../../src/game/types.js";
import type { DuelArena } from "../../../src/features/duel/duelArenas.js";
import { DUEL_RULES } from "../../../src/protocol/vocabulary.js";
import { code, inv, item } from "../../game/fixtures.js";

const items = new Map([
  ["coins", item("coins", { stackable: true, value: 1 })],
  ["sword", item("sword", { value: 100 })],
  ["logs", item("logs", { value: 4 })],
  ["quest_key", item("quest_key", { tradeable: false })],
]);

const stake = (inventorySlot: number, itemId: string, quantity: number): OfferItem => ({ inventorySlot, itemId, quantity });

/** Every item id's total over the given inventories. */
function totals(...invs: Inventory[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of invs) for (const s of i) if (s) out[s.itemId] = (out[s.itemId] ?? 0) + s.quantity;
  return out;
}

/** 28 logs: no free slot. */
const full = (): Inventory => inv(Object.fromEntries(Array.from({ length: 28 }, (_, i) => [i, ["logs", 1]])) as Record<number, [string, number]>);

describe("duel rules", () => {
  it("limits: challenge range, request and idle timeouts, countdown and the longest fight", () => {
    assert.deepEqual(DUEL_LIMITS, { rangeTiles: 10, requestTimeoutMs: 30_000, idleTimeoutMs: 300_000, countdownTicks: 3, maxFightTicks: 1000 });
  });

  it("noRules: every rule of the vocabulary, off, in a fresh object each time", () => {
    const r = noRules();
    assert.deepEqual(r, { noMelee: false, noRanged: false, noMagic: false, noPrayer: false, noFood: false, noMovement: false, noForfeit: false });
    assert.deepEqual(Object.keys(r), [...DUEL_RULES]);
    assert.notEqual(noRules(), noRules());
  });

  it("setRule returns new rules and leaves the old ones as they were", () => {
    const before = noRules();
    const after = setRule(before, "noFood", true);
    assert.equal(after.noFood, true);
    assert.equal(before.noFood, false);
    assert.deepEqual(setRule(after, "noFood", false), noRules());
    assert.deepEqual(setRule(setRule(before, "noForfeit", true), "noMovement", true), { ...noRules(), noForfeit: true, noMovement: true });
  });

  it("setRule: an unknown rule or a non-boolean setting is INVALID_RULE", () => {
    for (const rule of ["noFun", "nomelee", "", 3, null, undefined, {}, ["noMelee"]]) {
      assert.throws(() => setRule(noRules(), rule, true), code("INVALID_RULE"), String(rule));
    }
    for (const on of ["true", 1, 0, null, undefined, {}]) assert.throws(() => setRule(noRules(), "noFood", on), code("INVALID_RULE"), String(on));
    assert.throws(() => setRule(noRules(), "noFun", true), /unknown duel rule "noFun" \(rules: noMelee, noRanged/);
  });

  it("setRule: melee, ranged and magic may not all be forbidden (INVALID_RULES), any two may", () => {
    const two = setRule(setRule(noRules(), "noMelee", true), "noRanged", true);
    assert.throws(() => setRule(two, "noMagic", true), code("INVALID_RULES"));
    assert.throws(() => setRule(two, "noMagic", true), /cannot all be forbidden/);
    assert.equal(two.noMagic, false, "the refused change is not applied");
    assert.equal(setRule(setRule(two, "noRanged", false), "noMagic", true).noMagic, true);
    // Turning one off is always allowed, even from rules that were forced into the invalid state.
    assert.equal(setRule({ ...two, noMagic: true }, "noMelee", false).noMelee, false);
  });

  it("forbidden: DUEL_RULE with a sentence when the rules forbid the act, nothing otherwise", () => {
    const acts: DuelAct[] = ["melee", "ranged", "magic", "prayer", "food", "movement", "forfeit"];
    for (const act of acts) forbidden(noRules(), act);
    const rules = setRule(setRule(noRules(), "noFood", true), "noForfeit", true);
    assert.throws(
      () => forbidden(rules, "food"),
      (e: Error) => code("DUEL_RULE")(e) && e.message === "Food is not allowed in this duel",
    );
    assert.throws(
      () => forbidden(rules, "forfeit"),
      (e: Error) => code("DUEL_RULE")(e) && e.message === "Forfeiting is not allowed in this duel",
    );
    for (const act of acts.filter((a) => a !== "food" && a !== "forfeit")) forbidden(rules, act);
    assert.throws(() => forbidden(setRule(noRules(), "noMelee", true), "melee"), /^GameError: Melee is not allowed in this duel$/);
    assert.throws(() => forbidden(noRules(), "dance" as DuelAct), code("INVALID_RULE"));
  });
});

describe("duel stakes (trade.ts's offers)", () => {
  const held = inv({ 0: ["coins", 500], 1: ["sword", 1], 2: ["quest_key", 1] });

  it("are built like a trade's offer, and refuse huge, negative and non-number quantities", () => {
    let s = offerAdd([], held, 0, 200, items);
    s = offerAdd(s, held, 1, 1, items);
    assert.deepEqual(s, [stake(0, "coins", 200), stake(1, "sword", 1)]);
    assert.deepEqual(offerRemove(s, 0, 50), [stake(0, "coins", 150), stake(1, "sword", 1)]);
    for (const q of [-1, 0, 501, MAX_STACK + 1, Number.MAX_SAFE_INTEGER * 2, 1.5, "5", null]) {
      assert.throws(() => offerAdd([], held, 0, q, items), code("INVALID_QUANTITY"), String(q));
    }
    assert.throws(() => offerAdd([], held, 2, 1, items), code("UNTRADEABLE"));
    assert.throws(() => offerAdd([], held, "1", 1, items), code("INVALID_SLOT"));
  });
});

describe("duel settlement", () => {
  const winner = { inventory: inv({ 0: ["coins", 100], 1: ["sword", 1] }), stake: [stake(0, "coins", 50)] };
  const loser = { inventory: inv({ 0: ["logs", 1], 2: ["coins", 30], 5: ["sword", 1] }), stake: [stake(2, "coins", 30), stake(5, "sword", 1)] };

  it("moves exactly the loser's stake to the winner, who keeps their own", () => {
    const s = planSettlement(winner, loser, items);
    assert.deepEqual(s.winner, inv({ 0: ["coins", 130], 1: ["sword", 1], 2: ["sword", 1] }));
    assert.deepEqual(s.loser, inv({ 0: ["logs", 1] }));
    assert.deepEqual(s.toWinner, [
      { itemId: "coins", quantity: 30 },
      { itemId: "sword", quantity: 1 },
    ]);
    assert.deepEqual(totals(s.winner, s.loser), totals(winner.inventory, loser.inventory));
    assert.deepEqual(winner.inventory, inv({ 0: ["coins", 100], 1: ["sword", 1] }), "inputs untouched");
  });

  it("a loser who staked nothing gives nothing", () => {
    const s = planSettlement(winner, { inventory: loser.inventory, stake: [] }, items);
    assert.deepEqual([s.winner, s.loser, s.toWinner], [winner.inventory, loser.inventory, []]);
  });

  it("re-validates both stakes: a changed or untradeable stake is refused", () => {
    assert.throws(() => planSettlement(winner, { ...loser, inventory: inv({ 2: ["coins", 29], 5: ["sword", 1] }) }, items), code("OFFER_CHANGED"));
    assert.throws(() => planSettlement(winner, { ...loser, inventory: inv({ 2: ["coins", 30], 6: ["sword", 1] }) }, items), code("OFFER_CHANGED"));
    assert.throws(() => planSettlement({ ...winner, inventory: inv({ 0: ["coins", 49] }) }, loser, items), code("OFFER_CHANGED"));
    assert.throws(() => planSettlement(winner, { inventory: inv({ 0: ["quest_key", 1] }), stake: [stake(0, "quest_key", 1)] }, items), code("UNTRADEABLE"));
    assert.throws(() => planSettlement(winner, { ...loser, stake: [stake(2, "coins", -3)] }, items), code("INVALID_QUANTITY"));
  });

  it("a winner without room: NoRoomError on the winner's side (initiator), nothing planned", () => {
    assert.throws(
      () => planSettlement({ inventory: full(), stake: [] }, loser, items),
      (e: unknown) => e instanceof NoRoomError && e.side === "initiator" && e.code === "INVENTORY_FULL",
    );
    // Coins merge into a stack the winner already holds: no free slot needed.
    const merged = planSettlement(
      { inventory: [{ itemId: "coins", quantity: 1 }, ...full().slice(1)], stake: [] },
      { ...loser, stake: [stake(2, "coins", 30)] },
      items,
    );
    assert.deepEqual(merged.winner[0], { itemId: "coins", quantity: 31 });
  });

  it("checkStakeRoom: whoever wins must hold the other's stake on top of their own", () => {
    checkStakeRoom(winner, loser, items);
    const crammed = { inventory: full(), stake: [stake(0, "logs", 1)] };
    const sword = { inventory: inv({ 0: ["sword", 1] }), stake: [stake(0, "sword", 1)] };
    // The crammed side keeps its own stake if it wins: staking a slot frees no room.
    assert.throws(
      () => checkStakeRoom(crammed, sword, items),
      (e: unknown) => e instanceof NoRoomError && e.side === "initiator",
    );
    assert.throws(
      () => checkStakeRoom(sword, crammed, items),
      (e: unknown) => e instanceof NoRoomError && e.side === "recipient",
    );
    checkStakeRoom(crammed, { inventory: sword.inventory, stake: [] }, items);
    assert.throws(() => checkStakeRoom(sword, { ...crammed, stake: [stake(0, "logs", 2)] }, items), code("OFFER_CHANGED"));
  });
});

describe("duel arenas", () => {
  const arena = (id: number): DuelArena => ({
    id,
    center: { x: id * 40, z: 0 },
    size: 16,
    spawnPoints: [
      { x: id * 40 - 4, z: 0 },
      { x: id * 40 + 4, z: 0 },
    ],
    trapdoors: [],
    raw: {},
  });
  const arenas = [arena(1), arena(2), arena(3)];

  it("pickArena: the first arena not busy, or null when all are", () => {
    assert.equal(pickArena(arenas, new Set())?.id, 1);
    assert.equal(pickArena(arenas, new Set([1]))?.id, 2);
    assert.equal(pickArena(arenas, new Set([1, 2]))?.id, 3);
    assert.equal(pickArena(arenas, new Set([2]))?.id, 1);
    assert.equal(pickArena(arenas, new Set([1, 2, 3])), null);
    assert.equal(pickArena([], new Set()), null);
  });
});
