import type { IncomingMessage, Server as HttpServer } from "node:http";
import type { Duplex } from "node:stream";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { WebSocketServer } from "ws";
import type { ServerContext } from "../context.js";
import { WsConnection } from "./connection.js";
import { WS_LIMITS } from "./protocol.js";

export const WS_PATH = "/ws";

export function isWsPath(req: IncomingMessage): boolean {
  const pathname = (req.url ?? "/").split("?")[0];
  return pathname === WS_PATH || pathname === WS_PATH + "/";
}

/**
 * The /ws endpoint on the shared http server: it takes the upgrades the Colyseus transport leaves
 * alone, runs the plain JSON protocol on each socket (WsConnection), and drops dead peers: a socket
 * that has not answered the previous ping when the next one is due is terminated.
 */
export function attachWsEndpoint(httpServer: HttpServer, ctx: ServerContext, options: { heartbeatMs?: number; authenticateWithinMs?: number; guestLimiter?: RateLimiterAbstract } = {}) {
  // Frames over the limit close the socket with 1009 (ws does this itself).
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_LIMITS.maxFrameBytes });
  const connections = new Map<import("ws").WebSocket, WsConnection>();
  wss.on("connection", (socket, req: IncomingMessage) => {
    connections.set(socket, new WsConnection(socket, req, ctx, options.authenticateWithinMs, options.guestLimiter));
    socket.on("close", () => connections.delete(socket));
  });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!isWsPath(req)) return;
    socket.on("error", () => socket.destroy());
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
  };
  httpServer.on("upgrade", onUpgrade);

  const heartbeat = setInterval(() => {
    for (const [socket, conn] of connections) {
      if (!conn.alive) {
        socket.terminate();
        continue;
      }
      conn.alive = false;
      socket.ping();
    }
  }, options.heartbeatMs ?? WS_LIMITS.heartbeatMs);
  heartbeat.unref();

  return {
    wss,
    /** Close every /ws socket with `code` and stop accepting new ones. */
    close: async (code = 1001, reason = "server shutting down") => {
      clearInterval(heartbeat);
      httpServer.off("upgrade", onUpgrade);
      for (const client of wss.clients) client.close(code, reason);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
