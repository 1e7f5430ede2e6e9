import { WebSocket as NodeWebSocket } from "ws";

/**
 * Colyseus 0.18 reads the global `WebSocket` (its `OPEN` state) when a client reconnects to a room;
 * Node has that global from version 22. On an older Node the `ws` package's class, which the
 * transport uses anyway, stands in for it; on Node 22 and later nothing changes.
 */
if (typeof globalThis.WebSocket === "undefined") {
  Object.defineProperty(globalThis, "WebSocket", { value: NodeWebSocket, writable: true, configurable: true });
}
