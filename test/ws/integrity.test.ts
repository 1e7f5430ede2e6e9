import assert from "node:assert/strict";
import net from "node:net";
import WebSocket from "ws";
import { ConfigError, loadConfig } from "../../src/config.js";
import { RATE_LIMITS } from "../../src/http/rateLimit.js";
import { createGuest } from "../../src/auth/guest.js";
import { WS_LIMITS } from "../../src/ws/protocol.js";
import { captureLogs, LEVEL } from "../helpers/logCapture.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";
import { theWorld } from "../helpers/worldRoom.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";

/**
 * The /ws parts of issue 10: deep and wide frames answered before they reach the room, the
 * authenticate-first rule (no throw-away guest, no attempt spent), and the per-address cap on
 * open sockets. (Departures from a view: viewRemovals.test.ts.)
 */

/** A value nested `depth` levels deep (the outermost counts as one). */
function nested(depth: number, leaf: unknown = 1): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

describe("/ws integrity: deep and wide frames", function () {
  this.timeout(30_000);
  let server: TestServer;
  const logs = captureLogs("debug");
  const open: WsPlayer[] = [];
  before(async () => {
    server = await startTestServer({ logger: logs.logger, env: { WS_GUEST_AFTER_MS: "50" } });
  });
  afterEach(() => {
    for (const p of open.splice(0)) p.close();
  });
  after(async () => {
    await server?.close();
  });
  const player = async () => {
    const who = await guestToken(server);
    const p = await wsConnect(server.port, `?token=${encodeURIComponent(who.token)}`);
    open.push(p);
    await p.next("world:update");
    return p;
  };

  /** Run `body` while watching for anything printed outside the logger and for unhandled rejections. */
  async function quietly(body: () => Promise<void>) {
    const printed: string[] = [];
    const rejections: unknown[] = [];
    const write = process.stderr.write;
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      printed.push(String(chunk));
      return (write as (...args: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
    }) as typeof process.stderr.write;
    process.on("unhandledRejection", onRejection);
    const firstLine = logs.lines.length;
    try {
      await body();
    } finally {
      process.stderr.write = write;
      process.off("unhandledRejection", onRejection);
    }
    assert.deepEqual(printed, [], "nothing printed outside the logger");
    assert.deepEqual(rejections, [], "no unhandled rejection");
    const errors = logs.lines.slice(firstLine).filter((l) => l.level >= LEVEL.error);
    assert.deepEqual(errors, [], "no error logged for a client's bad frame");
  }

  it("a frame nested ~1,500 deep is answered INVALID_PAYLOAD echoing its id; nothing printed, nothing reaches the room, the socket stays open", async () => {
    const a = await player();
    const room = await theWorld();
    await quietly(async () => {
      for (const [type, depth] of [
        ["player:chat", 1500],
        ["player:move", 1500],
        ["tradeAccept", 5000],
        ["authenticate", 1500],
        ["ping", 1500],
      ] as const) {
        const since = a.mark();
        // Written out as text: JSON.stringify itself gives up a few thousand levels down.
        a.sendRaw(`{"type":"${type}","id":"deep-${type}","data":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`);
        const err = await a.next("error", (f) => f.id === `deep-${type}`, { since, timeoutMs: 5000 });
        assert.equal(err.data.code, "INVALID_PAYLOAD");
        assert.match(err.data.message, /nested more than 32 levels/);
      }
      // An array 20,000 deep fits in one frame (64 KiB): refused the same way.
      const since = a.mark();
      a.sendRaw(`{"type":"player:chat","id":"arrays","data":${"[".repeat(20_000)}${"]".repeat(20_000)}}`);
      assert.equal((await a.next("error", (f) => f.id === "arrays", { since, timeoutMs: 5000 })).data.code, "INVALID_PAYLOAD");
    });
    assert.equal(a.ws.readyState, a.ws.OPEN);
    const since = a.mark();
    a.send("ping", {}, "after");
    assert.equal((await a.next("pong", () => true, { since })).id, "after");
    assert.ok(room.sessions.has(a.frames[0].data.playerId), "still in the world");
  });

  it("the depth limit is 32 levels, the envelope being the first: 32 reaches the room, 33 does not", async () => {
    const a = await player();
    // Envelope (1) → data (2) → ... : `data` nested 31 deep makes 32 levels.
    let since = a.mark();
    a.sendRaw(JSON.stringify({ type: "player:chat", data: nested(31, "x"), id: "d32" }));
    const room = await a.next("error", (f) => f.id === "d32", { since });
    assert.deepEqual([room.data.code, /^player:chat: /.test(room.data.message)], ["INVALID_PAYLOAD", true], "the room's own validation answered");
    since = a.mark();
    a.sendRaw(JSON.stringify({ type: "player:chat", data: nested(32, "x"), id: "d33" }));
    const refused = await a.next("error", (f) => f.id === "d33", { since });
    assert.equal(refused.data.code, "INVALID_PAYLOAD");
    assert.match(refused.data.message, /^frame: nested more than 32 levels/);
  });

  it("a frame with more than 1,024 keys and array elements is refused INVALID_PAYLOAD echoing its id; a smaller one goes through", async () => {
    const a = await player();
    assert.equal(WS_LIMITS.maxEntries, 1024);
    await quietly(async () => {
      let since = a.mark();
      a.send("ping", new Array(2000).fill(0), "wide-array");
      let err = await a.next("error", (f) => f.id === "wide-array", { since, timeoutMs: 5000 });
      assert.equal(err.data.code, "INVALID_PAYLOAD");
      assert.match(err.data.message, /more than 1024 keys and array elements/);
      since = a.mark();
      a.send("player:chat", { message: "hi", ...Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, i])) }, "wide-object");
      err = await a.next("error", (f) => f.id === "wide-object", { since, timeoutMs: 5000 });
      assert.match(err.data.message, /more than 1024 keys/);
      // Under the limit (3 envelope keys + 1,000 elements): an ordinary frame.
      since = a.mark();
      a.send("ping", { list: new Array(1000).fill(0) }, "narrow");
      assert.equal((await a.next("*", (f) => f.id === "narrow", { since })).type, "pong");
    });
  });

  it("a NUL or an unpaired surrogate anywhere in a frame or in the URL is INVALID_PAYLOAD, not an internal error", async () => {
    const who = await guestToken(server);
    await quietly(async () => {
      const a = await wsConnect(server.port);
      open.push(a);
      a.send("authenticate", { token: who.token, characterId: "c_\u0000" }, "nul");
      const err = await a.next("error", (f) => f.id === "nul", { timeoutMs: 5000 });
      assert.equal(err.data.code, "INVALID_PAYLOAD");
      assert.match(err.data.message, /NUL/);
      // A refused authenticate on a socket that plays nobody closes it (4000): no guest.
      assert.equal((await a.closed).code, 4000);
      assert.deepEqual(
        a.frames.filter((f) => f.type === "authenticated"),
        [],
      );
      const c = await wsConnect(server.port);
      open.push(c);
      c.send("authenticate", { token: who.token }, "ok");
      assert.equal((await c.next("authenticated", (f) => f.id === "ok")).data.accountId, who.accountId);
      // One that plays a player keeps it.
      c.send("authenticate", { token: who.token, characterId: "c_\u0000" }, "nul2");
      assert.match((await c.next("error", (f) => f.id === "nul2")).data.message, /NUL/);
      assert.equal(c.ws.readyState, c.ws.OPEN);
      const since = c.mark();
      c.sendRaw('{"type":"player:chat","data":{"message":"\\ud800"},"id":"lone"}');
      assert.match((await c.next("error", (f) => f.id === "lone", { since })).data.message, /surrogate/);

      const b = await wsConnect(server.port, `?token=${encodeURIComponent(who.token)}&characterId=%00`);
      assert.equal((await b.next("error")).data.code, "INVALID_PAYLOAD");
      assert.equal((await b.closed).code, 4000);
    });
  });
});

