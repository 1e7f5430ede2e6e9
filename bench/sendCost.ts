import { openSinkSockets } from "./sinkSockets.js";
import { median } from "./stats.js";

/**
 * What the in-memory clients leave out: the cost of handing a frame to a real WebSocket.
 * Opens `sockets` loopback connections (the reading side in a child process, as a remote client
 * would be), then, like a patch broadcast, sends one frame of `frameBytes` to every socket per
 * round, `rounds` rounds apart; returns the median over rounds of microseconds per send.
 */
export async function measureSendCost(sockets: number, frameBytes: number, rounds = 6): Promise<{ usPerFrame: number; rounds: number[] }> {
  const sink = await openSinkSockets(sockets);
  const conns = sink.conns;
  try {
    const frame = Buffer.alloc(frameBytes, 0x2a);
    frame[0] = 15; // a state patch, as far as anyone reading would care
    const perRound: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const t = performance.now();
      for (const ws of conns) ws.send(frame, { binary: true });
      perRound.push(((performance.now() - t) * 1000) / conns.length);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return { usPerFrame: median(perRound), rounds: perRound };
  } finally {
    await sink.close();
  }
}
