import type { GameData } from "../../manifests/index.js";
import type { FeatureMessage, FeatureMessageType } from "../../protocol/featureMessages.js";
import type { AttackKind } from "../attacks.js";
import type { TradeLimits } from "../trade.js";
import type { GameError, Inventory, Rng, Tile } from "../types.js";
import type { NpcEntity, PlayerAction, PlayerEntity } from "./entities.js";
import { BANK_VARS } from "./bankSettings.js";
import { COMBAT_VARS } from "./combatState.js";
import { VarRegistry, type PlayerVarDef } from "./playerVars.js";
import { TradeBook } from "./tradeBook.js";
import { WorldCore } from "./worldCore.js";

export interface WorldOptions {
  rng: Rng;
  /** Unique ids for ground items, deaths and trades. */
  newId: () => string;
  /** The trades' range, timeouts and request limits (TRADE_LIMITS when not given). */
  tradeLimits?: TradeLimits;
  /** Does the player `playerId` ignore `fromId`? Their trade requests (and a feature's challenges) are not shown to them. */
  ignoring?: (playerId: string, fromId: string) => boolean;
  /** The features the world plays beside its own rules (src/features/index.ts lists the server's). */
  features?: readonly WorldFeature[];
  /** The wall clock in milliseconds, for what lasts across logins (a cooldown): Date.now when not given. */
  now?: () => number;
}

/** A feature's handler of one of its client messages (src/protocol/featureMessages.ts), given it validated. */
export type FeatureCommand<K extends FeatureMessageType> = (world: World, playerId: string, msg: FeatureMessage<K>) => void;
/** A handler for every feature message: the registry (src/features/index.ts) does not compile with one missing. */
export type FeatureCommands = { [K in FeatureMessageType]: FeatureCommand<K> };

/** The features a server's worlds play (src/features/index.ts): their parts of the world, and their messages' handlers. */
export interface WorldFeatures {
  readonly list: readonly WorldFeature[];
  readonly commands: FeatureCommands;
  /** Every manifest file the features read (WorldFeature.manifests), once each. */
  readonly manifests: readonly string[];
}

/** One tick of a feature's action. */
export type FeatureActionRun = (world: World, p: PlayerEntity, action: Extract<PlayerAction, { type: "feature" }>) => void;

/**
 * Fights between players outside a duel, as one feature allows them (a PvP area): the engine asks it
 * before an attack on a player and at each blow, and hands it the blows and the deaths.
 */
export interface PlayerCombat {
  /** Throws (a GameError) why `attacker` may not attack `target` now; returns when it may. */
  check(world: World, attacker: PlayerEntity, target: PlayerEntity): void;
  /** A blow of `attacker`'s at `target` was struck (landed or not). */
  struck(world: World, attacker: PlayerEntity, target: PlayerEntity): void;
  /** `target` died of a blow of `killer`'s: what becomes of it and its items. */
  killed(world: World, target: PlayerEntity, killer: PlayerEntity): void;
}

/** What a ruled fight's rules may forbid: a kind of attack, prayer, eating, walking. */
export type FightAct = AttackKind | "prayer" | "food" | "movement";

/**
 * Fights between two players under rules they agreed, in a place apart (a staked duel's arena), as
 * one feature plays them: the engine asks it who may strike whom and what the rules forbid, and
 * hands it the defeats. A defeat in such a fight is not a death.
 */
export interface RuledFights {
  /** Is the player in such a fight's place now (waiting for it to begin, fighting, or its end being settled)? Npcs leave it be. */
  engaged(playerId: string): boolean;
  /** The opponent the player may strike now (the fight has begun), if any. */
  opponentOf(playerId: string): string | undefined;
  /** Throws (a GameError) why the player's fight forbids `act`; nothing outside a fight. */
  assertAllowed(playerId: string, act: FightAct): void;
  /** Throws why the player may not walk to `to` now (out of its fight's place, or at all). */
  assertMove(playerId: string, to: Tile): void;
  /** Throws when the player's pack, changed to `inventory`, would leave no room for what the fight may bring it. */
  assertRoomAfter(playerId: string, inventory: Inventory): void;
  /** Does the player's fight root it where it stands (it strikes from there)? */
  rooted(playerId: string): boolean;
  /** The player's health ran out in its fight: lost, which is not a death. */
  defeated(playerId: string): void;
}

