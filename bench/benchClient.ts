import { Protocol } from "@colyseus/core";
import { InMemoryRoomClient, joinInMemory } from "../rooms/inMemoryClient.js";
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
 * An in-memory client whose `raw()` only counts the bytes a socket would carry; nothing is decoded.
 * (The joining and handshake are the /ws adapter's in-memory client's: src/ws/roomClients.ts.)
 */
export class BenchClient extends InMemoryRoomClient {
  readonly counter: ByteCounter = emptyCounter();

  protected onRaw(data: Uint8Array | Buffer) {
    const n = data.byteLength;
    const c = this.counter;
    c.bytes += n;
    c.wireBytes += n + wsFrameHeader(n);
    c.frames++;
    const code = data[0] & 0x1f;
    if (code === Protocol.ROOM_STATE || code === Protocol.ROOM_STATE_PATCH) {
      c.stateBytes += n;
      c.stateFrames++;
    }
  }

  /** The player disconnects (the socket closes). */
  disconnect() {
    this.leave(1000);
  }
}

/** Join a BenchClient through the real join path. */
export function joinBenchClient(token: string, options: Record<string, unknown>, roomName = "world") {
  return joinInMemory((sessionId) => new BenchClient(sessionId), token, options, roomName);
}
