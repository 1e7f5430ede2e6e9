import assert from "node:assert/strict";
import { ChatArchive } from "../../src/db/chatRepo.js";
import { silentLogger } from "../../src/logger.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";
import { accountWithCharacter, playOverWs } from "../helpers/accounts.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { theWorld } from "../helpers/worldRoom.js";
import type { WsPlayer } from "../helpers/wsClient.js";

/** The chat log: every line said kept for the staff, searchable, around a report, and gone after its retention. */
for (const kind of DATABASE_KINDS) {
  describe(`the chat log for the staff on ${kind}`, function () {
    this.timeout(60_000);
    let server: TestServer;
    let t: TestDb;
    const open: WsPlayer[] = [];

    const player = (role: "player" | "moderator" = "player") => accountWithCharacter(server, `Chat${kind.slice(0, 2)}`, role);
    const play = async (p: { token: string; characterId: string }) => {
      const ws = await playOverWs(server, p);
      open.push(ws);
      return ws;
    };
    /** Say something and wait for it to be heard back (the room has handled it). */
    const say = async (ws: WsPlayer, message: string, extra: Record<string, unknown> = {}) => {
      const mark = ws.mark();
      ws.send("player:chat", { message, ...extra });
      await ws.next("chat:message", (f) => f.data.message === message.replace(/^\/world /, ""), { since: mark });
    };
    const search = (token: string, query: string) => rest(server, "GET", `/api/admin/chat${query}`, token);

    before(async () => {
      t = await openTestDb(kind);
      server = await startTestServer({ db: t.db });
    });
    after(async () => {
      for (const ws of open) ws.close();
      await server?.close();
      await t?.cleanup();
    });

    it("every line said is kept and found by player, by two players, by words, channel and time; pages; audited", async () => {
      const [a, b, c, mod] = [await player(), await player(), await player(), await player("moderator")];
      const [wa, wb] = [await play(a), await play(b), await play(c)];
      const startedAt = new Date().toISOString();
      await say(wa, "hello there friend");
      await say(wb, "/world selling LOBSTERS cheap");
      await say(wa, "meet me at the bank", { channel: "private", to: c.name });
      await (await theWorld()).chatLog.flush();

      const ofA = await search(mod.token, `?player=${a.name}`);
      assert.equal(ofA.status, 200, JSON.stringify(ofA.body));
      assert.equal(ofA.body.retentionDays, 30);
      assert.deepEqual(
        ofA.body.lines.map((l: any) => [l.channel, l.fromName, l.toName, l.message]),
        [
          ["private", a.name, c.name, "meet me at the bank"],
          ["local", a.name, null, "hello there friend"],
        ],
      );
      assert.deepEqual([ofA.body.lines[1].fromCharacterId, ofA.body.lines[1].fromAccountId, ofA.body.lines[1].world], [a.characterId, a.accountId, "1"]);
      // The one sent a private line finds it too.
      assert.deepEqual(
        (await search(mod.token, `?player=${c.characterId}`)).body.lines.map((l: any) => l.message),
        ["meet me at the bank"],
      );
      // Words: each in the line, any case.
      assert.deepEqual(
        (await search(mod.token, `?q=${encodeURIComponent("lobsters CHEAP")}`)).body.lines.map((l: any) => [l.fromName, l.channel, l.message]),
        [[b.name, "world", "selling LOBSTERS cheap"]],
      );
      assert.deepEqual((await search(mod.token, `?q=${encodeURIComponent("lobsters friend")}`)).body.lines, []);
      // Between two: what either said in public, and their private lines to each other.
      assert.deepEqual(
        (await search(mod.token, `?player=${a.name}&with=${b.name}`)).body.lines.map((l: any) => l.message),
        ["selling LOBSTERS cheap", "hello there friend"],
      );
      assert.deepEqual(
        (await search(mod.token, `?player=${a.name}&channel=private&world=1`)).body.lines.map((l: any) => l.message),
        ["meet me at the bank"],
      );
      const later = new Date(Date.now() + 60_000).toISOString();
      assert.equal((await search(mod.token, `?player=${a.name}&from=${encodeURIComponent(later)}`)).body.lines.length, 0);
      assert.equal((await search(mod.token, `?player=${a.name}&from=${encodeURIComponent(startedAt)}&to=${encodeURIComponent(later)}`)).body.lines.length, 2);
      // Pages, newest first.
      const first = await search(mod.token, `?player=${a.name}&limit=1`);
      assert.equal(first.body.lines[0].message, "meet me at the bank");
      assert.ok(first.body.next);
      const second = await search(mod.token, `?player=${a.name}&limit=1&before=${first.body.next}`);
      assert.deepEqual([second.body.lines.map((l: any) => l.message), second.body.next], [["hello there friend"], null]);
      // Each search is in the audit log.
      const audits = await server.ctx.db.prisma.auditLog.findMany({ where: { kind: "chat.search", actorAccountId: mod.accountId } });
      assert.ok(audits.length >= 8, `${audits.length} chat.search rows`);
      assert.ok(audits.some((r) => r.targetCharacterId === a.characterId && (r.args as any).q === undefined));
    });

    it("players and callers without a token are refused; bad queries change nothing", async () => {
      const [p, mod] = [await player(), await player("moderator")];
      assert.equal((await search("", "")).status, 401);
      assert.deepEqual([(await search(p.token, "")).status, (await search(p.token, "")).body.error.code], [403, "FORBIDDEN"]);
      const before = await server.ctx.db.prisma.auditLog.count({ where: { kind: "chat.search" } });
      for (const q of [
        "?limit=0",
        "?limit=500",
        "?channel=shout",
        "?from=yesterday",
        "?before=abc",
        "?other=1",
        `?with=${p.name}`,
        "?world=0",
        `?q=${"x".repeat(201)}`,
      ]) {
        const r = await search(mod.token, q);
        assert.deepEqual([r.status, r.body.error.code], [400, "INVALID_PAYLOAD"], q);
      }
      const unknown = await search(mod.token, "?player=Nobody%20Here");
      assert.deepEqual([unknown.status, unknown.body.error.code], [404, "UNKNOWN_PLAYER"]);
      assert.equal(await server.ctx.db.prisma.auditLog.count({ where: { kind: "chat.search" } }), before);
      assert.equal((await rest(server, "GET", "/api/admin/reports/nope/chat", mod.token)).status, 404);
      assert.equal((await rest(server, "GET", "/api/admin/reports/nope/chat", p.token)).status, 403);
    });

    it("a report shows the lines between the two around its time", async () => {
      const [a, b, c, mod] = [await player(), await player(), await player(), await player("moderator")];
      const [wa, wb, wc] = [await play(a), await play(b), await play(c)];
      await say(wb, "give me your coins or else");
      await say(wa, "please stop");
      await say(wc, "someone else talking");
      await (await theWorld()).chatLog.flush();
      const reported = await rest(server, "POST", "/api/player/report", a.token, { name: b.name, reason: "threats" });
      assert.equal(reported.status, 201, JSON.stringify(reported.body));
      const r = await rest(server, "GET", `/api/admin/reports/${reported.body.reportId}/chat`, mod.token);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(
        r.body.lines.map((l: any) => [l.fromName, l.message]),
        [
          [b.name, "give me your coins or else"],
          [a.name, "please stop"],
        ],
      );
      assert.ok(Date.parse(r.body.from) < Date.parse(r.body.to));
      assert.equal(await server.ctx.db.prisma.auditLog.count({ where: { kind: "chat.report", actorAccountId: mod.accountId } }), 1);
    });

    it("lines past the retention are deleted; a retention of 0 keeps nothing", async () => {
      const prisma = server.ctx.db.prisma;
      const line = (daysAgo: number, message: string) => ({
        at: new Date(Date.now() - daysAgo * 86_400_000),
        world: "1",
        channel: "local" as const,
        fromCharacterId: "c_old",
        fromAccountId: "u_old",
        fromName: "Old",
        message,
      });
      const archive = new ChatArchive(prisma, silentLogger, 30);
      archive.record(line(31, "too old"));
      archive.record(line(29, "still kept"));
      await archive.flush();
      assert.equal(await prisma.chatLine.count({ where: { fromCharacterId: "c_old" } }), 2);
      assert.equal(await archive.purge(), 1);
      assert.deepEqual(
        (await prisma.chatLine.findMany({ where: { fromCharacterId: "c_old" } })).map((l) => l.message),
        ["still kept"],
      );
      await archive.close();
      const none = new ChatArchive(prisma, silentLogger, 0);
      none.record(line(0, "not kept"));
      // It deletes nothing either: what a longer retention kept stays.
      assert.equal(await none.purge(), 0);
      await none.close();
      assert.equal(await prisma.chatLine.count({ where: { message: "not kept" } }), 0);
      assert.equal(await prisma.chatLine.count({ where: { message: "still kept" } }), 1);
    });
  });
}
