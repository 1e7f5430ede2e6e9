import { arenasOf, inArena } from "./duelArenas.js";
import type { DuelCancelReason } from "../../protocol/index.js";
import { checkStakeRoom, DUEL_LIMITS, forbidden, noRules, pickArena, setRule, type DuelAct, type DuelLimits, type Settlement } from "./duelRules.js";
import { NoRoomError, offerAdd, offerRemove, planSwap } from "../../game/trade.js";
import { GameError, type Inventory, type Tile } from "../../game/types.js";
import { DuelError, type DuelEvent, type DuelScreen, type DuelSession, type DuelSide } from "./duelSession.js";
import type { PlayerEntity } from "../../game/world/entities.js";
import { walkIn, walkOut } from "./duelArena.js";
import { Negotiations, type BusyElsewhere, type NegotiationChange, type NegotiationWords, type NegotiationWorld } from "../../game/world/negotiation.js";
import { playerOf } from "../../game/world/worldCore.js";

/**
 * Staked duels between players of one world (duelsOf(world)), a negotiation (negotiation.ts) of
 * three screens: the rules, the stakes and the confirm screen; then the arena: a countdown, the
 * fight under the rules, and the end — a defeat, a forfeit, a leave, or a draw when the fight runs
 * too long. Stakes stay in their owners'
 * inventories, locked, until the room's duel desk settles the duel in one transaction (the loser's
 * stake to the winner) and calls `settled`. A duel death is not a world death: both walk out of
 * the arena with full health. Pure: the desk drains the events and does the I/O.
 */

/** The world as its duels see it: a negotiation's world, and who is in a trade (World's trade book). */
type DuelWorld = NegotiationWorld & { readonly trades: { tradeOf(playerId: string): unknown } };

const WORDS: NegotiationWords = {
  error: (code, message, id) => new DuelError(code, message, id),
  busyCode: "ALREADY_IN_DUEL",
  self: { code: "SELF_DUEL", message: "You can't duel yourself" },
  unknown: { code: "UNKNOWN_DUEL", message: "There is no such duel" },
  notYours: { code: "NOT_YOUR_DUEL", message: "You are not in that duel" },
  stopping: "The server is shutting down: no new duels",
  unavailable: (name) => `${name} can't duel right now`,
  tooFar: (name, tiles) => `Stand within ${tiles} tiles of ${name} to duel`,
  waiting: "You are already waiting for an answer to a challenge",
  busy: "You are already in a duel",
  targetBusy: (name) => `${name} is already in a duel`,
  alreadyStarted: "The duel has already started",
  notStarted: "The duel has not started",
  onlyAsked: "Only the challenged player can answer",
  declined: (name) => `${name} declined the duel`,
  tookAnother: (name) => `${name} accepted another duel`,
  otherTook: "That player accepted another duel",
  cancelled: (name) => `${name} cancelled the duel`,
  requestTimeout: "The challenge was not answered in time",
  idleTimeout: "The duel was idle for too long",
};

/** A duellist's pack while the duel is being settled: its item commands are refused with this. */
export const SETTLING = { code: "DUEL_COMPLETING", message: "Your duel is being settled" } as const;

export class DuelBook extends Negotiations<DuelSession, DuelSide, DuelEvent, DuelCancelReason> {
  protected readonly screens = ["rules", "stakes", "confirm"] as const;
  protected readonly words = WORDS;

  constructor(
    protected override readonly world: DuelWorld,
    newId: () => string,
    override readonly limits: DuelLimits = DUEL_LIMITS,
    ignoring: (playerId: string, fromId: string) => boolean = () => false,
  ) {
    super(world, newId, limits, ignoring);
  }

  /** The duel a player is in (its own challenge included), if any. */
  duelOf(playerId: string): DuelSession | undefined {
    return this.sessionOf(playerId);
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
    return this.ask(fromId, targetId, now);
  }

