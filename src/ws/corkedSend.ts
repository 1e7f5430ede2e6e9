import type { Socket } from "node:net";
import type { WebSocket } from "ws";

/** The sockets corked in this turn of the event loop (uncorked together once its I/O is handled). */
const corked: Socket[] = [];

function uncorkAll() {
  for (const s of corked.splice(0)) s.uncork();
}

/**
 * Send a text frame; the frames sent to one socket in one turn of the event loop (a tick's
 * world:update and player:sync; the replies to every frame that arrived in that turn, such as
 * both traders' steps) leave in one write instead of one system call each: the sockets are
 * uncorked by setImmediate, after the turn's I/O callbacks. The socket under a `ws` WebSocket is
 * its `_socket` (ws corks it around each frame itself; corks nest).
 */
export function sendFrame(socket: WebSocket, text: string) {
  const raw = (socket as unknown as { _socket?: Socket })._socket;
  if (raw && raw.writableCorked === 0) {
    raw.cork();
    if (corked.push(raw) === 1) setImmediate(uncorkAll);
  }
  socket.send(text);
}
