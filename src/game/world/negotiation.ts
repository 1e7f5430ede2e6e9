import type { NegotiationCancelReason } from "../../protocol/index.js";
import { withinRange } from "../movement.js";
import type { OfferItem } from "../trade.js";
import { GameError } from "../types.js";
import type { PlayerEntity } from "./entities.js";
import { playerOf, type WorldCore } from "./worldCore.js";

/**
 * A negotiation between two players of one world, the mechanism a trade and a staked duel share:
 * one player asks another standing near; the one asked accepts or declines (asked back, the
 * request is answered); then both accept each of the kind's screens in turn, any change resetting
 * both acceptances; offered stacks stay in their owners' inventories, locked, until the kind
 * concludes (a trade's commit, a duel's fight and settlement); unanswered requests and idle screens
 * time out; a leave or a death cancels what is not yet concluded. Each kind (TradeBook, DuelBook)
 * gives its screens, its words and codes, and what both accepting the last screen does. Pure: the
 * kind's desk drains the events and does the I/O.
 */

/** One player's side of a negotiation. */
export interface NegotiationSide {
  playerId: string;
  name: string;
  accepted: boolean;
}

/** What every negotiation holds: its screen, when it began and last changed, and whether the one asked sees it. */
export interface NegotiationSession {
  id: string;
  screen: string;
  createdAt: number;
  lastActivityAt: number;
  /** The one asked ignores the asker: the request is not shown to them (it times out, unless they ask back). */
  hiddenFromTarget?: boolean;
}

/** What happened, for the kind to turn into its own event. */
export type NegotiationChange = "requested" | "opened" | "changed" | "advanced";

/** How a kind's refusals and cancellations read: what the players see. */
export interface NegotiationWords {
  /** A refusal that names the session (e.g. TradeError with its tradeId). */
  error(code: string, message: string, id?: string): GameError;
  /** The code of "already in one" (ALREADY_IN_TRADE, ALREADY_IN_DUEL). */
  busyCode: string;
  /** Asking oneself. */
  self: { code: string; message: string };
  /** No such session; a session the player is not in. */
  unknown: { code: string; message: string };
  notYours: { code: string; message: string };
  stopping: string;
  unavailable(name: string): string;
  tooFar(name: string, tiles: number): string;
  /** The player's own request is waiting; the player is in one; the target is in one. */
  waiting: string;
  busy: string;
  targetBusy(name: string): string;
  alreadyStarted: string;
  notStarted: string;
  onlyAsked: string;
  declined(name: string): string;
  /** The player accepted another (their own request withdrawn); a request to or from either party can no longer be answered. */
  tookAnother(name: string): string;
  otherTook: string;
  cancelled(name: string, withdrawingRequest: boolean): string;
  requestTimeout: string;
  idleTimeout: string;
}

/** What else a player may be busy with (a duel for a trade, a trade for a duel): the refusal it gives, if any. */
export type BusyElsewhere = (playerId: string) => { code: string; message: string } | undefined;

/** A world as a negotiation sees it: what WorldCore holds, and whether it is stopping. */
export type NegotiationWorld = WorldCore & { readonly stopping: boolean };

/** What every kind's limits include. */
export interface NegotiationLimits {
  rangeTiles: number;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
}

export abstract class Negotiations<S extends NegotiationSession, Side extends NegotiationSide, E, Reason extends string> {
  readonly sessions = new Map<string, S>();
  /** The one session each player is in: an open one or its own unanswered request. */
  private readonly busy = new Map<string, string>();
  private pending: E[] = [];

  /** The screens both players accept in turn, first to last. */
  protected abstract readonly screens: readonly string[];
  protected abstract readonly words: NegotiationWords;

  constructor(
    protected readonly world: NegotiationWorld,
    private readonly newId: () => string,
    readonly limits: NegotiationLimits,
    /** Does the player `playerId` ignore `fromId` (their requests are hidden from them)? */
    private readonly ignoring: (playerId: string, fromId: string) => boolean,
  ) {}

  /** The asker's side and the side of the one asked. */
  protected abstract sidesOf(s: S): [Side, Side];
  /** A new request from `from` to `target`. */
  protected abstract create(id: string, from: PlayerEntity, target: PlayerEntity, now: number): S;
  /** The kind's own event for a change, and for a cancellation. */
  protected abstract event(change: NegotiationChange, s: S): E;
  protected abstract cancelledEvent(s: S, reason: Reason | NegotiationCancelReason, message: string): E;
  /** The other kind the players may be busy with. */
  protected abstract busyElsewhere(): BusyElsewhere;
  /** Both accepted the session's screen: advance (nextScreen) or conclude. */
  protected abstract bothAccepted(s: S, now: number): void;
  /** The refusal of `act` once the screens are behind (concluding, or under way). */
  protected abstract pastScreens(s: S, act: "accept" | "cancel"): GameError;
  /** A player leaves or dies while the session is past its screens (a fight lost; a commit left to finish). */
  protected abstract goneMidway(s: S, playerId: string): void;
  /** Checks of the kind before a request is answered or made (a duel needs an arena). */
  protected beforeAsking(_from: PlayerEntity, _target: PlayerEntity): void {}
  /** Checks of the kind before a new request is made (a trade's repeat limit), and what it notes when made. */
  protected beforeNewRequest(_from: PlayerEntity, _target: PlayerEntity, _now: number): void {}

