import { Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import { TokenError, verifyToken, type TokenClaims } from "../src/auth/tokens.js";
import type { ServerContext } from "../src/context.js";
import { CharacterAccessError, CHARACTER_NAME, isUniqueViolation, itemsFingerprint, loadCharacter, loadOrCreateCharacter } from "../src/db/characterRepo.js";
import type { CharacterSnapshot } from "../src/game/world/entities.js";
import { WorldSaver } from "../src/db/worldSaver.js";
import { endSession, startSession } from "../src/db/worldRepo.js";
import { IgnoreLists } from "../src/db/socialRepo.js";
import { ADMIN_MAX_ATTEMPTS, AdminGate, AdminLockouts } from "../src/game/chat.js";
import { CharacterLocks, RoomCharacterLocks } from "./characterLocks.js";
import { startingInventory } from "../src/game/inventory.js";
import { addPlayer, privateStateOf, removePlayer } from "../src/game/world/players.js";
import { tickGroundItems, tickNpcs, tickPlayers, tickResources } from "../src/game/world/tick.js";
import { TickPhases } from "./tickPhases.js";
import type { World } from "../src/game/world/World.js";
import { WorldState } from "../schema/WorldState.js";
import { onlinePlayers, tickDuration } from "../src/metrics.js";
import { TickLoop } from "./tickLoop.js";
import type { ChatSession } from "./worldChat.js";
import { ClientMessages, CLOSE_CODES, describeZodError, JoinOptions, type ClientMessageType, type ServerMessage, type ServerMessageType, type WorldUpdate } from "../src/protocol/index.js";
import type { ProtocolClient } from "./protocolClient.js";
import { createWorld, restoreWorld, WORLD_NAME } from "./worldSetup.js";
import { WorldSync } from "./worldSync.js";
import { runCommand, worldCommands, type CommandHandlers } from "./worldCommands.js";
import { dispatchEvents, type EventContext } from "./worldEvents.js";
import { TradeMessages, type TradeMessageType } from "../src/protocol/index.js";
import { TradeDesk } from "./worldTrades.js";
import { TRADE_LIMITS, type TradeLimits } from "../src/game/trade.js";

/** The game tick: every rule advances once per tick. */
export const TICK_MS = 600;

/** How often the character locks are refreshed (every ~5 s; they expire after LOCK_TTL_S). */
const LOCK_REFRESH_TICKS = 8;

interface Session extends ChatSession {
  accountId: string;
  dbSessionId: string;
  /** Set when another login took this character over: its leave must not save or remove. */
  replaced: boolean;
}

type WorldClient = ProtocolClient<Session, TokenClaims>;

/**
 * One world shard. Thin: it authenticates, loads and saves characters, validates messages and
 * hands them to the world's rules (src/game), runs the tick and mirrors the world to clients.
 */
export class WorldRoom extends Room<{ state: WorldState; client: WorldClient }> {
  /** Set by arena.config.ts on the class it registers (see bindContext). */
  protected ctx!: ServerContext;

  state = new WorldState();
  /**
   * Flood protection for room clients (over it, Colyseus drops the client with 4002). Twice the
   * /ws limit (60 per second, counted in its own one-second windows), so a /ws client that keeps
   * to its limit can never trip the room's count across a window boundary.
   */
  maxMessagesPerSecond = 120;

  world!: World;
  sync!: WorldSync;
  saver!: WorldSaver;
  loop!: TickLoop;
  /** Trades between the players of this world. */
  trades!: TradeDesk;
  /** Online sessions by character id. */
  readonly sessions = new Map<string, Session>();
  /** The ignore lists of the accounts online here (chat and trade requests are filtered by them). */
  ignores!: IgnoreLists;
  private saveEveryTicks = 100;
  /** Wrong /admin codes per account, kept across its sessions (reconnecting buys no guesses). */
  private readonly adminLockouts = new AdminLockouts();
  /** One character, one room: the presence locks of the characters live here. */
  private locks!: RoomCharacterLocks;
  private stopListening?: () => void;
  /** The world's message handlers, one per client message. */
  private commands!: CommandHandlers;
  /** How the world's events reach the players. */
  private events!: EventContext;
  /** The tick's phases, timed into the tick histogram. */
  readonly phases = new TickPhases<"players" | "npcs" | "resources" | "groundItems" | "events" | "trades" | "sync" | "views" | "send" | "save" | "endTick">(tickDuration);

  async onCreate(options: { tradeLimits?: Partial<TradeLimits> } = {}) {
    this.autoDispose = false;
    this.patchRate = null;
    this.world = createWorld(this.ctx.gameData);
    this.saver = new WorldSaver(this.ctx.db.prisma, WORLD_NAME, this.ctx.logger);
    await restoreWorld(this.world, this.ctx.db.prisma, this.ctx.logger);
    this.ignores = new IgnoreLists(this.ctx.db.prisma, this.ctx.logger);
    this.locks = new RoomCharacterLocks(new CharacterLocks(this.presence, this.roomId), (id) => this.sessions.has(id), this.ctx.logger);
    // Another room (in a cluster, another process) taking one of our characters over.
    this.stopListening = await this.locks.locks.listen((characterId) => void this.letGo(characterId));
    this.trades = new TradeDesk({
      world: this.world,
      saver: this.saver,
      logger: this.ctx.logger,
      worldRoomId: this.roomId,
      limits: { ...TRADE_LIMITS, ...options.tradeLimits },
      send: (playerId, type, data) => this.toPlayer(playerId, type, data),
      ignoring: (playerId, fromId) => this.isIgnoring(playerId, fromId),
      syncPlayer: (playerId) => this.syncPlayer(playerId),
    });
    this.sync = new WorldSync(this.world, this.state);
    this.sync.syncState();
    this.commands = worldCommands({
      world: this.world,
      logger: this.ctx.logger,
      chat: { adminCode: this.ctx.config.adminCode, sessions: this.sessions, ignores: this.ignores, kick: (pid, by) => this.kick(pid, by) },
      saveNow: (playerId) => this.saveNow(playerId),
    });
    this.events = {
      world: this.world,
      toPlayer: (playerId, type, payload) => this.toPlayer(playerId, type, payload),
      playerDied: (playerId) => {
        this.trades.playerDied(playerId);
        const p = this.world.players.get(playerId);
        if (p) this.saver.save(this.world, [p]).catch(() => {});
      },
      deathExpired: (deathId) => void this.saver.expireDeath(deathId).catch(() => {}),
    };
    this.saveEveryTicks = Math.max(1, Math.round((this.ctx.config.saveInterval * 1000) / TICK_MS));
    for (const type of Object.keys(ClientMessages) as ClientMessageType[]) {
      this.onMessage(type, (client: WorldClient, payload: unknown) => this.receive(client, type, payload));
    }
    for (const type of Object.keys(TradeMessages) as TradeMessageType[]) {
      this.onMessage(type, (client: WorldClient, payload: unknown) => {
        const session = client.userData;
        if (!session) return client.send("tradeError", { code: "NOT_IN_WORLD", message: "You are not in the world yet" });
        this.trades.receive(session.playerId, type, payload);
      });
    }
    this.onMessage("*", (client: WorldClient, type: string | number) => {
      client.send("error", { code: "UNKNOWN_EVENT", message: `Unknown event ${String(type)}` });
    });
    this.loop = new TickLoop(TICK_MS, () => this.tick(), 1000, (ms) => {
      tickDuration.observe({ phase: "total" }, ms / 1000);
      onlinePlayers.set(this.world.players.size);
    });
    this.loop.begin();
  }

  onAuth(_client: Client, _options: unknown, context: AuthContext): TokenClaims {
    try {
      return verifyToken(context.token, this.ctx.config.jwtSecret);
    } catch (err) {
      if (err instanceof TokenError) throw new ServerError(401, err.message);
      throw err;
    }
  }

  async onJoin(client: WorldClient, rawOptions: unknown) {
    const parsed = JoinOptions.safeParse(rawOptions ?? {});
    if (!parsed.success) throw new ServerError(400, `Invalid join options: ${describeZodError(parsed.error)}`);
    const options = parsed.data;
    const auth = client.auth!;
    if (options.name !== undefined && !CHARACTER_NAME.test(options.name)) {
      throw new ServerError(400, "name: 1-12 letters, digits and single spaces");
    }
    const account = await this.ctx.db.prisma.user.findUnique({ where: { id: auth.sub } });
    if (!account) throw new ServerError(401, "The token's account does not exist");
    // An agent token may drive only its own character.
    const characterId = auth.characterId ?? options.characterId;
    if (auth.characterId && options.characterId && options.characterId !== auth.characterId) {
      throw new ServerError(403, "This token drives another character");
    }

    // Joins of one account run one at a time, so one character never enters twice at once.
    const previousJoin = this.joining.get(auth.sub) ?? Promise.resolve();
    // The account's ignore list is loaded before its player appears; each session holds it until it leaves.
    const thisJoin = previousJoin.then(async () => {
      await this.ignores.hold(auth.sub);
      await this.enter(client, options, auth, characterId);
    });
    const tail = thisJoin.catch(() => {});
    this.joining.set(auth.sub, tail);
    try {
      await thisJoin;
    } finally {
      if (this.joining.get(auth.sub) === tail) this.joining.delete(auth.sub);
      if (!client.userData) this.ignores.release(auth.sub); // no session was made
    }
  }

  /** Joins in progress, by account. */
  private readonly joining = new Map<string, Promise<void>>();

  private async enter(client: WorldClient, options: { name?: string; worldUpdates?: boolean; clientType?: string }, auth: TokenClaims, characterId: string | undefined) {
    // A character that just left may still be saving: load it only once that save is written.
    await this.settled();
    let snap: CharacterSnapshot;
    try {
      snap = await loadOrCreateCharacter(this.ctx.db.prisma, auth.sub, characterId, () => ({
        accountId: auth.sub,
        name: options.name,
        spawn: this.world.spawnTile,
        inventory: startingInventory(this.ctx.gameData.starterKit, this.ctx.gameData.items),
      }));
    } catch (err) {
      if (err instanceof CharacterAccessError) throw new ServerError(err.code === "CHARACTER_NOT_FOUND" ? 404 : 403, err.message);
      if (isUniqueViolation(err)) throw new ServerError(400, "name: that name is taken");
      throw err;
    }

    // A character is live in one room: its lock is taken here (another room holding it saves and
    // closes its session first, and the character is loaded again from that save).
    const id = snap.id;
    await this.locks.hold(id, async () => {
      if ((await this.locks.acquire(id)).tookOver) snap = (await loadCharacter(this.ctx.db.prisma, id)) ?? snap;
      // In this room, a second login takes over from the first.
      const previous = this.sessions.get(id);
      if (previous) snap = await this.takeOver(previous);
      if (!this.clients.includes(client)) return; // left while loading
      await this.place(client, snap, options, auth);
    });
  }

  private async place(client: WorldClient, snap: CharacterSnapshot, options: { worldUpdates?: boolean; clientType?: string }, auth: TokenClaims) {
    const player = addPlayer(this.world, snap);
    player.persistedItems = itemsFingerprint(snap);
    const dbSessionId = await startSession(this.ctx.db.prisma, snap.id, auth.sub, options.clientType ?? "colyseus");
    if (!this.clients.includes(client)) {
      // Left while the session was being recorded: take the character out again.
      removePlayer(this.world, player.id);
      await this.saver.save(this.world, [player]);
      await endSession(this.ctx.db.prisma, dbSessionId, "logout");
      return;
    }
    const session: Session = { playerId: player.id, client, accountId: auth.sub, dbSessionId, admin: new AdminGate(ADMIN_MAX_ATTEMPTS, { lockouts: this.adminLockouts, accountId: auth.sub }), replaced: false };
    client.userData = session;
    this.sessions.set(player.id, session);

    // The /ws adapter's clients and the built-in agents take world:update JSON instead of schema patches: no StateView.
    const viewer = this.sync.attach(player.id, options.worldUpdates === true, options.clientType !== "ws" && options.clientType !== "runtime");
    if (viewer.view) client.view = viewer.view;
    this.sync.syncState();
    const first = this.sync.refreshViewer(viewer);
    client.send("player:sync", privateStateOf(this.world, player));
    player.privateDirty = false;
    if (first) client.send("world:update", first);
  }

  /** Save and remove the character's current session so a new login can continue from it. */
  private async takeOver(previous: Session) {
    previous.replaced = true;
    this.sessions.delete(previous.playerId);
    this.ignores.release(previous.accountId);
    // Its trade ends; a trade being committed is written first.
    await this.trades.playerLeaving(previous.playerId);
    const entity = this.world.players.get(previous.playerId);
    const snap = removePlayer(this.world, previous.playerId)!;
    this.sync.detach(previous.playerId);
    previous.client.send("session:replaced", { message: "You logged in somewhere else" });
    previous.client.leave(CLOSE_CODES.REPLACED, "replaced by a new login");
    if (entity) await this.saver.save(this.world, [entity]);
    await endSession(this.ctx.db.prisma, previous.dbSessionId, "replaced");
    return snap;
  }

  /** Leaves still saving; `settled()` waits for them. */
  private readonly leaving = new Set<Promise<void>>();

  onLeave(client: WorldClient) {
    const done = this.leave(client).finally(() => this.leaving.delete(done));
    this.leaving.add(done);
    return done;
  }

  /** Resolves once every leave so far is saved and recorded, and every save captured is written. */
  async settled() {
    await Promise.allSettled([...this.leaving]);
    await this.saver.flush();
  }

  private async leave(client: WorldClient) {
    const session = client.userData;
    if (!session || session.replaced) return;
    // The character's lock is kept until its save is written.
    await this.locks.hold(session.playerId, () => this.saveLeaving(session));
  }

  private async saveLeaving(session: Session) {
    this.sessions.delete(session.playerId);
    this.ignores.release(session.accountId);
    this.sync.detach(session.playerId);
    // Its trade ends; a trade being committed is written first, so the save below includes it.
    await this.trades.playerLeaving(session.playerId);
    const entity = this.world.players.get(session.playerId);
    removePlayer(this.world, session.playerId);
    try {
      if (entity) await this.saver.save(this.world, [entity]);
    } finally {
      await endSession(this.ctx.db.prisma, session.dbSessionId, "logout").catch((err) => this.ctx.logger.error({ err }, "could not end session"));
    }
  }

  async onDispose() {
    this.loop?.stop();
    this.stopListening?.();
    if (!this.world) return;
    // Leaves still saving finish first (the database closes after the rooms).
    await Promise.allSettled([...this.leaving]);
    await this.trades.shutdown();
    await this.saver.saveDirty(this.world).catch(() => {});
    await this.saver.flush();
    // Everyone here is saved: their characters are free to go live elsewhere.
    await Promise.allSettled([...this.sessions.keys()].map((id) => this.locks.locks.release(id)));
  }

  /** Another room asks for one of our characters: save and close its session here, then let it go. */
  private async letGo(characterId: string) {
    const session = this.sessions.get(characterId);
    await this.locks.hold(characterId, async () => {
      if (session) await this.takeOver(session);
    });
  }

  /** A client message, validated and run by its handler; a refusal is answered with `error`. */
  private receive(client: WorldClient, type: ClientMessageType, payload: unknown) {
    const session = client.userData;
    if (!session) return client.send("error", { code: "NOT_IN_WORLD", message: "You are not in the world yet" });
    const refusal = runCommand(this.commands, this.ctx.logger, session, type, payload);
    if (refusal) client.send("error", refusal);
  }

  /** Items that moved through the bank are written at once, not at the next periodic save. */
  private saveNow(playerId: string) {
    const p = this.world.players.get(playerId);
    if (p) this.saver.save(this.world, [p]).catch(() => {});
  }

  private kick(playerId: string, by: string) {
    const s = this.sessions.get(playerId);
    if (!s) return;
    s.client.send("notice", { code: "KICKED", message: `You were removed from the world by ${by}` });
    s.client.leave(CLOSE_CODES.KICKED, "kicked");
  }

  /**
   * One game tick, phase by phase. Client messages are applied as they arrive, between ticks
   * (they set what a player is doing); the rules then advance everything once, the world's
   * events become messages, and the tick's changes go out before the change tracking starts again.
   */
  private tick() {
    const w = this.world;
    const phase = this.phases;
    let updates = new Map<string, WorldUpdate>();
    phase.run("players", () => {
      w.tick++;
      tickPlayers(w);
    });
    phase.run("npcs", () => tickNpcs(w));
    phase.run("resources", () => tickResources(w));
    phase.run("groundItems", () => tickGroundItems(w));
    phase.run("events", () => dispatchEvents(this.events, w.events.drain()));
    phase.run("trades", () => this.trades.tick());
    phase.run("sync", () => this.sync.syncState());
    phase.run("views", () => (updates = this.sync.updateViews()));
    phase.run("send", () => this.sendTick(updates));
    phase.run("save", () => this.periodicSaves());
    phase.run("endTick", () => w.endTick());
  }

  /** The tick's messages: view deltas, changed private states, and the schema patch. */
  private sendTick(updates: Map<string, WorldUpdate>) {
    for (const [playerId, update] of updates) this.sessions.get(playerId)?.client.send("world:update", update);
    for (const s of this.sessions.values()) {
      const p = this.world.players.get(s.playerId);
      if (p?.privateDirty) this.syncPlayer(s.playerId);
    }
    this.broadcastPatch();
  }

  /** Every SAVE_INTERVAL the changed characters are saved; every few seconds the locks refreshed. */
  private periodicSaves() {
    const w = this.world;
    if (w.tick % this.saveEveryTicks === 0) this.saver.saveDirty(w).catch(() => {});
    if (w.tick % LOCK_REFRESH_TICKS === 0) this.locks.refresh(this.sessions.keys());
  }



  /** Does the account playing `playerId` ignore `fromId`? */
  private isIgnoring(playerId: string, fromId: string): boolean {
    const s = this.sessions.get(playerId);
    return s !== undefined && this.ignores.ignores(s.accountId, fromId);
  }

  private toPlayer<K extends ServerMessageType>(playerId: string, type: K, payload: ServerMessage<K>) {
    this.sessions.get(playerId)?.client.send(type, payload);
  }

  /** A player's private state, now rather than at the next tick. */
  private syncPlayer(playerId: string) {
    const p = this.world.players.get(playerId);
    const s = this.sessions.get(playerId);
    if (!p || !s) return;
    s.client.send("player:sync", privateStateOf(this.world, p));
    p.privateDirty = false;
  }

}

