import { Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import { TokenError, verifyToken, type TokenClaims } from "../src/auth/tokens.js";
import type { ServerContext } from "../src/context.js";
import { CharacterAccessError, CHARACTER_NAME, isUniqueViolation, itemsFingerprint, loadCharacter, loadOrCreateCharacter } from "../src/db/characterRepo.js";
import type { CharacterSnapshot } from "../src/game/world/entities.js";
import { WorldSaver } from "../src/db/worldSaver.js";
import { endSession, startSession } from "../src/db/worldRepo.js";
import { IgnoreLists } from "../src/db/socialRepo.js";
import { ADMIN_MAX_ATTEMPTS, AdminGate, AdminLockouts } from "../src/game/chat.js";
import { CharacterBusyError, CharacterLocks } from "./characterLocks.js";
import { startingInventory } from "../src/game/inventory.js";
import { AOI_RADIUS } from "../src/game/spatialGrid.js";
import { GameError } from "../src/game/types.js";
import { bankDeposit, bankWithdraw, movePlayer, playerOf, startAttack, startGather, startPickup, stopPlayer } from "../src/game/world/commands.js";
import type { WorldEvent } from "../src/game/world/events.js";
import { useItem } from "../src/game/world/itemUse.js";
import { addPlayer, privateStateOf, removePlayer } from "../src/game/world/players.js";
import { tickWorld } from "../src/game/world/tick.js";
import type { World } from "../src/game/world/World.js";
import { WorldState } from "../schema/WorldState.js";
import { onlinePlayers, tickDuration } from "../src/metrics.js";
import { TickLoop } from "./tickLoop.js";
import { handleChat, type ChatSession } from "./worldChat.js";
import { ClientMessages, describeZodError, JoinOptions, type ClientMessage, type ClientMessageType } from "./worldMessages.js";
import { createWorld, restoreWorld, WORLD_NAME } from "./worldSetup.js";
import { WorldSync } from "./worldSync.js";
import { TradeMessages, type TradeMessageType } from "./tradeMessages.js";
import { TradeDesk } from "./worldTrades.js";
import { TRADE_LIMITS, type TradeLimits } from "../src/game/trade.js";

/** The game tick: every rule advances once per tick. */
export const TICK_MS = 600;

/** How often the character locks are refreshed (every ~5 s; they expire after LOCK_TTL_S). */
const LOCK_REFRESH_TICKS = 8;

/** Close codes the world uses beyond Colyseus's own. */
export const CLOSE_REPLACED = 4100;
export const CLOSE_KICKED = 4101;

interface Session extends ChatSession {
  accountId: string;
  dbSessionId: string;
  /** Set when another login took this character over: its leave must not save or remove. */
  replaced: boolean;
}

type WorldClient = Client<{ auth: TokenClaims; userData: Session }>;

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
  private locks!: CharacterLocks;
  /** Joins and leaves in progress per character: its lock is kept while any runs. */
  private readonly lockUsers = new Map<string, number>();
  private stopListening?: () => void;

  async onCreate(options: { tradeLimits?: Partial<TradeLimits> } = {}) {
    this.autoDispose = false;
    this.patchRate = null;
    this.world = createWorld(this.ctx.gameData);
    this.saver = new WorldSaver(this.ctx.db.prisma, WORLD_NAME, this.ctx.logger);
    await restoreWorld(this.world, this.ctx.db.prisma, this.ctx.logger);
    this.ignores = new IgnoreLists(this.ctx.db.prisma, this.ctx.logger);
    this.locks = new CharacterLocks(this.presence, this.roomId);
    // Another room (in a cluster, another process) taking one of our characters over.
    this.stopListening = await this.locks.listen((characterId) => void this.letGo(characterId));
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
      tickDuration.observe(ms / 1000);
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
    let snap;
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
    const characterLock = snap.id;
    this.useLock(characterLock);
    try {
      if ((await this.acquireLock(characterLock)).tookOver) snap = (await loadCharacter(this.ctx.db.prisma, characterLock)) ?? snap;
      // In this room, a second login takes over from the first.
      const previous = this.sessions.get(snap.id);
      if (previous) snap = await this.takeOver(previous);
      if (!this.clients.includes(client)) return; // left while loading
      await this.place(client, snap, options, auth);
    } finally {
      this.unuseLock(characterLock);
    }
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
    previous.client.leave(CLOSE_REPLACED, "replaced by a new login");
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
    this.useLock(session.playerId);
    try {
      await this.saveLeaving(session);
    } finally {
      this.unuseLock(session.playerId);
    }
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
    await Promise.allSettled([...this.sessions.keys()].map((id) => this.locks.release(id)));
  }

  private async acquireLock(characterId: string) {
    try {
      return await this.locks.acquire(characterId);
    } catch (err) {
      if (err instanceof CharacterBusyError) throw new ServerError(409, err.message);
      throw err;
    }
  }

  private useLock(characterId: string) {
    this.lockUsers.set(characterId, (this.lockUsers.get(characterId) ?? 0) + 1);
  }

  /** One join or leave of the character is done: let its lock go when nothing here needs it. */
  private unuseLock(characterId: string) {
    const n = (this.lockUsers.get(characterId) ?? 1) - 1;
    if (n > 0) this.lockUsers.set(characterId, n);
    else this.lockUsers.delete(characterId);
    if (n <= 0 && !this.sessions.has(characterId)) {
      this.locks.release(characterId).catch((err) => this.ctx.logger.warn({ err, characterId }, "could not release a character lock"));
    }
  }

  /** Another room asks for one of our characters: save and close its session here, then let it go. */
  private async letGo(characterId: string) {
    const session = this.sessions.get(characterId);
    this.useLock(characterId);
    try {
      if (session) await this.takeOver(session);
    } finally {
      this.unuseLock(characterId);
    }
  }

  /** Validate a client message, run it, answer a refusal with `error`. */
  private receive(client: WorldClient, type: ClientMessageType, payload: unknown) {
    const session = client.userData;
    if (!session) return client.send("error", { code: "NOT_IN_WORLD", message: "You are not in the world yet" });
    const parsed = ClientMessages[type].safeParse(payload);
    if (!parsed.success) return client.send("error", { code: "INVALID_PAYLOAD", message: `${type}: ${describeZodError(parsed.error)}` });
    try {
      this.handle(session, type, parsed.data as never);
    } catch (err) {
      if (!(err instanceof GameError)) {
        this.ctx.logger.error({ err, type }, "message handler failed");
        return client.send("error", { code: "INTERNAL", message: "Something went wrong" });
      }
      client.send("error", { code: err.code, message: err.message });
    }
  }

  private handle<T extends ClientMessageType>(session: Session, type: T, data: ClientMessage<T>) {
    const id = session.playerId;
    const w = this.world;
    switch (type) {
      case "player:move": {
        const m = data as ClientMessage<"player:move">;
        return movePlayer(w, id, { x: m.x, z: m.z }, m.run === true);
      }
      case "player:action": {
        const m = data as ClientMessage<"player:action">;
        if (m.action === "stop") return stopPlayer(w, id);
        if (m.action === "style") {
          if (!m.style) throw new GameError("INVALID_PAYLOAD", "style: required");
          const p = playerOf(w, id);
          p.combatStyle = m.style;
          w.touchPlayer(p);
          return;
        }
        if (!m.targetId) throw new GameError("INVALID_PAYLOAD", "targetId: required");
        if (m.action === "gather") return startGather(w, id, m.targetId);
        if (m.action === "attack") return startAttack(w, id, m.targetId);
        return startPickup(w, id, m.targetId);
      }
      case "player:chat": {
        const m = data as ClientMessage<"player:chat">;
        return handleChat(
          { world: w, adminCode: this.ctx.config.adminCode, sessions: this.sessions, ignores: this.ignores, kick: (pid, by) => this.kick(pid, by) },
          session,
          m.message,
          m.channel,
        );
      }
      case "inventory:use":
        return useItem(w, id, data as ClientMessage<"inventory:use">);
      case "bank:deposit": {
        const m = data as ClientMessage<"bank:deposit">;
        bankDeposit(w, id, m.slot, m.quantity);
        return this.saveNow(id);
      }
      case "bank:withdraw": {
        const m = data as ClientMessage<"bank:withdraw">;
        bankWithdraw(w, id, m.itemId, m.quantity);
        return this.saveNow(id);
      }
    }
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
    s.client.leave(CLOSE_KICKED, "kicked");
  }

  /** One game tick: rules, then state to clients, then (every SAVE_INTERVAL) a save. */
  private tick() {
    const w = this.world;
    tickWorld(w);
    this.dispatch(w.events.drain());
    this.trades.tick();
    this.sync.syncState();
    const updates = this.sync.updateViews();
    for (const [playerId, update] of updates) this.sessions.get(playerId)?.client.send("world:update", update);
    for (const s of this.sessions.values()) {
      const p = w.players.get(s.playerId);
      if (p?.privateDirty) {
        s.client.send("player:sync", privateStateOf(w, p));
        p.privateDirty = false;
      }
    }
    this.broadcastPatch();
    if (w.tick % this.saveEveryTicks === 0) this.saver.saveDirty(w).catch(() => {});
    if (w.tick % LOCK_REFRESH_TICKS === 0) this.refreshLocks();
  }

  /** Keep the locks of the characters live or joining here from expiring. */
  private refreshLocks() {
    const ids = new Set([...this.sessions.keys(), ...this.lockUsers.keys()]);
    this.locks.refresh(ids).catch((err) => this.ctx.logger.warn({ err }, "could not refresh character locks"));
  }

  private dispatch(events: WorldEvent[]) {
    for (const e of events) {
      switch (e.kind) {
        case "xp":
          this.toPlayer(e.playerId, "skill:xp", { skill: e.skill, xp: e.xp, level: e.level, gained: e.gained });
          break;
        case "levelUp":
          this.toPlayer(e.playerId, "skill:levelup", { skill: e.skill, level: e.level });
          break;
        case "hit":
          for (const id of this.world.near("player", e.at, AOI_RADIUS)) {
            this.toPlayer(id, "combat:hit", { attackerId: e.attackerId, targetId: e.targetId, damage: e.damage, targetHealth: e.targetHealth });
          }
          break;
        case "notice":
          this.toPlayer(e.playerId, "notice", { code: e.code, message: e.message });
          break;
        case "actionFailed":
          this.toPlayer(e.playerId, "error", { code: e.code, message: e.message });
          break;
        case "npcKilled":
          this.toPlayer(e.playerId, "npc:killed", { npcId: e.npcId, position: { x: e.at.x, y: 0, z: e.at.z } });
          break;
        case "death": {
          this.toPlayer(e.playerId, "player:death", { deathId: e.deathId, position: { x: e.at.x, y: 0, z: e.at.z }, items: e.items, killedBy: e.killedBy });
          this.trades.playerDied(e.playerId);
          // The death lock and the emptied inventory are written together, now.
          const p = this.world.players.get(e.playerId);
          if (p) this.saver.save(this.world, [p]).catch(() => {});
          break;
        }
        case "deathExpired":
          this.saver.expireDeath(e.deathId).catch(() => {});
          break;
      }
    }
  }

  /** Does the account playing `playerId` ignore `fromId`? */
  private isIgnoring(playerId: string, fromId: string): boolean {
    const s = this.sessions.get(playerId);
    return s !== undefined && this.ignores.ignores(s.accountId, fromId);
  }

  private toPlayer(playerId: string, type: string, payload: unknown) {
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

