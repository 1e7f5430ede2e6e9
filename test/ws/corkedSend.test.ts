import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";
import { once } from "node:events";
import { WebSocket, WebSocketServer } from "ws";
import { sendFrame } from "../../src/ws/corkedSend.js";

/**
 * Frames sent to one socket in one turn of the event loop leave in one write, even when they are
 * sent from different callbacks of that turn (two traders' steps arriving together).
 */
describe("frames sent in one turn leave in one write", () => {
  let wss: WebSocketServer;
  let client: WebSocket;
  let server: WebSocket;

  before(async () => {
    wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    await once(wss, "listening");
    const accepted = once(wss, "connection");
    client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    [server] = (await accepted) as [WebSocket];
    await once(client, "open");
  });
  after(() => {
    client.terminate();
    wss.close();
  });

  /** The writes the server's socket makes while `send` runs and its frames arrive. */
  async function writesOf(send: () => void, frames: number): Promise<{ writes: number; got: string[] }> {
    const raw = (server as unknown as { _socket: Socket & { _write: Function; _writev: Function } })._socket;
    let writes = 0;
    const { _write, _writev } = raw;
    raw._write = function (...args: unknown[]) {
      writes++;
      return _write.apply(this, args);
    };
    raw._writev = function (...args: unknown[]) {
      writes++;
      return _writev.apply(this, args);
    };
    const got: string[] = [];
    const all = new Promise<void>((resolve) =>
      client.on("message", (data) => {
        got.push(String(data));
        if (got.length === frames) resolve();
      }),
    );
    try {
      send();
      await all;
    } finally {
      raw._write = _write;
      raw._writev = _writev;
      client.removeAllListeners("message");
    }
    return { writes, got };
  }

  it("three frames from three timer callbacks of one turn: one write, in order", async () => {
    const { writes, got } = await writesOf(() => {
      // Timers due together run in one timers phase, each callback on its own. (They are made in
      // different milliseconds on a busy machine: the loop is held until all three are due, so
      // that they are due together.)
      for (const text of ["a", "b", "c"]) setTimeout(() => sendFrame(server, text), 0);
      const until = Date.now() + 5;
      while (Date.now() < until);
    }, 3);
    assert.deepEqual(got, ["a", "b", "c"]);
    assert.equal(writes, 1);
  });

  it("frames of later turns are written again (nothing is held back)", async () => {
    const { writes, got } = await writesOf(() => {
      sendFrame(server, "first");
      setTimeout(() => setImmediate(() => sendFrame(server, "later")), 20);
    }, 2);
    assert.deepEqual(got, ["first", "later"]);
    assert.equal(writes, 2);
  });
});
