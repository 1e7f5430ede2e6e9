import type { TradeCancelReason } from "../../protocol/index.js";
import { NoRoomError, offerAdd, offerRemove, planSwap, TRADE_LIMITS, type OfferItem, type Swap, type TradeLimits } from "../trade.js";
import { withinRange } from "../movement.js";
import { GameError } from "../types.js";
import type { PlayerEntity } from "./entities.js";
import { playerOf, type WorldCore } from "./worldCore.js";

/**
 * Trade sessions between players of one world (`world.trades`): the state machine of
 * docs/PROTOCOL.md (request, offer screen, confirm screen, commit), offered slots locked in the
 * owners' inventories (locked and unlocked here alone), and the timeouts. A death or a leave ends a
 * player's trade inside the rules (killPlayer, removePlayer). Pure: the room's trade desk drains the
 * events, tells the players, and runs the commit (a database transaction) when a `commit` event
 * asks for it, then calls `completed` or `failed`.
 */

export type TradeScreen = "requested" | "offer" | "confirm" | "committing";

export interface TradeSide {
  playerId: string;
  name: string;
  items: OfferItem[];
  accepted: boolean;
}

export interface TradeSession {
  id: string;
  screen: TradeScreen;
  /** The player who asked. */
  initiator: TradeSide;
  /** The player asked. */
  recipient: TradeSide;
  createdAt: number;
  lastActivityAt: number;
  /**
   * The asked player ignores the asker: the request is not shown to them (no tradeIncoming, no
   * tradeCancelled); the asker sees an ordinary request that times out, unless the asked player
   * asks back, which opens the trade as for any mutual request.
   */
  hiddenFromTarget?: boolean;
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

/** The world as its trades see it: what WorldCore holds, and who is in a duel (World's duel book). */
type TradeWorld = WorldCore & { readonly duels: { duelOf(playerId: string): unknown }; readonly stopping: boolean };

export class TradeBook {
  readonly sessions = new Map<string, TradeSession>();
  /** The one trade each player is in: an open trade or its own unanswered request. */
  private readonly busy = new Map<string, string>();
  /** When each player last asked each other player (`from>to`). */
  private readonly lastAsked = new Map<string, number>();
  private pending: TradeEvent[] = [];

  constructor(
    private readonly world: TradeWorld,
    private readonly newId: () => string,
    readonly limits: TradeLimits = TRADE_LIMITS,
    /** Does the player `playerId` ignore `fromId` (their trade requests are hidden from them)? */
    private readonly ignoring: (playerId: string, fromId: string) => boolean = () => false,
  ) {}