/** Why a player may not start a trade (or another feature's negotiation) now: what it is busy with. */
export interface Busy {
  code: string;
  message: string;
}

/**
 * A feature's part of the world (src/features/<feature>/): the player variables it keeps, its step
 * of each player's tick and the npc services it plays. The engine calls these and names no feature;
 * the handlers of a feature's client messages are listed with it in src/features/index.ts.
 */
export interface WorldFeature {
  readonly name: string;
  /**
   * Its own manifest files in the game data (`travel.json`): fetched from the asset host with the
   * others, and read into `data.extras` under their names without `.json`.
   */
  readonly manifests?: readonly string[];
  readonly vars?: Readonly<Record<string, PlayerVarDef>>;
  /** Once per tick for each living player, before its walk and its action. */
  readonly playerTick?: (world: World, p: PlayerEntity) => void;
  /** The npc services it plays: talking to an npc that offers one runs it, after the npc's dialogue if it has one. */
  readonly npcServices?: Readonly<Record<string, (world: World, p: PlayerEntity, npc: NpcEntity) => void>>;
  /** Fights between players outside a duel (one feature at most). */
  readonly playerCombat?: PlayerCombat;
  /**
   * The player's action it plays (one per feature, `{type: "feature", feature: <its name>}`), run each
   * tick while it lasts: a move or any other order replaces it, as any action. A GameError it throws
   * ends it and is told to the player.
   */
  readonly action?: FeatureActionRun;
  /** What it places in a world being populated from its data (its stations, from its own manifest). */
  readonly populate?: (world: World) => void;
  /**
   * A content reload: `scratch`, a world populated from the new data, holds what the feature read
   * from it; the running world takes that (its stations come over with the engine's).
   */
  readonly reloaded?: (world: World, scratch: World) => void;
  /** Must a player who leaves stay in the world a while longer (a fight between players)? Asked each tick until it says no. */
  readonly holdsLogout?: (world: World, p: PlayerEntity) => boolean;
  /**
   * Is the player held in place now (a stun)? The reason, as the refusal its orders get: while one
   * is given, the player neither walks nor acts, and moves, actions, making, casting and the
   * features' messages are refused with it.
   */
  readonly holdsPlayer?: (world: World, p: PlayerEntity) => GameError | undefined;
  /** Once, as a world is made: what the feature keeps per world (a book of sessions, which it keeps in a WeakMap keyed by the world). */
  readonly attach?: (world: World) => void;
  /** Fights between players under their own rules (one feature at most), asked once the feature is attached. */
  readonly ruledFights?: (world: World) => RuledFights;
  /** The player left the world or died: what it was in ends. */
  readonly playerGone?: (world: World, playerId: string, reason: "disconnected" | "player_died") => void;
  /** The world is stopping (World.callOff): what is half agreed ends, both sides keeping what they had. */
  readonly callOff?: (world: World, message: string) => void;
  /** What the player is busy with that keeps it out of a trade, if anything (a duel). */
  readonly busyWith?: (world: World, playerId: string) => Busy | undefined;
}

/**
 * The whole simulated world of one shard: what WorldCore holds (entities, the tile map, the spatial
 * index and the bookkeeping the room reads after each tick), the trades between its players and the
 * features it plays. The rules that move it live beside it (setup, commands, systems); the world itself only holds.
 */
export class World extends WorldCore {
  /** The trades between the players of this world: a death or a leave ends them here. */
  readonly trades: TradeBook;
  /** The world is stopping (callOff): no trade (nor a feature's negotiation) opens any more. */
  stopping = false;
  /** The features this world plays, in their order. */
  readonly features: readonly WorldFeature[];
  /** Every player variable: the engine's own and the features'. */
  readonly vars = new VarRegistry();
  /** The features' steps of a player's tick, in the features' order. */
  readonly playerTicks: Array<(world: World, p: PlayerEntity) => void> = [];
  /** The features' player actions, by feature name. */
  readonly featureActions = new Map<string, FeatureActionRun>();
  /** The npc services the features play, by service name. */
  readonly npcServices = new Map<string, (world: World, p: PlayerEntity, npc: NpcEntity) => void>();
  /** Fights between players outside a duel, when a feature allows them. */
  readonly playerCombat?: PlayerCombat;
  /** Fights between players under their own rules, when a feature plays them. */
  readonly ruledFights?: RuledFights;
  /** Does the player `playerId` ignore `fromId` (WorldOptions.ignoring)? */
  readonly ignoring: (playerId: string, fromId: string) => boolean;
  private readonly logoutHolds: Array<(world: World, p: PlayerEntity) => boolean> = [];
  private readonly playerHolds: Array<(world: World, p: PlayerEntity) => GameError | undefined> = [];
  private readonly goneHooks: Array<(world: World, playerId: string, reason: "disconnected" | "player_died") => void> = [];
  private readonly callOffs: Array<(world: World, message: string) => void> = [];
  private readonly busyHooks: Array<(world: World, playerId: string) => Busy | undefined> = [];
  /** The wall clock in milliseconds (WorldOptions.now). */
  readonly now: () => number;

