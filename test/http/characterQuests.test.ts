import assert from "node:assert/strict";
import { signToken } from "../../src/auth/tokens.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, TEST_SECRET, type TestServer } from "../helpers/server.js";
import { guestToken, joinWorld } from "../helpers/worldClient.js";
import { besideOf, leaveAndSettle, place, worldRoomOf } from "../helpers/worldRoom.js";

/** GET /api/characters/:id/quests over real HTTP: the journal live and as saved, and who may read it. */
describe("REST: a character's quests", function () {
  this.timeout(60_000);
  let server: TestServer;
  const get = (id: string, token?: string) => rest(server, "GET", `/api/characters/${encodeURIComponent(id)}/quests`, token);

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it("lists every quest of the world with the character's status, live while online and as saved once it left", async () => {
    const who = await guestToken(server);
    const p = await joinWorld(server, {}, who);
    const fresh = await get(p.id, who.token);
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    assert.equal(fresh.body.online, true);
    assert.equal(fresh.body.questPoints, 0);
    const room = worldRoomOf(p);
    assert.deepEqual(fresh.body.quests.map((q: { questId: string }) => q.questId).sort(), [...room.world.data.quests.keys()].sort());
    assert.ok(fresh.body.quests.every((q: { status: string }) => q.status === "not_started"));

    // Accept the warden's letter by talking: in progress at the stage after the first.
    const warden = [...room.world.npcs.values()].find((n) => n.defId === "warden_holt")!;
    place(room, p.id, besideOf(room, warden.position));
    const since = p.mark();
    p.send("player:action", { action: "talk", targetId: warden.id });
    await p.next("dialogue:node", (n) => n.nodeId === "greeting", { since });
    p.send("dialogue:respond", { index: 0 });
    await p.next("dialogue:node", (n) => n.nodeId === "letter_offer", { since });
    p.send("dialogue:respond", { index: 0 });
    await p.next("quest:started", () => true, { since });

    const live = await get(p.id, who.token);
    const letter = live.body.quests.find((q: { questId: string }) => q.questId === "the_wardens_letter");
    assert.equal(letter.status, "in_progress");
    assert.equal(letter.stage, 1);
    assert.equal(letter.stageDescription, room.world.data.quests.get("the_wardens_letter")!.stages[1].description);

    await leaveAndSettle(p);
    const saved = await get(p.id, who.token);
    assert.equal(saved.body.online, false);
    assert.deepEqual(
      saved.body.quests.find((q: { questId: string }) => q.questId === "the_wardens_letter"),
      letter,
    );
  });

  it("401 without a token, 403 for another account's character (an admin may read it), 404 for an unknown one, 400 for a bad id", async () => {
    const owner = await guestToken(server);
    const p = await joinWorld(server, {}, owner);
    await leaveAndSettle(p);
    const stranger = await guestToken(server);
    assert.equal((await get(p.id)).status, 401);
    const other = await get(p.id, stranger.token);
    assert.equal(other.status, 403);
    assert.equal(other.body.error.code, "FORBIDDEN");
    // A token's own "admin" claim grants nothing; an admin of the database may read it.
    const admin = signToken({ sub: stranger.accountId, role: "admin" }, TEST_SECRET);
    assert.equal((await get(p.id, admin)).status, 403);
    await server.ctx.db.prisma.user.update({ where: { id: stranger.accountId }, data: { roles: ["admin"] } });
    assert.equal((await get(p.id, stranger.token)).status, 200);
    const unknown = await get("c_nobody", owner.token);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, "CHARACTER_NOT_FOUND");
    assert.equal((await get("x".repeat(129), owner.token)).status, 400);
  });
});
