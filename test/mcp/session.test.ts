import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";
import { theWorld } from "../helpers/worldRoom.js";
import { wsConnect } from "../helpers/wsClient.js";
import { signToken } from "../../src/auth/tokens.js";
import { INITIALIZE, mcpConnect, mcpPost, type McpTestClient } from "./helpers.js";

/** Opening, refusing and ending MCP sessions at /mcp, over real HTTP with the SDK's own client. */
describe("/mcp: sessions", function () {
  this.timeout(30_000);
  let server: TestServer;
  const open: McpTestClient[] = [];

  before(async () => {
    server = await startTestServer({ env: { MCP_IDLE_S: "2", MCP_MAX_SESSIONS_PER_ACCOUNT: "2" } });
  });
  afterEach(async () => {
    await Promise.allSettled(open.splice(0).map((c) => c.close()));
  });
  after(async () => {
    await server?.close();
  });

  async function connect(token: string, query = "") {
    const c = await mcpConnect(server, token, query);
    open.push(c);
    return c;
  }

  /** Resolves once the character is out of the world (its session closed and saved). */
  async function leaves(characterId: string) {
    const room = await theWorld();
    while (room.sessions.has(characterId)) await new Promise((r) => setTimeout(r, 10));
  }

  it("refuses a request without a token, and with a bad, foreign or expired one: 401 with the REST error body", async () => {
    const none = await mcpPost(server, undefined, INITIALIZE);
    assert.equal(none.status, 401);
    assert.deepEqual(none.body.error.code, "UNAUTHORIZED");
    assert.equal(none.body.success, false);
    assert.match(none.headers.get("www-authenticate") ?? "", /Bearer/);
    const bad = await mcpPost(server, "not-a-token", INITIALIZE);
    assert.equal(bad.status, 401);
    assert.equal(bad.body.error.code, "TOKEN_INVALID");
    const foreign = await mcpPost(server, signToken({ sub: "someone" }, "another-secret-".padEnd(40, "y")), INITIALIZE);
    assert.equal(foreign.status, 401);
    assert.equal(foreign.body.error.code, "TOKEN_INVALID");
    const expired = await mcpPost(server, signToken({ sub: "someone" }, server.config.jwtSecret, -10), INITIALIZE);
    assert.equal(expired.status, 401);
    assert.equal(expired.body.error.code, "TOKEN_EXPIRED");
    const gone = await mcpPost(server, signToken({ sub: "guest_nobody" }, server.config.jwtSecret), INITIALIZE);
    assert.equal(gone.status, 401);
    assert.equal(gone.body.error.code, "ACCOUNT_NOT_FOUND");
    // The SDK's client is refused too, before any session exists.
    await assert.rejects(mcpConnect(server, "not-a-token"), /401|TOKEN_INVALID/);
  });

  it("refuses a banned account's session with 403 BANNED, the reason and the end in the message", async () => {
    const who = await guestToken(server);
    await server.ctx.db.prisma.sanction.create({
      data: { id: `s_${who.accountId}`, accountId: who.accountId, kind: "ban", reason: "botting", byName: "a moderator", targetName: "someone" },
    });
    const r = await mcpPost(server, who.token, INITIALIZE);
    assert.equal(r.status, 403);
    assert.equal(r.body.error.code, "BANNED");
    assert.match(r.body.error.message, /botting/);
  });

  it("joins the world before initialize is answered: observe shows the player, and others see it as an agent", async () => {
    const who = await guestToken(server);
    const ws = await wsConnect(server.port, `?token=${encodeURIComponent((await guestToken(server)).token)}`);
    try {
      const wsAuth = await ws.next("authenticated");
      const c = await connect(who.token);
      const seen = await c.call("observe");
      assert.equal(seen.isError, false, seen.text);
      const me = seen.body.you;
      assert.ok(me.id && me.name);
      assert.equal(typeof me.x, "number");
      assert.ok(seen.body.pack.some((s: { itemId: string }) => s.itemId === "bronze_hatchet"));
      assert.ok(seen.body.skills.woodcutting.level >= 1);
      // The world knows it as an agent, and the /ws player next to the spawn is shown it.
      const room = await theWorld();
      assert.equal(room.world.players.get(me.id)?.isAgent, true);
      const shown = await ws.next("world:update", (f) => f.data.players.some((p: { id: string; isAgent: boolean }) => p.id === me.id && p.isAgent));
      assert.ok(shown);
      // And the MCP player sees the /ws player near it.
      const again = await c.call("wait", { for: ["world:update"], maxTicks: 5 });
      assert.equal(again.isError, false, again.text);
      const near = (await c.call("observe")).body.near.players;
      assert.ok(
        near.some((p: { id: string }) => p.id === wsAuth.data.playerId),
        JSON.stringify(near),
      );
    } finally {
      ws.close();
    }
  });

  it("DELETE ends the session: its player leaves the world, and the session id is unknown after", async () => {
    const who = await guestToken(server);
    const c = await mcpConnect(server, who.token);
    const me = (await c.call("observe")).body.you.id;
    const room = await theWorld();
    assert.ok(room.sessions.has(me));
    const sid = c.transport.sessionId!;
    await c.transport.terminateSession();
    await leaves(me);
    const after = await mcpPost(server, who.token, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-session-id": sid });
    assert.equal(after.status, 404);
    await c.client.close();
  });

  it("a session with no request for MCP_IDLE_S ends, and its player leaves", async () => {
    const who = await guestToken(server);
    const c = await connect(who.token);
    const me = (await c.call("observe")).body.you.id;
    await leaves(me);
    const r = await mcpPost(server, who.token, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-session-id": c.transport.sessionId! });
    assert.equal(r.status, 404);
  });

  it("caps an account's open sessions (MCP_MAX_SESSIONS_PER_ACCOUNT), names the character among several, and a second session of one character takes it over", async () => {
    const who = await guestToken(server);
    const first = await connect(who.token);
    const me = (await first.call("observe")).body.you;
    // A second character for the account: a session must now name one.
    const made = await fetch(`${server.url}/api/character`, {
      method: "POST",
      headers: { authorization: `Bearer ${who.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: `Alt${Date.now() % 100000}` }),
    });
    assert.equal(made.status, 201);
    const unnamed = await mcpPost(server, who.token, INITIALIZE);
    assert.equal(unnamed.status, 400);
    assert.equal(unnamed.body.error.code, "CHARACTER_REQUIRED");
    // The same character by name: a take-over, as for /ws; the first session's tools say why.
    const second = await connect(who.token, `?character=${encodeURIComponent(me.name.toLowerCase())}`);
    assert.equal((await second.call("observe")).body.you.id, me.id);
    const old = await first.call("observe");
    assert.equal(old.isError, true);
    assert.match(old.text, /^SESSION_ENDED: You logged in somewhere else/);
    // Two live sessions at most (the taken-over one no longer counts).
    const alt = (await made.json()).character;
    await connect(who.token, `?character=${alt.id}`);
    const third = await mcpPost(server, who.token, INITIALIZE, {});
    assert.equal(third.status, 429);
    assert.equal(third.body.error.code, "TOO_MANY_SESSIONS");
  });

  it("refuses a session of another account's session id (403) and a plain request without a session (400)", async () => {
    const a = await guestToken(server);
    const b = await guestToken(server);
    const c = await connect(a.token);
    const r = await mcpPost(server, b.token, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-session-id": c.transport.sessionId! });
    assert.equal(r.status, 403);
    assert.equal(r.body.error.code, "FORBIDDEN");
    const none = await mcpPost(server, a.token, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    assert.equal(none.status, 400);
  });
});
