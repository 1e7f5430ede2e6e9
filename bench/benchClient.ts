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

/** Size of the WebSocket frame header the server would add in front of a payload (server frames are unmasked). */
export function wsFrameHeader(payloadBytes: number): number {
  return payloadBytes < 126 ? 2 : payloadBytes < 65536 ? 4 : 10;
}

/** What one client has been sent: payload bytes (what its WebSocket would deliver) and frames. */
export interface ByteCounter {
  bytes: number;
  /** Payload plus the WebSocket frame header of each frame. */
  wireBytes: number;
  frames: number;
  /** State frames (ROOM_STATE / ROOM_STATE_PATCH) among them. */
  stateBytes: number;
  stateFrames: number;
}

export const emptyCounter = (): ByteCounter => ({ bytes: 0, wireBytes: 0, frames: 0, stateBytes: 0, stateFrames: 0 });

/**
 * An in-memory transport client: it implements the server-side Client the room talks to, the way
 * @colyseus/ws-transport's WebSocketClient does, but `raw()` only counts the bytes a socket would
 * carry. Nothing is decoded. It answers the JOIN_ROOM handshake like the SDK does, and its player
 * sends room messages through the same `ref` "message" event the WebSocket transport uses.
 */
export class BenchClient implements Client, ClientPrivate {
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

  readonly counter: ByteCounter = emptyCounter();
  closed = false;
  closeCode?: number;

  constructor(sessionId: string) {
    this.id = this.sessionId = sessionId;
    this.ref.setMaxListeners(0);
  }

  get readyState() {
    return this.closed ? 3 : 1;
  }

  raw(data: Uint8Array | Buffer, _options?: ISendOptions, cb?: (err?: Error) => void) {
    if (this.closed) return cb?.(new Error("closed"));
    const n = data.byteLength;
    const c = this.counter;
    c.bytes += n;
    c.wireBytes += n + wsFrameHeader(n);
    c.frames++;
    const code = data[0] & 0x1f;
    if (code === Protocol.ROOM_STATE || code === Protocol.ROOM_STATE_PATCH) {
      c.stateBytes += n;
      c.stateFrames++;
    } else if (code === Protocol.JOIN_ROOM) {
      // The SDK acknowledges the handshake with the bare JOIN_ROOM byte; then the room sends the full state.
      queueMicrotask(() => this.receive(Buffer.from([Protocol.JOIN_ROOM])));
    }
    cb?.();
  }

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

  /** The room closed this client (kick, take-over, shutdown): the socket would close. */
  leave(code?: number) {
    if (this.closed) return;
    this.closed = true;
    this.closeCode = code;
    this.ref.emit("close", code);
  }

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

  /** The player disconnects (the socket closes). */
  disconnect() {
    this.leave(1000);
  }

  toJSON() {
    return { sessionId: this.sessionId, readyState: this.readyState };
  }
}

/**
 * Join a BenchClient the way a real client joins: the matchmaker's joinOrCreate (the room's static
 * onAuth, a seat reservation), then the transport's connect step (seat check, the room's onAuth and
 * onJoin), then the JOIN_ROOM handshake. Resolves once the room has sent the full state.
 */
export async function joinBenchClient(token: string, options: Record<string, unknown>, roomName = "world"): Promise<{ client: BenchClient; room: Room }> {
  const authContext: AuthContext = createAuthContext({ headers: {}, token, remoteAddress: "127.0.0.1" });
  const reservation = await matchMaker.joinOrCreate(roomName, options, authContext);
  const room = matchMaker.getLocalRoomById(reservation.roomId);
  if (!room) throw new Error(`room ${reservation.roomId} is not in this process`);
  const client = new BenchClient(reservation.sessionId);
  await connectClientToRoom(room, client, authContext, {});
  // The handshake acknowledgement was queued as a microtask: let it run.
  await new Promise<void>((resolve) => setImmediate(resolve));
  if ((client.state as number) !== ClientState.JOINED) throw new Error(`bench client did not join (state ${client.state})`);
  return { client, room };
}
