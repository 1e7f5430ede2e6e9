import assert from "node:assert/strict";
import { createLogger } from "../../src/logger.js";
import { LogTail } from "../../src/logTail.js";
import { LOG_STREAMS_MAX } from "../../src/http/api/adminLive.js";
import { newAgent } from "../helpers/agentWorld.js";
import { accountWithCharacter } from "../helpers/accounts.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { joinWorld } from "../helpers/worldClient.js";
import { theWorld, ticks } from "../helpers/worldRoom.js";
import { wsConnect } from "../helpers/wsClient.js";

/** Server-sent events read off a fetch body until `pred` holds of those read so far. */
async function eventsUntil(res: Response, pred: (events: Array<{ id: number; event: string; data: any }>) => boolean) {
  const reader = res.body!.getReader();
  const events: Array<{ id: number; event: string; data: any }> = [];
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return events;
    text += new TextDecoder().decode(value);
    let cut: number;
    while ((cut = text.indexOf("\n\n")) >= 0) {
      const block = text.slice(0, cut);
      text = text.slice(cut + 2);
      const field = (name: string) => [...block.matchAll(/^(\w+): (.*)$/gm)].find((m) => m[1] === name)?.[2];
      const data = field("data");
      if (data !== undefined) events.push({ id: Number(field("id")), event: field("event") ?? "message", data: JSON.parse(data) });
    }
    if (pred(events)) return events;
  }
}

