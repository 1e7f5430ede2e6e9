import type { TradeCancelReason } from "../../protocol/index.js";
import { NoRoomError, offerAdd, offerRemove, planSwap, TRADE_LIMITS, type OfferItem, type Swap, type TradeLimits } from "../trade.js";
import { GameError } from "../types.js";
import type { PlayerEntity } from "./entities.js";
import {
  Negotiations,
  type BusyElsewhere,
  type NegotiationChange,
  type NegotiationSession,
  type NegotiationSide,
  type NegotiationWords,
  type NegotiationWorld,
} from "./negotiation.js";
import { playerOf } from "./worldCore.js";

/**
 * Trade sessions between players of one world (`world.trades`), a negotiation (negotiation.ts) of
 * two screens: the offer screen, then the confirm screen, then the commit. Both accepting either
 * screen first checks that each side has room for what it would get. A death or a leave ends a
 * player's trade inside the rules (killPlayer, removePlayer). Pure: the room's trade desk drains the
 * events, tells the players, and runs the commit (a database transaction) when a `commit` event
 * asks for it, then calls `completed` or `failed`.
 */

export type TradeScreen = "requested" | "offer" | "confirm" | "committing";

export interface TradeSide extends NegotiationSide {
  items: OfferItem[];
}

/** A trade: a negotiation's session (a hidden request gets no tradeIncoming and no tradeCancelled). */
export interface TradeSession extends NegotiationSession {
  screen: TradeScreen;
  /** The player who asked. */
  initiator: TradeSide;
  /** The player asked. */
  recipient: TradeSide;
}

export type TradeEvent =
  | { kind: "requested"; trade: TradeSession }
  | { kind: "started"; trade: TradeSession }
  | { kind: "updated"; trade: TradeSession }
  | { kind: "confirm"; trade: TradeSession }
  | { kind: "commit"; trade: TradeSession; swap: Swap }
  | { kind: "completed"; trade: TradeSession; swap: Swap }
  | { kind: "cancelled"; trade: TradeSession; reason: TradeCancelReason; message: string };

/** A refusal that belongs to a trade (answered as tradeError with its tradeId). */
export class TradeError extends GameError {
  constructor(
    code: string,
    message: string,
    readonly tradeId?: string,
  ) {
    super(code, message);
  }
}

/** The world as its trades see it: a negotiation's world, and what else keeps a player busy (a feature's duel). */
type TradeWorld = NegotiationWorld & { busyWith(playerId: string): { code: string; message: string } | undefined };

const WORDS: NegotiationWords = {
  error: (code, message, id) => new TradeError(code, message, id),
  busyCode: "ALREADY_IN_TRADE",
  self: { code: "SELF_TRADE", message: "You can't trade with yourself" },
  unknown: { code: "UNKNOWN_TRADE", message: "There is no such trade" },
  notYours: { code: "NOT_YOUR_TRADE", message: "You are not in that trade" },
  stopping: "The server is shutting down: no new trades",
  unavailable: (name) => `${name} can't trade right now`,
  tooFar: (name, tiles) => `Stand within ${tiles} tiles of ${name} to trade`,
  waiting: "You are already waiting for an answer to a trade request",
  busy: "You are already trading",
  targetBusy: (name) => `${name} is already trading`,
  alreadyStarted: "The trade has already started",
  notStarted: "The trade has not started",
  onlyAsked: "Only the player asked can answer the request",
  declined: (name) => `${name} declined the trade`,
  tookAnother: (name) => `${name} started another trade`,
  otherTook: "That player started another trade",
  cancelled: (name, withdrawing) => (withdrawing ? `${name} withdrew the trade request` : `${name} cancelled the trade`),
  requestTimeout: "The trade request was not answered in time",
  idleTimeout: "The trade was idle for too long",
};

export class TradeBook extends Negotiations<TradeSession, TradeSide, TradeEvent, TradeCancelReason> {
  protected readonly screens = ["offer", "confirm"] as const;
  protected readonly words = WORDS;
  /** When each player last asked each other player (`from>to`). */
  private readonly lastAsked = new Map<string, number>();

  constructor(
    protected override readonly world: TradeWorld,
    newId: () => string,
    override readonly limits: TradeLimits = TRADE_LIMITS,
    ignoring: (playerId: string, fromId: string) => boolean = () => false,
  ) {
    super(world, newId, limits, ignoring);
  }

  /** The trade a player is in (open, committing, or its own request), if any. */
  tradeOf(playerId: string): TradeSession | undefined {
    return this.sessionOf(playerId);
  }

  /** tradeRequest: ask a player standing near to trade. */
  request(fromId: string, targetId: string, now: number): TradeSession {
    return this.ask(fromId, targetId, now);
  }

  /** tradeAddItem: offer more of an inventory slot (offer screen only); both acceptances reset. */
  addItem(playerId: string, tradeId: string, slot: unknown, quantity: unknown, now: number): TradeSession {
    const { trade, side, player } = this.offerScreen(playerId, tradeId);
    side.items = this.changeOffer(trade, player, now, () => offerAdd(side.items, player.inventory, slot, quantity, this.world.data.items));
    return trade;
  }

  /** tradeRemoveItem: take back some or all of an offered slot (offer screen only). */
  removeItem(playerId: string, tradeId: string, slot: unknown, quantity: unknown, now: number): TradeSession {
    const { trade, side, player } = this.offerScreen(playerId, tradeId);
    side.items = this.changeOffer(trade, player, now, () => offerRemove(side.items, slot, quantity));
    return trade;
  }

