import { ServerError } from "@colyseus/core";
import type { AgentActivity } from "../src/agentActivity.js";
import type { Standing } from "../src/db/staffRepo.js";
import { bannedMessage } from "../src/game/staff.js";
import { privateStateOf } from "../src/game/world/players.js";
import type { World } from "../src/game/world/World.js";
import { CLOSE_CODES, type ServerMessageType, type SpectateEnd, type WorldUpdate } from "../src/protocol/index.js";
import type { WorldState } from "../schema/WorldState.js";
import { eventLine } from "./activityLines.js";
import { COLLECTION, collectionOf, KINDS } from "./interest/stateCollections.js";
import { wholeForm } from "./interest/updateForms.js";
import type { WorldInterest } from "./interest/worldInterest.js";
import type { Session, WorldClient } from "./worldSessions.js";

/** Spectators one agent may have at once. */
export const WATCHERS_PER_AGENT = 10;
/** Spectators one world may hold at once (they take seats of its capacity too). */
export const WATCHERS_PER_WORLD = 100;

/** What an agent is sent that its spectators are not: its own account's business. */
const NOT_FORWARDED: ReadonlySet<string> = new Set<ServerMessageType>(["session:replaced", "account:standing", "world:redirect", "authenticated"]);

const END_MESSAGES: Record<SpectateEnd, string> = {
  left: "The agent left this world",
  replaced: "The agent's character was taken over by another login",
  expired: "The watch token expired: ask its owner for a new watch link",
};

export interface WatchersContext {
  world: World;
  worldId: number;
  state: WorldState;
  interest: WorldInterest;
  /** Online sessions by character id (the room's map). */
  sessions: Map<string, Session>;
  activity: AgentActivity;
  /** The account's standing (a ban) as the database has it now. */
  standing(accountId: string): Promise<Standing>;
}

type Sender = { send(type: string, data: unknown, options?: unknown): void };

/**
 * The people watching agents in one world room, and what the agents' sessions are sent. Every
 * session played as an agent (the built-in runtime's, an MCP session's, a client with an agent
 * token: an external runtime; not its owner playing the character in person) has
 * its sends tapped: each notable event it is told of is written to its activity
 * (ctx.activity, rooms/activityLines.ts), and everything it is sent goes to its spectators too
 * (`world:update` in the whole form) but what concerns only its account (NOT_FORWARDED).
 *
 * A spectator is a room client joined with a watch token (role "spectator", src/auth/tokens.ts):
 * it has no player and no session, is sent `spectate:started`, the agent's `player:sync` and
 * everything the agent holds in view, then what the agent is sent; every message it sends is
 * refused SPECTATOR. When the agent's session ends, or the token expires, it is told
 * `spectate:ended` and let go (close 4110 WATCH_ENDED).
 */
export class WorldWatchers {
  /** Spectators by the character they watch. */
  private readonly watching = new Map<string, Set<WorldClient>>();
  /** Each spectator's character, and the timer of its token's end. */
  private readonly spectators = new Map<WorldClient, { characterId: string; expiry: NodeJS.Timeout }>();
  /** The clients whose sends are tapped (a client is tapped once, whatever sessions it holds). */
  private readonly tapped = new WeakSet<object>();
  /** Each agent's last event line, so a line repeated at once (made one more, refused again) is written once. */
  private readonly lastLine = new Map<string, string>();

  constructor(private readonly c: WatchersContext) {}

  isSpectator(client: WorldClient): boolean {
    return this.spectators.has(client);
  }

  get size(): number {
    return this.spectators.size;
  }

  /** A session came into the world or onto a new connection: an agent's is tapped. */
  placed(session: Session): void {
    if (!session.playsAsAgent) return;
    const client = session.client as unknown as Sender;
    if (this.tapped.has(client)) return;
    this.tapped.add(client);
    const send = client.send.bind(client);
    const characterId = session.playerId;
    client.send = (type, data, options) => {
      send(type, data, options);
      // Only while the client still holds the character's session (not after a take-over).
      if (this.c.sessions.get(characterId) === session) this.told(characterId, type, data);
    };
  }

