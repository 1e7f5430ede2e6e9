import assert from "node:assert/strict";
import net from "node:net";
import { ConfigError, loadConfig } from "../../src/config.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/**
 * Slow clients are cut: the headers must arrive within HTTP_HEADERS_TIMEOUT_S and the whole
 * request within HTTP_REQUEST_TIMEOUT_S, however steadily the client trickles.
 */

interface Trickler {
  /** Resolves when the server closed the connection: ms after the connection opened, and what it sent. */
  closed: Promise<{ afterMs: number; received: string }>;
  stop(): void;
}

/** A raw TCP client: sends `head` at once, then one byte of `rest` every `everyMs`, until the server closes. */
function trickle(port: number, head: string, rest: string, everyMs: number): Trickler {
  const socket = net.connect(port, "127.0.0.1");
  const opened = performance.now();
  let received = "";
  let timer: NodeJS.Timeout | undefined;
  socket.setEncoding("utf8");
  socket.on("data", (d) => (received += d));
  socket.on("error", () => {});
  socket.once("connect", () => {
    if (head) socket.write(head);
    let i = 0;
    timer = setInterval(() => {
      if (i < rest.length && socket.writable) socket.write(rest[i++]);
    }, everyMs);
  });
  const closed = new Promise<{ afterMs: number; received: string }>((resolve) =>
    socket.once("close", () => {
      clearInterval(timer);
      resolve({ afterMs: performance.now() - opened, received });
    }),
  );
  return { closed, stop: () => socket.destroy() };
}

describe("slow clients", function () {
  this.timeout(60_000);
  let server: TestServer;
  const tricklers: Trickler[] = [];
  before(async () => {
    server = await startTestServer({ env: { HTTP_HEADERS_TIMEOUT_S: "1", HTTP_REQUEST_TIMEOUT_S: "2" } });
  });
  afterEach(() => {
    for (const t of tricklers.splice(0)) t.stop();
  });
  after(async () => {
    await server?.close();
  });

  it("100 parallel POSTs trickling their body one byte at a time are all closed within HTTP_REQUEST_TIMEOUT_S", async () => {
    const body = JSON.stringify({ name: "x".repeat(200) });
    const head = `POST /api/auth/guest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    for (let i = 0; i < 100; i++) tricklers.push(trickle(server.port, head, body, 250));
    const results = await Promise.all(tricklers.map((t) => t.closed));
    for (const r of results) {
      // Cut at 2 s; checked every 250 ms; the slack is for a loaded machine.
      assert.ok(r.afterMs >= 1_900 && r.afterMs < 5_000, `closed after ${Math.round(r.afterMs)} ms`);
      assert.match(r.received, /^HTTP\/1\.1 408 /);
    }
  });

  it("headers trickled one byte at a time, or never sent, are closed within HTTP_HEADERS_TIMEOUT_S", async () => {
    const headers = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + "y".repeat(100) + "\r\n\r\n";
    for (let i = 0; i < 20; i++) tricklers.push(trickle(server.port, "", headers, 100));
    for (let i = 0; i < 20; i++) tricklers.push(trickle(server.port, "", "", 1_000));
    const results = await Promise.all(tricklers.map((t) => t.closed));
    for (const r of results) assert.ok(r.afterMs >= 900 && r.afterMs < 4_000, `closed after ${Math.round(r.afterMs)} ms`);
  });

  it("a client that sends its request in time is answered as usual", async () => {
    const res = await fetch(`${server.url}/health`);
    assert.equal(res.status, 200);
  });

  it("the timeouts are configuration: defaults 15 s, 30 s and 65 s keep-alive; headers no longer than the request", () => {
    assert.deepEqual(loadConfig({}).http, { headersTimeoutS: 15, requestTimeoutS: 30, keepAliveTimeoutS: 65 });
    assert.throws(
      () => loadConfig({ HTTP_HEADERS_TIMEOUT_S: "40" }),
      (err: unknown) => err instanceof ConfigError && /HTTP_HEADERS_TIMEOUT_S/.test(err.message),
    );
    assert.throws(
      () => loadConfig({ HTTP_REQUEST_TIMEOUT_S: "0" }),
      (err: unknown) => err instanceof ConfigError && /HTTP_REQUEST_TIMEOUT_S/.test(err.message),
    );
  });
});
