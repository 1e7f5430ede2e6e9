import { CloseCode, matchMaker, Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import { raiseFlag } from "../src/db/flagRepo.js";
import { WorldWatchdog } from "./worldWatchdog.js";
import { isAddress, normalAddress } from "../src/db/addressBans.js";
import { ChatArchive, type SaidLine } from "../src/db/chatRepo.js";
import { meterSocket, wireMeter } from "./wireMeter.js";
import { TokenError, verifyToken } from "../src/auth/tokens.js";
import type { ServerContext } from "../src/context.js";
import { IgnoreLists } from "../src/db/socialRepo.js";
import { WorldSaver } from "../src/db/worldSaver.js";
import { TRADE_LIMITS, type TradeLimits } from "../src/game/trade.js";
import { privateStateOf } from "../src/game/world/players.js";
import type { World } from "../src/game/world/World.js";
import { onlinePlayers, tickDuration } from "../src/metrics.js";
import { CLOSE_CODES, type ServerMessage, type ServerMessageType } from "../src/protocol/index.js";
import { WorldState } from "../schema/WorldState.js";
import { CharacterLocks, RoomCharacterLocks } from "./characterLocks.js";
import { TickLoop } from "./tickLoop.js";
import { TickPhases, type WorldTickPhase } from "./tickPhases.js";
import { worldCommands } from "./worldCommands.js";
import { reportOnce, type EventContext } from "./worldEvents.js";
import { WorldSessions, type JoinAuth, type Session, type WorldClient } from "./worldSessions.js";
import { createWorld, restoreWorld } from "./worldSetup.js";
import { worldKey, worldMetadata, worldSpecOf, type WorldMetadata, type WorldSpec } from "../src/worldSpecs.js";
import { RecentTicks } from "./recentTicks.js";
import { makeInterest } from "./interest/interestKinds.js";
import type { InterestKind, WorldInterest } from "./interest/worldInterest.js";
import { firstStatesFrom } from "./interest/firstState.js";
import { StoreDesk } from "./storeDesk.js";
import { TradeDesk } from "./tradeDesk.js";
import type { OpenDesk } from "../src/worldDesks.js";
import { isRoomOp, roomOps } from "./roomOps.js";
import { AcrossWorlds } from "./acrossWorlds.js";
import { worldClaims } from "./cluster/worldHosting.js";
import { InMemoryRoomClient } from "./inMemoryClient.js";
import { sendsWritten } from "./sendsWritten.js";
import { routeWorldMessages } from "./worldMessages.js";
import { withCharacters, type InspectData } from "./roomInspect.js";
import { runTick, type TickParts } from "./worldTick.js";
import { TICK_MS } from "../src/protocol/vocabulary.js";
import { WorldStaff } from "./worldStaff.js";
import { standingOf } from "../src/db/staffRepo.js";
import { moderationOf } from "../src/staff/moderation.js";
import { restartsOf } from "../src/staff/restart.js";
import { applyContent, type WorldContentReport } from "../src/game/world/contentReload.js";
import type { GameData } from "../src/manifests/index.js";
import { WorldWatchers } from "./worldWatchers.js";
import { moveSessionsOut } from "./worldMove.js";

/** How long a stop waits for a client's socket to take what it was sent before it closes the session anyway. */
const SENDS_WRITTEN_MS = 2_000;

/**
 * One world shard. Thin: it authenticates, hands joins and leaves to its sessions
 * (rooms/worldSessions.ts), validates messages and hands them to the world's rules (src/game), runs
 * the tick and mirrors the world to clients.
 */
export class WorldRoom extends Room<{ state: WorldState; client: WorldClient; metadata: WorldMetadata }> {
  /** Set by arena.config.ts on the class it registers (see bindContext). */
  protected ctx!: ServerContext;

  state = new WorldState();
  /**
   * Flood protection for room clients (over it, Colyseus drops the client with 4002). Twice the
   * /ws limit (60 per second, counted in its own one-second windows), so a /ws client that keeps
   * to its limit can never trip the room's count across a window boundary.
   */
  maxMessagesPerSecond = 120;

  /** Which of the configured worlds this room is (its id, name and capacity). */
  spec!: WorldSpec;
  world!: World;
  /** Interest management: which of the world each client sees, and how it reaches it (rooms/interest/worldInterest.ts). */
  interest!: WorldInterest;
  saver!: WorldSaver;
  loop!: TickLoop;
  /** Trades between the players of this world. */
  trades!: TradeDesk;
  /** Purchases and sales at the world's stores. */
  stores!: StoreDesk;
  /** The features' desks (staked duels): their messages, their tick phases. */
  desks!: OpenDesk[];
  /** Private messages, trade and duel requests to players of other worlds. */
  private across!: AcrossWorlds;
  /** Flags clients that ask for more than the rules allow, and gains beyond play. */
  watchdog!: WorldWatchdog;
  /** Every line said here, kept CHAT_RETENTION_DAYS for the staff (src/db/chatRepo.ts). */
  chatLog!: ChatArchive;
  /** The staff here: standings (mutes, bans, roles), broadcasts, staff commands, the chat kept for reports. */
  staff!: WorldStaff;
  /** Online sessions by character id. */
  readonly sessions = new Map<string, Session>();
  /** The ignore lists of the accounts online here (chat and trade requests are filtered by them). */
  ignores!: IgnoreLists;
  /** Joining and leaving: loading, locking, placing and saving characters. */
  private players!: WorldSessions;
  /** The spectators watching this world's agents, and the agents' tapped sends. */
  watchers!: WorldWatchers;
  /** One character, one room: the presence locks of the characters live here. */
  private locks!: RoomCharacterLocks;
  private stopListening?: () => void;
  /** How the world's events reach the players. */
  private events!: EventContext;
  /** The tick's phases, timed into the tick histogram. */
  readonly phases = new TickPhases<WorldTickPhase | string>(tickDuration);
  /** The latest ticks' durations (for /status). */
  private readonly recentTicks = new RecentTicks();

  /**
   * `interest`: which implementation of interest management the room uses (rooms/interest/worldInterest.ts):
   * "shared" (the default) or "plain" (Colyseus's own StateView encoding, one view per client).
   */
  async onCreate(options: { worldId?: number; tradeLimits?: Partial<TradeLimits>; interest?: InterestKind } = {}) {
    const spec = (this.spec = worldSpecOf(this.ctx.config.worlds, options.worldId));
    this.maxClients = spec.capacity;
    this.metadata = worldMetadata(spec);
    this.autoDispose = false;
    this.patchRate = null;
    const key = worldKey(spec.id);
    this.ignores = new IgnoreLists(this.ctx.db.sql, this.ctx.logger);
    this.world = createWorld(this.ctx.gameData, {
      features: this.ctx.worldFeatures.list,
      tradeLimits: { ...TRADE_LIMITS, ...options.tradeLimits },
      ignoring: (playerId, fromId) => this.isIgnoring(playerId, fromId),
    });
    this.saver = new WorldSaver(this.ctx.db.sql, key, this.ctx.logger);
    await restoreWorld(this.world, key, this.ctx.db.prisma, this.ctx.logger);
    this.locks = new RoomCharacterLocks(new CharacterLocks(this.presence, this.roomId), (id) => this.sessions.has(id), this.ctx.logger);
    // The trade and store desks and the features': what they commit goes through the world's saver.
    const desk = {
      world: this.world,
      saver: this.saver,
      logger: this.ctx.logger,
      send: <K extends ServerMessageType>(playerId: string, type: K, data: ServerMessage<K>) => this.toPlayer(playerId, type, data),
      syncPlayer: (playerId: string) => this.syncPlayer(playerId),
    };
    this.trades = new TradeDesk({
      ...desk,
      worldRoomId: this.roomId,
      // The clients living in this process (the /ws adapter's, the agents') trade through the world room.
      usesTradeRoom: (playerId) => {
        const client = this.sessions.get(playerId)?.client;
        return client !== undefined && !(client instanceof InMemoryRoomClient);
      },
    });
    this.stores = new StoreDesk({ ...desk, worldName: key });
    this.desks = this.ctx.worldDesks.map((feature) => ({ feature, desk: feature.open(desk) }));
    this.interest = makeInterest(options.interest ?? "shared", {
      world: this.world,
      state: this.state,
      playerCap: this.ctx.config.viewPlayerCap,
      serializer: (this as unknown as { _serializer: unknown })._serializer,
      send: (playerId, frame) => this.sessions.get(playerId)?.client.raw(frame),
    });
    this.interest.syncState();
    firstStatesFrom(this, (client) => this.interest.firstState(client));
    this.watchers = new WorldWatchers({
      world: this.world,
      worldId: spec.id,
      state: this.state,
      interest: this.interest,
      sessions: this.sessions,
      activity: this.ctx.activity,
      standing: (accountId) => standingOf(this.ctx.db.prisma, accountId),
    });
    this.players = new WorldSessions({
      sql: this.ctx.db.sql,
      worldKey: key,
      logger: this.ctx.logger,
      world: this.world,
      interest: this.interest,
      saver: this.saver,
      trades: this.trades,
      stores: this.stores,
      desks: this.desks,
      ignores: this.ignores,
      locks: this.locks,
      sessions: this.sessions,
      watchers: this.watchers,
      inRoom: (client) => this.clients.includes(client),
      standing: (accountId) => standingOf(this.ctx.db.prisma, accountId),
      admissionRefusal: () => restartsOf(this.ctx).refusal(),
    });
    // Another room (in a cluster, another process) taking one of our characters over.
    this.stopListening = await this.locks.locks.listen((characterId) => void this.players.letGo(characterId));
    this.chatLog = new ChatArchive(this.ctx.db.prisma, this.ctx.logger, this.ctx.config.chatRetentionDays);
    void this.chatLog.purge();
    const said = (line: Omit<SaidLine, "at" | "world">) => this.chatLog.record({ ...line, at: new Date(), world: String(spec.id) });
    this.across = new AcrossWorlds({
      sql: this.ctx.db.sql,
      world: this.ctx.world,
      logger: this.ctx.logger,
      worldId: spec.id,
      isHere: (playerId) => this.world.players.has(playerId),
      said,
    });
    this.staff = new WorldStaff({ world: this.world, worldId: spec.id, sessions: this.sessions, moderation: moderationOf(this.ctx), logger: this.ctx.logger });
    const commands = worldCommands({
      world: this.world,
      logger: this.ctx.logger,
      chat: {
        adminCode: this.ctx.config.adminCode,
        sessions: this.sessions,
        ignores: this.ignores,
        staff: this.staff,
        said,
        sendPrivate: (session, toName, message) =>
          this.across.privateMessage({ ...session, name: this.world.players.get(session.playerId)?.name ?? "" }, toName, message),
      },
      saveNow: (playerId) => this.saveNow(playerId),
      stores: this.stores,
      features: this.ctx.worldFeatures.commands,
    });
    this.events = {
      world: this.world,
      toPlayer: (playerId, type, payload) => this.toPlayer(playerId, type, payload),
      playerDied: (playerId) => {
        const p = this.world.players.get(playerId);
        if (p) this.saver.save(this.world, [p]).catch(() => {});
      },
      deathExpired: (deathId) => void this.saver.expireDeath(deathId).catch(() => {}),
      unknownEffect: reportOnce(this.ctx.logger),
      contentWarning: (message) => this.ctx.logger.warn({ world: key }, message),
    };
    this.watchdog = new WorldWatchdog({
      world: this.world,
      worldId: spec.id,
      sessions: this.sessions,
      raise: (s) =>
        void raiseFlag(this.ctx.db.prisma, s).catch((err) =>
          this.ctx.logger.warn({ err: (err as Error).message, kind: s.kind }, "a flag could not be written"),
        ),
    });
    routeWorldMessages({
      on: (type, handler) => this.onMessage(type, handler),
      world: this.world,
      logger: this.ctx.logger,
      commands,
      events: this.events,
      trades: this.trades,
      desks: this.desks,
      across: this.across,
      spectating: (client) => this.watchers.isSpectator(client),
      watchdog: this.watchdog,
    });
    const tick: TickParts = {
      world: this.world,
      phases: this.phases,
      events: this.events,
      trades: this.trades,
      desks: this.desks,
      stores: this.stores,
      interest: this.interest,
      sessions: this.sessions,
      locks: this.locks,
      saveEveryTicks: Math.max(1, Math.round((this.ctx.config.saveInterval * 1000) / TICK_MS)),
      broadcastPatch: () => this.broadcastPatch(),
      syncPlayer: (playerId) => this.syncPlayer(playerId),
      watchdog: this.watchdog,
    };
    this.loop = new TickLoop(
      TICK_MS,
      () => runTick(tick),
      1000,
      (ms) => {
        tickDuration.observe({ phase: "total" }, ms / 1000);
        this.recentTicks.add(ms);
        onlinePlayers.set({ world: String(this.spec.id) }, this.world.players.size);
      },
    );
    this.loop.begin();
  }

  onAuth(_client: Client, _options: unknown, context: AuthContext): JoinAuth {
    if (this.movingOut) throw new ServerError(503, `World ${this.spec.id} is moving to another server process: join again in a moment`);
    try {
      // A watch token joins too, as a spectator (rooms/worldWatchers.ts). The address: the socket's
      // (as TRUST_PROXY reads it: arena.config.ts), or the one an in-process client joined for.
      const claims = verifyToken(context.token, this.ctx.config.jwtSecret, { watch: true });
      return { ...claims, address: context.ip && isAddress(context.ip) ? normalAddress(context.ip) : null };
    } catch (err) {
      if (err instanceof TokenError) throw new ServerError(401, err.message);
      throw err;
    }
  }

  onJoin(client: WorldClient, options: unknown) {
    meterSocket(client, wireMeter(this.spec.id, "sdk"));
    if (client.auth?.role === "spectator") return this.watchers.watch(client);
    return this.players.join(client, options);
  }

  /**
   * A connection dropped without a leave (a Wi-Fi blip): an SDK player stays in the world, as in the
   * classic game's logout timer, for RECONNECT_GRACE_S, and `room.reconnect(token)` (or the SDK's
   * automatic reconnection) resumes the same session. Past the grace period it leaves and is saved
   * as on any leave (`onLeave`). A kick, a take-over, a flood and the agent clients leave at once.
   * A /ws player's grace is the adapter's (src/ws/seats.ts): its room client stays while the socket
   * is gone, and a resume asks for its state again (`resendState`).
   */
  onDrop(client: WorldClient, code?: number) {
    const session = client.userData;
    const grace = this.ctx.config.reconnectGraceS;
    if (!session || !session.reconnectable || session.replaced || session.closing || grace <= 0 || code === CloseCode.WITH_ERROR) return;
    const waiting = this.allowReconnection(client, grace);
    // (While the room is being disposed of, Colyseus answers with a plain rejected promise.)
    session.awaitingReconnection = { reject: (reason) => typeof waiting.reject === "function" && waiting.reject(reason) };
    // Given up on (timed out, taken over): Colyseus calls onLeave, which saves.
    waiting.catch(() => {});
  }

  onReconnect(client: WorldClient) {
    meterSocket(client, wireMeter(this.spec.id, "sdk"));
    this.players.reconnected(client);
  }

  onLeave(client: WorldClient) {
    if (this.watchers.left(client)) return;
    const playerId = client.userData?.playerId;
    if (playerId) {
      this.staff.chat.forget(playerId);
      this.watchdog.left(playerId);
    }
    const left = this.players.leave(client);
    const closed = this.closing.get(client);
    if (closed) {
      this.closing.delete(client);
      void left.finally(closed);
    }
    return left;
  }

  /**
   * The /ws adapter resumed a dropped session on a new socket (its client never left the room):
   * the session is sent its state again, as at a join. False when that session is over.
   */
  resendState(sessionId: string): boolean {
    const client = this.clients.getById(sessionId);
    return client !== undefined && this.players.resend(client);
  }

  /**
   * An op of the world facade on this room (rooms/cluster/worldFacade.ts): called in this process, or by
   * another process as a remote room call; JSON in and out.
   */
  facade(op: unknown, args: unknown): unknown {
    if (!isRoomOp(op) || !Array.isArray(args)) return null;
    return (roomOps[op] as (room: WorldRoom, ...a: unknown[]) => unknown)(this, ...args);
  }

  /** The players in the world, and its latest ticks: how many, their median and p99 duration in ms. */
  tickSummary(): { players: number; ticks: number; medianMs: number; p99Ms: number } {
    return { players: this.world?.players.size ?? 0, ...this.recentTicks.summary() };
  }

  /** Resolves once every leave so far is saved and recorded, and every save captured is written. */
  settled() {
    return this.players.settled();
  }

  async onDispose() {
    this.loop?.stop();
    if (this.spec) onlinePlayers.remove({ world: String(this.spec.id) });
    this.stopListening?.();
    if (!this.world) return;
    // Leaves still saving finish first (the database closes after the rooms).
    await this.players.leavesDone();
    // Every stop calls off first (callOff, before the sessions close); a room disposed of otherwise does it here, for nobody.
    await this.callOff();
    await this.stores.settled();
    await this.stores.saveDirty().catch(() => {});
    // The ground as it is at the stop: its items keep their age across the restart.
    await this.saver.saveWhole(this.world, []).catch(() => {});
    await this.saver.flush();
    await this.chatLog.close();
    // Everyone here is saved: their characters are free to go live elsewhere, and the world to run on another process.
    await Promise.allSettled([...this.sessions.keys()].map((id) => this.locks.locks.release(id)));
    await worldClaims(this.presence)
      .release(this.spec.id, matchMaker.processId)
      .catch(() => {});
  }

  /** The admin monitor's view of this room (/colyseus): each client with its character and account. */
  async getInspectData(): Promise<InspectData> {
    return withCharacters(await (Room.prototype as unknown as { getInspectData(this: Room): Promise<InspectData> }).getInspectData.call(this), this);
  }

  /** Items that moved through the bank are written at once, not at the next periodic save. */
  private saveNow(playerId: string) {
    const p = this.world.players.get(playerId);
    if (p) this.saver.save(this.world, [p]).catch(() => {});
  }

  /** Save every player of this world now (a staff's save-all, a restart); how many. */
  async saveAll(): Promise<number> {
    const players = [...this.world.players.values()];
    await this.saver.saveWhole(this.world, players);
    await this.saver.flush();
    return players.length;
  }

  /**
   * A content reload (src/staff/contentReload.ts): the world takes the new data now, between two
   * ticks, and every player hears of it (`system:broadcast` kind `content`).
   */
  applyContent(data: GameData): WorldContentReport {
    const report = applyContent(this.world, data);
    this.staff.broadcast({
      message: "The world's content was updated",
      from: "server",
      world: this.spec.id,
      kind: "content",
      contentVersion: data.version,
      timestamp: new Date().toISOString(),
    });
    return report;
  }

  /**
   * The world is stopping (a scheduled restart, SIGTERM, SIGINT: each calls this before it closes a
   * session, src/staff/restart.ts and arena.config.ts): what is half agreed is called off
   * (World.callOff: trades and duels end `server_shutdown`, fighters walk out, nothing moves, none
   * opens any more), both sides of each are told, with their player:sync, commits and settlements
   * under way finish, and it resolves once what was sent is written to each client's socket.
   */
  async callOff(): Promise<void> {
    if (!this.world) return;
    this.world.callOff("The server is shutting down: everyone keeps their own");
    await Promise.all([this.trades.stopped(), ...this.desks.map((d) => d.desk.stopped())]);
    for (const id of this.sessions.keys()) if (this.world.players.get(id)?.privateDirty) this.syncPlayer(id);
    await Promise.all([...this.sessions.values()].map((s) => sendsWritten(s.client, SENDS_WRITTEN_MS)));
  }

  /** Set once the world moves out (a drain): joins are refused until it runs on another process. */
  private movingOut = false;

  /**
   * The world leaves this process (a drain, rooms/cluster/worldHosting.ts): everyone saved, told
   * `world:moving` with a resume token, and closed with 4103 (rooms/worldMove.ts); how many.
   */
  async moveOut(hosts: string[], next: string | null = null): Promise<number> {
    this.movingOut = true;
    // Listed as moving: the directory says "starting" and sends nobody here any more.
    await this.setMetadata({ ...this.metadata, moving: true });
    return moveSessionsOut(this, hosts, next);
  }

  /** Clients closed by closeAll, each with what settles its wait for the room to let it go. */
  private readonly closing = new Map<object, () => void>();

  /** Close every session here with `code` (a restart: everyone was saved just before; each leave saves again). */
  closeAll(code: number, reason: string): Promise<void> {
    const left: Promise<void>[] = [];
    for (const s of this.sessions.values()) {
      s.closing = true;
      left.push(new Promise<void>((resolve) => this.closing.set(s.client, resolve)));
      s.awaitingReconnection?.reject(new Error(reason));
      s.client.leave(code, reason);
    }
    // Settles once the room has let each of them go and saved it (its onLeave's save written).
    return Promise.all(left).then(() => undefined);
  }

  /** Close a player's session at an admin's request (in this world, or from another through the facade). */
  kick(playerId: string, by: string) {
    const s = this.sessions.get(playerId);
    if (!s) return;
    s.client.send("notice", { code: "KICKED", message: `You were removed from the world by ${by}` });
    s.closing = true;
    s.awaitingReconnection?.reject(new Error("kicked"));
    s.client.leave(CLOSE_CODES.KICKED, "kicked");
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
