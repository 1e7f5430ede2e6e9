import type { GameData } from "../../manifests/index.js";
import type { DuelLimits } from "../duel.js";
import type { TradeLimits } from "../trade.js";
import type { Rng } from "../types.js";
import { DuelBook } from "./duelBook.js";
import { TradeBook } from "./tradeBook.js";
import { WorldCore } from "./worldCore.js";

export interface WorldOptions {
  rng: Rng;
  /** Unique ids for ground items, deaths and trades. */
  newId: () => string;
  /** The trades' range, timeouts and request limits (TRADE_LIMITS when not given). */
  tradeLimits?: TradeLimits;
  /** The duels' range, timeouts, countdown and longest fight (DUEL_LIMITS when not given). */
  duelLimits?: DuelLimits;
  /** Does the player `playerId` ignore `fromId`? Their trade requests and duel challenges are not shown to them. */
  ignoring?: (playerId: string, fromId: string) => boolean;
}

/**
 * The whole simulated world of one shard: what WorldCore holds (entities, the tile map, the spatial
 * index and the bookkeeping the room reads after each tick), and the trades and duels between its
 * players. The rules that move it live beside it (setup, commands, systems); the world itself only holds.
 */
export class World extends WorldCore {
  /** The trades between the players of this world: a death or a leave ends them here. */
  readonly trades: TradeBook;
  /** The staked duels between the players of this world. */
  readonly duels: DuelBook;
  /** The world is stopping (callOff): no trade or duel opens any more. */
  stopping = false;

  constructor(data: GameData, options: WorldOptions) {
    super(data, options.rng, options.newId);
    this.trades = new TradeBook(this, () => `t_${options.newId()}`, options.tradeLimits, options.ignoring);
    this.duels = new DuelBook(this, () => `d_${options.newId()}`, options.duelLimits, options.ignoring);
  }

  /**
   * The world is stopping (a restart, a shutdown): what is half agreed is called off before anyone
   * is let go. Every trade and duel not already being committed or settled ends with
   * `server_shutdown` (fighters walk out, every stake and offer stays with its owner, nothing is
   * written for them), and from now on no trade or duel opens (SERVER_STOPPING). A commit or
   * settlement under way finishes: that was agreed. The room tells the players (its desks' flush).
   */
  callOff(message: string): void {
    this.stopping = true;
    this.trades.cancelAll("server_shutdown", message);
    this.duels.cancelAll(message);
  }
}
