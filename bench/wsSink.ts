/**
 * Child process for bench/sinkSockets.ts: opens N plain WebSocket connections to the given port,
 * reads (and only counts) what arrives, reports "open" once all are connected and the byte total
 * when asked; told `texts`, each socket sends them round robin at the rate given (each at a
 * random phase within the interval, as players' commands come); exits with its parent.
 */
import { parseArgs } from "node:util";
import WebSocket from "ws";

const [port, count] = parseArgs({ allowPositionals: true }).positionals.map(Number);
let bytes = 0;
let open = 0;
setTimeout(() => process.exit(3), 120_000).unref();
process.on("disconnect", () => process.exit(0));
const sockets: WebSocket[] = [];
for (let i = 0; i < count; i++) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
  ws.on("open", () => {
    if (++open === count) process.send?.({ type: "open" });
  });
  ws.on("message", (data: Buffer) => {
    bytes += data.length;
  });
  ws.on("error", () => {});
  sockets.push(ws);
}

function startSending(texts: string[], perSocketPerSec: number) {
  const everyMs = 1000 / perSocketPerSec;
  let next = 0;
  for (const ws of sockets) {
    const send = () => {
      if (ws.readyState === WebSocket.OPEN) ws.send(texts[next++ % texts.length]!);
    };
    setTimeout(() => {
      send();
      setInterval(send, everyMs);
    }, Math.random() * everyMs);
  }
}
process.on("message", (m: any) => {
  if (m?.type === "bytes") process.send?.({ type: "bytes", bytes });
  if (m?.type === "texts" && Array.isArray(m.texts) && m.texts.length && m.perSocketPerSec > 0) {
    startSending(m.texts, m.perSocketPerSec);
    process.send?.({ type: "sending" });
  }
});