describe("/ws integrity: authenticate first (no throw-away guest)", function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    // The documented limits (10 authentication attempts a minute per address), and a guest window
    // long enough that only the first frame decides.
    server = await startTestServer({ rateLimits: RATE_LIMITS, env: { WS_GUEST_AFTER_MS: "30000" } });
  });
  after(async () => {
    await server?.close();
  });
  const guests = () => server.ctx.db.prisma.user.count({ where: { isGuest: true } });

  it("a page load (guest token over HTTP, then /ws without a token and `authenticate` first) makes no /ws guest and spends one attempt, not two", async () => {
    const before = await guests();
    // Six page loads: 6 attempts (12 if each /ws connection also made a guest; 10 is the limit).
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${server.url}/api/auth/guest`, { method: "POST" });
      assert.equal(res.status, 201, `page load ${i + 1}: the guest token`);
      const who = await res.json();
      const a = await wsConnect(server.port);
      a.send("authenticate", { token: who.token }, `auth-${i}`);
      await a.next("world:update");
      assert.deepEqual(
        a.frames.slice(0, 3).map((f) => f.type),
        ["authenticated", "player:sync", "world:update"],
      );
      assert.deepEqual([a.frames[0].id, a.frames[0].data.accountId], [`auth-${i}`, who.accountId], "the first and only identity is the token's");
      assert.equal(a.frames.filter((f) => f.type === "authenticated").length, 1);
      a.close();
      await a.closed;
    }
    assert.equal(await guests(), before + 6, "only the HTTP guests exist");
    // Four attempts are left, then the address is refused.
    for (let i = 0; i < 4; i++) assert.equal((await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).status, 201);
    assert.equal((await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).status, 429);
  });

  it("with the address's attempts used up, a client with a valid token is never refused over /ws (URL or authenticate)", async () => {
    // Use up whatever is left of this address's attempts.
    for (let i = 0; i <= 10 && (await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).status !== 429; i++);
    // A token made by the server itself (the address may make none now).
    const { token, accountId } = await createGuest(server.ctx.db.sql, server.ctx.config.jwtSecret, "127.0.0.1");
    const a = await wsConnect(server.port);
    a.send("authenticate", { token });
    assert.equal((await a.next("authenticated")).data.accountId, accountId);
    a.close();
    await a.closed;
    const b = await wsConnect(server.port, `?token=${encodeURIComponent(token)}`);
    assert.equal((await b.next("authenticated")).data.accountId, accountId);
    b.close();
    await b.closed;
    // And a client without a token that sends something else is refused its guest (the count holds).
    const c = await wsConnect(server.port);
    c.send("ping", {});
    assert.equal((await c.next("error")).data.code, "RATE_LIMITED");
    assert.equal((await c.closed).code, 4029);
  });
});

describe("/ws integrity: the first frame decides", function () {
  this.timeout(30_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ env: { WS_GUEST_AFTER_MS: "30000" } });
  });
  after(async () => {
    await server?.close();
  });
  const guests = () => server.ctx.db.prisma.user.count({ where: { isGuest: true } });

  it("a first frame other than `authenticate` makes the guest at once and runs after the join; order authenticated → player:sync → world:update", async () => {
    const before = await guests();
    const a = await wsConnect(server.port);
    a.send("player:chat", { message: "/world first words" }, "first");
    const heard = await a.next("chat:message", (f) => f.data.message === "first words");
    assert.deepEqual(
      a.frames.slice(0, 3).map((f) => f.type),
      ["authenticated", "player:sync", "world:update"],
    );
    assert.match(a.frames[0].data.accountId, /^guest_/);
    assert.ok(a.frames.indexOf(heard) > 2);
    assert.equal(await guests(), before + 1);
    a.close();
    await a.closed;
  });

  it("a malformed `authenticate` first is refused and closes the socket (4000): no guest is made", async () => {
    const before = await guests();
    const who = await guestToken(server);
    const a = await wsConnect(server.port);
    a.send("authenticate", { token: 5 }, "bad");
    assert.equal((await a.next("error", (f) => f.id === "bad")).data.code, "INVALID_PAYLOAD");
    assert.equal((await a.closed).code, 4000);
    assert.deepEqual(
      a.frames.filter((f) => f.type === "authenticated"),
      [],
    );
    // A new socket with a well-formed one logs that identity in, and still no guest.
    const b = await wsConnect(server.port);
    b.send("authenticate", { token: who.token }, "good");
    await b.next("world:update");
    assert.deepEqual(
      b.frames.filter((f) => f.type === "authenticated").map((f) => [f.id, f.data.accountId]),
      [["good", who.accountId]],
    );
    assert.equal(await guests(), before + 1, "the HTTP guest only");
    b.close();
    await b.closed;
  });
});

describe("/ws integrity: open sockets per address", function () {
  this.timeout(30_000);
  let server: TestServer;
  const sockets: WebSocket[] = [];
  before(async () => {
    // Three per address; loopback is a trusted proxy, so X-Forwarded-For names other addresses.
    server = await startTestServer({ env: { WS_MAX_CONNECTIONS_PER_ADDRESS: "3", TRUST_PROXY: "loopback", WS_GUEST_AFTER_MS: "60000" } });
  });
  after(async () => {
    for (const s of sockets) s.terminate();
    await server?.close();
  });

  /** Open a /ws socket: "open", or the HTTP status and body it was refused with. */
  const attempt = (headers: Record<string, string> = {}) =>
    new Promise<{ ws?: WebSocket; status?: number; body?: any }>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, { headers });
      ws.once("open", () => {
        sockets.push(ws);
        resolve({ ws });
      });
      ws.once("unexpected-response", (_req, res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode, body: JSON.parse(text) }));
      });
      ws.once("error", reject);
    });
  const closeAndWait = (ws: WebSocket) =>
    new Promise<void>((resolve) => {
      if (ws.readyState === WebSocket.CLOSED) return resolve();
      ws.once("close", () => resolve());
      ws.close();
    });

  it("over WS_MAX_CONNECTIONS_PER_ADDRESS the upgrade is refused with 429 TOO_MANY_CONNECTIONS; a closed socket frees its place", async () => {
    const held = [await attempt(), await attempt(), await attempt()];
    for (const h of held) assert.ok(h.ws, "under the cap");
    const refused = await attempt();
    assert.equal(refused.status, 429);
    assert.deepEqual([refused.body.success, refused.body.error.code], [false, "TOO_MANY_CONNECTIONS"]);
    // Another address has its own count (the address is the one the server uses everywhere).
    const elsewhere = await attempt({ "x-forwarded-for": "203.0.113.9" });
    assert.ok(elsewhere.ws);
    // One closes: one more is let in, and no more.
    await closeAndWait(held[0].ws!);
    const again = await attempt();
    assert.ok(again.ws, "a closed socket's place is free again");
    assert.equal((await attempt()).status, 429);
    // Sockets the server closes itself count down too (a bad token: 4001).
    await closeAndWait(held[1].ws!);
    const bad = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=garbage`);
    assert.equal(await new Promise<number>((resolve) => bad.once("close", (code) => resolve(code))), 4001);
    assert.ok((await attempt()).ws);
    for (const s of sockets.splice(0)) await closeAndWait(s);
  });

  it("an upgrade that fails its handshake does not keep a place", async () => {
    for (let i = 0; i < 5; i++) {
      const status = await new Promise<string>((resolve, reject) => {
        const s = net.connect(server.port, "127.0.0.1", () => s.write(`GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`));
        let text = "";
        s.on("data", (c) => (text += c));
        s.on("close", () => resolve(text.split("\r\n")[0]));
        s.on("error", reject);
      });
      assert.match(status, /^HTTP\/1\.1 400/);
    }
    const held = [await attempt(), await attempt(), await attempt()];
    for (const h of held) assert.ok(h.ws, "all three places are free");
    for (const s of sockets.splice(0)) await closeAndWait(s);
  });

  it("a bad WS_MAX_CONNECTIONS_PER_ADDRESS or WS_GUEST_AFTER_MS stops start-up with a line naming it", () => {
    for (const [name, value] of [
      ["WS_MAX_CONNECTIONS_PER_ADDRESS", "0"],
      ["WS_MAX_CONNECTIONS_PER_ADDRESS", "many"],
      ["WS_GUEST_AFTER_MS", "-1"],
      ["WS_GUEST_AFTER_MS", "60001"],
    ]) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (err: unknown) => err instanceof ConfigError && err.message.includes(name),
        `${name}=${value}`,
      );
    }
    const defaults = loadConfig({});
    assert.deepEqual(defaults.ws, { guestAfterMs: 1000, maxConnectionsPerAddress: 20 });
  });
});