  /** The commit is written: the world takes the committed inventories. */
  completed(tradeId: string, swap: Swap): void {
    const trade = this.sessions.get(tradeId);
    if (!trade || trade.screen !== "committing") return;
    const [initiator, recipient] = this.parties(trade);
    if (initiator) initiator.inventory = swap.initiator;
    if (recipient) recipient.inventory = swap.recipient;
    for (const p of [initiator, recipient]) if (p) this.world.touchPlayer(p);
    this.close(trade);
    this.tell({ kind: "completed", trade, swap });
  }

  /** The commit failed: nothing changed; the trade is cancelled with the reason. */
  failed(tradeId: string, reason: TradeCancelReason, message: string): void {
    const trade = this.sessions.get(tradeId);
    if (trade) this.cancel(trade, reason, message);
  }

  /** Unanswered requests and idle trades time out (called every tick). */
  override expire(now: number): void {
    super.expire(now);
    for (const [key, at] of this.lastAsked) if (now - at >= this.limits.repeatRequestMs) this.lastAsked.delete(key);
  }

  /** Every trade not being committed ends (the world is stopping: World.callOff). */
  cancelAll(reason: TradeCancelReason, message: string): void {
    for (const trade of [...this.sessions.values()]) if (trade.screen !== "committing") this.cancel(trade, reason, message);
  }

  protected sidesOf(trade: TradeSession): [TradeSide, TradeSide] {
    return [trade.initiator, trade.recipient];
  }

  protected create(id: string, from: PlayerEntity, target: PlayerEntity, now: number): TradeSession {
    this.lastAsked.set(`${from.id}>${target.id}`, now);
    return {
      id,
      screen: "requested",
      initiator: { playerId: from.id, name: from.name, items: [], accepted: false },
      recipient: { playerId: target.id, name: target.name, items: [], accepted: false },
      createdAt: now,
      lastActivityAt: now,
    };
  }

  protected event(change: NegotiationChange, trade: TradeSession): TradeEvent {
    const kinds = { requested: "requested", opened: "started", changed: "updated", advanced: "confirm" } as const;
    return { kind: kinds[change], trade };
  }

  protected cancelledEvent(trade: TradeSession, reason: TradeCancelReason, message: string): TradeEvent {
    return { kind: "cancelled", trade, reason, message };
  }

  protected busyElsewhere(): BusyElsewhere {
    return (playerId) => this.world.busyWith(playerId);
  }

  /** A player may ask the same player again only after the repeat limit. */
  protected override beforeNewRequest(from: PlayerEntity, target: PlayerEntity, now: number): void {
    const last = this.lastAsked.get(`${from.id}>${target.id}`);
    if (last !== undefined && now - last < this.limits.repeatRequestMs) {
      throw new TradeError("RATE_LIMITED", `Wait ${Math.ceil((this.limits.repeatRequestMs - (now - last)) / 1000)} s before asking ${target.name} again`);
    }
  }

  /** Both accepted: the swap must fit; the offer screen then opens the confirm screen, the confirm screen the commit. */
  protected bothAccepted(trade: TradeSession): void {
    const swap = this.trySwap(trade);
    if (!swap) return;
    if (trade.screen === "offer") return this.nextScreen(trade);
    // Both accepted the confirm screen: freeze both inventories until the commit is done.
    trade.screen = "committing";
    for (const p of this.parties(trade)) if (p) p.inventoryFrozen = "trade";
    this.tell({ kind: "commit", trade, swap });
  }

  protected pastScreens(trade: TradeSession): GameError {
    return new TradeError("TRADE_COMPLETING", "The trade is being completed", trade.id);
  }

  /** A trade being committed is left to finish. */
  protected goneMidway(): void {}

  protected namesSession(err: GameError): boolean {
    return err instanceof TradeError;
  }

  private offerScreen(playerId: string, tradeId: string) {
    const trade = this.sessionFor(playerId, tradeId);
    if (trade.screen === "requested") throw new TradeError("INVALID_STATE", "The trade has not started", trade.id);
    if (trade.screen === "confirm") throw new TradeError("OFFER_LOCKED", "Offers can't change on the confirm screen", trade.id);
    if (trade.screen === "committing") throw new TradeError("TRADE_COMPLETING", "The trade is being completed", trade.id);
    const player = playerOf(this.world, playerId);
    const [side] = this.mineAndTheirs(trade, playerId);
    return { trade, side, player };
  }

  /** The swap both offers make, or the trade cancelled when a side has no room for it. */
  private trySwap(trade: TradeSession): Swap | undefined {
    const [initiator, recipient] = this.parties(trade);
    if (!initiator || !recipient) {
      this.cancel(trade, "disconnected", "Your trade partner left the world");
      return undefined;
    }
    try {
      return planSwap({ inventory: initiator.inventory, offer: trade.initiator.items }, { inventory: recipient.inventory, offer: trade.recipient.items }, this.world.data.items);
    } catch (err) {
      if (err instanceof NoRoomError) {
        const full = trade[err.side].name;
        this.cancel(trade, "inventory_full", `${full}'s inventory does not have enough space`);
        return undefined;
      }
      if (err instanceof GameError) {
        this.cancel(trade, "offer_changed", err.message);
        return undefined;
      }
      throw err;
    }
  }
}
