import { ServerError } from "@colyseus/core";
import { addressBanMessage, addressBanOf, refusesLogin } from "../src/db/addressBans.js";
import type { SqlRunner } from "../src/db/sql.js";
import type { Logger } from "pino";
import type { TokenClaims } from "../src/auth/tokens.js";
import {
  CharacterAccessError,
  CHARACTER_NAME,
  isUniqueViolation,
  itemsFingerprint,
  statsFingerprint,
  questsFingerprint,
  loadCharacter,
  loadOrCreateCharacter,
} from "../src/db/characterRepo.js";
import type { IgnoreLists } from "../src/db/socialRepo.js";
import { accountOnJoin, endSession, startSession } from "../src/db/worldRepo.js";
import type { WorldSaver } from "../src/db/worldSaver.js";
import { ADMIN_MAX_ATTEMPTS, AdminGate, AdminLockouts } from "../src/game/chat.js";
import { bannedMessage } from "../src/game/staff.js";
import { standingView, type Standing, type StandingView } from "../src/db/staffRepo.js";
import { isMuted } from "./worldStaff.js";
import { startingInventory } from "../src/game/inventory.js";
import type { CharacterSnapshot } from "../src/game/world/entities.js";
import { addPlayer, privateStateOf, removePlayer } from "../src/game/world/players.js";
import type { World } from "../src/game/world/World.js";
import { CLOSE_CODES, describeZodError, JoinOptions } from "../src/protocol/index.js";
import { TICK_MS } from "../src/protocol/vocabulary.js";
import { IN_COMBAT_TICKS } from "../src/game/world/combatState.js";
import type { RoomCharacterLocks } from "./characterLocks.js";
import type { ProtocolClient } from "./protocolClient.js";
import type { ChatSession } from "./worldChat.js";
import type { WorldInterest } from "./interest/worldInterest.js";
import type { StoreDesk } from "./storeDesk.js";
import type { TradeDesk } from "./tradeDesk.js";
import type { OpenDesk } from "../src/worldDesks.js";

/** A client's session in the world: its character, account and database session. */
export interface Session extends ChatSession {
  accountId: string;
  dbSessionId: string;
  /** How it plays (its join's clientType): colyseus (an SDK client), ws (the /ws adapter), runtime (a built-in agent), mcp. */
  clientType: string;
  /** Takes world:update in the changes form (joined with `worldUpdates: "changes"`; rooms/interest/updateForms.ts). */
  updatesAsChanges: boolean;
  /** Set when another login took this character over: its leave must not save or remove. */
  replaced: boolean;
  /** An SDK client, which may reconnect with its reconnection token after a drop (the /ws adapter keeps its own seats; agents leave). */
  reconnectable: boolean;
  /** Played as an agent: by the built-in runtime, an MCP session, or a client with an agent token (people may watch it: rooms/worldWatchers.ts). */
  playsAsAgent: boolean;
  /** The server is closing this connection (a kick): a drop is then no drop. */
  closing?: boolean;
  /** While dropped: the room's wait for the client to come back (rejected to give up on it). */
  awaitingReconnection?: { reject(reason?: unknown): void };
}

/** What a client's join was authenticated as: its token's claims, and the address it came from (null: none, a built-in agent). */
export type JoinAuth = TokenClaims & { address?: string | null };

export type WorldClient = ProtocolClient<Session, JoinAuth>;

/** What the sessions need of their world room. */
export interface SessionsContext {
  sql: SqlRunner;
  /** The key of the world's rows (its id). */
  worldKey: string;
  logger: Logger;
  world: World;
  /** Interest management (rooms/interest/worldInterest.ts). */
  interest: WorldInterest;
  saver: WorldSaver;
  trades: TradeDesk;
  stores: StoreDesk;
  /** The features' desks (a duel's). */
  desks: readonly OpenDesk[];
  ignores: IgnoreLists;
  locks: RoomCharacterLocks;
  /** Online sessions by character id (the room's map). */
  sessions: Map<string, Session>;
  /** The spectators (rooms/worldWatchers.ts): told of each session placed (an agent's is tapped) and ended (its spectators let go). */
  watchers: { placed(session: Session): void; ended(characterId: string, reason: "left" | "replaced"): void };
  /** Is the client still in the room (not left while its join was loading)? */
  inRoom(client: WorldClient): boolean;
  /** The account's standing (role, ban, mute) as the database has it now. */
  standing(accountId: string): Promise<Standing>;
  /** Why joins are refused now (a restart's last seconds), or undefined. */
  admissionRefusal(): string | undefined;
}