  /** duel:rule: turn a rule on or off (rules screen only); both acceptances reset. */
  setRule(playerId: string, duelId: string, rule: unknown, on: unknown, now: number): DuelSession {
    const duel = this.onScreen(playerId, duelId, "rules");
    duel.rules = this.within(duel, () => setRule(duel.rules, rule, on));
    this.changed(duel, now);
    return duel;
  }

  /** duel:stake / duel:unstake: stake more of a slot, or take some back (stakes screen only). */
  stake(playerId: string, duelId: string, slot: unknown, quantity: unknown, add: boolean, now: number): DuelSession {
    const duel = this.onScreen(playerId, duelId, "stakes");
    const [side] = this.mineAndTheirs(duel, playerId);
    const p = playerOf(this.world, playerId);
    side.stake = this.changeOffer(duel, p, now, () =>
      add ? offerAdd(side.stake, p.inventory, slot, quantity, this.world.data.items) : offerRemove(side.stake, slot, quantity),
    );
    return duel;
  }

  /** duel:forfeit: give the fight up (unless the rules say no); the other wins. */
  forfeit(playerId: string, duelId: string): DuelSession {
    const duel = this.sessionFor(playerId, duelId);
    if (duel.screen !== "countdown" && duel.screen !== "fighting") throw new DuelError("INVALID_STATE", "There is no fight to forfeit", duel.id);
    this.within(duel, () => forbidden(duel.rules, "forfeit"));
    return this.end(duel, playerId, "forfeit");
  }

  /** A duellist's health ran out in the fight: the other wins. */
  defeated(loserId: string): void {
    const duel = this.duelOf(loserId);
    if (duel?.screen === "fighting") this.end(duel, loserId, "win");
  }

