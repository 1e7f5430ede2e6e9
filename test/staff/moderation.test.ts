import assert from "node:assert/strict";
import { createGuest } from "../../src/auth/guest.js";
import { createCharacter } from "../../src/db/characterRepo.js";
import { standingOf, type StandingView } from "../../src/db/staffRepo.js";
import { silentLogger } from "../../src/logger.js";
import { Moderation, type StaffActor } from "../../src/staff/moderation.js";
import type { ServerMessage } from "../../src/protocol/index.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";

const code = (c: string) => (err: unknown) => (err as { code?: string }).code === c;

for (const kind of DATABASE_KINDS) {
  describe(`staff acts and their audit rows on ${kind}`, function () {
    this.timeout(60_000);
    let t: TestDb;
    let m: Moderation;
    const felt: { standings: Array<[string, StandingView]>; broadcasts: ServerMessage<"system:broadcast">[]; kicks: string[] } = {
      standings: [],
      broadcasts: [],
      kicks: [],
    };
    let n = 0;
    /** A new account with one character; its role as given. */
    const account = async (role = "player") => {
      const g = await createGuest(t.db.sql, "secret".padEnd(32, "x"), "127.0.0.1");
      const c = await createCharacter(t.db.sql, { accountId: g.accountId, name: `Mod${kind.slice(0, 2)}${++n}`, spawn: { x: 0, z: 0 }, inventory: [] });
      await t.db.prisma.user.update({ where: { id: g.accountId }, data: { roles: [role] } });
      return { accountId: g.accountId, characterId: c.id, name: c.name };
    };
    const actorOf = (a: { accountId: string; characterId: string; name: string }, role: StaffActor["role"]): StaffActor => ({ ...a, role, via: "rest" });
    const audit = () => t.db.prisma.auditLog.findMany({ orderBy: { id: "asc" } });

    before(async () => {
      t = await openTestDb(kind);
      m = new Moderation(
        t.db.prisma,
        {
          applyStanding: async (id, s) => void felt.standings.push([id, s]),
          broadcast: async (p) => void felt.broadcasts.push(p),
          kick: async (id) => (felt.kicks.push(id), true),
          hasSession: async () => true,
        },
        silentLogger,
        "test-process",
      );
    });
    after(async () => t?.cleanup());

    it("a mute and a ban are saved with their end, felt in every world, audited; a new one replaces the old; lifting ends it", async () => {
      const mod = await account("moderator");
      const p = await account();
      const before = (await audit()).length;
      const muted = await m.sanction(actorOf(mod, "moderator"), "mute", p.name.toLowerCase(), 30 * 60_000, "spam");
      assert.equal(muted.target.accountId, p.accountId);
      const standing = await standingOf(t.db.prisma, p.accountId);
      assert.equal(standing.mute?.reason, "spam");
      assert.ok(Math.abs(standing.mute!.endsAt!.getTime() - (Date.now() + 30 * 60_000)) < 5_000);
      assert.deepEqual(felt.standings.at(-1), [
        p.accountId,
        { role: "player", ban: null, mute: { reason: "spam", until: standing.mute!.endsAt!.toISOString() } },
      ]);

      await m.sanction(actorOf(mod, "moderator"), "mute", p.name, null, "spam again");
      const again = await standingOf(t.db.prisma, p.accountId);
      assert.equal(again.mute?.reason, "spam again");
      assert.equal(again.mute?.endsAt, null, "permanent");
      assert.equal(await t.db.prisma.sanction.count({ where: { accountId: p.accountId, liftedAt: null } }), 1, "the first was replaced");

      await m.sanction(actorOf(mod, "moderator"), "ban", p.characterId, 3600_000, "botting");
      assert.equal((await standingOf(t.db.prisma, p.accountId)).ban?.reason, "botting");
      await m.lift(actorOf(mod, "moderator"), "ban", p.name, "appeal accepted");
      assert.equal((await standingOf(t.db.prisma, p.accountId)).ban, null);
      await assert.rejects(m.lift(actorOf(mod, "moderator"), "ban", p.name), code("NOT_SANCTIONED"), "a replayed lift changes nothing");

      const rows = (await audit()).slice(before);
      assert.deepEqual(
        rows.map((r) => [r.kind, r.actorAccountId, r.targetAccountId, r.targetName, r.reason, r.via, r.processId]),
        [
          ["mute", mod.accountId, p.accountId, p.name, "spam", "rest", "test-process"],
          ["mute", mod.accountId, p.accountId, p.name, "spam again", "rest", "test-process"],
          ["ban", mod.accountId, p.accountId, p.name, "botting", "rest", "test-process"],
          ["unban", mod.accountId, p.accountId, p.name, "appeal accepted", "rest", "test-process"],
        ],
      );
      assert.equal((rows[0].args as { durationMs: number }).durationMs, 30 * 60_000);
    });

    it("a sanction ends by itself: past its end it is no longer in force", async () => {
      const mod = await account("moderator");
      const p = await account();
      const { sanction } = await m.sanction(actorOf(mod, "moderator"), "ban", p.name, 60_000, "cool off");
      // As if the minute had passed.
      await t.db.prisma.sanction.update({
        where: { id: sanction.id },
        data: { createdAt: new Date(Date.now() - 120_000), endsAt: new Date(Date.now() - 60_000) },
      });
      assert.equal((await standingOf(t.db.prisma, p.accountId)).ban, null);
      await assert.rejects(m.lift(actorOf(mod, "moderator"), "ban", p.name), code("NOT_SANCTIONED"));
    });

    it("refuses: a player, a moderator on staff, oneself, unknown names, no reason; nothing is written", async () => {
      const mod = await account("moderator");
      const admin = await account("admin");
      const p = await account();
      const before = (await audit()).length;
      await assert.rejects(m.sanction(actorOf(p, "player"), "mute", mod.name, 60_000, "x"), code("FORBIDDEN"));
      await assert.rejects(m.sanction(actorOf(mod, "moderator"), "ban", admin.name, 60_000, "x"), code("TARGET_IS_STAFF"));
      await assert.rejects(m.sanction(actorOf(mod, "moderator"), "ban", mod.name, 60_000, "x"), code("TARGET_IS_STAFF"));
      await assert.rejects(m.sanction(actorOf(mod, "moderator"), "ban", "Nobody At All", 60_000, "x"), code("UNKNOWN_PLAYER"));
      await assert.rejects(m.sanction(actorOf(mod, "moderator"), "ban", p.name, 60_000, "  "), code("REASON_REQUIRED"));
      await assert.rejects(m.setRole(actorOf(mod, "moderator"), p.name, "admin"), code("FORBIDDEN"));
      await assert.rejects(m.broadcast(actorOf(mod, "moderator"), "hello", null), code("FORBIDDEN"));
      await assert.rejects(m.record(actorOf(mod, "moderator"), "give", "give", null, {}), code("FORBIDDEN"));
      assert.equal((await audit()).length, before);
      assert.equal(await t.db.prisma.sanction.count({ where: { accountId: { in: [p.accountId, admin.accountId, mod.accountId] } } }), 0);
    });

    it("roles: an admin grants and revokes, audited, felt at once; an admin cannot lower itself", async () => {
      const admin = await account("admin");
      const p = await account();
      await m.setRole(actorOf(admin, "admin"), p.name, "moderator", "trusted helper");
      assert.equal((await standingOf(t.db.prisma, p.accountId)).role, "moderator");
      assert.deepEqual(felt.standings.at(-1), [p.accountId, { role: "moderator", ban: null, mute: null }]);
      await m.setRole(actorOf(admin, "admin"), p.accountId, "player");
      assert.equal((await standingOf(t.db.prisma, p.accountId)).role, "player");
      await assert.rejects(m.setRole(actorOf(admin, "admin"), admin.name, "player"), code("TARGET_IS_STAFF"));
      const rows = (await audit()).filter((r) => r.targetAccountId === p.accountId);
      assert.deepEqual(
        rows.map((r) => [r.kind, r.args]),
        [
          ["role.grant", { from: "player", to: "moderator" }],
          ["role.revoke", { from: "moderator", to: "player" }],
        ],
      );
    });

    it("reports: saved with the chat, at most 5 in 10 minutes, never of oneself; claimed and closed with audit rows", async () => {
      const mod = await account("moderator");
      const reporter = await account();
      const other = await account();
      const chat = [{ at: new Date().toISOString(), fromId: other.characterId, fromName: other.name, channel: "local", message: "rude words" }];
      const { report } = await m.report(reporter, other.name, "abuse", chat);
      assert.deepEqual([report.status, report.targetAccountId, report.chat], ["open", other.accountId, chat]);
      await assert.rejects(m.report(reporter, reporter.name, "me", []), code("SELF_REPORT"));
      for (let i = 0; i < 4; i++) await m.report(reporter, other.name, `again ${i}`, []);
      await assert.rejects(m.report(reporter, other.name, "sixth", []), code("RATE_LIMITED"));
      await assert.rejects(m.claimReport(actorOf(reporter, "player"), report.id), code("FORBIDDEN"));
      assert.equal((await m.claimReport(actorOf(mod, "moderator"), report.id)).claimedByName, mod.name);
      const closed = await m.closeReport(actorOf(mod, "moderator"), report.id, "warned the player");
      assert.deepEqual([closed.status, closed.resolution], ["closed", "warned the player"]);
      await assert.rejects(m.closeReport(actorOf(mod, "moderator"), report.id, "again"), code("REPORT_CLOSED"));
      await assert.rejects(m.claimReport(actorOf(mod, "moderator"), "r_nope"), code("REPORT_NOT_FOUND"));
      const rows = (await audit()).filter((r) => (r.args as { reportId?: string }).reportId === report.id);
      assert.deepEqual(
        rows.map((r) => r.kind),
        ["report.claim", "report.close"],
      );
    });

    it("a broadcast and a kick are audited before they happen", async () => {
      const admin = await account("admin");
      const p = await account();
      await m.broadcast(actorOf(admin, "admin"), " The bridge is fixed ", 2);
      assert.deepEqual(
        { ...felt.broadcasts.at(-1), timestamp: "" },
        { message: "The bridge is fixed", from: admin.name, world: 2, kind: "broadcast", timestamp: "" },
      );
      await m.kick(actorOf(admin, "admin"), p.name, "afk in the bank");
      assert.equal(felt.kicks.at(-1), p.characterId);
      const rows = (await audit()).slice(-2);
      assert.deepEqual(
        rows.map((r) => [r.kind, r.targetName, r.reason]),
        [
          ["broadcast", null, null],
          ["kick", p.name, "afk in the bank"],
        ],
      );
    });

    it("the audit log is append-only; when its row cannot be written the act is refused and nothing changes", async () => {
      await assert.rejects(t.db.sql.query(`UPDATE "audit_log" SET "kind" = 'x'`), /append-only/);
      await assert.rejects(t.db.sql.query(`DELETE FROM "audit_log"`), /append-only/);
      const mod = await account("moderator");
      const p = await account();
      const standingsBefore = felt.standings.length;
      await t.db.sql.exec(`CREATE FUNCTION "refuse_audit"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END; $$;
        CREATE TRIGGER "refuse_audit" BEFORE INSERT ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "refuse_audit"();`);
      try {
        await assert.rejects(m.sanction(actorOf(mod, "moderator"), "ban", p.name, 60_000, "x"), code("AUDIT_UNAVAILABLE"));
        await assert.rejects(m.kick(actorOf(mod, "moderator"), p.name), code("AUDIT_UNAVAILABLE"));
        await assert.rejects(m.setRole({ ...actorOf(mod, "admin") }, p.name, "moderator"), code("AUDIT_UNAVAILABLE"));
      } finally {
        await t.db.sql.exec(`DROP TRIGGER "refuse_audit" ON "audit_log"; DROP FUNCTION "refuse_audit"();`);
      }
      assert.equal(await t.db.prisma.sanction.count({ where: { accountId: p.accountId } }), 0, "no sanction was saved");
      assert.equal((await standingOf(t.db.prisma, p.accountId)).role, "player", "no role was given");
      assert.equal(felt.standings.length, standingsBefore, "nothing reached the worlds");
      assert.ok(!felt.kicks.includes(p.characterId), "nobody was kicked");
    });
  });
}
