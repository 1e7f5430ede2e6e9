import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A front for a cluster of test or benchmark processes, as nginx's `upstream` over every process
 * is in docs/DEPLOYMENT.md: one address that passes each HTTP request to the processes in turn,
 * and to the next one when a process does not take the connection (it stopped). Only what MCP
 * clients need: plain HTTP, no WebSocket upgrades.
 */
export async function startFront(upstreams: () => number[]): Promise<{ url: string; close(): Promise<void> }> {
  let turn = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const ports = upstreams();
      const tryFrom = (n: number) => {
        if (n >= ports.length) {
          res.writeHead(502).end("no process took the request");
          return;
        }
        const port = ports[(turn + n) % ports.length]!;
        // A connection of its own each time (as nginx's default): a process that stopped refuses it, never a reused one that resets.
        const out = http.request({ host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers, agent: false });
        let answered = false;
        out.on("response", (answer) => {
          answered = true;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        // Only a refused connection goes to the next process: a request that reached one is never sent twice.
        out.on("error", (err: NodeJS.ErrnoException) => (answered || err.code !== "ECONNREFUSED" ? res.destroy() : tryFrom(n + 1)));
        res.on("close", () => out.destroy());
        out.end(body);
      };
      turn++;
      tryFrom(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
