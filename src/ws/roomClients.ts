import { CloseCode, Protocol } from "@colyseus/core";
import type { WebSocket } from "ws";
import { InMemoryRoomClient } from "../../rooms/inMemoryClient.js";
import { socketWritten } from "../../rooms/sendsWritten.js";
import { CLOSE_CODES, type PlayerSync, type ServerMessageArgs, type WorldUpdate } from "../protocol/index.js";
import { frame, frameOf } from "./protocol.js";
import { sendFrame } from "./corkedSend.js";
import type { WireMeter } from "../../rooms/wireMeter.js";

/**
 * The room's side of a /ws player: what the world room sends it becomes JSON frames on its socket.
 * Frames are held back until the adapter has told the client it is authenticated. While its
 * socket is gone (a drop, within the grace period: src/ws/seats.ts) what the room sends is
 * dropped; a resume attaches the new socket.
 */
export class WsRoomClient extends InMemoryRoomClient {
  /** The id of the client frame being handled: replies and errors it causes echo it. */
  replyTo: string | undefined;
  /** Frames held back, with their message types. */
  private held: Array<[type: string, text: string]> | null = [];
  firstSync: PlayerSync | undefined;
  /** Every entity the socket has been shown and not yet told is gone (from the world:updates sent). */
  readonly shown = new Set<string>();
  /** A trade opened: the adapter takes the seat reserved in it (the /ws client never sees the reservation). */
  onTradeStarted: ((data: { tradeId: string; reservation: { roomId: string; sessionId: string } }) => void) | undefined;
  /** The client is out of the world (whoever ended it: the adapter, the room, the server shutting down). */
  onGone: (() => void) | undefined;
  /** Counts the frames of its world's messages (rooms/wireMeter.ts): set once its world is known. */
  meter: WireMeter | undefined;

  constructor(
    sessionId: string,
    private socket: WebSocket | undefined,
    /**
     * After an identity switch: what the socket still shows from its previous player's view. The
     * first `world:update` of this session lists those no longer in view as removed.
     */
    private carried: ReadonlySet<string> | undefined,
  ) {
    super(sessionId);
  }

  /** What the room sends: `type` narrows `message` to its payload (src/protocol). */
  send(...[type, message]: ServerMessageArgs) {
    if (this.closed) return;
    let data: unknown = message;
    if (type === "player:sync" && !this.firstSync) this.firstSync = message;
    if (type === "world:update" && message) {
      const update = this.carried ? completeFirstUpdate(message, this.carried) : message;
      this.carried = undefined;
      // While the socket is gone the client is shown nothing (a resume shows it everything again).
      if (this.held || this.open) noteShown(this.shown, update);
      data = update;
    }
    if (type === "tradeStarted" && message?.reservation) {
      const { reservation, ...rest } = message;
      this.onTradeStarted?.({ tradeId: message.tradeId, reservation });
      data = rest;
    }
    const text = frameOf(type, data ?? {}, this.replyTo);
    if (this.held) this.held.push([type, text]);
    else if (this.open) this.write(type, text);
  }

  /** A frame onto the socket, counted by its message type. */
  private write(type: string, text: string) {
    this.meter?.out(type, Buffer.byteLength(text));
    sendFrame(this.socket!, text);
  }

  /** Resolves once every frame sent so far is written to the socket (frames still held wait for no socket). */
  written(): Promise<void> {
    return this.open ? socketWritten(this.socket!) : Promise.resolve();
  }

  /** A socket is attached and open (false while a dropped player waits to be resumed). */
  get open(): boolean {
    return this.socket !== undefined && this.socket.readyState === this.socket.OPEN;
  }

  /** Binary room frames (schema state and patches) are for SDK clients: /ws clients get `world:update`. */
  protected onRaw(data: Uint8Array | Buffer) {
    if ((data[0] & 0x1f) === Protocol.ERROR && this.open) {
      sendFrame(this.socket!, frame("error", { code: "ROOM_ERROR", message: "The world refused the connection" }));
    }
  }

  /** Let the held frames go (after `authenticated`). */
  release() {
    const held = this.held ?? [];
    this.held = null;
    for (const [type, text] of held) if (this.open) this.write(type, text);
  }

  /**
   * A resume: frames go to `socket` from now on, held until `release()`. Its first `world:update`
   * (the full view the room sends next) also lists in `removed` whatever `carried` holds and is no
   * longer in view.
   */
  plug(socket: WebSocket, carried: ReadonlySet<string>) {
    this.socket = socket;
    this.carried = carried;
    this.held = [];
    this.shown.clear();
  }

  /** The socket dropped: until a resume, what the room sends goes nowhere. */
  unplug() {
    this.socket = undefined;
    this.held = null;
  }

  /** Leave the world but keep the socket (the connection switches identity). */
  detach() {
    this.detached = true;
    this.leave(CLOSE_CODES.NORMAL);
  }
  private detached = false;

  /** The room let this client go: a take-over, a kick, or the server shutting down. */
  protected onLeave(code?: number) {
    this.onGone?.();
    // On shutdown the adapter closes every socket with 1001 once the rooms have saved.
    if (code === CloseCode.SERVER_SHUTDOWN || this.detached) return;
    // The server's own codes pass on (4000 and up, and 1012 for a restart); anything else is a normal close.
    if (this.open) this.socket!.close(code && (code >= 4000 || code === CLOSE_CODES.RESTART) ? code : CLOSE_CODES.NORMAL, "left the world");
  }
}

/** The /ws player's seat in a trade's room: it takes the room's state patches and ignores them. */
export class WsTradeClient extends InMemoryRoomClient {
  send() {}
}

const entitiesOf = (u: WorldUpdate) => [u.players, u.npcs, u.resources, u.groundItems, u.stations] as Array<Array<{ id: string }>>;

/** Keep `shown` as the client's screen after `update`: what it lists is shown, what it removes is gone. */
function noteShown(shown: Set<string>, update: WorldUpdate) {
  for (const list of entitiesOf(update)) for (const e of list) shown.add(e.id);
  for (const id of update.removed) shown.delete(id);
}

/**
 * A room session starts with an empty view, so its first `world:update` lists everything in view
 * and nothing as removed. A socket that outlives a session (switching identity) still shows what
 * the previous session was shown (`shown`): the next session's first update must also list, in
 * `removed`, each of those not in the new view (the previous player among them).
 */
export function completeFirstUpdate(update: WorldUpdate, shown: ReadonlySet<string>): WorldUpdate {
  const present = new Set<string>(update.removed);
  for (const list of entitiesOf(update)) for (const e of list) present.add(e.id);
  const gone = [...shown].filter((id) => !present.has(id));
  return gone.length ? { ...update, removed: [...update.removed, ...gone] } : update;
}
