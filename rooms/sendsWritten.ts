import type { WebSocket } from "ws";
import { InMemoryRoomClient } from "./inMemoryClient.js";

/**
 * Resolves once everything sent to a WebSocket so far has been written to its connection: a ping
 * goes out behind it (frames leave a `ws` socket in the order they were sent) and its callback
 * runs once the ping is written. Resolves at once for a socket that is not open (nothing more will
 * reach it). A pong comes back and is ignored, as every heartbeat's is.
 */
export function socketWritten(socket: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.readyState !== socket.OPEN) return resolve();
    try {
      socket.ping(undefined, undefined, () => resolve());
    } catch {
      resolve();
    }
  });
}

/**
 * Resolves once what the room sent to `client` so far is on its way: written to its socket (an
 * SDK client's WebSocket), or handed on by the in-process client (the /ws adapter's socket, an
 * agent, an MCP session), or `withinMs` passed (a client that reads nothing never holds a stop up).
 */
export function sendsWritten(client: unknown, withinMs: number): Promise<void> {
  const written =
    client instanceof InMemoryRoomClient
      ? client.written()
      : isWebSocket((client as { ref?: unknown })?.ref)
        ? socketWritten((client as { ref: WebSocket }).ref)
        : Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)));
  return Promise.race([written, deadline]).finally(() => clearTimeout(timer));
}

export const isWebSocket = (ref: unknown): ref is WebSocket =>
  typeof (ref as { ping?: unknown })?.ping === "function" && typeof (ref as { readyState?: unknown }).readyState === "number";