describe("admin stats and the live log: admins only", function () {
  this.timeout(60_000);
  let server: TestServer;

  const account = (role: "player" | "moderator" | "admin" = "player") => accountWithCharacter(server, "Live ", role);

  before(async () => {
    // The server's log goes nowhere but into its tail, as the production logger's lines go out and into it.
    const logger = createLogger({ level: "info", tail: new LogTail(50), destination: { write() {} } });
    server = await startTestServer({ logger });
  });
  after(async () => {
    await server?.close();
  });

  it("refuses players, moderators and callers without a token; bad queries change nothing", async () => {
    const player = await account();
    const mod = await account("moderator");
    for (const path of ["/api/admin/stats", "/api/admin/log", "/api/admin/log/stream"]) {
      assert.equal((await rest(server, "GET", path)).status, 401, path);
      for (const who of [player, mod]) {
        const r = await rest(server, "GET", path, who.token);
        assert.deepEqual([r.status, r.body.error.code], [403, "FORBIDDEN"], path);
      }
    }
    const admin = await account("admin");
    for (const q of ["level=loud", "limit=0", "limit=5000", "after=-1", "after=x", "other=1"]) {
      const r = await rest(server, "GET", `/api/admin/log?${q}`, admin.token);
      assert.deepEqual([r.status, r.body.error.code], [400, "INVALID_PAYLOAD"], q);
    }
    assert.equal((await rest(server, "GET", "/api/admin/log/stream?level=loud", admin.token)).status, 400);
  });

  it("stats: online by world and by how each plays, the world's ticks, memory and saves", async () => {
    const admin = await account("admin");
    const room = await theWorld();
    const before = (await rest(server, "GET", "/api/admin/stats", admin.token)).body;
    const sdk = await joinWorld(server);
    const ws = await wsConnect(server.port);
    await ws.next("authenticated");
    const { a, owner } = await newAgent(server, room, "Statsy");
    await ticks(room, 2);
    const r = await rest(server, "GET", "/api/admin/stats", admin.token);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const { online, worlds, process: proc } = r.body;
    const byClient = (s: Record<string, number>, k: string) => s[k] ?? 0;
    for (const [kind, n] of [
      ["colyseus", 1],
      ["ws", 1],
      ["runtime", 1],
    ] as const)
      assert.equal(byClient(online.sessionsByClient, kind) - byClient(before.online.sessionsByClient, kind), n, kind);
    assert.equal(online.players - before.online.players, 3);
    assert.equal(online.agents - before.online.agents, 1);
    assert.equal(worlds.length, 1);
    const w = worlds[0];
    assert.deepEqual([w.world, w.players, w.tick >= room.world.tick - 1], [1, room.world.players.size, true]);
    assert.ok(w.ticks.ticks > 0 && w.ticks.p99Ms >= w.ticks.medianMs, JSON.stringify(w.ticks));
    assert.ok(w.processMemory.rssBytes > 0 && w.processMemory.heapUsedBytes > 0);
    assert.ok(proc.memory.rssBytes > 0 && proc.uptimeS >= 0);
    assert.equal(typeof proc.saves.written, "number");
    // A save is counted.
    const saved = (await rest(server, "POST", "/api/admin/save", admin.token, {})).status;
    assert.equal(saved, 200);
    const after = (await rest(server, "GET", "/api/admin/stats", admin.token)).body;
    assert.ok(after.process.saves.written > proc.saves.written, `${proc.saves.written} → ${after.process.saves.written}`);
    await sdk.room.leave();
    ws.close();
    assert.equal((await rest(server, "POST", `/api/agent/${a.agentId}/stop`, owner.token)).status, 200);
  });

  it("the log: the latest lines kept (bounded), by level and after an id; the stream sends each new line", async () => {
    const admin = await account("admin");
    const marker = `live-log-${Date.now()}`;
    server.ctx.logger.info({ world: 1 }, `${marker} one`);
    server.ctx.logger.warn(`${marker} two`);
    server.ctx.logger.debug(`${marker} below the level: never written`);
    const all = await rest(server, "GET", "/api/admin/log", admin.token);
    assert.equal(all.status, 200);
    assert.equal(all.body.capacity, 50);
    const mine = all.body.lines.filter((l: any) => l.msg.startsWith(marker));
    assert.deepEqual(
      mine.map((l: any) => [l.level, l.msg]),
      [
        ["info", `${marker} one`],
        ["warn", `${marker} two`],
      ],
    );
    assert.equal(mine[0].line.world, 1);
    assert.ok(mine[1].id > mine[0].id);
    const warns = await rest(server, "GET", "/api/admin/log?level=warn", admin.token);
    assert.ok(warns.body.lines.every((l: any) => l.level === "warn" || l.level === "error" || l.level === "fatal"));
    assert.ok(warns.body.lines.some((l: any) => l.msg === `${marker} two`));
    const after = await rest(server, "GET", `/api/admin/log?after=${mine[0].id}`, admin.token);
    assert.ok(after.body.lines.every((l: any) => l.id > mine[0].id));
    // The tail keeps its last 50 lines.
    for (let i = 0; i < 60; i++) server.ctx.logger.info(`${marker} filler ${i}`);
    // (The server's own lines, such as each request's, are kept among them.)
    const kept = await rest(server, "GET", "/api/admin/log?limit=1000", admin.token);
    assert.equal(kept.body.lines.length, 50);
    const fillers = kept.body.lines.filter((l: any) => l.msg.startsWith(`${marker} filler`)).map((l: any) => Number(l.msg.split(" ").at(-1)));
    assert.ok(fillers.length >= 48 && fillers.at(-1) === 59, JSON.stringify(fillers));
    assert.deepEqual(
      fillers,
      [...fillers].sort((x: number, y: number) => x - y),
    );
    assert.ok(!kept.body.lines.some((l: any) => l.msg === `${marker} one`));
    const ids = kept.body.lines.map((l: any) => l.id);
    // limit: the latest lines (of those after `after`).
    const latest = await rest(server, "GET", `/api/admin/log?limit=3&after=${ids.at(-4)}`, admin.token);
    const got3 = latest.body.lines.map((l: any) => l.id);
    assert.equal(got3.length, 3);
    assert.ok(
      got3.every((id: number, i: number) => id > ids.at(-4) && (i === 0 || id > got3[i - 1])),
      JSON.stringify(got3),
    );

    // The stream: new lines at the level asked for, as they are written.
    const controller = new AbortController();
    const res = await fetch(`${server.url}/api/admin/log/stream?level=warn`, {
      headers: { authorization: `Bearer ${admin.token}` },
      signal: controller.signal,
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
    const got = eventsUntil(res, (events) => events.some((e) => e.data.msg === `${marker} streamed`));
    server.ctx.logger.info(`${marker} an info line the stream does not want`);
    server.ctx.logger.error({ agentId: "a_1" }, `${marker} streamed`);
    const events = await got;
    controller.abort();
    assert.deepEqual(
      events.map((e) => [e.event, e.data.level, e.data.msg]),
      [["log", "error", `${marker} streamed`]],
    );
    assert.equal(events[0].id, events[0].data.id);
    assert.equal(events[0].data.line.agentId, "a_1");
  });

  it("at most LOG_STREAMS_MAX streams at once: the next is refused TOO_MANY_STREAMS", async () => {
    const admin = await account("admin");
    const controllers: AbortController[] = [];
    try {
      for (let i = 0; i < LOG_STREAMS_MAX; i++) {
        const c = new AbortController();
        controllers.push(c);
        const res = await fetch(`${server.url}/api/admin/log/stream`, { headers: { authorization: `Bearer ${admin.token}` }, signal: c.signal });
        assert.equal(res.status, 200);
      }
      const over = await rest(server, "GET", "/api/admin/log/stream", admin.token);
      assert.deepEqual([over.status, over.body.error.code], [503, "TOO_MANY_STREAMS"]);
    } finally {
      for (const c of controllers) c.abort();
    }
  });
});
