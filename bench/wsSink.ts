/**
 * Child process for bench/sendCost.ts: opens N plain WebSocket connections to the given port,
 * reads (and only counts) what arrives, reports "open" once all are connected and the byte total
 * when asked; exits with its parent.
 */
import { parseArgs } from "node:util";
import WebSocket from "ws";

const [port, count] = parseArgs({ allowPositionals: true }).positionals.map(Number);
let bytes = 0;
let open = 0;
setTimeout(() => process.exit(3), 120_000).unref();
process.on("disconnect", () => process.exit(0));
for (let i = 0; i < count; i++) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
  ws.on("open", () => {
    if (++open === count) process.send?.({ type: "open" });
  });
  ws.on("message", (data: Buffer) => {
    bytes += data.length;
  });
  ws.on("error", () => {});
}
process.on("message", (m: any) => {
  if (m?.type === "bytes") process.send?.({ type: "bytes", bytes });
});
