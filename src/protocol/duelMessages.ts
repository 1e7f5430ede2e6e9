import type { DuelCancelReason } from "./codes.js";
import type { ItemStackView } from "./shapes.js";
import type { DuelRule } from "./vocabulary.js";

/** The duels' server → client messages (docs/PROTOCOL.md §11), part of ServerMessages. */

/** One duellist's side of a duel's screen. */
export interface DuelSideView {
  playerId: string;
  name: string;
  stake: Array<{ inventorySlot: number; itemId: string; quantity: number }>;
  /** The stake's worth by the items' values. */
  stakeValue: number;
  accepted: boolean;
}

export type DuelScreenName = "rules" | "stakes" | "confirm";

export interface DuelEvents {
  /** To the challenger. */
  "duel:requestSent": { duelId: string; targetPlayerId: string; targetName: string };
  /** To the challenged player. */
  "duel:incoming": { duelId: string; fromPlayerId: string; fromPlayerName: string };
  /** The duel's setup as it stands, to both, after every change: the screen, the rules, both sides. */
  "duel:screen": { duelId: string; screen: DuelScreenName; rules: Record<DuelRule, boolean>; me: DuelSideView; them: DuelSideView };
  /** Both are in the arena; the first blow may be struck in `ticks` ticks. */
  "duel:countdown": { duelId: string; arenaId: number; ticks: number; opponentId: string; rules: Record<DuelRule, boolean> };
  /** Fight. */
  "duel:fight": { duelId: string; opponentId: string };
  /**
   * The duel is over and settled: `winnerId` null for a draw; `received` the stake the winner took
   * (empty for the loser, a draw, or a settlement that could not be written: then nothing moved).
   * `settled`: the settlement was written (the duel has its history row); false for a draw, and for a
   * settlement that could not be written (both keep their own stakes). Followed by `player:sync`.
   */
  "duel:ended": {
    duelId: string;
    outcome: "win" | "forfeit" | "disconnect" | "draw";
    winnerId: string | null;
    received: ItemStackView[];
    settled: boolean;
    message: string;
  };
  "duel:cancelled": { duelId: string; reason: DuelCancelReason; message: string };
  /** The move was refused and changed nothing. */
  "duel:error": { code: string; message: string; duelId?: string };
}