  drain(): TradeEvent[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  /** The trade a player is in (open, committing, or its own request), if any. */
  tradeOf(playerId: string): TradeSession | undefined {
    const id = this.busy.get(playerId);
    return id ? this.sessions.get(id) : undefined;
  }

  /** tradeRequest: ask a player standing near to trade. */
  request(fromId: string, targetId: string, now: number): TradeSession {
    const from = playerOf(this.world, fromId);
    if (this.world.stopping) throw new TradeError("SERVER_STOPPING", "The server is shutting down: no new trades");
    if (targetId === fromId) throw new TradeError("SELF_TRADE", "You can't trade with yourself");
    const target = this.world.players.get(targetId);
    if (!target) throw new TradeError("PLAYER_OFFLINE", "That player is not online");
    if (target.health <= 0 || this.world.duels.duelOf(targetId)) throw new TradeError("PLAYER_UNAVAILABLE", `${target.name} can't trade right now`);
    if (this.world.duels.duelOf(fromId)) throw new TradeError("IN_DUEL", "Finish your duel first");
    if (!withinRange(from.tile, target.tile, this.limits.rangeTiles)) throw new TradeError("TOO_FAR", `Stand within ${this.limits.rangeTiles} tiles of ${target.name} to trade`);

    // Both asked each other: the second request answers the first.
    const theirs = this.tradeOf(targetId);
    if (theirs && theirs.screen === "requested" && theirs.initiator.playerId === targetId && theirs.recipient.playerId === fromId) {
      this.respond(fromId, theirs.id, true, now);
      return theirs;
    }
    const key = `${fromId}>${targetId}`;
    const last = this.lastAsked.get(key);
    if (last !== undefined && now - last < this.limits.repeatRequestMs) {
      throw new TradeError("RATE_LIMITED", `Wait ${Math.ceil((this.limits.repeatRequestMs - (now - last)) / 1000)} s before asking ${target.name} again`);
    }
    const mine = this.tradeOf(fromId);
    if (mine) throw new TradeError("ALREADY_IN_TRADE", mine.screen === "requested" ? "You are already waiting for an answer to a trade request" : "You are already trading", mine.id);
    const targets = this.tradeOf(targetId);
    if (targets && targets.screen !== "requested") throw new TradeError("ALREADY_IN_TRADE", `${target.name} is already trading`);

    this.lastAsked.set(key, now);
    const trade: TradeSession = {
      id: this.newId(),
      screen: "requested",
      initiator: { playerId: from.id, name: from.name, items: [], accepted: false },
      recipient: { playerId: target.id, name: target.name, items: [], accepted: false },
      createdAt: now,
      lastActivityAt: now,
      ...(this.ignoring(target.id, from.id) ? { hiddenFromTarget: true } : {}),
    };
    this.sessions.set(trade.id, trade);
    this.busy.set(from.id, trade.id);
    this.pending.push({ kind: "requested", trade });
    return trade;
  }

  /** tradeRequestRespond: the asked player accepts (the offer screen opens) or declines. */
  respond(playerId: string, tradeId: string, accept: boolean, now: number): TradeSession {
    const trade = this.sessionFor(playerId, tradeId);
    if (trade.screen !== "requested") throw new TradeError("INVALID_STATE", "The trade has already started", trade.id);
    if (trade.recipient.playerId !== playerId) throw new TradeError("INVALID_STATE", "Only the player asked can answer the request", trade.id);
    if (!accept) {
      this.cancel(trade, "declined", `${trade.recipient.name} declined the trade`);
      return trade;
    }
    const asker = this.world.players.get(trade.initiator.playerId);
    const me = playerOf(this.world, playerId);
    if (!asker) throw new TradeError("PLAYER_OFFLINE", `${trade.initiator.name} is not online`, trade.id);
    if (this.world.duels.duelOf(playerId)) throw new TradeError("IN_DUEL", "Finish your duel first", trade.id);
    if (!withinRange(asker.tile, me.tile, this.limits.rangeTiles)) throw new TradeError("TOO_FAR", `Stand within ${this.limits.rangeTiles} tiles of ${asker.name} to trade`, trade.id);
    const other = this.tradeOf(playerId);
    if (other && other.id !== trade.id) {
      if (other.screen !== "requested") throw new TradeError("ALREADY_IN_TRADE", "You are already trading", trade.id);
      // Answering a request withdraws the player's own unanswered request.
      this.cancel(other, "unavailable", `${me.name} started another trade`);
    }
    trade.screen = "offer";
    trade.lastActivityAt = now;
    this.busy.set(playerId, trade.id);
    this.pending.push({ kind: "started", trade });
    // Requests still waiting on either player can no longer be answered.
    for (const s of [...this.sessions.values()]) {
      if (s.screen === "requested" && s.id !== trade.id && [s.initiator.playerId, s.recipient.playerId].some((id) => id === trade.initiator.playerId || id === trade.recipient.playerId)) {
        this.cancel(s, "unavailable", "That player started another trade");
      }
    }
    return trade;
  }

  /** tradeAddItem: offer more of an inventory slot (offer screen only); both acceptances reset. */
  addItem(playerId: string, tradeId: string, slot: unknown, quantity: unknown, now: number): TradeSession {
    const { trade, side, player } = this.offerScreen(playerId, tradeId);
    side.items = this.withTrade(trade, () => offerAdd(side.items, player.inventory, slot, quantity, this.world.data.items));
    this.offerChanged(trade, side, player, now);
    return trade;
  }

  /** tradeRemoveItem: take back some or all of an offered slot (offer screen only). */
  removeItem(playerId: string, tradeId: string, slot: unknown, quantity: unknown, now: number): TradeSession {
    const { trade, side, player } = this.offerScreen(playerId, tradeId);
    side.items = this.withTrade(trade, () => offerRemove(side.items, slot, quantity));
    this.offerChanged(trade, side, player, now);
    return trade;
  }

  /** tradeAccept: on the offer screen both accepting opens the confirm screen; on the confirm screen, the commit. */
  accept(playerId: string, tradeId: string, now: number): TradeSession {
    const trade = this.sessionFor(playerId, tradeId);
    if (trade.screen === "requested") throw new TradeError("INVALID_STATE", "The trade has not started", trade.id);
    if (trade.screen === "committing") throw new TradeError("TRADE_COMPLETING", "The trade is being completed", trade.id);
    const side = this.sideOf(trade, playerId);
    if (side.accepted) throw new TradeError("ALREADY_ACCEPTED", "You have already accepted", trade.id);
    side.accepted = true;
    trade.lastActivityAt = now;
    const other = side === trade.initiator ? trade.recipient : trade.initiator;
    if (!other.accepted) {
      this.pending.push({ kind: "updated", trade });
      return trade;
    }
    const swap = this.trySwap(trade);
    if (!swap) return trade;
    if (trade.screen === "offer") {
      trade.initiator.accepted = trade.recipient.accepted = false;
      trade.screen = "confirm";
      this.pending.push({ kind: "confirm", trade });
      return trade;
    }
    // Both accepted the confirm screen: freeze both inventories until the commit is done.
    trade.screen = "committing";
    for (const p of this.partiesOf(trade)) if (p) p.inventoryFrozen = "trade";
    this.pending.push({ kind: "commit", trade, swap });
    return trade;
  }

  /** tradeCancel: either player, on any screen before the commit. */
  cancelBy(playerId: string, tradeId: string): TradeSession {
    const trade = this.sessionFor(playerId, tradeId);
    if (trade.screen === "committing") throw new TradeError("TRADE_COMPLETING", "The trade is being completed", trade.id);
    const side = this.sideOf(trade, playerId);
    this.cancel(trade, "cancelled", trade.screen === "requested" && side === trade.initiator ? `${side.name} withdrew the trade request` : `${side.name} cancelled the trade`);
    return trade;
  }

  /** The commit is written: the world takes the committed inventories. */
  completed(tradeId: string, swap: Swap): void {
    const trade = this.sessions.get(tradeId);
    if (!trade || trade.screen !== "committing") return;
    const [initiator, recipient] = this.partiesOf(trade);
    if (initiator) initiator.inventory = swap.initiator;
    if (recipient) recipient.inventory = swap.recipient;
    for (const p of [initiator, recipient]) if (p) this.world.touchPlayer(p);
    this.close(trade);
    this.pending.push({ kind: "completed", trade, swap });
  }

  /** The commit failed: nothing changed; the trade is cancelled with the reason. */
  failed(tradeId: string, reason: TradeCancelReason, message: string): void {
    const trade = this.sessions.get(tradeId);
    if (!trade) return;
    this.cancel(trade, reason, message);
  }

  /** A player left the world or died: their trades end (a trade being committed is left to finish). */
  playerGone(playerId: string, reason: "disconnected" | "player_died"): void {
    for (const trade of [...this.sessions.values()]) {
      if (trade.screen === "committing" || (trade.initiator.playerId !== playerId && trade.recipient.playerId !== playerId)) continue;
      const who = trade.initiator.playerId === playerId ? trade.initiator.name : trade.recipient.name;
      this.cancel(trade, reason, reason === "player_died" ? `${who} died` : `${who} left the world`);
    }
  }

  /** Unanswered requests and idle trades time out (called every tick). */
  expire(now: number): void {
    for (const trade of [...this.sessions.values()]) {
      if (trade.screen === "requested" && now - trade.createdAt >= this.limits.requestTimeoutMs) {
        this.cancel(trade, "timeout", "The trade request was not answered in time");
      } else if ((trade.screen === "offer" || trade.screen === "confirm") && now - trade.lastActivityAt >= this.limits.idleTimeoutMs) {
        this.cancel(trade, "timeout", "The trade was idle for too long");
      }
    }
    for (const [key, at] of this.lastAsked) if (now - at >= this.limits.repeatRequestMs) this.lastAsked.delete(key);
  }

  /** Every trade not being committed ends (the world is stopping: World.callOff). */
  cancelAll(reason: TradeCancelReason, message: string): void {
    for (const trade of [...this.sessions.values()]) if (trade.screen !== "committing") this.cancel(trade, reason, message);
  }

  private sessionFor(playerId: string, tradeId: string): TradeSession {
    const trade = this.sessions.get(tradeId);
    if (!trade) throw new TradeError("UNKNOWN_TRADE", "There is no such trade", tradeId);
    if (trade.initiator.playerId !== playerId && trade.recipient.playerId !== playerId) throw new TradeError("NOT_YOUR_TRADE", "You are not in that trade", tradeId);
    return trade;
  }

  private sideOf(trade: TradeSession, playerId: string): TradeSide {
    return trade.initiator.playerId === playerId ? trade.initiator : trade.recipient;
  }

  private partiesOf(trade: TradeSession): [PlayerEntity | undefined, PlayerEntity | undefined] {
    return [this.world.players.get(trade.initiator.playerId), this.world.players.get(trade.recipient.playerId)];
  }

  private offerScreen(playerId: string, tradeId: string) {
    const trade = this.sessionFor(playerId, tradeId);
    if (trade.screen === "requested") throw new TradeError("INVALID_STATE", "The trade has not started", trade.id);
    if (trade.screen === "confirm") throw new TradeError("OFFER_LOCKED", "Offers can't change on the confirm screen", trade.id);
    if (trade.screen === "committing") throw new TradeError("TRADE_COMPLETING", "The trade is being completed", trade.id);
    const player = playerOf(this.world, playerId);
    return { trade, side: this.sideOf(trade, playerId), player };
  }

  /** Run an offer rule; its refusal belongs to this trade. */
  private withTrade<T>(trade: TradeSession, fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof GameError && !(err instanceof TradeError)) throw new TradeError(err.code, err.message, trade.id);
      throw err;
    }
  }

  private offerChanged(trade: TradeSession, side: TradeSide, player: PlayerEntity, now: number) {
    player.lockedSlots = new Set(side.items.map((o) => o.inventorySlot));
    player.privateDirty = true;
    trade.initiator.accepted = trade.recipient.accepted = false;
    trade.lastActivityAt = now;
    this.pending.push({ kind: "updated", trade });
  }

  /** The swap both offers make, or the trade cancelled when a side has no room for it. */
  private trySwap(trade: TradeSession): Swap | undefined {
    const [initiator, recipient] = this.partiesOf(trade);
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

  private cancel(trade: TradeSession, reason: TradeCancelReason, message: string) {
    this.close(trade);
    this.pending.push({ kind: "cancelled", trade, reason, message });
  }

  /** The session ends: locks released, inventories unfrozen, both players free. */
  private close(trade: TradeSession) {
    this.sessions.delete(trade.id);
    for (const side of [trade.initiator, trade.recipient]) {
      if (this.busy.get(side.playerId) === trade.id) this.busy.delete(side.playerId);
      const p = this.world.players.get(side.playerId);
      if (!p || trade.screen === "requested") continue;
      p.lockedSlots = new Set();
      p.inventoryFrozen = false;
      p.privateDirty = true;
    }
  }
}