  /** The character's session ended (it left, or another login took it over): its spectators are let go. */
  ended(characterId: string, reason: "left" | "replaced"): void {
    this.lastLine.delete(characterId);
    for (const client of [...(this.watching.get(characterId) ?? [])]) this.dismiss(client, reason);
  }

  /** A spectator's join: the account that made its token must stand (not banned), and the agent it names be in this world. */
  async watch(client: WorldClient): Promise<void> {
    const auth = client.auth!;
    const standing = await this.c.standing(auth.sub);
    if (!standing.exists) throw new ServerError(401, "The watch token's account does not exist");
    if (standing.ban) throw new ServerError(CLOSE_CODES.BANNED, bannedMessage(standing.ban.reason, standing.ban.endsAt));
    const characterId = auth.characterId!;
    const session = this.c.sessions.get(characterId);
    const p = this.c.world.players.get(characterId);
    if (!session || !p) throw new ServerError(404, "That agent is not in this world: GET /api/agents/:agentId/activity says where it plays");
    // Its owner playing the character in person is not watched.
    if (!session.playsAsAgent)
      throw new ServerError(409, "That agent's character is played by a person now, not by an agent: watch again once an agent plays it");
    if (this.spectators.size >= WATCHERS_PER_WORLD) throw new ServerError(503, `This world already holds ${WATCHERS_PER_WORLD} spectators`);
    const set = this.watching.get(characterId) ?? new Set<WorldClient>();
    if (set.size >= WATCHERS_PER_AGENT) throw new ServerError(429, `At most ${WATCHERS_PER_AGENT} people may watch one agent at once`);
    this.watching.set(characterId, set);
    set.add(client);
    const expiry = setTimeout(() => this.dismiss(client, "expired"), Math.max(0, auth.exp * 1000 - Date.now()));
    expiry.unref();
    this.spectators.set(client, { characterId, expiry });
    client.send("spectate:started", { agentId: auth.agentId!, characterId, name: p.name, world: this.c.worldId });
    client.send("player:sync", privateStateOf(this.c.world, p));
    client.send("world:update", this.inView(characterId));
  }

  /** A client left: true when it was a spectator (nothing else to do for it). */
  left(client: WorldClient): boolean {
    const s = this.spectators.get(client);
    if (!s) return false;
    clearTimeout(s.expiry);
    this.spectators.delete(client);
    const set = this.watching.get(s.characterId);
    set?.delete(client);
    if (set?.size === 0) this.watching.delete(s.characterId);
    return true;
  }

  private dismiss(client: WorldClient, reason: SpectateEnd) {
    if (!this.left(client)) return;
    const message = END_MESSAGES[reason];
    client.send("spectate:ended", { reason, message });
    client.leave(CLOSE_CODES.WATCH_ENDED, message);
  }

  /** What the agent was sent: its activity's line, and its spectators' copy. */
  private told(characterId: string, type: string, data: unknown) {
    const line = eventLine(this.c.world, type as ServerMessageType, data as never);
    if (line && this.lastLine.get(characterId) !== line) {
      this.lastLine.set(characterId, line);
      this.c.activity.record(characterId, "event", line);
    }
    const watchers = this.watching.get(characterId);
    if (!watchers || NOT_FORWARDED.has(type)) return;
    const out = type === "world:update" ? wholeForm(data as WorldUpdate) : data;
    for (const w of watchers) (w as unknown as Sender).send(type, out);
  }

  /** Everything the agent holds in view now (as of the last tick), whole, and the agent itself. */
  private inView(characterId: string): WorldUpdate {
    const seen = this.c.interest.seenBy(characterId);
    const update: WorldUpdate = { tick: this.c.world.tick, players: [], npcs: [], resources: [], groundItems: [], stations: [], removed: [] };
    for (const kind of KINDS) {
      const ids = new Set(seen?.[kind] ?? []);
      if (kind === "player") ids.add(characterId);
      const collection = collectionOf(this.c.state, kind);
      const list = update[COLLECTION[kind]] as object[];
      for (const id of ids) {
        const s = collection.get(id);
        if (s) list.push(s.toJSON());
      }
    }
    return update;
  }
}
