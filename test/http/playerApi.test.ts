import assert from "node:assert/strict";
import { signToken } from "../../src/auth/tokens.js";
import { SKILLS } from "../../src/game/types.js";
import { startTestServer, TEST_SECRET, type TestServer } from "../helpers/server.js";
import { guestToken, joinWorld } from "../helpers/worldClient.js";
import { place, worldRoomOf } from "../helpers/worldRoom.js";
import { rest } from "../helpers/rest.js";

/** /api/v1/player, /api/v1/world(/areas), /api/characters/:id/skills|position over real HTTP. */
describe("player and world REST API", function () {
  this.timeout(60_000);
  let server: TestServer;
  const call = (method: string, path: string, token?: string, body?: unknown) => rest(server, method, path, token, body);

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it("POST /api/v1/player creates the first character, then renames it and changes its looks; GET shows it", async () => {
    const who = await guestToken(server);
    assert.equal((await call("GET", "/api/v1/player", who.token)).status, 404);
    const created = await call("POST", "/api/v1/player", who.token, { name: "Rowan Ash", appearance: { hairColour: "#a0522d", body: "b" } });
    assert.equal(created.status, 201);
    assert.equal(created.body.player.name, "Rowan Ash");
    assert.deepEqual(created.body.player.appearance, { hairColour: "#a0522d", body: "b" });
    assert.equal(created.body.player.online, false);
    assert.ok(created.body.player.inventory.some((s: any) => s.itemId === "coins" && s.quantity === 25));
    assert.deepEqual(Object.keys(created.body.player.skills).sort(), [...SKILLS].sort());
    assert.deepEqual(created.body.player.skills.constitution, { level: 10, xp: 1154 });

    const renamed = await call("POST", "/api/v1/player", who.token, { name: "Rowan Oak", appearance: { skinColour: "#f1c27d" } });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.player.id, created.body.player.id);
    assert.deepEqual(renamed.body.player.appearance, { hairColour: "#a0522d", body: "b", skinColour: "#f1c27d" });
    const got = await call("GET", "/api/v1/player", who.token);
    assert.equal(got.body.player.name, "Rowan Oak");
  });

  it("the live world's copy when online: position, inventory, online flag; a rename shows at once", async () => {
    const who = await guestToken(server);
    const p = await joinWorld(server, {}, who);
    try {
      const room = worldRoomOf(p);
      place(room, p.id, { x: room.world.spawnTile.x + 2, z: room.world.spawnTile.z + 1 });
      room.world.players.get(p.id)!.inventory[27] = { itemId: "logs", quantity: 1 };
      const got = await call("GET", "/api/v1/player", who.token);
      assert.equal(got.body.player.online, true);
      assert.deepEqual(got.body.player.position, { x: room.world.spawnTile.x + 2, y: 0, z: room.world.spawnTile.z + 1 });
      assert.deepEqual(got.body.player.inventory.at(-1), { slot: 27, itemId: "logs", quantity: 1 });
      await call("POST", "/api/v1/player", who.token, { name: "Live Name" });
      assert.equal(room.world.players.get(p.id)!.name, "Live Name");
      const pos = await call("GET", `/api/characters/${p.id}/position`, who.token);
      assert.deepEqual(pos.body, { success: true, position: { x: room.world.spawnTile.x + 2, y: 0, z: room.world.spawnTile.z + 1 }, online: true });
    } finally {
      await p.leave();
    }
  });

  it("bad input is 400 naming the field, and changes nothing", async () => {
    const who = await guestToken(server);
    await call("POST", "/api/v1/player", who.token, { name: "Keeper" });
    const taken = await guestToken(server);
    for (const [body, field] of [
      [{ name: "" }, "name"],
      [{ name: "thirteen chars" }, "name"],
      [{ name: "bad!name" }, "name"],
      [{ name: "two  spaces" }, "name"],
      [{ name: 12 }, "name"],
      [{ appearance: { hairColour: "red" } }, "appearance.hairColour"],
      [{ appearance: { wings: true } }, "appearance"],
      [{ level: 99 }, "body"],
    ] as const) {
      const r = await call("POST", "/api/v1/player", who.token, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error.code, "INVALID_PAYLOAD");
      assert.ok(r.body.error.message.startsWith(field), `${JSON.stringify(body)}: ${r.body.error.message}`);
    }
    // Names are unique ignoring case.
    const clash = await call("POST", "/api/v1/player", taken.token, { name: "keeper" });
    assert.equal(clash.status, 400);
    assert.equal(clash.body.error.code, "NAME_TAKEN");
    assert.equal((await call("GET", "/api/v1/player", taken.token)).status, 404, "no character was made");
    assert.equal((await call("GET", "/api/v1/player", who.token)).body.player.name, "Keeper");
    assert.equal((await call("POST", "/api/v1/player", who.token, "{not json")).status, 400);
  });

  it("401 without a valid token, 403 for someone else's character, 404 for an unknown one", async () => {
    const a = await guestToken(server);
    const b = await guestToken(server);
    const ca = (await call("POST", "/api/v1/player", a.token, {})).body.player.id;
    assert.equal((await call("GET", "/api/v1/player")).status, 401);
    assert.equal((await call("GET", "/api/v1/player", "not-a-token")).status, 401);
    assert.equal((await call("GET", `/api/characters/${ca}/skills`)).status, 401);
    assert.equal((await call("GET", `/api/characters/${ca}/skills`, b.token)).status, 403);
    assert.equal((await call("GET", `/api/characters/${ca}/position`, b.token)).status, 403);
    assert.equal((await call("GET", `/api/v1/player?characterId=${ca}`, b.token)).status, 403);
    assert.equal((await call("POST", `/api/v1/player?characterId=${ca}`, b.token, { name: "Thief" })).status, 403);
    assert.equal((await call("GET", "/api/characters/c_nobody/skills", a.token)).status, 404);
    const skills = await call("GET", `/api/characters/${ca}/skills`, a.token);
    assert.equal(skills.status, 200);
    assert.deepEqual(skills.body.skills.woodcutting, { level: 1, xp: 0 });
    const offline = await call("GET", `/api/characters/${ca}/position`, a.token);
    assert.equal(offline.body.online, false);
    // An admin may read anyone's.
    const admin = signToken({ sub: a.accountId, role: "admin" }, TEST_SECRET);
    assert.equal((await call("GET", `/api/characters/${ca}/skills`, admin)).status, 200);
    // An agent token reads only its own character.
    const agentToken = signToken({ sub: a.accountId, role: "agent", characterId: "c_other" }, TEST_SECRET);
    assert.equal((await call("GET", `/api/characters/${ca}/skills`, agentToken)).status, 403);
  });

  it("GET /api/v1/world: tick, online players with positions, npc and resource counts per area; /areas from the manifests", async () => {
    const p = await joinWorld(server);
    try {
      const world = await call("GET", "/api/v1/world");
      assert.equal(world.status, 200);
      assert.ok(world.body.tick >= 0);
      const me = world.body.onlinePlayers.find((x: any) => x.id === p.id);
      assert.ok(me, "the joined player is listed");
      assert.deepEqual(Object.keys(me.position), ["x", "y", "z"]);
      const room = worldRoomOf(p);
      const npcs = world.body.areas.reduce((n: number, a: any) => n + a.npcs.alive + a.npcs.dead, 0);
      const resources = world.body.areas.reduce((n: number, a: any) => n + a.resources.available + a.resources.depleted, 0);
      assert.equal(npcs, room.world.npcs.size);
      assert.equal(resources, [...room.world.resources.values()].filter((r) => r.skill !== "firemaking").length);
      const areas = await call("GET", "/api/v1/world/areas");
      assert.equal(areas.body.areas.length, server.ctx.gameData.worldAreas.size);
      assert.ok(areas.body.areas.some((a: any) => a.isStarterTown && a.spawnPoint));
    } finally {
      await p.leave();
    }
  });
});