/**
 * Joining and leaving the world: a join loads (or creates) the character, takes its presence lock
 * (another room holding it, or a session here, is taken over), places the player and sends its
 * first state; a leave saves it and lets the lock go once written. One account's joins run one at
 * a time, and a character that just left is loaded only once its save is written.
 */
export class WorldSessions {
  /** Joins in progress, by account. */
  private readonly joining = new Map<string, Promise<void>>();
  /** Leaves still saving; `settled()` waits for them. */
  /** Leaves still saving, with the account each is of. */
  private readonly leaving = new Map<Promise<void>, string | undefined>();
  /** Wrong /admin codes per account, kept across its sessions (reconnecting buys no guesses). */
  private readonly adminLockouts = new AdminLockouts();

  constructor(private readonly c: SessionsContext) {}

  async join(client: WorldClient, rawOptions: unknown) {
    const parsed = JoinOptions.safeParse(rawOptions ?? {});
    if (!parsed.success) throw new ServerError(400, `Invalid join options: ${describeZodError(parsed.error)}`);
    const options = parsed.data;
    const auth = client.auth!;
    if (options.name !== undefined && !CHARACTER_NAME.test(options.name)) {
      throw new ServerError(400, "name: 1-12 letters, digits and single spaces");
    }
    // An agent token may drive only its own character.
    const characterId = auth.characterId ?? options.characterId;
    if (auth.characterId && options.characterId && options.characterId !== auth.characterId) {
      throw new ServerError(403, "This token drives another character");
    }

    // Joins of one account run one at a time, so one character never enters twice at once.
    const previousJoin = this.joining.get(auth.sub) ?? Promise.resolve();
    // The account's ignore list is loaded before its player appears; each session holds it until it
    // leaves. The account (with its first character's id) and its ignore list are read at once, then
    // its character: a token may outlive its account, and then nothing else counts.
    const thisJoin = previousJoin.then(async () => {
      const [account, held, standing, addressBan] = await Promise.allSettled([
        accountOnJoin(this.c.sql, auth.sub),
        this.c.ignores.hold(auth.sub),
        this.c.standing(auth.sub),
        addressBanOf(this.c.sql, auth.address),
      ]);
      if (account.status === "rejected") throw account.reason;
      if (!account.value.exists) throw new ServerError(401, "The token's account does not exist");
      if (held.status === "rejected") throw held.reason;
      if (standing.status === "rejected") throw standing.reason;
      // A banned account is refused at every way in; so is every join in a restart's last seconds.
      const ban = standing.value.ban;
      if (ban) throw new ServerError(CLOSE_CODES.BANNED, bannedMessage(ban.reason, ban.endsAt));
      // A ban by address refuses guests (scope guests) or everyone (scope all) from it; never the staff.
      if (addressBan.status === "rejected") throw addressBan.reason;
      if (refusesLogin(addressBan.value, { guest: account.value.guest, staff: standing.value.role !== "player" }))
        throw new ServerError(CLOSE_CODES.BANNED, addressBanMessage(addressBan.value!));
      const closing = this.c.admissionRefusal();
      if (closing) throw new ServerError(CLOSE_CODES.RESTART, closing);
      const view = standingView(standing.value);
      await this.enter(client, await this.load(options, auth, characterId, account.value.firstCharacterId), options, auth, view);
    });
    const tail = thisJoin.catch(() => {});
    this.joining.set(auth.sub, tail);
    try {
      await thisJoin;
    } finally {
      if (this.joining.get(auth.sub) === tail) this.joining.delete(auth.sub);
      if (!client.userData) this.c.ignores.release(auth.sub); // no session was made
    }
  }

  leave(client: WorldClient): Promise<void> {
    const accountId = client.userData?.accountId;
    const done = this.saveOnLeave(client).finally(() => this.leaving.delete(done));
    this.leaving.set(done, accountId);
    return done;
  }

  /** Resolves once every leave so far is saved and recorded, and every save captured is written. */
  async settled() {
    await Promise.allSettled([...this.leaving.keys()]);
    await this.c.saver.flush();
  }

  /** Leaves still saving have finished (the world is being disposed of). */
  async leavesDone() {
    await Promise.allSettled([...this.leaving.keys()]);
  }

  /** The account's characters that were leaving are saved (each leave waits for its own save). */
  private async accountSettled(accountId: string) {
    await Promise.allSettled([...this.leaving].filter(([, of]) => of === accountId).map(([done]) => done));
  }

