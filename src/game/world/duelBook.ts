import { inArena } from "../../manifests/duelArenas.js";
import type { DuelCancelReason } from "../../protocol/index.js";
import { checkStakeRoom, DUEL_LIMITS, forbidden, noRules, pickArena, setRule, type DuelAct, type DuelLimits, type DuelRules, type Settlement } from "../duel.js";
import { withinRange } from "../movement.js";
import { NoRoomError, offerAdd, offerRemove, planSwap } from "../trade.js";
import { GameError, type Inventory, type Tile } from "../types.js";
import { DuelError, type DuelEvent, type DuelScreen, type DuelSession, type DuelSide } from "./duelSession.js";
import type { PlayerEntity } from "./entities.js";
import { walkIn, walkOut } from "./duelArena.js";
import { playerOf, type WorldCore } from "./worldCore.js";

/**
 * Staked duels between players of one world (`world.duels`): the challenge, the rules screen, the
 * stakes screen and the confirm screen (each needs both acceptances; any change resets them, as a
 * trade's offer does), then the arena: a countdown, the fight under the rules, and the end — a
 * defeat, a forfeit, a leave, or a draw when the fight runs too long. Stakes stay in their owners'
 * inventories, locked, until the room's duel desk settles the duel in one transaction (the loser's
 * stake to the winner) and calls `settled`. A duel death is not a world death: both walk out of
 * the arena with full health. Pure: the desk drains the events and does the I/O.
 */

const SETUP: readonly DuelScreen[] = ["rules", "stakes", "confirm"];
const NEXT: Partial<Record<DuelScreen, DuelScreen>> = { rules: "stakes", stakes: "confirm" };

/** The world as its duels see it: what WorldCore holds, and who is in a trade (World's trade book). */
type DuelWorld = WorldCore & { readonly trades: { tradeOf(playerId: string): unknown }; readonly stopping: boolean };

export class DuelBook {
  readonly sessions = new Map<string, DuelSession>();
  private readonly busy = new Map<string, string>();
  private pending: DuelEvent[] = [];

  constructor(
    private readonly world: DuelWorld,
    private readonly newId: () => string,
    readonly limits: DuelLimits = DUEL_LIMITS,
    /** Does the player `playerId` ignore `fromId`? Their challenges are not shown to them (they time out). */
    private readonly ignoring: (playerId: string, fromId: string) => boolean = () => false,
  ) {}

