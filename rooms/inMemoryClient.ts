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

  /** Resolves once what the room sent so far has left this process (in memory: at once; a subclass with a socket waits for it). */
  written(): Promise<void> {
    return Promise.resolve();
  }

  close(code?: number) {
    this.leave(code);
  }

  /** Bytes arriving from the player, exactly as a WebSocket frame would hand them to the room. */
  receive(frame: Buffer) {
    if (!this.closed) this.ref.emit("message", frame);
  }

  /** The room this client joined (set once the join is done): its messages go to its handlers directly. */
  room: Room | undefined;

  /**
   * A room message, as @colyseus/sdk's `room.send(type, payload)` sends it. Once joined it goes to
   * the room's handlers in place (`deliver`); before, and where the room would do more with it,
   * it is encoded as a frame the way the SDK encodes it.
   */
  sendToRoom(type: string, payload?: unknown) {
    if (this.closed) return;
    if (!this.room || !deliver(this.room, this, type, payload)) this.receive(getMessageBytes.raw(Protocol.ROOM_DATA, type, payload));
  }

  toJSON() {
    return { sessionId: this.sessionId, readyState: this.readyState };
  }
}

/** The room's handler registry, which Colyseus exposes for @colyseus/testing and the playground. */
interface Handlers {
  onMessageEvents?: { events: Record<string, unknown[] | undefined>; emit(type: string, ...args: unknown[]): void };
  onMessageValidators?: Record<string, unknown>;
  maxMessagesPerSecond: number;
  clock: { currentTime: number };
}

/** What Colyseus hands a typed handler as its third argument for a message that wants no reply. */
const NO_REPLY = Object.freeze({ id: undefined, reject: () => undefined, resolve: () => undefined });

/**
 * A message from an in-memory client to its room's handlers, as the room dispatches a ROOM_DATA
 * frame once decoded (Room#_onMessage): nothing from a leaving client; the room's count of a
 * client's messages per second; the type's handler, else the "*" handler. Both sides are in this
 * process, so the payload is not packed with msgpack to be unpacked at once (a /ws command's
 * round trip through msgpack was 7 % of /ws's busy time at N=100 in bench:ws); the handlers
 * validate it as they validate a decoded frame. False (send the frame instead) when the room
 * validates the type itself, or closes the client for its count, or exposes no handler registry.
 */
function deliver(room: Room, client: InMemoryRoomClient, type: string, payload: unknown): boolean {
  const r = room as unknown as Handlers;
  const events = r.onMessageEvents;
  if (!events || r.onMessageValidators?.[type] !== undefined) return false;
  if (client.state === ClientState.LEAVING) return true;
  const now = r.clock.currentTime;
  client._lastMessageTime = now;
  if (now >= (client._messageCountResetsAt ?? 0)) {
    client._numMessagesLastSecond = 0;
    client._messageCountResetsAt = now + 1000;
  } else if (client._numMessagesLastSecond + 1 > r.maxMessagesPerSecond) {
    // Over the count: the frame, so the room closes the client as it does.
    return false;
  } else client._numMessagesLastSecond++;
  if (events.events[type]?.length) events.emit(type, client, payload, NO_REPLY);
  else if (events.events["*"]?.length) events.emit("*", client, type, payload);
  else return false;
  return true;
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
  client.room = room;
  return { client, room };
}

/** The authentication context of an in-memory client presenting `token`. */
export function inMemoryAuth(token: string, remoteAddress = "127.0.0.1"): AuthContext {
  return createAuthContext({ headers: {}, token, remoteAddress });
}
