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

type Handler<K extends ServerMessageType> = (data: ServerMessage<K>) => void;

/**
 * The world room over @colyseus/sdk, typed by src/protocol: `send` takes only the messages the
 * server accepts, each with its payload's type; `on` hands each handler the payload its message
 * carries. A misspelled message or field does not compile.
 */
export class Connection {
  private readonly handlers = new Map<ServerMessageType, Array<(data: unknown) => void>>();
  /** The player's own private state, as the last `player:sync` gave it. */
  me!: ServerMessage<"player:sync">;

  private constructor(readonly room: Room<any>) {
    // Types this client does not know (a newer server's, a development tool's) are let pass.
    room.onMessage("*", () => {});
    for (const type of SERVER_MESSAGE_TYPES) {
      room.onMessage(type, (data: unknown) => {
        if (type === "player:sync") this.me = data as ServerMessage<"player:sync">;
        for (const fn of this.handlers.get(type) ?? []) fn(data);
      });
    }
  }

  /** Join the world with a server token (the character: `characterId`, or the account's first; `name` for a new one). */
  static async join(serverUrl: string, token: string, options: { name?: string; characterId?: string }): Promise<Connection> {
    const client = new Client(serverUrl);
    client.auth.token = token;
    const connection = new Connection(await client.joinOrCreate("world", options));
    // The first message after the join is the player's own state: it says who we are.
    await new Promise<void>((resolve) => connection.on("player:sync", () => resolve()));
    return connection;
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
    const list = this.handlers.get(type) ?? [];
    list.push(fn as (data: unknown) => void);
    this.handlers.set(type, list);
  }
}
