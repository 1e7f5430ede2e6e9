import { STATUS_CODES, type IncomingMessage, type Server as HttpServer } from "node:http";
import type { Duplex } from "node:stream";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { WebSocketServer } from "ws";
import type { ServerContext } from "../context.js";
import { clientAddressOf } from "../http/rateLimit.js";
import { WsConnection } from "./connection.js";
import { WsSeats } from "./seats.js";
import { WS_LIMITS } from "./protocol.js";
import { CLOSE_CODES } from "../protocol/index.js";

export const WS_PATH = "/ws";

export function isWsPath(req: IncomingMessage): boolean {
  const pathname = (req.url ?? "/").split("?")[0];
  return pathname === WS_PATH || pathname === WS_PATH + "/";
}

/**
 * The /ws endpoint on the shared http server: it takes the upgrades the Colyseus transport leaves
 * alone, runs the plain JSON protocol on each socket (WsConnection), and drops dead peers: a socket
 * that has not answered the previous ping when the next one is due is terminated. One address may
 * hold at most WS_MAX_CONNECTIONS_PER_ADDRESS sockets: over it the upgrade is refused with 429.
 * A dropped socket's player stays in the world for RECONNECT_GRACE_S, to be resumed (seats.ts).
 */
export function attachWsEndpoint(
  httpServer: HttpServer,
  ctx: ServerContext,
  options: { heartbeatMs?: number; authenticateWithinMs?: number; guestLimiter?: RateLimiterAbstract } = {},
) {
  // Frames over the limit close the socket with CLOSE_CODES.TOO_BIG, 1009 (ws does this itself).
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_LIMITS.maxFrameBytes });
  const connections = new Map<import("ws").WebSocket, WsConnection>();
  const seats = new WsSeats(ctx.config.reconnectGraceS * 1000);
  wss.on("connection", (socket, req: IncomingMessage) => {
    connections.set(socket, new WsConnection(socket, req, ctx, seats, options.authenticateWithinMs, options.guestLimiter));
    socket.on("close", () => connections.delete(socket));
  });
  const addressOf = clientAddressOf(ctx.config);
  const cap = ctx.config.ws.maxConnectionsPerAddress;
  /** Open sockets (and upgrades under way) per client address. */
  const perAddress = new Map<string, number>();
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!isWsPath(req)) return;
    socket.on("error", () => socket.destroy());
    if (socket.destroyed) return;
    const address = addressOf(req);
    const open = perAddress.get(address) ?? 0;
    if (open >= cap) {
      ctx.logger.warn({ address, open }, "/ws connection refused: too many open from this address");
      return refuseUpgrade(socket, 429, "TOO_MANY_CONNECTIONS", `At most ${cap} open /ws connections per address: close one first`);
    }
    // Counted from the upgrade on (so a burst cannot slip past the cap), until the TCP socket closes.
    perAddress.set(address, open + 1);
    socket.once("close", () => {
      const n = (perAddress.get(address) ?? 1) - 1;
      if (n > 0) perAddress.set(address, n);
      else perAddress.delete(address);
    });
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
    close: async (code: number = CLOSE_CODES.GOING_AWAY, reason = "server shutting down") => {
      clearInterval(heartbeat);
      httpServer.off("upgrade", onUpgrade);
      // Players still parked leave now, and so does any socket's from here on (no resume is coming).
      seats.close();
      for (const client of wss.clients) client.close(code, reason);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** Answer an upgrade request with an HTTP error (the documented REST body) and close the connection. */
function refuseUpgrade(socket: Duplex, status: number, code: string, message: string) {
  const body = JSON.stringify({ success: false, error: { code, message } });
  socket.once("finish", () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
