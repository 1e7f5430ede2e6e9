import type { DuelArena } from "./duelArenas.js";
import type { DuelCancelReason } from "../../protocol/index.js";
import type { DuelRules } from "./duelRules.js";
import type { OfferItem } from "../../game/trade.js";
import { GameError } from "../../game/types.js";
import type { NegotiationSession, NegotiationSide } from "../../game/world/negotiation.js";

/** A duel as the duel book keeps it: its screen, both sides, the rules, the arena, the result; and what it tells the desk. */

export type DuelScreen = "requested" | "rules" | "stakes" | "confirm" | "countdown" | "fighting" | "settling";
export type DuelEndOutcome = "win" | "forfeit" | "disconnect" | "draw";

export interface DuelSide extends NegotiationSide {
  stake: OfferItem[];
}

/** A duel: a negotiation's session (a hidden challenge is not shown to the challenged player), then its fight. */
export interface DuelSession extends NegotiationSession {
  screen: DuelScreen;
  challenger: DuelSide;
  opponent: DuelSide;
  rules: DuelRules;
  arena?: DuelArena;
  /** The tick the first blow may be struck, and the tick the fight is a draw. */
  fightFromTick?: number;
  drawAtTick?: number;
  result?: { winnerId: string; loserId: string; outcome: Exclude<DuelEndOutcome, "draw"> };
}

export type DuelEvent =
  | { kind: "requested"; duel: DuelSession }
  | { kind: "screen"; duel: DuelSession }
  | { kind: "countdown"; duel: DuelSession }
  | { kind: "fight"; duel: DuelSession }
  | { kind: "settle"; duel: DuelSession }
  /** `settled`: the settlement was written (a `duels` row); false for a draw or a settlement that failed. */
  | { kind: "ended"; duel: DuelSession; outcome: DuelEndOutcome; winnerId: string | null; received: OfferItem[]; settled: boolean; message: string }
  | { kind: "cancelled"; duel: DuelSession; reason: DuelCancelReason; message: string };

/** A refusal that belongs to a duel. */
export class DuelError extends GameError {
  constructor(
    code: string,
    message: string,
    readonly duelId?: string,
  ) {
    super(code, message);
  }
}
