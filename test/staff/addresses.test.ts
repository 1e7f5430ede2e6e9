import assert from "node:assert/strict";
import { Client } from "@colyseus/sdk";
import { CLOSE_CODES } from "../../src/protocol/index.js";
import { accountWithCharacter, playOverWs } from "../helpers/accounts.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { wsConnect } from "../helpers/wsClient.js";

/** Every session records its address; bans by address refuse new guests (and, scope all, every non-staff login) from it, for a time. */
describe("addresses: in every session, and bans by address", function () {
  this.timeout(60_000);
  let server: TestServer;
  /** Every test client here comes from loopback. */
  const HERE = "127.0.0.1";

  const account = (role: "player" | "moderator" | "admin" = "player", guest = true) => accountWithCharacter(server, "Addr ", role, { registered: !guest });
  /** Join over /ws: the first frame is authenticated, or the refusal and the close. */
  const wsJoin = async (token: string) => {
    const ws = await wsConnect(server.port, `?token=${encodeURIComponent(token)}`);
    const first = await ws.next("*");
    ws.close();
    return first;
  };
  /** Join with the SDK: "joined", or the refusal's message. */
  const sdkJoin = async (token: string, headers: Record<string, string> = {}) => {
    const sdk = new Client(server.url, { headers });
    sdk.auth.token = token;
    try {
      const room = await sdk.joinOrCreate("world", {});
      room.onMessage("*", () => {});
      await room.leave();
      return "joined";
    } catch (err) {
      return (err as Error).message;
    }
  };
  const ban = (token: string, body: Record<string, unknown>) => rest(server, "POST", "/api/admin/address-bans", token, body);
  const lift = (token: string) => rest(server, "POST", "/api/admin/address-bans/lift", token, { address: HERE, reason: "test over" });

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  it("every session records its address: the SDK's, /ws's, and none for a built-in agent; staff read them by player and by address", async () => {
    const [p, mod] = [await account(), await account("moderator")];
    assert.equal(await sdkJoin(p.token), "joined");
    assert.equal((await wsJoin(p.token)).type, "authenticated");
    const agent = await rest(server, "POST", "/api/agent/register", p.token, { name: "Addrbot" });
    assert.equal(agent.status, 201);
    const rows = await server.ctx.db.prisma.playerSession.findMany({ where: { accountId: p.accountId }, orderBy: { startedAt: "asc" } });
    const byClient = Object.fromEntries(rows.map((r) => [r.clientType, r.address]));
    assert.deepEqual([byClient.colyseus, byClient.ws], [HERE, HERE]);
    // An X-Forwarded-For from a client (no TRUST_PROXY proxy) changes nothing: the socket's address is recorded.
    const spoofer = await account();
    assert.equal(await sdkJoin(spoofer.token, { "x-forwarded-for": "10.9.9.9" }), "joined");
    const spoofed = await server.ctx.db.prisma.playerSession.findMany({ where: { accountId: spoofer.accountId } });
    assert.deepEqual(
      spoofed.map((r) => r.address),
      [HERE],
    );
    const agentRows = await server.ctx.db.prisma.playerSession.findMany({ where: { characterId: agent.body.characterId } });
    assert.ok(agentRows.length > 0 && agentRows.every((r) => r.address === null && r.clientType === "runtime"));

    const byPlayer = await rest(server, "GET", `/api/admin/sessions?player=${encodeURIComponent(p.name)}`, mod.token);
    assert.equal(byPlayer.status, 200, JSON.stringify(byPlayer.body));
    assert.ok(byPlayer.body.sessions.some((s: any) => s.clientType === "ws" && s.address === HERE && s.name === p.name));
    const byAddress = await rest(server, "GET", `/api/admin/sessions?address=${HERE}&limit=200`, mod.token);
    assert.ok(byAddress.body.sessions.every((s: any) => s.address === HERE));
    assert.ok(byAddress.body.accounts >= 1);
    // The same address written as IPv4-in-IPv6 is the same address.
    const mapped = await rest(server, "GET", `/api/admin/sessions?address=${encodeURIComponent(`::ffff:${HERE}`)}&limit=200`, mod.token);
    assert.equal(mapped.body.sessions.length, byAddress.body.sessions.length);
    for (const q of ["", "?address=10.0.0.0/8", "?address=nowhere", "?limit=0"])
      assert.equal((await rest(server, "GET", `/api/admin/sessions${q}`, mod.token)).status, 400, q);
    assert.equal((await rest(server, "GET", `/api/admin/sessions?player=${encodeURIComponent(p.name)}`, p.token)).status, 403);
  });

  it("scope guests: no new guest and no guest's login from the address; a registered account and the staff still play; lifted, all play again", async () => {
    const [guest, member, mod] = [await account(), await account("player", false), await account("moderator")];
    // Playing from the address when the ban comes: the guest is let go, the registered player stays.
    const [playingGuest, playingMember] = [await playOverWs(server, guest), await playOverWs(server, member)];
    const made = await ban(mod.token, { address: `::ffff:${HERE}`, duration: "1h", reason: "a flood of throwaway guests" });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual([made.body.ban.address, made.body.ban.scope, made.body.kicked], [HERE, "guests", 1]);
    assert.equal((await playingGuest.next("notice", (f) => f.data.code === "KICKED")).data.code, "KICKED");
    assert.equal((await playingGuest.closed).code, CLOSE_CODES.KICKED);
    const memberMark = playingMember.mark();
    playingMember.send("ping", {});
    await playingMember.next("pong", () => true, { since: memberMark });
    assert.equal(playingMember.ws.readyState, playingMember.ws.OPEN);
    assert.ok(!playingMember.frames.some((f) => f.type === "notice" && f.data.code === "KICKED"));
    playingMember.close();
    await playingMember.closed;
    try {
      const newGuest = await rest(server, "POST", "/api/auth/guest");
      assert.deepEqual([newGuest.status, newGuest.body.error.code], [403, "ADDRESS_BANNED"]);
      assert.match(newGuest.body.error.message, /until .*a flood of throwaway guests/);
      // A /ws socket with no token would be made a guest: refused, and closed.
      const anon = await wsConnect(server.port, "");
      anon.send("ping", {});
      const refusal = await anon.next("error", (f) => f.data.code === "ADDRESS_BANNED");
      assert.match(refusal.data.message, /address/);
      assert.equal((await anon.closed).code, CLOSE_CODES.BANNED);
      // A guest's login is refused on both protocols; a registered account's and the staff's are not.
      const wsRefused = await wsJoin(guest.token);
      assert.deepEqual([wsRefused.type, wsRefused.data.code], ["error", "BANNED"]);
      assert.match(await sdkJoin(guest.token), /address/);
      assert.equal(await sdkJoin(member.token), "joined");
      assert.equal((await wsJoin(mod.token)).type, "authenticated");
      // In the audit log.
      const audit = await server.ctx.db.prisma.auditLog.findFirst({ where: { kind: "address.ban", actorAccountId: mod.accountId } });
      assert.deepEqual([(audit?.args as any).address, (audit?.args as any).scope, audit?.reason], [HERE, "guests", "a flood of throwaway guests"]);
      const listed = await rest(server, "GET", "/api/admin/address-bans?active=true", mod.token);
      assert.ok(listed.body.bans.some((b: any) => b.id === made.body.ban.id));
    } finally {
      const lifted = await lift(mod.token);
      assert.deepEqual([lifted.status, lifted.body.lifted], [200, 1]);
    }
    assert.equal((await rest(server, "POST", "/api/auth/guest")).status, 201);
    assert.equal(await sdkJoin(guest.token), "joined");
    assert.deepEqual([(await lift(mod.token)).status, (await lift(mod.token)).body.error.code], [409, "NOT_SANCTIONED"]);
  });

  it("scope all: every login but the staff's is refused", async () => {
    const [member, admin] = [await account("player", false), await account("admin")];
    assert.equal((await ban(admin.token, { address: HERE, scope: "all", duration: "30m", reason: "abuse from this address" })).status, 201);
    try {
      assert.match(await sdkJoin(member.token), /address/);
      assert.equal((await wsJoin(member.token)).data.code, "BANNED");
      assert.equal(await sdkJoin(admin.token), "joined");
    } finally {
      assert.equal((await lift(admin.token)).status, 200);
    }
    assert.equal(await sdkJoin(member.token), "joined");
  });

  it("refuses bad bans: no address, a range, no end or past 30 days, no reason, a player's, unknown fields; nothing changes", async () => {
    const [p, mod] = [await account(), await account("moderator")];
    const before = await server.ctx.db.prisma.addressBan.count();
    for (const [body, code] of [
      [{ duration: "1h", reason: "x" }, "INVALID_PAYLOAD"],
      [{ address: "10.0.0.0/8", duration: "1h", reason: "x" }, "INVALID_PAYLOAD"],
      [{ address: "example.com", duration: "1h", reason: "x" }, "INVALID_PAYLOAD"],
      [{ address: HERE, duration: "permanent", reason: "x" }, "INVALID_DURATION"],
      [{ address: HERE, duration: "31d", reason: "x" }, "INVALID_DURATION"],
      [{ address: HERE, duration: "-1h", reason: "x" }, "INVALID_DURATION"],
      [{ address: HERE, duration: "1h" }, "INVALID_PAYLOAD"],
      [{ address: HERE, duration: "1h", reason: "x", scope: "everyone" }, "INVALID_PAYLOAD"],
      [{ address: HERE, duration: "1h", reason: "x", extra: 1 }, "INVALID_PAYLOAD"],
      [{ address: 127, duration: "1h", reason: "x" }, "INVALID_PAYLOAD"],
    ] as const) {
      const r = await ban(mod.token, body);
      assert.deepEqual([r.status, r.body.error.code], [400, code], JSON.stringify(body));
    }
    const byPlayer = await ban(p.token, { address: HERE, duration: "1h", reason: "x" });
    assert.deepEqual([byPlayer.status, byPlayer.body.error.code], [403, "FORBIDDEN"]);
    assert.equal((await rest(server, "POST", "/api/admin/address-bans", undefined, { address: HERE, duration: "1h", reason: "x" })).status, 401);
    assert.equal(await server.ctx.db.prisma.addressBan.count(), before);
    assert.equal((await rest(server, "POST", "/api/auth/guest")).status, 201);
  });
});