  constructor(data: GameData, options: WorldOptions) {
    super(data, options.rng, options.newId);
    this.now = options.now ?? Date.now;
    this.ignoring = options.ignoring ?? (() => false);
    this.features = options.features ?? [];
    this.vars.declare("combat", COMBAT_VARS);
    this.vars.declare("bank", BANK_VARS);
    for (const f of this.features) {
      if (f.vars) this.vars.declare(f.name, f.vars);
      if (f.playerTick) this.playerTicks.push(f.playerTick);
      for (const [name, run] of Object.entries(f.npcServices ?? {})) claim(this.npcServices, name, run, `npc service ${name} of ${f.name}`);
      if (f.playerCombat) {
        if (this.playerCombat) throw new Error(`fights between players of ${f.name} are played by another feature too`);
        this.playerCombat = f.playerCombat;
      }
      if (f.holdsLogout) this.logoutHolds.push(f.holdsLogout);
      if (f.holdsPlayer) this.playerHolds.push(f.holdsPlayer);
      if (f.action) this.featureActions.set(f.name, f.action);
      if (f.playerGone) this.goneHooks.push(f.playerGone);
      if (f.callOff) this.callOffs.push(f.callOff);
      if (f.busyWith) this.busyHooks.push(f.busyWith);
    }
    this.trades = new TradeBook(this, () => `t_${options.newId()}`, options.tradeLimits, this.ignoring);
    for (const f of this.features) f.attach?.(this);
    for (const f of this.features) {
      if (!f.ruledFights) continue;
      if (this.ruledFights) throw new Error(`ruled fights of ${f.name} are played by another feature too`);
      this.ruledFights = f.ruledFights(this);
    }
  }

  /** Is the player in a ruled fight's place (a duel's arena) now? */
  engaged(playerId: string): boolean {
    return this.ruledFights?.engaged(playerId) ?? false;
  }

  /** The player left or died: its trade ends, and whatever the features had it in. */
  playerGone(playerId: string, reason: "disconnected" | "player_died"): void {
    this.trades.playerGone(playerId, reason);
    for (const gone of this.goneHooks) gone(this, playerId, reason);
  }

  /** What keeps the player out of a trade (a feature's negotiation or fight), if anything. */
  busyWith(playerId: string): Busy | undefined {
    for (const busy of this.busyHooks) {
      const why = busy(this, playerId);
      if (why) return why;
    }
    return undefined;
  }

  /** Must this player, who is leaving, stay in the world a while longer (a feature's rule, such as a fight between players)? */
  logoutHeld(p: PlayerEntity): boolean {
    return !this.stopping && this.logoutHolds.some((held) => held(this, p));
  }

  /** Why the player is held in place now (a feature's stun), or undefined when it may walk and act. */
  heldBy(p: PlayerEntity): GameError | undefined {
    for (const hold of this.playerHolds) {
      const why = hold(this, p);
      if (why) return why;
    }
    return undefined;
  }

  /**
   * The world is stopping (a restart, a shutdown): what is half agreed is called off before anyone
   * is let go. Every trade (and the features' negotiations: a duel) not already being committed or
   * settled ends with `server_shutdown` (every offer stays with its owner, nothing is written for
   * them), and from now on none opens (SERVER_STOPPING). A commit or settlement under way finishes:
   * that was agreed. The room tells the players (its desks' flush).
   */
  callOff(message: string): void {
    this.stopping = true;
    this.trades.cancelAll("server_shutdown", message);
    for (const callOff of this.callOffs) callOff(this, message);
  }
}

function claim<T>(into: Map<string, T>, name: string, value: T, what: string) {
  if (into.has(name)) throw new Error(`${what} is played by another feature too`);
  into.set(name, value);
}
