import assert from "node:assert/strict";
import { signToken } from "../../src/auth/tokens.js";
import { newAgent } from "../helpers/agentWorld.js";
import { mcpConnect } from "../mcp/helpers.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, TEST_SECRET, type TestServer } from "../helpers/server.js";
import { guestToken, joinWorld } from "../helpers/worldClient.js";
import { theWorld, ticks } from "../helpers/worldRoom.js";
import { wsConnect } from "../helpers/wsClient.js";

/** Lines of an agent's activity as the feed gives them, once `pred` holds of them (read again after each tick; at most 60 ticks). */
async function activityUntil(server: TestServer, agentId: string, token: string, pred: (lines: any[]) => boolean, what: string, query = "") {
  const room = await theWorld();
  const start = room.world.tick;
  for (;;) {
    const r = await rest(server, "GET", `/api/agents/${agentId}/activity${query}`, token);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    if (pred(r.body.activity)) return r.body;
    if (room.world.tick - start > 60) assert.fail(`${what}: not in the activity after 60 ticks: ${JSON.stringify(r.body.activity)}`);
    await ticks(room, 1);
  }
}

describe("spectators: watch links, the activity feed and watching in the world", function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  const ctxLines = (characterId: string) => server.ctx.activity.recent(characterId).map((l) => l.text);

  async function watched(name: string) {
    const room = await theWorld();
    const agent = await newAgent(server, room, name);
    const r = await rest(server, "POST", `/api/agents/${agent.a.agentId}/watch`, agent.owner.token, {});
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return { ...agent, room, watch: r.body as { token: string; watchUrl: string; expiresIn: number; agentId: string; characterId: string } };
  }

  it("the owner makes a watch link; no one else can, and bad input changes nothing", async () => {
    const { a, owner, watch } = await watched("Watchee");
    assert.equal(watch.agentId, a.agentId);
    assert.equal(watch.characterId, a.characterId);
    assert.equal(watch.expiresIn, 24 * 3600);
    assert.equal(watch.watchUrl, `/#watch=${watch.token}`);
    const stranger = await guestToken(server);
    assert.equal((await rest(server, "POST", `/api/agents/${a.agentId}/watch`, stranger.token, {})).body.error.code, "FORBIDDEN");
    assert.equal((await rest(server, "POST", `/api/agents/a_nope/watch`, owner.token, {})).status, 404);
    assert.equal((await rest(server, "POST", `/api/agents/${a.agentId}/watch`, undefined, {})).status, 401);
    for (const body of [{ ttlSeconds: -1 }, { ttlSeconds: 10 }, { ttlSeconds: 1e12 }, { ttlSeconds: "60" }, { ttlSeconds: 3600.5 }, { other: 1 }]) {
      const r = await rest(server, "POST", `/api/agents/${a.agentId}/watch`, owner.token, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error.code, "INVALID_PAYLOAD");
    }
    const short = await rest(server, "POST", `/api/agents/${a.agentId}/watch`, owner.token, { ttlSeconds: 60 });
    assert.equal(short.body.expiresIn, 60);
    // A watch token makes no watch link of its own.
    const again = await rest(server, "POST", `/api/agents/${a.agentId}/watch`, watch.token, {});
    assert.deepEqual([again.status, again.body.error.code], [403, "TOKEN_READ_ONLY"]);
  });

  it("a watch token is refused on every route that is not a watching one, on /ws and on /mcp", async () => {
    const { a, owner, watch } = await watched("Readonly");
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    const watching = new Set([`/api/agents/{agentId}/activity`, `/api/agents/{agentId}/activity/stream`]);
    let tried = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (watching.has(path)) continue;
      for (const [method, op] of Object.entries(ops)) {
        if (!op.security || op.security.length === 0) continue; // an open route takes no token
        const url = path
          .replace(/\{agentId\}/g, a.agentId)
          .replace(/\{characterId\}/g, a.characterId)
          .replace(/\{[^}]+\}/g, "x");
        const r = await rest(server, method.toUpperCase(), url, watch.token, method === "get" ? undefined : {});
        assert.equal(r.status, 403, `${method.toUpperCase()} ${url}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.error.code, "TOKEN_READ_ONLY", `${method.toUpperCase()} ${url}`);
        tried++;
      }
    }
    assert.ok(tried > 40, `only ${tried} routes tried`);
    // The agent's goal was never touched.
    const goal = await rest(server, "GET", `/api/agents/${a.agentId}/goal`, owner.token);
    assert.notEqual(goal.body.goal?.source, "owner");

    const ws = await wsConnect(server.port, `?token=${encodeURIComponent(watch.token)}`);
    assert.equal((await ws.next("error")).data.code, "TOKEN_READ_ONLY");
    assert.equal((await ws.closed).code, 4003);

    await assert.rejects(mcpConnect(server, watch.token), /403|TOKEN_READ_ONLY/);
  });

  it("a spectator in the world sees what the agent sees, follows it, and acts on nothing", async () => {
    const { a, p, owner, room, watch } = await watched("Followed");
    const viewer = await joinWorld(server, { world: 1 }, { token: watch.token, accountId: owner.accountId });
    const started = await viewer.next("spectate:started");
    assert.deepEqual(started, { agentId: a.agentId, characterId: a.characterId, name: "Followed", world: 1 });
    // Its first player:sync is the agent's own (pack, skills, health): the camera follows it.
    assert.equal(viewer.id, a.characterId);
    const first = await viewer.next("world:update");
    assert.ok(
      first.players.some((e: { id: string }) => e.id === a.characterId),
      "the agent is in the first update",
    );
    // The watcher is no player: no one new in the world.
    assert.equal(room.world.players.has(viewer.room.sessionId), false);
    assert.equal(room.sessions.size, [...room.sessions.keys()].filter((id) => room.world.players.has(id)).length);

    // Then the agent's updates as it plays, in the whole form (an entity listed has all its fields).
    const since = viewer.mark();
    const u = await viewer.next("world:update", (x) => x.players.some((e: any) => e.id === a.characterId), { since, timeoutMs: 30_000 });
    const mine = u.players.find((e: any) => e.id === a.characterId);
    assert.deepEqual([mine.name, typeof mine.x, typeof mine.health], ["Followed", "number", "number"], "whole entities, not changes");

    // Anything it sends is refused SPECTATOR, and the agent's world is unchanged.
    const at = { ...p.tile };
    const refusedFrom = viewer.mark();
    viewer.send("player:move", { x: at.x + 3, z: at.z });
    viewer.send("player:chat", { message: "I am the agent now", channel: "world" });
    viewer.send("tradeRequest", { targetPlayerId: a.characterId });
    viewer.send("no:such", {});
    for (let i = 0; i < 4; i++) {
      const e = await viewer.next("error", (x) => x.code === "SPECTATOR", { since: refusedFrom + i });
      assert.match(e.message, /watching/);
    }
    const refusals = viewer.received.slice(refusedFrom).filter((r) => r.type === "error" && r.data.code === "SPECTATOR");
    assert.ok(refusals.length >= 4);
    assert.equal(
      viewer.received.slice(refusedFrom).some((r) => r.type === "chat:message" && r.data.message === "I am the agent now"),
      false,
    );

    // Stopping the agent ends the watch: told why, and the connection closes with 4110.
    const closed = new Promise<number>((resolve) => viewer.room.onLeave((code: number) => resolve(code)));
    const stop = await rest(server, "POST", `/api/agent/${a.agentId}/stop`, owner.token);
    assert.equal(stop.status, 200);
    const ended = await viewer.next("spectate:ended");
    assert.equal(ended.reason, "left");
    assert.equal(await closed, 4110);
  });

  it("a spectator of an agent that is not in the world is refused at the join", async () => {
    const { a, owner, watch } = await watched("Absent");
    await rest(server, "POST", `/api/agent/${a.agentId}/stop`, owner.token);
    const room = await theWorld();
    while (room.sessions.has(a.characterId)) await ticks(room, 1);
    await assert.rejects(joinWorld(server, { world: 1 }, { token: watch.token, accountId: owner.accountId }), /not in this world/);
  });

  it("its owner playing the character in person ends the watch, is not watched, and writes no activity", async () => {
    const { a, owner, watch, room } = await watched("Takenover");
    const viewer = await joinWorld(server, { world: 1 }, { token: watch.token, accountId: owner.accountId });
    await viewer.next("spectate:started");
    const closed = new Promise<number>((resolve) => viewer.room.onLeave((code: number) => resolve(code)));
    // The owner's own player token, in the web client's way: the built-in driver steps aside.
    const person = await joinWorld(server, { characterId: a.characterId }, owner);
    assert.equal((await viewer.next("spectate:ended")).reason, "replaced");
    assert.equal(await closed, 4110);
    await assert.rejects(joinWorld(server, { world: 1 }, { token: watch.token, accountId: owner.accountId }), /played by a person/);
    const before = ctxLines(a.characterId);
    person.send("player:chat", { message: "/nosuchcommand", channel: "world" });
    await person.next("error");
    await ticks(room, 2);
    assert.deepEqual(ctxLines(a.characterId), before, "nothing of the person's play in the agent's activity");
    await person.leave();
  });

  it("a banned owner's watch links watch nothing: the feed and the join are refused BANNED", async () => {
    const { a, owner, watch } = await watched("Bannedowner");
    await server.ctx.db.prisma.sanction.create({
      data: { id: `s_${owner.accountId}`, accountId: owner.accountId, kind: "ban", reason: "botting", byName: "a moderator", targetName: "Bannedowner" },
    });
    const feed = await rest(server, "GET", `/api/agents/${a.agentId}/activity`, watch.token);
    assert.deepEqual([feed.status, feed.body.error.code], [403, "BANNED"]);
    assert.match(feed.body.error.message, /botting/);
    await assert.rejects(joinWorld(server, { world: 1 }, { token: watch.token, accountId: owner.accountId }), /banned/i);
  });

  it("a watch token that expires ends the watch", async () => {
    const { a, owner } = await watched("Expiring");
    const token = signToken({ sub: owner.accountId, role: "spectator", characterId: a.characterId, agentId: a.agentId }, TEST_SECRET, 2);
    const viewer = await joinWorld(server, { world: 1 }, { token, accountId: owner.accountId });
    const closed = new Promise<number>((resolve) => viewer.room.onLeave((code: number) => resolve(code)));
    const ended = await viewer.next("spectate:ended", () => true, { timeoutMs: 10_000 });
    assert.equal(ended.reason, "expired");
    assert.equal(await closed, 4110);
  });

  it("the activity feed: the built-in agent's goal and doings, for its owner and its watch token only", async () => {
    const { a, owner, watch } = await watched("Busy");
    const body = await activityUntil(
      server,
      a.agentId,
      watch.token,
      (lines) => lines.some((l) => l.kind === "goal") && lines.some((l) => l.kind === "doing"),
      "a goal and a doing line",
    );
    assert.equal(body.agent.agentId, a.agentId);
    assert.equal(body.agent.online, true);
    assert.equal(body.agent.world, 1);
    assert.equal(body.agent.running, true);
    assert.ok(body.agent.goal, "the goal under way");
    assert.equal(typeof body.character.health, "number");
    assert.ok(Array.isArray(body.character.inventory));
    const goalLine = body.activity.find((l: any) => l.kind === "goal");
    assert.match(goalLine.text, /:/, "a goal line says why");
    const seqs = body.activity.map((l: any) => l.seq);
    assert.deepEqual(
      seqs,
      [...seqs].sort((x: number, y: number) => x - y),
    );
    assert.equal(body.next, seqs.at(-1));
    // since: only the newer lines.
    const newer = await rest(server, "GET", `/api/agents/${a.agentId}/activity?since=${body.next}`, owner.token);
    assert.ok(newer.body.activity.every((l: any) => l.seq > body.next));
    for (const q of ["?since=-1", "?since=abc", "?other=1"]) {
      const r = await rest(server, "GET", `/api/agents/${a.agentId}/activity${q}`, owner.token);
      assert.deepEqual([r.status, r.body.error.code], [400, "INVALID_PAYLOAD"], q);
    }
    // Someone else, and another agent's watch token, are refused.
    const stranger = await guestToken(server);
    assert.equal((await rest(server, "GET", `/api/agents/${a.agentId}/activity`, stranger.token)).status, 403);
    const other = await watched("Otheragent");
    const cross = await rest(server, "GET", `/api/agents/${a.agentId}/activity`, other.watch.token);
    assert.deepEqual([cross.status, cross.body.error.code], [403, "FORBIDDEN"]);
    assert.equal((await rest(server, "GET", `/api/agents/${a.agentId}/activity`, "garbage")).status, 401);
    assert.equal((await rest(server, "GET", `/api/agents/a_nope/activity`, watch.token)).status, 404);
  });

  it("an MCP agent's notes and refusals reach the feed and its stream", async () => {
    const { a, owner, watch } = await watched("Noter");
    // The owner's agent token drives the character over MCP (the built-in runtime steps aside).
    const agentToken = signToken({ sub: owner.accountId, role: "agent", characterId: a.characterId }, TEST_SECRET, 3600);
    const c = await mcpConnect(server, agentToken);
    try {
      const controller = new AbortController();
      const res = await fetch(`${server.url}/api/agents/${a.agentId}/activity/stream`, {
        headers: { authorization: `Bearer ${watch.token}` },
        signal: controller.signal,
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
      const reader = res.body!.getReader();
      let text = "";
      const streamed = (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return false;
          text += new TextDecoder().decode(value);
          if (text.includes("chop the oak first, then sell")) return true;
        }
      })();
      const noted = await c.call("note", { text: "  chop the oak first, then sell  " });
      assert.equal(noted.isError, false, noted.text);
      assert.equal(noted.body.noted, "chop the oak first, then sell");
      assert.equal(await streamed, true);
      assert.match(text, /event: activity\nid: \d+|id: \d+\nevent: activity/);
      controller.abort();

      const refused = await c.call("interact", { action: "attack", targetId: "npc:nobody:here" });
      assert.equal(refused.isError, true);
      const body = await activityUntil(
        server,
        a.agentId,
        owner.token,
        (lines) => lines.some((l) => l.kind === "note") && lines.some((l) => l.kind === "event" && /^Refused: /.test(l.text)),
        "the note and the refusal",
      );
      assert.equal(body.activity.find((l: any) => l.kind === "note").text, "chop the oak first, then sell");

      // Bad notes change nothing.
      for (const args of [{ text: "" }, { text: "x".repeat(281) }, { text: 5 }, {}, { text: "a", extra: 1 }]) {
        const r = await c.call("note", args as Record<string, unknown>);
        assert.equal(r.isError, true, JSON.stringify(args));
        assert.match(r.text, /INVALID_PAYLOAD/);
      }
      const after = await rest(server, "GET", `/api/agents/${a.agentId}/activity`, owner.token);
      assert.equal(after.body.activity.filter((l: any) => l.kind === "note").length, 1);
    } finally {
      await c.close();
    }
  });
});
