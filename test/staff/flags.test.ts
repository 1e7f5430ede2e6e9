import assert from "node:assert/strict";
import { FLAG_RULES } from "../../rooms/worldWatchdog.js";
import { accountWithCharacter, playOverWs } from "../helpers/accounts.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { theWorld, ticks } from "../helpers/worldRoom.js";
import type { WsPlayer } from "../helpers/wsClient.js";

/** The watchdog: clients asking for more than the rules allow, and gains beyond play, flagged with their evidence for the staff. */
describe("flags: the watchdog and the flagged list", function () {
  this.timeout(60_000);
  let server: TestServer;
  const open: WsPlayer[] = [];

  const account = (role: "player" | "moderator" = "player") => accountWithCharacter(server, "Flag ", role);
  const play = async (p: { token: string; characterId: string }) => {
    const ws = await playOverWs(server, p);
    open.push(ws);
    return ws;
  };
  const flagsOf = (characterId: string) => server.ctx.db.prisma.flag.findMany({ where: { characterId }, orderBy: { createdAt: "asc" } });
  /** Wait (tick by tick, bounded) until the character has a flag of that kind. */
  const flagged = async (characterId: string, kind: string) => {
    const room = await theWorld();
    for (let i = 0; i < 30; i++) {
      const f = (await flagsOf(characterId)).find((x) => x.kind === kind);
      if (f) return f;
      await ticks(room, 1);
    }
    assert.fail(`no ${kind} flag within 30 ticks`);
  };

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    for (const ws of open) ws.close();
    await server?.close();
  });

  it("a client sending moves faster than the rules take them is flagged movement; one moving a tile a tick is not", async () => {
    const [cheat, normal] = [await account(), await account()];
    const [wc, wn] = [await play(cheat), await play(normal)];
    const room = await theWorld();
    for (let i = 0; i < FLAG_RULES.movesPerSecond + 2; i++) wc.send("player:move", { x: 100 + (i % 3), z: 101 });
    const f = await flagged(cheat.characterId, "movement");
    assert.ok((f.evidence as any).movesInOneSecond >= FLAG_RULES.movesPerSecond, JSON.stringify(f.evidence));
    assert.equal((f.evidence as any).limit, FLAG_RULES.movesPerSecond);
    assert.deepEqual([f.name, f.accountId, f.world, f.count, f.clearedAt], [cheat.name, cheat.accountId, "1", 1, null]);
    // A player walking as a person does: a move a tick, for ten ticks.
    for (let i = 0; i < 10; i++) {
      wn.send("player:move", { x: 98 + (i % 4), z: 103 });
      await ticks(room, 1);
    }
    await ticks(room, 2);
    assert.deepEqual(await flagsOf(normal.characterId), []);
  });

  it("moves refused as impossible, and orders of any kind too fast, are flagged", async () => {
    const [far, spam] = [await account(), await account()];
    const [wf, ws] = [await play(far), await play(spam)];
    for (let i = 0; i < FLAG_RULES.impossibleMovesPer10s; i++) {
      const mark = wf.mark();
      wf.send("player:move", { x: 100 + 500 * (i + 1), z: 100 });
      await wf.next("error", () => true, { since: mark });
    }
    const f = await flagged(far.characterId, "movement");
    assert.equal((f.evidence as any).impossibleMovesIn10s, FLAG_RULES.impossibleMovesPer10s);
    for (let i = 0; i < FLAG_RULES.ordersPerSecond + 2; i++) ws.send("player:setting", { name: "autoRetaliate", value: i % 2 === 0 });
    const a = await flagged(spam.characterId, "action_rate");
    assert.equal((a.evidence as any).last, "player:setting");
    assert.ok(!(await flagsOf(spam.characterId)).some((x) => x.kind === "movement"));
  });

  it("xp and wealth beyond play are flagged with what was gained; ordinary gains are not", async () => {
    const [fast, rich, plain] = [await account(), await account(), await account()];
    await play(fast);
    await play(rich);
    await play(plain);
    const room = await theWorld();
    const player = (id: string) => room.world.players.get(id)!;
    // What each holds now (the watchdog samples everyone once a minute; here at once).
    for (const p of [fast, rich, plain]) room.watchdog.sample(player(p.characterId));
    // Gains no play gives, put straight into the world (as an exploit would).
    player(fast.characterId).xp.woodcutting += FLAG_RULES.xpPerHour + 1_000;
    player(rich.characterId).inventory[27] = { itemId: "coins", quantity: FLAG_RULES.wealthPer10Min + 5_000 };
    player(plain.characterId).xp.woodcutting += 500;
    for (const p of [fast, rich, plain]) room.watchdog.sample(player(p.characterId));
    const x = await flagged(fast.characterId, "xp_rate");
    assert.ok((x.evidence as any).xpGained >= FLAG_RULES.xpPerHour + 1_000);
    const w = await flagged(rich.characterId, "wealth");
    assert.ok((w.evidence as any).valueGained >= FLAG_RULES.wealthPer10Min + 5_000, JSON.stringify(w.evidence));
    await ticks(room, 2);
    assert.deepEqual(await flagsOf(plain.characterId), []);
    assert.ok(!(await flagsOf(fast.characterId)).some((f) => f.kind === "wealth"));
  });

  it("staff list the open flags and clear them with a note (audited); players cannot; bad input changes nothing", async () => {
    const [p, mod] = [await account(), await account("moderator")];
    const wp = await play(p);
    for (let i = 0; i < FLAG_RULES.movesPerSecond + 2; i++) wp.send("player:move", { x: 101, z: 100 + (i % 2) });
    const f = await flagged(p.characterId, "movement");
    const list = await rest(server, "GET", `/api/admin/flags?player=${encodeURIComponent(p.name)}`, mod.token);
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.deepEqual(
      list.body.flags.map((x: any) => [x.id, x.kind, x.name]),
      [[f.id, "movement", p.name]],
    );
    assert.ok(list.body.flags[0].evidence.tile);
    assert.ok((await rest(server, "GET", "/api/admin/flags?kind=movement", mod.token)).body.flags.some((x: any) => x.id === f.id));
    for (const q of ["?status=maybe", "?kind=teleport", "?limit=0", "?other=1"])
      assert.equal((await rest(server, "GET", `/api/admin/flags${q}`, mod.token)).status, 400, q);
    assert.equal((await rest(server, "GET", "/api/admin/flags", p.token)).status, 403);
    assert.equal((await rest(server, "GET", "/api/admin/flags")).status, 401);
    assert.equal((await rest(server, "POST", `/api/admin/flags/${f.id}/clear`, p.token, { note: "mine" })).status, 403);
    assert.equal((await rest(server, "POST", `/api/admin/flags/${f.id}/clear`, mod.token, {})).status, 400);
    assert.equal((await rest(server, "POST", `/api/admin/flags/f_nope/clear`, mod.token, { note: "x" })).body.error.code, "FLAG_NOT_FOUND");
    assert.equal((await flagsOf(p.characterId))[0].clearedAt, null);

    const cleared = await rest(server, "POST", `/api/admin/flags/${f.id}/clear`, mod.token, { note: "a macro keyboard; warned" });
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    assert.deepEqual(
      [cleared.body.flag.clearNote, cleared.body.flag.clearedByName, typeof cleared.body.flag.clearedAt],
      ["a macro keyboard; warned", mod.name, "string"],
    );
    const again = await rest(server, "POST", `/api/admin/flags/${f.id}/clear`, mod.token, { note: "again" });
    assert.deepEqual([again.status, again.body.error.code], [409, "FLAG_CLEARED"]);
    assert.deepEqual((await rest(server, "GET", `/api/admin/flags?player=${encodeURIComponent(p.name)}`, mod.token)).body.flags, []);
    assert.equal((await rest(server, "GET", `/api/admin/flags?player=${encodeURIComponent(p.name)}&status=cleared`, mod.token)).body.flags.length, 1);
    const audit = await server.ctx.db.prisma.auditLog.findFirst({ where: { kind: "flag.clear", actorAccountId: mod.accountId } });
    assert.deepEqual([(audit?.args as any).flagId, audit?.reason], [f.id, "a macro keyboard; warned"]);
  });
});