  /** Another room asks for one of our characters: save and close its session here, then let it go. */
  async letGo(characterId: string) {
    const session = this.c.sessions.get(characterId);
    await this.c.locks.hold(characterId, async () => {
      if (session) await this.takeOver(session);
    });
  }

  /** The character a join asks for (the account's first, `first` as found by accountOnJoin, or a new one). */
  private async load(options: { name?: string }, auth: TokenClaims, characterId: string | undefined, first: string | null): Promise<CharacterSnapshot> {
    // A character of this account that just left may still be saving: load only once that save is
    // written (the saves of everyone else do not hold a join up).
    await this.accountSettled(auth.sub);
    try {
      return await loadOrCreateCharacter(
        this.c.sql,
        auth.sub,
        characterId,
        () => ({
          accountId: auth.sub,
          name: options.name,
          spawn: this.c.world.spawnTile,
          inventory: startingInventory(this.c.world.data.starterKit, this.c.world.data.items),
        }),
        first,
      );
    } catch (err) {
      if (err instanceof CharacterAccessError) throw new ServerError(err.code === "CHARACTER_NOT_FOUND" ? 404 : 403, err.message);
      if (isUniqueViolation(err)) throw new ServerError(400, "name: that name is taken");
      throw err;
    }
  }

  private async enter(
    client: WorldClient,
    loaded: CharacterSnapshot,
    options: { worldUpdates?: JoinOptions["worldUpdates"]; clientType?: string },
    auth: JoinAuth,
    standing: StandingView,
  ) {
    let snap = loaded;
    // A character is live in one room: its lock is taken here (another room holding it saves and
    // closes its session first, and the character is loaded again from that save).
    const id = snap.id;
    await this.c.locks.hold(id, async () => {
      if ((await this.c.locks.acquire(id)).tookOver) snap = (await loadCharacter(this.c.sql, id)) ?? snap;
      // In this room, a second login takes over from the first.
      const previous = this.c.sessions.get(id);
      if (previous) snap = await this.takeOver(previous);
      if (!this.c.inRoom(client)) return; // left while loading
      await this.place(client, snap, options, auth, standing);
    });
  }

  private async place(
    client: WorldClient,
    snap: CharacterSnapshot,
    options: { worldUpdates?: JoinOptions["worldUpdates"]; clientType?: string },
    auth: JoinAuth,
    standing: StandingView,
  ) {
    const { world, interest } = this.c;
    const player = addPlayer(world, snap);
    // An MCP session's player is shown as an agent while it plays (never saved: the character's own flag stays).
    if (options.clientType === "mcp") player.isAgent = true;
    player.persistedStats = statsFingerprint(snap);
    player.persistedItems = itemsFingerprint(snap);
    player.persistedQuests = questsFingerprint(snap);
    const dbSessionId = await startSession(this.c.sql, snap.id, auth.sub, options.clientType ?? "colyseus", this.c.worldKey, auth.address ?? null);
    if (!this.c.inRoom(client)) {
      // Left while the session was being recorded: take the character out again.
      removePlayer(world, player.id);
      await this.c.saver.save(world, [player]);
      await endSession(this.c.sql, dbSessionId, "logout");
      return;
    }
    const session: Session = {
      playerId: player.id,
      client,
      accountId: auth.sub,
      dbSessionId,
      clientType: options.clientType ?? "colyseus",
      admin: new AdminGate(ADMIN_MAX_ATTEMPTS, { lockouts: this.adminLockouts, accountId: auth.sub }),
      replaced: false,
      reconnectable: (options.clientType ?? "colyseus") === "colyseus",
      updatesAsChanges: options.worldUpdates === "changes",
      playsAsAgent: auth.role === "agent" || options.clientType === "runtime" || options.clientType === "mcp",
      standing,
    };
    client.userData = session;
    this.c.sessions.set(player.id, session);
    this.c.watchers.placed(session);

    // The /ws adapter's clients, the built-in agents and MCP sessions take world:update JSON instead of schema patches: no StateView.
    const patches = options.clientType !== "ws" && options.clientType !== "runtime" && options.clientType !== "mcp";
    // The view the session's client is encoded through is the interest implementation's to set (it may change as it moves between zones).
    const first = interest.join(player.id, { json: Boolean(options.worldUpdates), setView: patches ? (view) => (session.client.view = view) : undefined });
    client.send("player:sync", privateStateOf(world, player));
    player.privateDirty = false;
    if (first) client.send("world:update", first);
    // Staff and muted players learn their standing at once (everyone else's is the default: a player, not muted).
    if (standing.role !== "player" || isMuted(standing))
      client.send("account:standing", { role: standing.role, muted: isMuted(standing) ? standing.mute : null });
  }