  drain(): DuelEvent[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  /** The duel a player is in (its own challenge included), if any. */
  duelOf(playerId: string): DuelSession | undefined {
    const id = this.busy.get(playerId);
    return id ? this.sessions.get(id) : undefined;
  }

  /** The opponent a player may strike now (countdown over, fight on), if any. */
  opponentOf(playerId: string): string | undefined {
    const d = this.duelOf(playerId);
    if (d?.screen !== "fighting") return undefined;
    return d.challenger.playerId === playerId ? d.opponent.playerId : d.challenger.playerId;
  }

  /** In the arena (countdown or fight, until the duel is settled): npcs leave them be, pickups wait. */
  inArena(playerId: string): boolean {
    const s = this.duelOf(playerId)?.screen;
    return s === "countdown" || s === "fighting" || s === "settling";
  }

  /** Throws DUEL_RULE when the player's fight forbids `act` (nothing outside a fight). */
  assertAllowed(playerId: string, act: DuelAct): void {
    const d = this.duelOf(playerId);
    if (d && (d.screen === "countdown" || d.screen === "fighting")) forbidden(d.rules, act);
  }

  /**
   * A duellist in the arena keeps room for the other's stake (what winning brings): a change of
   * pack that would lose it (taking off a worn item) is refused.
   */
  assertRoomAfter(playerId: string, inventory: Inventory): void {
    const d = this.duelOf(playerId);
    if (!d || (d.screen !== "countdown" && d.screen !== "fighting")) return;
    const them = d.challenger.playerId === playerId ? d.opponent : d.challenger;
    const other = this.world.players.get(them.playerId);
    if (!other) return;
    try {
      planSwap({ inventory, offer: [] }, { inventory: other.inventory, offer: them.stake }, this.world.data.items);
    } catch (err) {
      if (err instanceof NoRoomError) throw new DuelError("INVENTORY_FULL", "Keep room in your pack for your opponent's stake", d.id);
      throw err;
    }
  }

  /** A move inside a fight stays in the arena (and is refused under noMovement). */
  assertMove(playerId: string, to: Tile): void {
    const d = this.duelOf(playerId);
    if (!d?.arena || (d.screen !== "countdown" && d.screen !== "fighting")) return;
    forbidden(d.rules, "movement");
    if (!inArena(d.arena, to)) throw new DuelError("DUEL_RULE", "You can't leave the arena during a duel", d.id);
  }

  /** duel:challenge: ask a player standing near to duel. Asked back, the challenge is answered. */
  challenge(fromId: string, targetId: string, now: number): DuelSession {
    const from = playerOf(this.world, fromId);
    if (this.world.stopping) throw new DuelError("SERVER_STOPPING", "The server is shutting down: no new duels");
    if (targetId === fromId) throw new DuelError("SELF_DUEL", "You can't duel yourself");
    const target = this.world.players.get(targetId);
    if (!target) throw new DuelError("PLAYER_OFFLINE", "That player is not online");
    if (target.health <= 0 || this.world.trades.tradeOf(targetId)) throw new DuelError("PLAYER_UNAVAILABLE", `${target.name} can't duel right now`);
    if (this.world.trades.tradeOf(fromId)) throw new DuelError("ALREADY_IN_TRADE", "Finish your trade first");
    if (!withinRange(from.tile, target.tile, this.limits.rangeTiles)) throw new DuelError("TOO_FAR", `Stand within ${this.limits.rangeTiles} tiles of ${target.name} to duel`);
    if (this.world.data.duelArenas.length === 0) throw new DuelError("NO_ARENA", "This world has no duel arena");
    const theirs = this.duelOf(targetId);
    if (theirs?.screen === "requested" && theirs.challenger.playerId === targetId && theirs.opponent.playerId === fromId) return this.respond(fromId, theirs.id, true, now);
    const mine = this.duelOf(fromId);
    if (mine) throw new DuelError("ALREADY_IN_DUEL", mine.screen === "requested" ? "You are already waiting for an answer to a challenge" : "You are already in a duel", mine.id);
    if (theirs && theirs.screen !== "requested") throw new DuelError("ALREADY_IN_DUEL", `${target.name} is already in a duel`);
    const duel: DuelSession = {
      id: this.newId(),
      screen: "requested",
      challenger: { playerId: from.id, name: from.name, stake: [], accepted: false },
      opponent: { playerId: target.id, name: target.name, stake: [], accepted: false },
      rules: noRules(),
      createdAt: now,
      lastActivityAt: now,
      ...(this.ignoring(target.id, from.id) ? { hiddenFromTarget: true } : {}),
    };
    this.sessions.set(duel.id, duel);
    this.busy.set(from.id, duel.id);
    this.pending.push({ kind: "requested", duel });
    return duel;
  }

  /** duel:respond: the challenged player accepts (the rules screen opens) or declines. */
  respond(playerId: string, duelId: string, accept: boolean, now: number): DuelSession {
    const duel = this.sessionFor(playerId, duelId);
    if (duel.screen !== "requested") throw new DuelError("INVALID_STATE", "The duel has already started", duel.id);
    if (duel.opponent.playerId !== playerId) throw new DuelError("INVALID_STATE", "Only the challenged player can answer", duel.id);
    if (!accept) return this.cancel(duel, "declined", `${duel.opponent.name} declined the duel`);
    const challenger = this.world.players.get(duel.challenger.playerId);
    const me = playerOf(this.world, playerId);
    if (!challenger) throw new DuelError("PLAYER_OFFLINE", `${duel.challenger.name} is not online`, duel.id);
    if (!withinRange(challenger.tile, me.tile, this.limits.rangeTiles)) {
      throw new DuelError("TOO_FAR", `Stand within ${this.limits.rangeTiles} tiles of ${challenger.name} to duel`, duel.id);
    }
    if (this.world.trades.tradeOf(playerId)) throw new DuelError("ALREADY_IN_TRADE", "Finish your trade first", duel.id);
    const other = this.duelOf(playerId);
    if (other && other.id !== duel.id) {
      if (other.screen !== "requested") throw new DuelError("ALREADY_IN_DUEL", "You are already in a duel", duel.id);
      this.cancel(other, "unavailable", `${me.name} accepted another duel`);
    }
    for (const s of [...this.sessions.values()]) {
      if (s.id !== duel.id && s.screen === "requested" && [s.challenger.playerId, s.opponent.playerId].some((id) => id === challenger.id || id === me.id)) {
        this.cancel(s, "unavailable", "That player accepted another duel");
      }
    }
    duel.screen = "rules";
    duel.lastActivityAt = now;
    this.busy.set(playerId, duel.id);
    this.pending.push({ kind: "screen", duel });
    return duel;
  }

  /** duel:rule: turn a rule on or off (rules screen only); both acceptances reset. */
  setRule(playerId: string, duelId: string, rule: unknown, on: unknown, now: number): DuelSession {
    const duel = this.onScreen(playerId, duelId, "rules");
    duel.rules = this.withDuel(duel, () => setRule(duel.rules, rule, on));
    this.changed(duel, now);
    return duel;
  }

  /** duel:stake / duel:unstake: stake more of a slot, or take some back (stakes screen only). */
  stake(playerId: string, duelId: string, slot: unknown, quantity: unknown, add: boolean, now: number): DuelSession {
    const duel = this.onScreen(playerId, duelId, "stakes");
    const side = this.sideOf(duel, playerId);
    const p = playerOf(this.world, playerId);
    side.stake = this.withDuel(duel, () => (add ? offerAdd(side.stake, p.inventory, slot, quantity, this.world.data.items) : offerRemove(side.stake, slot, quantity)));
    p.lockedSlots = new Set(side.stake.map((o) => o.inventorySlot));
    p.privateDirty = true;
    this.changed(duel, now);
    return duel;
  }

  /** duel:accept: both accepting a screen opens the next; both accepting the confirm screen starts the fight. */
  accept(playerId: string, duelId: string, now: number): DuelSession {
    const duel = this.sessionFor(playerId, duelId);
    if (!SETUP.includes(duel.screen)) throw new DuelError("INVALID_STATE", duel.screen === "requested" ? "The duel has not started" : "The duel is already under way", duel.id);
    const side = this.sideOf(duel, playerId);
    if (side.accepted) throw new DuelError("ALREADY_ACCEPTED", "You have already accepted", duel.id);
    side.accepted = true;
    duel.lastActivityAt = now;
    const other = side === duel.challenger ? duel.opponent : duel.challenger;
    if (other.accepted) {
      duel.challenger.accepted = duel.opponent.accepted = false;
      const next = NEXT[duel.screen];
      if (next) duel.screen = next;
      else return this.toArena(duel);
    }
    this.pending.push({ kind: "screen", duel });
    return duel;
  }

  /** duel:cancel: either player, before the arena. */
  cancelBy(playerId: string, duelId: string): DuelSession {
    const duel = this.sessionFor(playerId, duelId);
    if (!SETUP.includes(duel.screen) && duel.screen !== "requested") throw new DuelError("INVALID_STATE", "The fight has begun: forfeit instead", duel.id);
    return this.cancel(duel, "cancelled", `${this.sideOf(duel, playerId).name} cancelled the duel`);
  }

  /** duel:forfeit: give the fight up (unless the rules say no); the other wins. */
  forfeit(playerId: string, duelId: string): DuelSession {
    const duel = this.sessionFor(playerId, duelId);
    if (duel.screen !== "countdown" && duel.screen !== "fighting") throw new DuelError("INVALID_STATE", "There is no fight to forfeit", duel.id);
    this.withDuel(duel, () => forbidden(duel.rules, "forfeit"));
    return this.end(duel, playerId, "forfeit");
  }

  /** A duellist's health ran out in the fight: the other wins. */
  defeated(loserId: string): void {
    const duel = this.duelOf(loserId);
    if (duel?.screen === "fighting") this.end(duel, loserId, "win");
  }

  /** A player leaves the world (or dies elsewhere): a setup ends; a fight is lost. */
  playerGone(playerId: string, reason: "disconnected" | "player_died"): void {
    const duel = this.duelOf(playerId);
    if (duel) this.goneFrom(duel, playerId, reason);
    // Requests to this player that it never answered.
    for (const s of [...this.sessions.values()]) if (s.screen === "requested" && s.opponent.playerId === playerId) this.goneFrom(s, playerId, reason);
  }

  /** Every tick: timeouts of the setup, the countdown's end, a fight's draw. */
  tick(now: number, tick: number): void {
    for (const duel of [...this.sessions.values()]) {
      if (duel.screen === "requested" && now - duel.createdAt >= this.limits.requestTimeoutMs) this.cancel(duel, "timeout", "The challenge was not answered in time");
      else if (SETUP.includes(duel.screen) && now - duel.lastActivityAt >= this.limits.idleTimeoutMs) this.cancel(duel, "timeout", "The duel was idle for too long");
      else if (duel.screen === "countdown" && tick >= duel.fightFromTick!) {
        duel.screen = "fighting";
        this.pending.push({ kind: "fight", duel });
      } else if (duel.screen === "fighting" && tick >= duel.drawAtTick!) {
        walkOut(this.world, this.parties(duel));
        this.close(duel);
        this.pending.push({ kind: "ended", duel, outcome: "draw", winnerId: null, received: [], settled: false, message: "The fight ran too long: a draw, and both keep their stakes" });
      }
    }
  }

  /** The settlement is written: the world takes both inventories. */
  settled(duelId: string, settlement: Settlement): void {
    const duel = this.sessions.get(duelId);
    if (duel?.screen !== "settling" || !duel.result) return;
    const winner = this.world.players.get(duel.result.winnerId);
    const loser = this.world.players.get(duel.result.loserId);
    if (winner) winner.inventory = settlement.winner;
    if (loser) loser.inventory = settlement.loser;
    const loserSide = this.sideOf(duel, duel.result.loserId);
    this.close(duel);
    const winnerName = this.sideOf(duel, duel.result.winnerId).name;
    this.pending.push({ kind: "ended", duel, outcome: duel.result.outcome, winnerId: duel.result.winnerId, received: loserSide.stake, settled: true, message: `${winnerName} won the duel` });
  }

  /** The settlement was refused or failed: nothing moved, both keep their stakes. */
  settleFailed(duelId: string, message: string): void {
    const duel = this.sessions.get(duelId);
    if (duel?.screen !== "settling" || !duel.result) return;
    this.close(duel);
    this.pending.push({ kind: "ended", duel, outcome: duel.result.outcome, winnerId: duel.result.winnerId, received: [], settled: false, message });
  }

  /** Every duel not being settled is called off (the world is stopping: World.callOff): fighters walk out, both keep their stakes. */
  cancelAll(message: string): void {
    for (const duel of [...this.sessions.values()]) {
      if (duel.screen === "settling") continue;
      if (duel.screen === "countdown" || duel.screen === "fighting") walkOut(this.world, this.parties(duel));
      this.cancel(duel, "server_shutdown", message);
    }
  }

  private goneFrom(duel: DuelSession, playerId: string, reason: "disconnected" | "player_died") {
    if (duel.screen === "countdown" || duel.screen === "fighting") this.end(duel, playerId, "disconnect");
    else if (duel.screen !== "settling") {
      const who = this.sideOf(duel, playerId).name;
      this.cancel(duel, reason, reason === "player_died" ? `${who} died` : `${who} left the world`);
    }
  }

  /** Both confirmed: room for either outcome, a free arena, then both are moved in. */
  private toArena(duel: DuelSession): DuelSession {
    const [a, b] = this.parties(duel);
    if (!a || !b) return this.cancel(duel, "disconnected", "Your opponent left the world");
    try {
      checkStakeRoom({ inventory: a.inventory, stake: duel.challenger.stake }, { inventory: b.inventory, stake: duel.opponent.stake }, this.world.data.items);
    } catch (err) {
      if (err instanceof NoRoomError) return this.cancel(duel, "inventory_full", `${err.side === "initiator" ? a.name : b.name}'s inventory has no room for the other's stake`);
      if (err instanceof GameError) return this.cancel(duel, "stake_changed", err.message);
      throw err;
    }
    const busy = new Set([...this.sessions.values()].flatMap((s) => (s.arena ? [s.arena.id] : [])));
    const arena = pickArena(this.world.data.duelArenas, busy);
    if (!arena) return this.cancel(duel, "no_arena", "Every arena is in use; challenge again in a moment");
    duel.arena = arena;
    duel.screen = "countdown";
    duel.fightFromTick = this.world.tick + this.limits.countdownTicks;
    duel.drawAtTick = duel.fightFromTick + this.limits.maxFightTicks;
    walkIn(this.world, [a, b], arena, duel.rules);
    this.pending.push({ kind: "countdown", duel });
    return duel;
  }

  /** The fight is over: both walk out whole; the duel waits for its settlement. */
  private end(duel: DuelSession, loserId: string, outcome: "win" | "forfeit" | "disconnect"): DuelSession {
    const winnerId = duel.challenger.playerId === loserId ? duel.opponent.playerId : duel.challenger.playerId;
    duel.result = { winnerId, loserId, outcome };
    walkOut(this.world, this.parties(duel));
    duel.screen = "settling";
    for (const p of this.parties(duel)) if (p) p.inventoryFrozen = "duel";
    this.pending.push({ kind: "settle", duel });
    return duel;
  }

  private sessionFor(playerId: string, duelId: string): DuelSession {
    const duel = this.sessions.get(duelId);
    if (!duel) throw new DuelError("UNKNOWN_DUEL", "There is no such duel", duelId);
    if (duel.challenger.playerId !== playerId && duel.opponent.playerId !== playerId) throw new DuelError("NOT_YOUR_DUEL", "You are not in that duel", duelId);
    return duel;
  }

  private onScreen(playerId: string, duelId: string, screen: DuelScreen): DuelSession {
    const duel = this.sessionFor(playerId, duelId);
    if (duel.screen !== screen) throw new DuelError("INVALID_STATE", `That belongs to the ${screen} screen; the duel is on the ${duel.screen} screen`, duel.id);
    return duel;
  }

  private sideOf(duel: DuelSession, playerId: string): DuelSide {
    return duel.challenger.playerId === playerId ? duel.challenger : duel.opponent;
  }

  private parties(duel: DuelSession): [PlayerEntity | undefined, PlayerEntity | undefined] {
    return [this.world.players.get(duel.challenger.playerId), this.world.players.get(duel.opponent.playerId)];
  }

  private withDuel<T>(duel: DuelSession, fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof GameError && !(err instanceof DuelError)) throw new DuelError(err.code, err.message, duel.id);
      throw err;
    }
  }

  private changed(duel: DuelSession, now: number) {
    duel.challenger.accepted = duel.opponent.accepted = false;
    duel.lastActivityAt = now;
    this.pending.push({ kind: "screen", duel });
  }

  private cancel(duel: DuelSession, reason: DuelCancelReason, message: string): DuelSession {
    this.close(duel);
    this.pending.push({ kind: "cancelled", duel, reason, message });
    return duel;
  }

  /** The duel ends: locks released, inventories unfrozen, both free. */
  private close(duel: DuelSession) {
    this.sessions.delete(duel.id);
    for (const side of [duel.challenger, duel.opponent]) {
      if (this.busy.get(side.playerId) === duel.id) this.busy.delete(side.playerId);
      const p = this.world.players.get(side.playerId);
      if (!p || duel.screen === "requested") continue;
      p.lockedSlots = new Set();
      p.inventoryFrozen = false;
      p.privateDirty = true;
    }
  }
}
