import { Client, type Room } from "@colyseus/sdk";
import { SERVER_MESSAGE_TYPES } from "../../src/protocol/serverMessages.js";
import type { RoomMessage, RoomMessageType, ServerMessage, ServerMessageType } from "../../src/protocol/index.js";
import type { GroundItemView, NpcView, PlayerView, ResourceView, StationView } from "../../src/protocol/index.js";

/** The parts of a schema map the client reads. */
export interface StateMap<T> {
  get(id: string): T | undefined;
  forEach(cb: (value: T, key: string) => void): void;
  readonly size: number;
}

/** The world room's synchronised state (schema/WorldState.ts), as the SDK decodes it. */
export interface WorldStateView {
  tick: number;
  players: StateMap<PlayerView>;
  npcs: StateMap<NpcView>;
  resources: StateMap<ResourceView>;
  groundItems: StateMap<GroundItemView>;
  stations: StateMap<StationView>;
}

/** The account's standing (`account:standing`): its staff role and a mute in force. */
export type Standing = ServerMessage<"account:standing">;

/** Everyone's standing until the server says otherwise: a player, not muted. */
export const PLAYER_STANDING: Standing = { role: "player", muted: null };

export type Handler<K extends ServerMessageType> = (data: ServerMessage<K>) => void;

/**
 * What the game asks of its connection to the world: a player's (Connection, below), or a
 * spectator's watching an agent (client/src/features/watch/watchConnection.ts), which sends nothing.
 */
export interface WorldConnection {
  /** The Bearer of the REST calls made for it. */
  readonly token: string;
  /** The player's own state (a spectator's: the agent's), as the last `player:sync` gave it. */
  readonly me: ServerMessage<"player:sync">;
  readonly standing: Standing;
  readonly room: Room<any>;
  readonly playerId: string;
  readonly state: WorldStateView;
  rejoin(): Promise<void>;
  onRoom(fn: (room: Room<any>) => void): void;
  send<T extends RoomMessageType>(type: T, data: RoomMessage<T>): void;
  on<K extends ServerMessageType>(type: K, fn: Handler<K>): void;
}

/**
 * What a connection to the world keeps for the page: the handlers of each server message type, and
 * of each room joined (the first now, the next after a join again). Connection and the watch
 * mode's WatchConnection both hold one.
 */
export class WorldListeners {
  private readonly handlers = new Map<ServerMessageType, Array<(data: unknown) => void>>();
  private readonly rooms: Array<(room: Room<any>) => void> = [];

  on<K extends ServerMessageType>(type: K, fn: Handler<K>): void {
    const list = this.handlers.get(type) ?? [];
    list.push(fn as (data: unknown) => void);
    this.handlers.set(type, list);
  }

  dispatch(type: ServerMessageType, data: unknown) {
    for (const fn of this.handlers.get(type) ?? []) fn(data);
  }

  /** Call `fn` with `current` now, and with each room joined later (`joined`). */
  onRoom(fn: (room: Room<any>) => void, current: Room<any>) {
    this.rooms.push(fn);
    fn(current);
  }

  joined(room: Room<any>) {
    for (const fn of this.rooms) fn(room);
  }
}

/**
 * The world room over @colyseus/sdk, typed by src/protocol: `send` takes only the messages the
 * server accepts, each with its payload's type; `on` hands each handler the payload its message
 * carries. A misspelled message or field does not compile. After the server closed the room (a
 * restart), `rejoin` enters the world again with the same character, and every handler goes on.
 */
export class Connection implements WorldConnection {
  private readonly listeners = new WorldListeners();
  private current!: Room<any>;
  /** The player's own private state, as the last `player:sync` gave it. */
  me!: ServerMessage<"player:sync">;
  /** The account's standing, as the last `account:standing` gave it. */
  standing: Standing = PLAYER_STANDING;

  private constructor(
    private readonly serverUrl: string,
    /** The account's server token: the join's, and the Bearer of the REST calls made for it (the staff's). */
    readonly token: string,
  ) {}

  /** Join the world with a server token (the character: `characterId`, or the account's first; `name` for a new one). */
  static async join(serverUrl: string, token: string, options: { name?: string; characterId?: string }): Promise<Connection> {
    const connection = new Connection(serverUrl, token);
    await connection.enter(options);
    return connection;
  }

  /** Enter the same world again with the same character (after a restart closed the room, or the world moved to another process). */
  rejoin(): Promise<void> {
    const world = /^world-(\d+)$/.exec(this.current?.roomId ?? "")?.[1];
    return this.enter({ characterId: this.me.id, ...(world ? { world: Number(world) } : {}) });
  }

  private async enter(options: { name?: string; characterId?: string; world?: number }) {
    const client = new Client(this.serverUrl);
    client.auth.token = this.token;
    const room = await client.joinOrCreate("world", options);
    // A new room starts from everyone's standing: the server says so at the join when it differs.
    if (this.standing !== PLAYER_STANDING) this.dispatch("account:standing", PLAYER_STANDING);
    // The first message after the join is the player's own state: it says who we are.
    const synced = new Promise<void>((resolve) => this.bind(room, resolve));
    this.current = room;
    this.listeners.joined(room);
    await synced;
  }

  private bind(room: Room<any>, synced: () => void) {
    // Types this client does not know (a newer server's, a development tool's) are let pass.
    room.onMessage("*", () => {});
    for (const type of SERVER_MESSAGE_TYPES) {
      room.onMessage(type, (data: unknown) => {
        if (type === "player:sync") synced();
        this.dispatch(type, data);
      });
    }
  }

  private dispatch(type: ServerMessageType, data: unknown) {
    if (type === "player:sync") this.me = data as ServerMessage<"player:sync">;
    if (type === "account:standing") this.standing = data as Standing;
    this.listeners.dispatch(type, data);
  }

  /** The room joined last. */
  get room(): Room<any> {
    return this.current;
  }

  /** Call `fn` with the room now, and with each room joined again later. */
  onRoom(fn: (room: Room<any>) => void) {
    this.listeners.onRoom(fn, this.current);
  }

  get playerId(): string {
    return this.me.id;
  }

  get state(): WorldStateView {
    return this.room.state as WorldStateView;
  }

  send<T extends RoomMessageType>(type: T, data: RoomMessage<T>): void {
    this.room.send(type, data);
  }

  on<K extends ServerMessageType>(type: K, fn: Handler<K>): void {
    this.listeners.on(type, fn);
  }
}
