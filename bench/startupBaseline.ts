/**
 * The baseline of `npm run bench:startup`: the least a Colyseus + Express server is, started through
 * npm as `npm start` is (this one file through tsx, `node --import tsx`, as the game server's start
 * was when the baseline was set): one empty room kind, the WebSocket transport, and Express
 * answering GET /health. Listens on PORT; stops on SIGTERM.
 */
import http from "node:http";
import { defineRoom, defineServer, Room } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";

class EmptyRoom extends Room {}

const httpServer = http.createServer();
const transport = new WebSocketTransport({ noServer: true });
transport.attachToServer(httpServer);
const server = defineServer({
  rooms: { empty: defineRoom(EmptyRoom) },
  transport,
  greet: false,
  gracefullyShutdown: false,
  express: (app) => {
    app.get("/health", (_req, res) => void res.json({ status: "ok" }));
  },
});
await server.listen(Number(process.env.PORT ?? 5555));
process.once("SIGTERM", () => void server.gracefullyShutdown(true));
