import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import WebSocket, { WebSocketServer } from "ws";

/** Loopback WebSockets to write to, their reading side in a child process (bench/wsSink.ts). */
export interface SinkSockets {
  /** The server side of each connection. */
  conns: WebSocket[];
  /** What the reading side has received so far, in bytes. */
  receivedBytes(): Promise<number>;
  /** Have every socket of the other side send `texts` (round robin) `perSocketPerSec` times a second, each at its own phase. */
  startSending(texts: string[], perSocketPerSec: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Open `count` plain WebSocket connections over loopback, read (and only counted) in a child
 * process as a remote client's would be, which can also send; resolves once all are open.
 */
export async function openSinkSockets(count: number): Promise<SinkSockets> {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: false });
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
  const port = (wss.address() as { port: number }).port;
  const conns: WebSocket[] = [];
  wss.on("connection", (ws) => conns.push(ws));
  const child = fork(fileURLToPath(new URL("./wsSink.ts", import.meta.url)), [String(port), String(count)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const close = async () => {
    child.kill();
    for (const ws of conns) ws.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };
  /** The child's next message of `type` (asking for it first unless it is "open"). */
  const reply = (type: string, timeoutMs: number): Promise<any> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`ws sink: no ${type}`)), timeoutMs);
      const on = (m: any) => {
        if (m?.type !== type) return;
        clearTimeout(timer);
        child.off("message", on);
        resolve(m);
      };
      child.on("message", on);
      if (type !== "open" && type !== "sending") child.send({ type });
    });
  try {
    await reply("open", 30_000);
  } catch (err) {
    await close();
    throw err;
  }
  return {
    conns,
    receivedBytes: async () => (await reply("bytes", 60_000)).bytes as number,
    startSending: async (texts, perSocketPerSec) => {
      child.send({ type: "texts", texts, perSocketPerSec });
      await reply("sending", 30_000);
    },
    close,
  };
}
