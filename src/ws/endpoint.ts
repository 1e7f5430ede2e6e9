import type { IncomingMessage, Server as HttpServer } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";

export const WS_PATH = "/ws";

export function isWsPath(req: IncomingMessage): boolean {
  const url = req.url ?? "/";
  const pathname = url.split("?")[0];
  return pathname === WS_PATH || pathname === WS_PATH + "/";
}

/**
 * The /ws endpoint on the shared http server: takes the upgrades the Colyseus transport leaves
 * alone and hands each accepted socket to `onConnection`.
 */
export function attachWsEndpoint(
  httpServer: HttpServer,
  onConnection: (socket: WebSocket, req: IncomingMessage) => void,
  options: { maxPayload?: number } = {},
) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? 64 * 1024 });
  wss.on("connection", onConnection);
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!isWsPath(req)) return;
    socket.on("error", () => socket.destroy());
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
  };
  httpServer.on("upgrade", onUpgrade);
  return {
    wss,
    /** Close every /ws socket with `code` and stop accepting new ones. */
    close: async (code = 1001, reason = "server shutting down") => {
      httpServer.off("upgrade", onUpgrade);
      for (const client of wss.clients) client.close(code, reason);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
