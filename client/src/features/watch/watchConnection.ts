import { Client, type Room } from "@colyseus/sdk";
import { SERVER_MESSAGE_TYPES } from "../../../../src/protocol/serverMessages.js";
import type { RoomMessage, RoomMessageType, ServerMessage, ServerMessageType, SpectateEnd } from "../../../../src/protocol/index.js";
import { PLAYER_STANDING, WorldListeners, type Handler, type Standing, type WorldConnection } from "../../connection.js";
import { StateMirror } from "./stateMirror.js";

/** How a watch ended: the server's `spectate:ended` (the agent left, was taken over, the token expired), or the connection lost without one. */
export interface WatchEnd {
  reason: SpectateEnd | "lost";
  message: string;
  /** The close code (4110 WATCH_ENDED after `spectate:ended`). */
  code: number;
}

/**
 * A spectator's connection to the world room: joined with a watch token, it is sent
 * `spectate:started`, then what the agent is sent (its `player:sync`, so `me` is the agent, every
 * `world:update` whole, its events). The room's state holds no entities for a spectator: `state`
 * is a mirror built from the `world:update` messages (stateMirror.ts). It sends nothing: the
 * server would refuse it (SPECTATOR), and the page puts its acting parts away (readOnly.ts); a send
 * the page tries anyway is counted in `dropped` and goes nowhere. When the agent leaves the world
 * the server says `spectate:ended` and closes the connection (4110): `onEnded` hears it, and
 * `watchIn` watches again once the agent plays.
 */
export class WatchConnection implements WorldConnection {
  private readonly listeners = new WorldListeners();
  private readonly endListeners: Array<(end: WatchEnd) => void> = [];
  private current!: Room<any>;
  /** The page's own leave is under way (it is no end to report). */
  private leaving = false;
  /** The agent's private state, as the last `player:sync` gave it. */
  me!: ServerMessage<"player:sync">;
  /** A spectator has no standing of its own. */
  readonly standing: Standing = PLAYER_STANDING;
  /** The world as the agent sees it. */
  readonly state = new StateMirror();
  /** Whom it watches, and in which world, as the last `spectate:started` said. */
  watched!: ServerMessage<"spectate:started">;
  /** It watches now (false once the watch ended, until it watches again). */
  watching = false;
  /** Room messages the page tried to send (none is sent). */
  dropped = 0;
  /** Called for each send the page tried. */
  onDropped: (type: string) => void = () => {};

  private constructor(
    private readonly serverUrl: string,
    /** The watch token: the join's, and the Bearer of the activity calls. */
    readonly token: string,
  ) {}

  /** Watch the token's agent in `world` (GET /api/agents/:agentId/activity says where it plays). */
  static async watch(serverUrl: string, token: string, world: number): Promise<WatchConnection> {
    const connection = new WatchConnection(serverUrl, token);
    await connection.watchIn(world);
    return connection;
  }

  /** Join `world` as the agent's spectator; resolves once the agent's `player:sync` came. */
  async watchIn(world: number): Promise<void> {
    const client = new Client(this.serverUrl);
    client.auth.token = this.token;
    const room = await client.joinOrCreate("world", { world });
    // Nothing to resume: a spectator holds no seat through a drop, so a lost connection watches anew.
    room.reconnection.enabled = false;
    const synced = new Promise<void>((resolve, reject) => this.bind(room, resolve, reject));
    this.current = room;
    this.listeners.joined(room);
    await synced;
  }

  /** Watch again in the world watched last. */
  rejoin(): Promise<void> {
    return this.watchIn(this.watched.world);
  }

  /** Stop watching (no end is reported for it). */
  async leave(): Promise<void> {
    this.leaving = true;
    this.watching = false;
    await this.current?.leave(true);
  }

  private bind(room: Room<any>, synced: () => void, failed: (err: Error) => void) {
    let started = false;
    let ended: ServerMessage<"spectate:ended"> | null = null;
    // Types this client does not know (a newer server's) are let pass.
    room.onMessage("*", () => {});
    for (const type of SERVER_MESSAGE_TYPES) {
      room.onMessage(type, (data: unknown) => {
        if (room !== this.current) return;
        if (type === "spectate:started") {
          this.watched = data as ServerMessage<"spectate:started">;
          this.state.clear();
        } else if (type === "world:update") this.state.apply(data as ServerMessage<"world:update">);
        else if (type === "spectate:ended") ended = data as ServerMessage<"spectate:ended">;
        else if (type === "player:sync") this.me = data as ServerMessage<"player:sync">;
        this.listeners.dispatch(type, data);
        if (type === "player:sync" && !started) {
          started = this.watching = true;
          synced();
        }
      });
    }
    room.onLeave((code: number) => {
      if (room !== this.current) return;
      this.watching = false;
      if (!started) return failed(new Error(ended?.message ?? `The watch closed before it began (${code})`));
      if (this.leaving) return;
      const end: WatchEnd = ended ? { ...ended, code } : { reason: "lost", message: "The connection to the world was lost", code };
      for (const fn of this.endListeners) fn(end);
    });
  }

  /** Call `fn` when a watch under way ends (not the page's own leave). */
  onEnded(fn: (end: WatchEnd) => void) {
    this.endListeners.push(fn);
  }

  get room(): Room<any> {
    return this.current;
  }

  onRoom(fn: (room: Room<any>) => void) {
    this.listeners.onRoom(fn, this.current);
  }

  /** The agent's player id: the view follows it. */
  get playerId(): string {
    return this.me.id;
  }

  /** A spectator acts on nothing: the message is not sent. */
  send<T extends RoomMessageType>(type: T, _data: RoomMessage<T>): void {
    this.dropped++;
    this.onDropped(type);
  }

  on<K extends ServerMessageType>(type: K, fn: Handler<K>): void {
    this.listeners.on(type, fn);
  }
}
