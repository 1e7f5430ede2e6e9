import assert from "node:assert/strict";
import net from "node:net";
import { openDatabase, type Database } from "../../src/db/client.js";
import { silentLogger } from "../../src/logger.js";
import { captureLogs } from "../helpers/logCapture.js";
import { createTestDatabase, type TestDatabase } from "../helpers/postgres.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/**
 * A database outage is 503 DATABASE_UNAVAILABLE on every route that needs the database, never a
 * 500: PostgreSQL cut off for real (a TCP relay in front of it, then closed: refused connections
 * and dropped ones), and the embedded PGlite closed under the running server.
 */

/** A TCP relay to the PostgreSQL server; `cut()` stops accepting and drops every connection. */
async function relayTo(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

const ROUTES: Array<[string, string, unknown?]> = [
  ["POST", "/api/auth/guest"],
  ["GET", "/api/auth/me"],
  ["POST", "/api/auth/refresh"],
  ["GET", "/api/character"],
  ["POST", "/api/character", { name: "Outage" }],
  ["GET", "/api/player/friends"],
  ["GET", "/api/player/ignore"],
];

async function expectUnavailable(server: TestServer, token: string) {
  for (const [method, path, body] of ROUTES) {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    assert.equal(res.status, 503, `${method} ${path}: ${JSON.stringify(json)}`);
    assert.deepEqual(json, { success: false, error: { code: "DATABASE_UNAVAILABLE", message: json.error.message } });
  }
}

describe("database outage", function () {
  this.timeout(60_000);

  it("PostgreSQL gone: every route that needs it answers 503 DATABASE_UNAVAILABLE, none 500", async () => {
    let pg: TestDatabase | undefined;
    let db: Database | undefined;
    let server: TestServer | undefined;
    try {
      pg = await createTestDatabase();
      const relay = await relayTo(new URL(pg.url));
      db = await openDatabase({ databaseUrl: relay.url, logger: silentLogger });
      const logs = captureLogs();
      server = await startTestServer({ db, logger: logs.logger });
      const guest = await (await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).json();
      assert.equal((await fetch(`${server.url}/api/character`, { headers: { authorization: `Bearer ${guest.token}` } })).status, 200);

      await relay.cut();
      await expectUnavailable(server, guest.token);
      assert.ok(!logs.lines.some((l) => l.msg === "unhandled error in request"), "no request was a 500");
      assert.ok(
        logs.lines.some((l) => l.msg === "database unavailable" && l.level === 40),
        "each is logged at warn",
      );
    } finally {
      await server?.close();
      await db?.close();
      await pg?.drop();
    }
  });

  it("the embedded database closed: 503 DATABASE_UNAVAILABLE too", async () => {
    const db = await openDatabase({ logger: silentLogger });
    const server = await startTestServer({ db });
    try {
      const guest = await (await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).json();
      await db.close();
      await expectUnavailable(server, guest.token);
    } finally {
      await server.close();
    }
  });
});
