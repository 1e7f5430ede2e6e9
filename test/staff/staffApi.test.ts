import assert from "node:assert/strict";
import { Client } from "@colyseus/sdk";
import { signToken } from "../../src/auth/tokens.js";
import { restartsOf } from "../../src/staff/restart.js";
import { runnableAgents } from "../../src/db/agentRepo.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, TEST_SECRET, type TestServer } from "../helpers/server.js";
import { guestToken, joinWorld, type WorldPlayer } from "../helpers/worldClient.js";
import { theWorld, ticks } from "../helpers/worldRoom.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";

/**
 * Staff and moderation over the real protocols, on both databases: roles from the database only,
 * sanctions through every way in, reports, broadcasts, the admin REST API with its refusals, the
 * audit row of each act, save-all and a scheduled restart.
 */
for (const kind of DATABASE_KINDS) {
  describe(`staff and moderation over HTTP, /ws and the SDK on ${kind}`, function () {
    this.timeout(60_000);
    let server: TestServer;
    let t: TestDb;
    const open: Array<{ close(): void }> = [];
    let names = 0;

    /** A guest account with a character of a fresh name, its role set in the database. */
    const account = async (role: "player" | "moderator" | "admin" = "player") => {
      const who = await guestToken(server);
      const name = `St${kind.slice(0, 2)}${++names}`;
      const made = await rest(server, "POST", "/api/character", who.token, { name });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      if (role !== "player") await server.ctx.db.prisma.user.update({ where: { id: who.accountId }, data: { roles: [role] } });
      return { ...who, name, characterId: made.body.character.id as string };
    };
    const ws = async (token: string) => {
      const p = await wsConnect(server.port, `?token=${encodeURIComponent(token)}`);
      open.push(p);
      return p;
    };
    const sdk = async (who: { token: string; accountId: string }) => {
      const p = await joinWorld(server, {}, who);
      open.push({ close: () => void p.leave() });
      return p;
    };
    const auditOf = (kindOfAct: string) => server.ctx.db.prisma.auditLog.findMany({ where: { kind: kindOfAct }, orderBy: { id: "asc" } });

    before(async () => {
      t = await openTestDb(kind);
      server = await startTestServer({ db: t.db, env: { ADMIN_CODE: "open-sesame-1234" } });
    });
    afterEach(() => {
      for (const p of open.splice(0)) p.close();
    });
    after(async () => {
      await server?.close();
      await t?.cleanup();
    });

    it("roles come from the database only: a token claiming admin is a player; /api/auth/me tells the staff role", async () => {
      const p = await account();
      const claimsAdmin = signToken({ sub: p.accountId, role: "admin" }, TEST_SECRET);
      for (const token of [p.token, claimsAdmin]) {
        const r = await rest(server, "GET", "/api/admin/audit", token);
        assert.deepEqual([r.status, r.body.error.code], [403, "FORBIDDEN"]);
      }
      assert.equal((await rest(server, "GET", "/api/auth/me", claimsAdmin)).body.staffRole, "player");
      const mod = await account("moderator");
      assert.equal((await rest(server, "GET", "/api/auth/me", mod.token)).body.staffRole, "moderator");
      assert.equal((await rest(server, "GET", "/api/admin/reports", mod.token)).status, 200);
      assert.equal((await rest(server, "GET", "/api/admin/audit", mod.token)).status, 403, "the audit log is for admins");
      const admin = await account("admin");
      assert.equal((await rest(server, "GET", "/api/admin/audit", admin.token)).status, 200);
      // Another player's id changes nothing: still a player.
      assert.equal((await rest(server, "GET", `/api/admin/characters/${admin.characterId}`, p.token)).status, 403);
    });

    it("a ban removes the player from the world at once (/ws and SDK) and every way in is refused BANNED; lifted, it plays again", async () => {
      const mod = await account("moderator");
      const p = await account();
      const viaWs = await ws(p.token);
      await viaWs.next("authenticated");
      // The account's second character plays through the SDK at the same time.
      const second = await rest(server, "POST", "/api/character", p.token, { name: `${p.name}b` });
      const sdkPlayer = await joinWorld(server, { characterId: second.body.character.id }, p);
      open.push({ close: () => void sdkPlayer.leave() });
      const sdkLeft = new Promise<number>((resolve) => sdkPlayer.room.onLeave((code) => resolve(code)));

      const banned = await rest(server, "POST", "/api/admin/sanctions", mod.token, { name: p.name, kind: "ban", duration: "2h", reason: "botting" });
      assert.equal(banned.status, 201, JSON.stringify(banned.body));
      assert.match(banned.body.message, /^Banned .* until .* UTC: botting$/);
      const err = await viaWs.next("error", (f) => f.data.code === "BANNED");
      assert.match(err.data.message, /^You are banned until .* UTC: botting$/);
      assert.equal((await viaWs.closed).code, 4102);
      assert.equal(await sdkLeft, 4102);
      const room = await theWorld();
      // The room lets the SDK client go when its socket has closed: within a few ticks.
      const anyLeft = () => [...room.sessions.values()].some((s) => s.accountId === p.accountId);
      for (let i = 0; i < 20 && anyLeft(); i++) await ticks(room, 1);
      assert.equal(anyLeft(), false, "no session of the account is left");

      // Every way in: REST with the same (guest) token, /ws by URL and by authenticate, an SDK join, a new agent.
      const me = await rest(server, "GET", "/api/auth/me", p.token);
      assert.deepEqual([me.status, me.body.error.code], [403, "BANNED"]);
      assert.match(me.body.error.message, /botting/);
      assert.equal((await rest(server, "POST", "/api/agent/register", p.token, { name: "Sneaky" })).status, 403);
      const again = await ws(p.token);
      assert.equal((await again.next("error")).data.code, "BANNED");
      assert.equal((await again.closed).code, 4102);
      const framed = await wsConnect(server.port);
      open.push(framed);
      framed.send("authenticate", { token: p.token }, "a1");
      const refused = await framed.next("error", (f) => f.id === "a1");
      assert.equal(refused.data.code, "BANNED");
      assert.equal((await framed.closed).code, 4102);
      const client = new Client(server.url);
      client.auth.token = p.token;
      await assert.rejects(client.joinOrCreate("world", {}), (e: { code?: number; message?: string }) => e.code === 4102 && /banned/.test(e.message ?? ""));

      const lifted = await rest(server, "POST", "/api/admin/sanctions/lift", mod.token, { name: p.name, kind: "ban", reason: "appeal" });
      assert.equal(lifted.status, 200, JSON.stringify(lifted.body));
      const back = await ws(p.token);
      await back.next("authenticated");
      assert.equal((await rest(server, "GET", "/api/auth/me", p.token)).status, 200);
      const rows = (await server.ctx.db.prisma.auditLog.findMany({ where: { targetAccountId: p.accountId }, orderBy: { id: "asc" } })).map((r) => [
        r.kind,
        r.actorAccountId,
        r.reason,
      ]);
      assert.deepEqual(rows, [
        ["ban", mod.accountId, "botting"],
        ["unban", mod.accountId, "appeal"],
      ]);
    });

    it("a ban takes the account's built-in agents out of the world, and the runtime does not start them again while it lasts", async () => {
      const mod = await account("moderator");
      const owner = await account();
      const agent = await rest(server, "POST", "/api/agent/register", owner.token, { name: `Ag${kind.slice(0, 2)}${++names}` });
      assert.equal(agent.status, 201, JSON.stringify(agent.body));
      const room = await theWorld();
      const inWorld = () => room.world.players.has(agent.body.characterId);
      for (let i = 0; i < 40 && !inWorld(); i++) await ticks(room, 1);
      assert.ok(inWorld(), "the agent plays");
      await rest(server, "POST", "/api/admin/sanctions", mod.token, { name: owner.name, kind: "ban", duration: "1h", reason: "bot farm" });
      for (let i = 0; i < 40 && inWorld(); i++) await ticks(room, 1);
      assert.equal(inWorld(), false, "the agent left the world");
      assert.ok(!(await runnableAgents(server.ctx.db.prisma)).some((a) => a.agentId === agent.body.agentId), "not started again while banned");
      await rest(server, "POST", "/api/admin/sanctions/lift", mod.token, { name: owner.name, kind: "ban" });
      assert.ok(
        (await runnableAgents(server.ctx.db.prisma)).some((a) => a.agentId === agent.body.agentId),
        "runnable again once lifted",
      );
    });

    it("a ban ends by itself: once its end has passed the account plays again", async () => {
      const mod = await account("moderator");
      const p = await account();
      const r = await rest(server, "POST", "/api/admin/sanctions", mod.token, { name: p.name, kind: "ban", duration: "30m", reason: "cool off" });
      assert.equal((await rest(server, "GET", "/api/auth/me", p.token)).status, 403);
      await server.ctx.db.prisma.sanction.update({
        where: { id: r.body.sanction.id },
        data: { createdAt: new Date(Date.now() - 3600_000), endsAt: new Date(Date.now() - 1000) },
      });
      assert.equal((await rest(server, "GET", "/api/auth/me", p.token)).status, 200);
      const back = await ws(p.token);
      await back.next("authenticated");
    });

    it("a mute refuses chat on every channel with MUTED and its end; the player is told at once; an unmute lets it speak", async () => {
      const mod = await account("moderator");
      const p = await account();
      const listener = await account();
      const a = await ws(p.token);
      await a.next("authenticated");
      const l = await ws(listener.token);
      await l.next("authenticated");
      const staff = await ws(mod.token);
      await staff.next("authenticated");
      assert.deepEqual((await staff.next("account:standing")).data, { role: "moderator", muted: null });
      staff.send("player:chat", { message: `/mute ${p.name} 30m flooding` }, "m1");
      const done = await staff.next("notice", (f) => f.id === "m1");
      assert.equal(done.data.code, "SANCTIONED");
      assert.match((await a.next("notice", (f) => f.data.code === "MUTED")).data.message, /^You are muted until .* UTC: flooding$/);
      const standing = (await a.next("account:standing")).data;
      assert.equal(standing.muted.reason, "flooding");
      for (const [data, id] of [
        [{ message: "hello" }, "c1"],
        [{ message: "/world hello all" }, "c2"],
        [{ message: "psst", channel: "private", to: listener.name }, "c3"],
      ] as const) {
        a.send("player:chat", data, id);
        const e = await a.next("error", (f) => f.id === id);
        assert.equal(e.data.code, "MUTED", id);
      }
      staff.send("player:chat", { message: `/unmute ${p.name}` }, "u1");
      assert.equal((await staff.next("notice", (f) => f.id === "u1")).data.code, "SANCTION_LIFTED");
      await a.next("notice", (f) => f.data.code === "UNMUTED");
      const since = l.mark();
      a.send("player:chat", { message: "sorry everyone", channel: "world" }, "c4");
      assert.equal((await l.next("chat:message", (f) => f.data.message === "sorry everyone", { since })).data.fromName, p.name);
      assert.deepEqual(
        (await auditOf("mute")).filter((r) => r.targetAccountId === p.accountId).map((r) => [r.via, r.actorAccountId, r.reason]),
        [["game", mod.accountId, "flooding"]],
      );
    });

    it("staff commands in chat: refused for players and below the target's role, bad arguments named; /give and /tp audited; /admin <code> works as the fallback and is audited", async () => {
      const p = await account();
      const mod = await account("moderator");
      const admin = await account("admin");
      const a = await ws(p.token);
      await a.next("authenticated");
      const m = await ws(mod.token);
      await m.next("authenticated");
      const ask = async (who: WsPlayer, message: string) => {
        const id = `q${Math.random()}`;
        who.send("player:chat", { message }, id);
        return (await who.next("*", (f) => f.id === id && (f.type === "error" || f.type === "notice"))).data;
      };
      assert.equal((await ask(a, `/mute ${mod.name} 1h x`)).code, "FORBIDDEN");
      assert.equal((await ask(a, `/ban ${mod.name} 1h x`)).code, "FORBIDDEN");
      assert.equal((await ask(m, `/ban ${admin.name} 1h nope`)).code, "TARGET_IS_STAFF");
      assert.equal((await ask(m, `/ban ${p.name} 1y x`)).code, "INVALID_DURATION");
      assert.equal((await ask(m, `/ban ${p.name} -5m x`)).code, "INVALID_DURATION");
      assert.equal((await ask(m, `/ban ${p.name} 1h`)).code, "REASON_REQUIRED");
      assert.equal((await ask(m, "/ban Nobody12345 1h x")).code, "UNKNOWN_PLAYER");
      assert.equal((await ask(m, "/ban")).code, "MISSING_NAME");
      assert.equal((await ask(m, `/give coins 5 ${p.name}`)).code, "FORBIDDEN");
      assert.equal((await ask(m, "/broadcast hi")).code, "FORBIDDEN");
      assert.equal(await server.ctx.db.prisma.sanction.count({ where: { accountId: p.accountId } }), 0, "no refusal changed anything");

      const ad = await ws(admin.token);
      await ad.next("authenticated");
      assert.equal((await ask(ad, `/give coins 250 ${p.name}`)).code, "GIVEN");
      assert.equal((await ask(ad, `/give coins -3 ${p.name}`)).code, "INVALID_QUANTITY");
      assert.equal((await ask(ad, `/give no_such_item 1 ${p.name}`)).code, "UNKNOWN_ITEM");
      assert.equal((await ask(ad, "/tp x y")).code, "INVALID_TARGET");
      const gives = (await auditOf("give")).filter((r) => r.targetCharacterId === p.characterId);
      assert.deepEqual(
        gives.map((r) => [r.actorAccountId, r.args]),
        [[admin.accountId, { itemId: "coins", quantity: 250, world: 1 }]],
      );
      // The code fallback: a player who knows ADMIN_CODE becomes admin for the session, and that is audited.
      assert.equal((await ask(a, "/admin open-sesame-1234")).code, "ADMIN_GRANTED");
      const codes = (await auditOf("admin.code")).filter((r) => r.actorAccountId === p.accountId);
      assert.equal(codes.length, 1);
      assert.equal((await ask(a, `/give coins 1 ${p.name}`)).code, "GIVEN");
    });

    it("reports: over /ws with the chat between them attached, over REST, rate limited; staff list, claim and close them", async () => {
      const reporter = await account();
      const rude = await account();
      const mod = await account("moderator");
      const a = await ws(reporter.token);
      await a.next("authenticated");
      const b = await ws(rude.token);
      await b.next("authenticated");
      b.send("player:chat", { message: "you are terrible", channel: "world" });
      await a.next("chat:message", (f) => f.data.message === "you are terrible");
      a.send("player:report", { name: rude.name, reason: "insults in world chat" }, "r1");
      assert.equal((await a.next("notice", (f) => f.id === "r1")).data.code, "REPORTED");
      a.send("player:report", { name: reporter.name, reason: "me" }, "r2");
      assert.equal((await a.next("error", (f) => f.id === "r2")).data.code, "SELF_REPORT");
      a.send("player:report", { name: "", reason: "x" }, "r3");
      assert.equal((await a.next("error", (f) => f.id === "r3")).data.code, "INVALID_PAYLOAD");
      a.send("player:report", { name: rude.name, reason: "x".repeat(501) }, "r4");
      assert.equal((await a.next("error", (f) => f.id === "r4")).data.code, "INVALID_PAYLOAD");

      const viaRest = await rest(server, "POST", "/api/player/report", reporter.token, { name: rude.name, reason: "again" });
      assert.equal(viaRest.status, 201, JSON.stringify(viaRest.body));
      assert.equal(viaRest.body.chatLines, 1);
      for (const bad of [{}, { name: rude.name }, { name: 5, reason: "x" }, { name: rude.name, reason: "x", extra: 1 }]) {
        assert.equal((await rest(server, "POST", "/api/player/report", reporter.token, bad)).status, 400, JSON.stringify(bad));
      }
      assert.equal((await rest(server, "POST", "/api/player/report", reporter.token, { name: "Nobody12345", reason: "x" })).status, 404);
      for (let i = 0; i < 3; i++)
        assert.equal((await rest(server, "POST", "/api/player/report", reporter.token, { name: rude.name, reason: `r${i}` })).status, 201);
      const limited = await rest(server, "POST", "/api/player/report", reporter.token, { name: rude.name, reason: "sixth" });
      assert.deepEqual([limited.status, limited.body.error.code], [429, "RATE_LIMITED"]);

      assert.equal((await rest(server, "GET", "/api/admin/reports", reporter.token)).status, 403);
      const list = await rest(server, "GET", "/api/admin/reports?status=open", mod.token);
      const first = list.body.reports.find((r: any) => r.reason === "insults in world chat");
      assert.deepEqual(
        first.chat.map((l: any) => [l.fromName, l.message, l.channel]),
        [[rude.name, "you are terrible", "world"]],
      );
      assert.equal((await rest(server, "POST", `/api/admin/reports/${first.id}/claim`, mod.token)).body.report.status, "claimed");
      assert.equal((await rest(server, "POST", `/api/admin/reports/${first.id}/close`, mod.token, {})).status, 400, "a resolution is required");
      const closed = await rest(server, "POST", `/api/admin/reports/${first.id}/close`, mod.token, { resolution: "muted 1h" });
      assert.equal(closed.body.report.status, "closed");
      assert.equal((await rest(server, "POST", `/api/admin/reports/${first.id}/close`, mod.token, { resolution: "again" })).status, 409);
      assert.equal((await rest(server, "POST", "/api/admin/reports/r_nope/claim", mod.token)).status, 404);
    });

    it("admin REST refuses bad input with the documented codes and changes nothing", async () => {
      const admin = await account("admin");
      const p = await account();
      const bad: Array<[string, string, unknown, number]> = [
        ["POST", "/api/admin/sanctions", {}, 400],
        ["POST", "/api/admin/sanctions", { name: p.name, kind: "jail", duration: "1h", reason: "x" }, 400],
        ["POST", "/api/admin/sanctions", { name: p.name, kind: "ban", duration: "-1h", reason: "x" }, 400],
        ["POST", "/api/admin/sanctions", { name: p.name, kind: "ban", duration: "99999999999w", reason: "x" }, 400],
        ["POST", "/api/admin/sanctions", { name: p.name, kind: "ban", duration: "1h", reason: "" }, 400],
        ["POST", "/api/admin/sanctions", { name: 7, kind: "ban", duration: "1h", reason: "x" }, 400],
        ["POST", "/api/admin/sanctions", { name: "Nobody12345", kind: "ban", duration: "1h", reason: "x" }, 404],
        ["POST", "/api/admin/sanctions/lift", { name: p.name, kind: "mute" }, 409],
        ["POST", "/api/admin/roles", { name: p.name, role: "emperor" }, 400],
        ["POST", "/api/admin/broadcast", { message: "" }, 400],
        ["POST", "/api/admin/broadcast", { message: "x", world: -1 }, 400],
        ["POST", "/api/admin/restart", { inSeconds: 1e12, reason: "x" }, 400],
        ["POST", "/api/admin/restart", { inSeconds: 5, reason: "x" }, 400],
        ["POST", "/api/admin/restart", { inSeconds: "60", reason: "x" }, 400],
        ["POST", "/api/admin/restart", { inSeconds: 60 }, 400],
        ["DELETE", "/api/admin/restart", undefined, 404],
        // A drain needs a cluster to hand the worlds to: this server runs alone.
        ["POST", "/api/admin/drain", {}, 409],
        ["POST", "/api/admin/drain", { processId: 7 }, 400],
        ["POST", "/api/admin/drain", { processId: "x", extra: 1 }, 400],
        ["GET", "/api/admin/audit?limit=0", undefined, 400],
        ["GET", "/api/admin/audit?limit=100000", undefined, 400],
        ["GET", "/api/admin/audit?before=abc", undefined, 400],
        ["GET", "/api/admin/audit?from=yesterday", undefined, 400],
        ["GET", "/api/admin/audit?bogus=1", undefined, 400],
        ["GET", "/api/admin/characters/Nobody12345", undefined, 404],
        ["POST", "/api/admin/kick", { name: p.name }, 404],
      ];
      for (const [method, path, body, status] of bad) {
        const r = await rest(server, method, path, admin.token, body);
        assert.equal(r.status, status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.success, false);
        assert.equal(typeof r.body.error.code, "string");
      }
      assert.equal(await server.ctx.db.prisma.sanction.count({ where: { accountId: p.accountId } }), 0);
      assert.equal((await rest(server, "GET", "/api/admin/restart", admin.token)).body.restart, null);
      const drain = await rest(server, "GET", "/api/admin/drain", admin.token);
      assert.deepEqual([drain.body.drain, drain.body.processes.length], [null, 1], "nothing drains; one process");
      assert.equal((await rest(server, "POST", "/api/admin/drain", p.token, {})).status, 403, "a player may not drain");
      assert.equal((await auditOf("drain")).length, 0, "refused drains write no audit row");
      assert.equal((await rest(server, "GET", "/api/admin/players")).status, 401);
    });

    it("the audit log filters by actor, target, kind and time, newest first, in pages", async () => {
      const admin = await account("admin");
      const p = await account();
      for (let i = 0; i < 3; i++) {
        assert.equal((await rest(server, "POST", "/api/admin/broadcast", admin.token, { message: `notice ${i}` })).status, 200);
      }
      await rest(server, "POST", "/api/admin/sanctions", admin.token, { name: p.name, kind: "mute", duration: "1h", reason: "caps" });
      const mine = await rest(server, "GET", `/api/admin/audit?actor=${admin.name}&limit=2`, admin.token);
      assert.deepEqual(
        mine.body.entries.map((e: any) => [e.kind, e.actorName]),
        [
          ["mute", admin.name],
          ["broadcast", admin.name],
        ],
      );
      const page2 = await rest(server, "GET", `/api/admin/audit?actor=${admin.accountId}&limit=2&before=${mine.body.next}`, admin.token);
      assert.deepEqual(
        page2.body.entries.map((e: any) => e.args.message),
        ["notice 1", "notice 0"],
      );
      const onTarget = await rest(server, "GET", `/api/admin/audit?target=${p.name}`, admin.token);
      assert.deepEqual(
        onTarget.body.entries.map((e: any) => [e.kind, e.reason]),
        [["mute", "caps"]],
      );
      const future = await rest(
        server,
        "GET",
        `/api/admin/audit?kind=broadcast&from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
        admin.token,
      );
      assert.deepEqual(future.body.entries, []);
    });

    it("a broadcast reaches /ws and SDK players; players online are listed with their accounts; a character's full picture", async () => {
      const admin = await account("admin");
      const p = await account();
      const a = await ws(p.token);
      await a.next("authenticated");
      const other = await account();
      const s = await sdk(other);
      const since = s.mark();
      const r = await rest(server, "POST", "/api/admin/broadcast", admin.token, { message: "Double xp this weekend" });
      assert.equal(r.status, 200);
      const heard = (await a.next("system:broadcast")).data;
      assert.deepEqual([heard.message, heard.from, heard.world, heard.kind], ["Double xp this weekend", admin.name, null, "broadcast"]);
      assert.equal((await s.next("system:broadcast", () => true, { since })).message, "Double xp this weekend");
      const elsewhere = await rest(server, "POST", "/api/admin/broadcast", admin.token, { message: "world two only", world: 2 });
      assert.equal(elsewhere.status, 200);

      const players = await rest(server, "GET", "/api/admin/players", admin.token);
      assert.ok(players.body.players.some((x: any) => x.id === p.characterId && x.accountId === p.accountId && x.world === 1));
      const picture = await rest(server, "GET", `/api/admin/characters/${p.name}`, admin.token);
      assert.equal(picture.status, 200);
      const c = picture.body.character;
      assert.deepEqual([c.id, c.accountId, c.online, c.world, c.role], [p.characterId, p.accountId, true, 1, "player"]);
      assert.ok(Array.isArray(c.inventory) && Array.isArray(c.bank) && typeof c.position.x === "number");
      assert.ok(picture.body.sessions.length >= 1);
      assert.deepEqual(picture.body.standing, { role: "player", ban: null, mute: null });
      // world 2 does not run here: nobody heard its broadcast.
      assert.equal(a.frames.filter((f) => f.type === "system:broadcast" && f.data.message === "world two only").length, 0);
    });

    it("save-all writes every player now; a scheduled restart counts down, refuses joins near the end, saves, closes with 1012 and ends the process", async () => {
      const admin = await account("admin");
      const p = await account();
      const a = await ws(p.token);
      await a.next("authenticated");
      const room = await theWorld();
      room.world.players.get(p.characterId)!.tile = { ...room.world.players.get(p.characterId)!.tile };
      const saved = await rest(server, "POST", "/api/admin/save", admin.token);
      assert.equal(saved.status, 200);
      assert.ok(saved.body.saved >= 1);

      const exited = new Promise<void>((resolve) => (restartsOf(server.ctx).exit = resolve));
      const plan = await rest(server, "POST", "/api/admin/restart", admin.token, { inSeconds: 10, reason: "new content" });
      assert.equal(plan.status, 202, JSON.stringify(plan.body));
      assert.deepEqual(plan.body.steps, [10]);
      const step = (await a.next("system:broadcast", (f) => f.data.kind === "restart")).data;
      assert.deepEqual([step.secondsLeft, step.message], [10, "The server restarts in 10 seconds: new content"]);
      // Within its last 30 s a restart admits nobody.
      const late = await ws((await guestToken(server)).token);
      assert.equal((await late.next("error")).data.code, "RESTARTING");
      assert.equal((await late.closed).code, 1012);
      assert.equal((await rest(server, "GET", "/api/admin/restart", admin.token)).body.restart.reason, "new content");
      assert.equal((await a.closed).code, 1012);
      await exited;
      const row = await server.ctx.db.prisma.playerSession.findFirst({ where: { characterId: p.characterId }, orderBy: { startedAt: "desc" } });
      assert.ok(row?.endedAt, "the session was closed and saved");
      assert.deepEqual(
        (await auditOf("restart")).map((r) => [r.actorAccountId, r.reason, r.args]),
        [[admin.accountId, "new content", { inSeconds: 10 }]],
      );
      assert.ok((await auditOf("save-all")).some((r) => r.actorAccountId === admin.accountId));
    });
  });
}