  drain(): E[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  protected tell(e: E): void {
    this.pending.push(e);
  }

  /** The session a player is in (open, concluding, or its own request), if any. */
  sessionOf(playerId: string): S | undefined {
    const id = this.busy.get(playerId);
    return id ? this.sessions.get(id) : undefined;
  }

  /** Ask a player standing near; asked back, the other's request is answered instead. */
  ask(fromId: string, targetId: string, now: number): S {
    const w = this.words;
    const from = playerOf(this.world, fromId);
    if (this.world.stopping) throw w.error("SERVER_STOPPING", w.stopping);
    if (targetId === fromId) throw w.error(w.self.code, w.self.message);
    const target = this.world.players.get(targetId);
    if (!target) throw w.error("PLAYER_OFFLINE", "That player is not online");
    const elsewhere = this.busyElsewhere();
    if (target.health <= 0 || elsewhere(targetId)) throw w.error("PLAYER_UNAVAILABLE", w.unavailable(target.name));
    const mineElsewhere = elsewhere(fromId);
    if (mineElsewhere) throw w.error(mineElsewhere.code, mineElsewhere.message);
    if (!withinRange(from.tile, target.tile, this.limits.rangeTiles)) throw w.error("TOO_FAR", w.tooFar(target.name, this.limits.rangeTiles));
    this.beforeAsking(from, target);
    const theirs = this.sessionOf(targetId);
    if (theirs?.screen === "requested") {
      const [asker, asked] = this.sidesOf(theirs);
      if (asker.playerId === targetId && asked.playerId === fromId) return this.respond(fromId, theirs.id, true, now);
    }
    this.beforeNewRequest(from, target, now);
    const mine = this.sessionOf(fromId);
    if (mine) throw w.error(w.busyCode, mine.screen === "requested" ? w.waiting : w.busy, mine.id);
    if (theirs && theirs.screen !== "requested") throw w.error(w.busyCode, w.targetBusy(target.name));
    const s = this.create(this.newId(), from, target, now);
    if (this.ignoring(target.id, from.id)) s.hiddenFromTarget = true;
    this.sessions.set(s.id, s);
    this.busy.set(from.id, s.id);
    this.tell(this.event("requested", s));
    return s;
  }

  /** The one asked accepts (the first screen opens) or declines. */
  respond(playerId: string, id: string, accept: boolean, now: number): S {
    const w = this.words;
    const s = this.sessionFor(playerId, id);
    if (s.screen !== "requested") throw w.error("INVALID_STATE", w.alreadyStarted, s.id);
    const [askerSide, askedSide] = this.sidesOf(s);
    if (askedSide.playerId !== playerId) throw w.error("INVALID_STATE", w.onlyAsked, s.id);
    if (!accept) return this.cancel(s, "declined", w.declined(askedSide.name));
    const asker = this.world.players.get(askerSide.playerId);
    const me = playerOf(this.world, playerId);
    if (!asker) throw w.error("PLAYER_OFFLINE", `${askerSide.name} is not online`, s.id);
    const elsewhere = this.busyElsewhere()(playerId);
    if (elsewhere) throw w.error(elsewhere.code, elsewhere.message, s.id);
    if (!withinRange(asker.tile, me.tile, this.limits.rangeTiles)) throw w.error("TOO_FAR", w.tooFar(asker.name, this.limits.rangeTiles), s.id);
    const other = this.sessionOf(playerId);
    if (other && other.id !== s.id) {
      if (other.screen !== "requested") throw w.error(w.busyCode, w.busy, s.id);
      // Answering a request withdraws the player's own unanswered one.
      this.cancel(other, "unavailable", w.tookAnother(me.name));
    }
    s.screen = this.screens[0];
    s.lastActivityAt = now;
    this.busy.set(playerId, s.id);
    this.tell(this.event("opened", s));
    // Requests still waiting on either player can no longer be answered.
    for (const r of [...this.sessions.values()]) {
      if (r.id === s.id || r.screen !== "requested") continue;
      if (this.sidesOf(r).some((side) => side.playerId === asker.id || side.playerId === me.id)) this.cancel(r, "unavailable", w.otherTook);
    }
    return s;
  }

  /** Accept the screen: once both have, the kind advances or concludes. */
  accept(playerId: string, id: string, now: number): S {
    const w = this.words;
    const s = this.sessionFor(playerId, id);
    if (s.screen === "requested") throw w.error("INVALID_STATE", w.notStarted, s.id);
    if (!this.screens.includes(s.screen)) throw this.pastScreens(s, "accept");
    const [mine, theirs] = this.mineAndTheirs(s, playerId);
    if (mine.accepted) throw w.error("ALREADY_ACCEPTED", "You have already accepted", s.id);
    mine.accepted = true;
    s.lastActivityAt = now;
    if (!theirs.accepted) this.tell(this.event("changed", s));
    else this.bothAccepted(s, now);
    return s;
  }

  /** Either player cancels, on any screen before the kind concludes. */
  cancelBy(playerId: string, id: string): S {
    const s = this.sessionFor(playerId, id);
    if (s.screen !== "requested" && !this.screens.includes(s.screen)) throw this.pastScreens(s, "cancel");
    const [mine] = this.mineAndTheirs(s, playerId);
    const withdrawing = s.screen === "requested" && this.sidesOf(s)[0] === mine;
    return this.cancel(s, "cancelled", this.words.cancelled(mine.name, withdrawing));
  }

  /** A player left the world or died: what is not concluded ends; what is past its screens is the kind's. */
  playerGone(playerId: string, reason: "disconnected" | "player_died"): void {
    for (const s of [...this.sessions.values()]) {
      const side = this.sidesOf(s).find((x) => x.playerId === playerId);
      if (!side || !this.sessions.has(s.id)) continue;
      if (s.screen === "requested" || this.screens.includes(s.screen)) this.cancel(s, reason, reason === "player_died" ? `${side.name} died` : `${side.name} left the world`);
      else this.goneMidway(s, playerId);
    }
  }

  /** Unanswered requests and idle screens time out (every tick). */
  expire(now: number): void {
    for (const s of [...this.sessions.values()]) {
      if (s.screen === "requested" && now - s.createdAt >= this.limits.requestTimeoutMs) this.cancel(s, "timeout", this.words.requestTimeout);
      else if (this.screens.includes(s.screen) && now - s.lastActivityAt >= this.limits.idleTimeoutMs) this.cancel(s, "timeout", this.words.idleTimeout);
    }
  }

  /** The session `id` of `playerId`: UNKNOWN (none) or NOT_YOURS (the player is not in it). */
  protected sessionFor(playerId: string, id: string): S {
    const w = this.words;
    const s = this.sessions.get(id);
    if (!s) throw w.error(w.unknown.code, w.unknown.message, id);
    if (!this.sidesOf(s).some((side) => side.playerId === playerId)) throw w.error(w.notYours.code, w.notYours.message, id);
    return s;
  }

  /** The player's side, then the other's. */
  protected mineAndTheirs(s: S, playerId: string): [Side, Side] {
    const [a, b] = this.sidesOf(s);
    return a.playerId === playerId ? [a, b] : [b, a];
  }

  /** Both players, as the world holds them (undefined where one has left). */
  protected parties(s: S): [PlayerEntity | undefined, PlayerEntity | undefined] {
    const [a, b] = this.sidesOf(s);
    return [this.world.players.get(a.playerId), this.world.players.get(b.playerId)];
  }

  /** Both accepted a screen that is not the last: both acceptances reset, the next screen opens. */
  protected nextScreen(s: S): void {
    this.resetAcceptances(s);
    s.screen = this.screens[this.screens.indexOf(s.screen) + 1];
    this.tell(this.event("advanced", s));
  }

  protected resetAcceptances(s: S): void {
    for (const side of this.sidesOf(s)) side.accepted = false;
  }

  /**
   * A player's offer changes (`change` gives the new one, or throws its refusal): its slots are
   * locked in the owner's inventory, both acceptances reset.
   */
  protected changeOffer(s: S, player: PlayerEntity, now: number, change: () => OfferItem[]): OfferItem[] {
    const offer = this.within(s, change);
    player.lockedSlots = new Set(offer.map((o) => o.inventorySlot));
    player.privateDirty = true;
    this.changed(s, now);
    return offer;
  }

  /** Something both agreed on changed: both acceptances reset. */
  protected changed(s: S, now: number): void {
    this.resetAcceptances(s);
    s.lastActivityAt = now;
    this.tell(this.event("changed", s));
  }

  /** Run a rule; its refusal names this session. */
  protected within<T>(s: S, fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof GameError && !this.namesSession(err)) throw this.words.error(err.code, err.message, s.id);
      throw err;
    }
  }

  /** Is this refusal already the kind's own (naming its session)? */
  protected abstract namesSession(err: GameError): boolean;

  protected cancel(s: S, reason: Reason | NegotiationCancelReason, message: string): S {
    this.close(s);
    this.tell(this.cancelledEvent(s, reason, message));
    return s;
  }

  /** The session ends: locks released, inventories unfrozen, both players free. */
  protected close(s: S): void {
    this.sessions.delete(s.id);
    for (const side of this.sidesOf(s)) {
      if (this.busy.get(side.playerId) === s.id) this.busy.delete(side.playerId);
      const p = this.world.players.get(side.playerId);
      if (!p || s.screen === "requested") continue;
      p.lockedSlots = new Set();
      p.inventoryFrozen = false;
      p.privateDirty = true;
    }
  }
}
