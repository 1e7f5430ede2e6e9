import { EventEmitter } from "node:events";
import {
  ClientState,
  Protocol,
  connectClientToRoom,
  createAuthContext,
  enqueueClientRaw,
  getMessageBytes,
  matchMaker,
  type AuthContext,
  type Client,
  type ClientPrivate,
  type ISendOptions,
  type Room,
} from "@colyseus/core";

/**
 * A room client that lives in this process instead of behind a WebSocket: it implements the
 * server-side Client a Colyseus room talks to (as @colyseus/ws-transport's WebSocketClient does)
 * and joins through the real path (matchmaker seat reservation, the room's onAuth and onJoin).
 * Subclasses decide what becomes of what the room sends: the /ws adapter turns messages into JSON
 * frames, the built-in agents read them into their view, the benchmark counts bytes. A transport of
 * this process, so it lives with the rooms: it is the one that finds the reserved room in memory.
 */
export abstract class InMemoryRoomClient implements Client, ClientPrivate {
  "~messages": any;
  readonly ref = new EventEmitter();
  id: string;
  sessionId: string;
  state: ClientState = ClientState.JOINING;
  reconnectionToken = "";
  auth?: any;
  userData?: any;
  view?: any;

  _enqueuedMessages: any[] = [];
  _joinedAt = 0;
  _numMessagesLastSecond = 0;
  _messageCountResetsAt = 0;
  _lastMessageTime = 0;

  closed = false;
  closeCode?: number;

  constructor(sessionId: string) {
    this.id = this.sessionId = sessionId;
    this.ref.setMaxListeners(0);
  }

  get readyState() {
    return this.closed ? 3 : 1;
  }

  /** Bytes the room hands the transport (state, patches, encoded messages, handshake). */
  raw(data: Uint8Array | Buffer, _options?: ISendOptions, cb?: (err?: Error) => void) {
    if (this.closed) return cb?.(new Error("closed"));
    // The SDK acknowledges the join handshake with the bare JOIN_ROOM byte; then the room sends the full state.
    if ((data[0] & 0x1f) === Protocol.JOIN_ROOM) queueMicrotask(() => this.receive(Buffer.from([Protocol.JOIN_ROOM])));
    this.onRaw(data);
    cb?.();
  }

  /** What to do with the bytes the room sends (after the handshake is handled). */
  protected onRaw(_data: Uint8Array | Buffer): void {}

  enqueueRaw(data: Uint8Array | Buffer, options?: ISendOptions) {
    enqueueClientRaw(this, data, options);
  }

  send(type: any, message?: any, options?: ISendOptions) {
    this.enqueueRaw(getMessageBytes.raw(Protocol.ROOM_DATA, type, message), options);
  }

  sendBytes(type: string | number, bytes: Buffer | Uint8Array, options?: ISendOptions) {
    this.enqueueRaw(getMessageBytes.raw(Protocol.ROOM_DATA_BYTES, type, undefined, bytes), options);
  }

  error(code: number, message = "") {
    this.raw(getMessageBytes[Protocol.ERROR](code, message));
  }

  /** The room closed this client (kick, take-over, shutdown). */
  leave(code?: number) {
    if (this.closed) return;
    this.closed = true;
    this.closeCode = code;
    this.onLeave(code);
    this.ref.emit("close", code);
  }

  protected onLeave(_code?: number): void {}

  close(code?: number) {
    this.leave(code);
  }

  /** Bytes arriving from the player, exactly as a WebSocket frame would hand them to the room. */
  receive(frame: Buffer) {
    if (!this.closed) this.ref.emit("message", frame);
  }

  /** A room message, encoded the way @colyseus/sdk's `room.send(type, payload)` encodes it. */
  sendToRoom(type: string, payload?: unknown) {
    this.receive(getMessageBytes.raw(Protocol.ROOM_DATA, type, payload));
  }

  toJSON() {
    return { sessionId: this.sessionId, readyState: this.readyState };
  }
}

/**
 * Join an in-memory client the way a real client joins: the matchmaker's join of an existing room
 * (seat reservation; rooms are made by the server only), then the transport's connect step (seat check, the room's onAuth and onJoin), then
 * the JOIN_ROOM handshake. Resolves once the room has sent the full state.
 */
export async function joinInMemory<C extends InMemoryRoomClient>(
  make: (sessionId: string) => C,
  token: string,
  options: Record<string, unknown>,
  roomName = "world",
  remoteAddress = "127.0.0.1",
): Promise<{ client: C; room: Room }> {
  const authContext = inMemoryAuth(token, remoteAddress);
  const reservation = await matchMaker.join(roomName, options, authContext);
  return consumeInMemory(make, reservation, authContext);
}

/**
 * Take a seat reserved by the server (as a trade's tradeStarted hands out): the transport's
 * connect step and the handshake, as @colyseus/sdk's consumeSeatReservation does over a socket.
 */
export async function consumeInMemory<C extends InMemoryRoomClient>(
  make: (sessionId: string) => C,
  reservation: { roomId: string; sessionId: string },
  authContext: AuthContext,
): Promise<{ client: C; room: Room }> {
  const room = matchMaker.getLocalRoomById(reservation.roomId);
  if (!room) throw new Error(`room ${reservation.roomId} is not in this process`);
  const client = make(reservation.sessionId);
  await connectClientToRoom(room, client, authContext, {});
  // The handshake acknowledgement was queued as a microtask: let it run.
  await new Promise<void>((resolve) => setImmediate(resolve));
  if ((client.state as number) !== ClientState.JOINED) throw new Error(`client did not join the room (state ${client.state})`);
  return { client, room };
}

/** The authentication context of an in-memory client presenting `token`. */
export function inMemoryAuth(token: string, remoteAddress = "127.0.0.1"): AuthContext {
  return createAuthContext({ headers: {}, token, remoteAddress });
}