  /**
   * A dropped SDK client came back (`room.reconnect(token)`, or the SDK's own automatic
   * reconnection) within the grace period: the same session goes on on the new connection, which
   * is sent its private state at once (the schema state comes with the reconnection).
   */
  reconnected(client: WorldClient) {
    const session = client.userData;
    if (!session || session.replaced) throw new Error("that session is over");
    session.client = client;
    session.awaitingReconnection = undefined;
    this.c.watchers.placed(session);
    const p = this.c.world.players.get(session.playerId);
    if (!p) throw new Error("that player left the world");
    client.send("player:sync", privateStateOf(this.c.world, p));
    p.privateDirty = false;
  }

  /**
   * A /ws session resumed on a new socket (src/ws/seats.ts), having missed what was sent while it
   * was gone: it is sent, as at a join, its private state and everything in view, and where its
   * trades stand. False (and nothing sent) when the session is over or being taken over.
   */
  resend(client: WorldClient): boolean {
    const { world, interest } = this.c;
    const session = client.userData;
    const p = session ? world.players.get(session.playerId) : undefined;
    const viewing = session !== undefined && interest.seenBy(session.playerId) !== undefined;
    if (!session || session.replaced || session.client !== client || !p || !viewing) return false;
    const full = interest.resend(session.playerId);
    client.send("player:sync", privateStateOf(world, p));
    p.privateDirty = false;
    if (full) client.send("world:update", full);
    this.c.trades.retell(p.id);
    return true;
  }

  /** Save and remove the character's current session so a new login can continue from it. */
  private async takeOver(previous: Session) {
    previous.replaced = true;
    // A dropped session taken over is not waited for any longer.
    previous.awaitingReconnection?.reject(new Error("replaced"));
    this.c.sessions.delete(previous.playerId);
    this.c.watchers.ended(previous.playerId, "replaced");
    this.c.ignores.release(previous.accountId);
    const snap = await this.removeSaved(previous, () => {
      this.c.interest.leave(previous.playerId);
      previous.client.send("session:replaced", { message: "You logged in somewhere else" });
      previous.client.leave(CLOSE_CODES.REPLACED, "replaced by a new login");
    });
    await endSession(this.c.sql, previous.dbSessionId, "replaced");
    return snap!;
  }

  private async saveOnLeave(client: WorldClient) {
    const session = client.userData;
    if (!session || session.replaced) return;
    // The character's lock is kept until its save is written.
    await this.c.locks.hold(session.playerId, async () => {
      this.c.sessions.delete(session.playerId);
      this.c.watchers.ended(session.playerId, "left");
      this.c.ignores.release(session.accountId);
      this.c.interest.leave(session.playerId);
      try {
        await this.heldInWorld(session.playerId);
        await this.removeSaved(session);
      } finally {
        await endSession(this.c.sql, session.dbSessionId, "logout").catch((err) => this.c.logger.error({ err }, "could not end session"));
      }
    });
  }

  /**
   * A player who leaves in the middle of a fight between players stays in the world (and may be
   * killed) while a feature holds it there (World.logoutHeld): at most IN_COMBAT_TICKS ticks after
   * its last blow. A world that is stopping holds no one.
   */
  private async heldInWorld(playerId: string) {
    const deadline = Date.now() + (IN_COMBAT_TICKS + 2) * TICK_MS;
    for (;;) {
      const p = this.c.world.players.get(playerId);
      if (!p || !this.c.world.logoutHeld(p) || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, TICK_MS / 2));
    }
  }

  /**
   * The player leaves the world and is saved. A trade or store deal being committed is written
   * first, so the save includes it; an open trade ends as the player leaves (its partner is told at
   * once); what a feature's desk commits for it (a duel's fight lost, and its settlement) is written first too.
   */
  private async removeSaved(session: Session, beforeSave?: () => void): Promise<CharacterSnapshot | null> {
    const { world, trades, stores, desks, saver } = this.c;
    await trades.commitsSettled(session.playerId);
    await stores.settled(session.playerId);
    for (const d of desks) await d.desk.leaving(session.playerId);
    const entity = world.players.get(session.playerId);
    const snap = removePlayer(world, session.playerId);
    trades.flush();
    beforeSave?.();
    if (entity) await saver.save(world, [entity]);
    return snap;
  }
}