  /** Every tick: timeouts of the setup, the countdown's end, a fight's draw. */
  tick(now: number, tick: number): void {
    this.expire(now);
    for (const duel of [...this.sessions.values()]) {
      if (duel.screen === "countdown" && tick >= duel.fightFromTick!) {
        duel.screen = "fighting";
        this.tell({ kind: "fight", duel });
      } else if (duel.screen === "fighting" && tick >= duel.drawAtTick!) {
        walkOut(this.world, this.parties(duel));
        this.close(duel);
        this.tell({
          kind: "ended",
          duel,
          outcome: "draw",
          winnerId: null,
          received: [],
          settled: false,
          message: "The fight ran too long: a draw, and both keep their stakes",
        });
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
    const [loserSide, winnerSide] = this.mineAndTheirs(duel, duel.result.loserId);
    this.close(duel);
    this.tell({
      kind: "ended",
      duel,
      outcome: duel.result.outcome,
      winnerId: duel.result.winnerId,
      received: loserSide.stake,
      settled: true,
      message: `${winnerSide.name} won the duel`,
    });
  }

  /** The settlement was refused or failed: nothing moved, both keep their stakes. */
  settleFailed(duelId: string, message: string): void {
    const duel = this.sessions.get(duelId);
    if (duel?.screen !== "settling" || !duel.result) return;
    this.close(duel);
    this.tell({ kind: "ended", duel, outcome: duel.result.outcome, winnerId: duel.result.winnerId, received: [], settled: false, message });
  }

  /** Every duel not being settled is called off (the world is stopping: World.callOff): fighters walk out, both keep their stakes. */
  cancelAll(message: string): void {
    for (const duel of [...this.sessions.values()]) {
      if (duel.screen === "settling") continue;
      if (duel.screen === "countdown" || duel.screen === "fighting") walkOut(this.world, this.parties(duel));
      this.cancel(duel, "server_shutdown", message);
    }
  }

  protected sidesOf(duel: DuelSession): [DuelSide, DuelSide] {
    return [duel.challenger, duel.opponent];
  }

  protected create(id: string, from: PlayerEntity, target: PlayerEntity, now: number): DuelSession {
    return {
      id,
      screen: "requested",
      challenger: { playerId: from.id, name: from.name, stake: [], accepted: false },
      opponent: { playerId: target.id, name: target.name, stake: [], accepted: false },
      rules: noRules(),
      createdAt: now,
      lastActivityAt: now,
    };
  }

  protected event(change: NegotiationChange, duel: DuelSession): DuelEvent {
    return change === "requested" ? { kind: "requested", duel } : { kind: "screen", duel };
  }

  protected cancelledEvent(duel: DuelSession, reason: DuelCancelReason, message: string): DuelEvent {
    return { kind: "cancelled", duel, reason, message };
  }

  protected busyElsewhere(): BusyElsewhere {
    return (playerId) => (this.world.trades.tradeOf(playerId) ? { code: "ALREADY_IN_TRADE", message: "Finish your trade first" } : undefined);
  }

  /** A world with no arena takes no challenges. */
  protected override beforeAsking(): void {
    if (arenasOf(this.world.data).arenas.length === 0) throw new DuelError("NO_ARENA", "This world has no duel arena");
  }

  /** Both accepted: the next screen, or from the confirm screen, the arena. */
  protected bothAccepted(duel: DuelSession): void {
    if (duel.screen !== "confirm") return this.nextScreen(duel);
    this.resetAcceptances(duel);
    this.toArena(duel);
  }

  protected pastScreens(duel: DuelSession, act: "accept" | "cancel"): GameError {
    return new DuelError("INVALID_STATE", act === "accept" ? "The duel is already under way" : "The fight has begun: forfeit instead", duel.id);
  }

  /** A fight's duellist leaving is the fight lost; a settlement under way is left to finish. */
  protected goneMidway(duel: DuelSession, playerId: string): void {
    if (duel.screen === "countdown" || duel.screen === "fighting") this.end(duel, playerId, "disconnect");
  }

  protected namesSession(err: GameError): boolean {
    return err instanceof DuelError;
  }

  /** Both confirmed: room for either outcome, a free arena, then both are moved in. */
  private toArena(duel: DuelSession): DuelSession {
    const [a, b] = this.parties(duel);
    if (!a || !b) return this.cancel(duel, "disconnected", "Your opponent left the world");
    try {
      checkStakeRoom({ inventory: a.inventory, stake: duel.challenger.stake }, { inventory: b.inventory, stake: duel.opponent.stake }, this.world.data.items);
    } catch (err) {
      if (err instanceof NoRoomError)
        return this.cancel(duel, "inventory_full", `${err.side === "initiator" ? a.name : b.name}'s inventory has no room for the other's stake`);
      if (err instanceof GameError) return this.cancel(duel, "stake_changed", err.message);
      throw err;
    }
    const busy = new Set([...this.sessions.values()].flatMap((s) => (s.arena ? [s.arena.id] : [])));
    const arena = pickArena(arenasOf(this.world.data).arenas, busy);
    if (!arena) return this.cancel(duel, "no_arena", "Every arena is in use; challenge again in a moment");
    duel.arena = arena;
    duel.screen = "countdown";
    duel.fightFromTick = this.world.tick + this.limits.countdownTicks;
    duel.drawAtTick = duel.fightFromTick + this.limits.maxFightTicks;
    walkIn(this.world, [a, b], arena, duel.rules);
    this.tell({ kind: "countdown", duel });
    return duel;
  }

  /** The fight is over: both walk out whole; the duel waits for its settlement. */
  private end(duel: DuelSession, loserId: string, outcome: "win" | "forfeit" | "disconnect"): DuelSession {
    const [, winner] = this.mineAndTheirs(duel, loserId);
    duel.result = { winnerId: winner.playerId, loserId, outcome };
    walkOut(this.world, this.parties(duel));
    duel.screen = "settling";
    for (const p of this.parties(duel)) if (p) p.inventoryFrozen = SETTLING;
    this.tell({ kind: "settle", duel });
    return duel;
  }

  private onScreen(playerId: string, duelId: string, screen: DuelScreen): DuelSession {
    const duel = this.sessionFor(playerId, duelId);
    if (duel.screen !== screen) throw new DuelError("INVALID_STATE", `That belongs to the ${screen} screen; the duel is on the ${duel.screen} screen`, duel.id);
    return duel;
  }
}
