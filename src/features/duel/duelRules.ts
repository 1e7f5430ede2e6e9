/**
 * Staked duels, pure: the rules two duellists agree on, what those rules forbid, the arena a duel
 * is fought in, and the settlement (the loser's stake goes to the winner, who keeps their own).
 *
 * Stakes are offers: `OfferItem[]` built and checked with trade.ts's `offerAdd`, `offerRemove` and
 * `checkOffer` (same slot, same item, enough of it, tradeable; quantities from 1 to MAX_STACK).
 * They stay in their owners' inventories, locked, until the settlement, so a duel that never
 * settles (a crash, a draw) leaves both stakes where they were by construction.
 *
 * Room: the winner keeps their own stake and receives the other's, so each duellist needs room for
 * the other's stake on top of everything they hold. `checkStakeRoom` checks both at the confirm
 * screen (and whenever the world lets a duellist add to their inventory during the duel). Should a
 * settlement still find no room, it is refused and nothing moves (each keeps their own stake).
 */
import type { DuelArena } from "./duelArenas.js";
import { DUEL_RULES, type DuelRule } from "../../protocol/vocabulary.js";
import type { ItemIndex } from "../../game/inventory.js";
import { checkOffer, planSwap, type OfferItem } from "../../game/trade.js";
import { GameError, type Inventory, type ItemStack } from "../../game/types.js";

export const DUEL_LIMITS = {
  /** Players must stand within this many tiles (Chebyshev) to challenge. */
  rangeTiles: 10,
  /** An unanswered challenge is cancelled after this long. */
  requestTimeoutMs: 30_000,
  /** A duel being set up (rules, stakes, confirm) with no activity is cancelled after this long. */
  idleTimeoutMs: 5 * 60_000,
  /** Ticks between arriving in the arena and the first blow. */
  countdownTicks: 3,
  /** The longest fight: after this many ticks it is a draw and nothing moves. */
  maxFightTicks: 1000,
};
export type DuelLimits = typeof DUEL_LIMITS;

/** Each rule, on when it forbids what it names. */
export type DuelRules = Record<DuelRule, boolean>;

/** What a duel rule can forbid. */
export type DuelAct = "melee" | "ranged" | "magic" | "prayer" | "food" | "movement" | "forfeit";

const RULE_OF: Record<DuelAct, DuelRule> = {
  melee: "noMelee",
  ranged: "noRanged",
  magic: "noMagic",
  prayer: "noPrayer",
  food: "noFood",
  movement: "noMovement",
  forfeit: "noForfeit",
};

const SENTENCE: Record<DuelAct, string> = {
  melee: "Melee is not allowed in this duel",
  ranged: "Ranged is not allowed in this duel",
  magic: "Magic is not allowed in this duel",
  prayer: "Prayer is not allowed in this duel",
  food: "Food is not allowed in this duel",
  movement: "Movement is not allowed in this duel",
  forfeit: "Forfeiting is not allowed in this duel",
};

/** Every rule off: anything goes. */
export function noRules(): DuelRules {
  return Object.fromEntries(DUEL_RULES.map((r) => [r, false])) as DuelRules;
}

export function isDuelRule(rule: unknown): rule is DuelRule {
  return typeof rule === "string" && (DUEL_RULES as readonly string[]).includes(rule);
}

/**
 * Turn one rule on or off; returns new rules. INVALID_RULE for an unknown rule or a non-boolean
 * `on`; INVALID_RULES when melee, ranged and magic would all be forbidden (no way left to fight).
 */
export function setRule(rules: DuelRules, rule: unknown, on: unknown): DuelRules {
  if (!isDuelRule(rule)) {
    throw new GameError("INVALID_RULE", `unknown duel rule ${JSON.stringify(rule) ?? String(rule)} (rules: ${DUEL_RULES.join(", ")})`);
  }
  if (typeof on !== "boolean") throw new GameError("INVALID_RULE", `rule ${rule} must be turned on or off with true or false`);
  const next = { ...rules, [rule]: on };
  if (next.noMelee && next.noRanged && next.noMagic) {
    throw new GameError("INVALID_RULES", "Melee, ranged and magic cannot all be forbidden: the duellists must be able to fight");
  }
  return next;
}

/** Throws DUEL_RULE when the rules forbid `act`. */
export function forbidden(rules: DuelRules, act: DuelAct): void {
  const rule = RULE_OF[act];
  if (!rule) throw new GameError("INVALID_RULE", `unknown duel action ${JSON.stringify(act) ?? String(act)}`);
  if (rules[rule]) throw new GameError("DUEL_RULE", SENTENCE[act]);
}

/** One duellist at the settlement: their inventory (stake still in it) and their stake. */
export interface DuelSide {
  inventory: Inventory;
  stake: readonly OfferItem[];
}

/** Both inventories after the settlement, and what the winner received. */
export interface Settlement {
  winner: Inventory;
  loser: Inventory;
  toWinner: ItemStack[];
}

/**
 * The loser's stake moves into the winner's inventory; the winner keeps their own. Both stakes are
 * re-validated like a trade's offers (OFFER_CHANGED or UNTRADEABLE when one no longer matches its
 * inventory). NoRoomError (side "initiator", the winner) when the winner cannot hold the stake:
 * the settlement is then refused and nothing moves.
 */
export function planSettlement(winner: DuelSide, loser: DuelSide, items: ItemIndex): Settlement {
  checkOffer(winner.stake, winner.inventory, items);
  const swap = planSwap({ inventory: winner.inventory, offer: [] }, { inventory: loser.inventory, offer: loser.stake }, items);
  return { winner: swap.initiator, loser: swap.recipient, toWinner: swap.toInitiator };
}

/**
 * Before the fight: whoever wins must be able to hold the other's stake on top of everything they
 * hold. Throws NoRoomError naming the side short of room ("initiator" for `a`, "recipient" for
 * `b`), or OFFER_CHANGED / UNTRADEABLE when a stake no longer matches its inventory.
 */
export function checkStakeRoom(a: DuelSide, b: DuelSide, items: ItemIndex): void {
  checkOffer(a.stake, a.inventory, items);
  checkOffer(b.stake, b.inventory, items);
  // a wins: a receives b's stake (NoRoomError "initiator"); b wins: b receives a's ("recipient").
  planSwap({ inventory: a.inventory, offer: [] }, { inventory: b.inventory, offer: b.stake }, items);
  planSwap({ inventory: a.inventory, offer: a.stake }, { inventory: b.inventory, offer: [] }, items);
}

/** The first arena, in the data's order, no duel is using, or null when all are busy. */
export function pickArena(arenas: readonly DuelArena[], busy: ReadonlySet<number>): DuelArena | null {
  return arenas.find((a) => !busy.has(a.id)) ?? null;
}
