import assert from "node:assert/strict";
import { guestToken, joinWorld, worldSuite } from "../helpers/worldClient.js";
import { place, ticks, worldRoomOf } from "../helpers/worldRoom.js";
import { CHARACTER_NAME } from "../../src/db/characterRepo.js";

describe("world room: joining, state, movement and interest", function () {
  this.timeout(30_000);
  const suite = worldSuite();
  const join = suite.join;

  it("a new account gets a character with the starter kit at the starter town's spawn", async () => {
    const a = await join();
    const sync = a.sync();
    const spawn = suite.server.ctx.gameData.spawn!.position;
    assert.deepEqual(sync.position, { x: spawn.x, y: 0, z: spawn.z });
    // A generated name keeps the naming rule a player's own name must follow.
    assert.match(sync.name, CHARACTER_NAME);
    const kit = suite.server.ctx.gameData.starterKit;
    // Each kit entry by the inventory's rules: stackables in one slot, others one per slot.
    const held = new Map<string, number>();
    for (const s of sync.inventory as Array<{ itemId: string; quantity: number }>) held.set(s.itemId, (held.get(s.itemId) ?? 0) + s.quantity);
    assert.deepEqual(new Map(kit.map((s) => [s.itemId, s.quantity])), held);
    for (const s of sync.inventory as Array<{ itemId: string; quantity: number }>) {
      if (!suite.server.ctx.gameData.items.get(s.itemId)!.stackable) assert.equal(s.quantity, 1, s.itemId);
    }
    for (const tool of ["bronze_hatchet", "bronze_pickaxe", "small_fishing_net", "tinderbox", "coins"]) {
      assert.ok(sync.inventory.some((s: { itemId: string }) => s.itemId === tool), tool);
    }
    assert.deepEqual([sync.health, sync.maxHealth, sync.combatLevel], [100, 100, 3]);
    assert.equal(sync.skills.constitution.level, 10);
    assert.equal(sync.skills.woodcutting.xp, 0);
    const row = await suite.server.ctx.db.prisma.character.findUniqueOrThrow({ where: { id: a.id }, include: { inventory: true } });
    assert.equal(row.accountId, a.accountId);
    assert.equal(row.inventory.length, sync.inventory.length);
  });

  it("joining again loads the same character; characterId must be the account's own", async () => {
    const who = await guestToken(suite.server);
    const first = await joinWorld(suite.server, {}, who);
    const id = first.id;
    await first.leave();
    const again = await joinWorld(suite.server, { characterId: id }, who);
    suite.players.push(again);
    assert.equal(again.id, id);
    const other = await guestToken(suite.server);
    await assert.rejects(joinWorld(suite.server, { characterId: id }, other), /another account/);
    await assert.rejects(joinWorld(suite.server, { characterId: "c_nope" }, other), /No such character/);
    await assert.rejects(joinWorld(suite.server, { name: "x".repeat(40) }), /name/);
  });

  it("a token whose account is gone joins nothing: refused as such before anything else, and no character is made", async () => {
    const someone = await join();
    const who = await guestToken(suite.server);
    await suite.server.ctx.db.prisma.user.delete({ where: { id: who.accountId } });
    await assert.rejects(joinWorld(suite.server, {}, who), /account does not exist/);
    await assert.rejects(joinWorld(suite.server, { characterId: someone.id }, who), /account does not exist/);
    await assert.rejects(joinWorld(suite.server, { characterId: "c_nope" }, who), /account does not exist/);
    assert.equal(await suite.server.ctx.db.prisma.character.count({ where: { accountId: who.accountId } }), 0);
    assert.equal(worldRoomOf(someone).sessions.size, suite.players.length);
  });

  it("the player appears in the synchronised state, and a move shows in the patches", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    await a.sees((s) => s.players.get(a.id), "its own player");
    const mine = a.room.state.players.get(a.id);
    assert.equal(mine.name, a.sync().name);
    const start = { x: mine.x, z: mine.z };
    a.send("player:move", { x: start.x + 6, z: start.z });
    // Walking: two tiles per tick, so the first patch that moves it moves it at most a tick or two's worth.
    await a.sees((s) => s.players.get(a.id).x > start.x, "the first step");
    const moved = a.room.state.players.get(a.id);
    assert.ok(moved.x <= start.x + 4, `x=${moved.x}`);
    await a.sees((s) => s.players.get(a.id).x === start.x + 6 && s.players.get(a.id).z === start.z, "the walk's end");
    assert.deepEqual(room.world.players.get(a.id)!.tile, { x: start.x + 6, z: start.z });
  });

  it("running covers four tiles per tick", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const from = { ...room.world.players.get(a.id)!.tile };
    a.send("player:move", { x: from.x + 8, z: from.z, run: true });
    await ticks(room, 2);
    const p = room.world.players.get(a.id)!;
    assert.ok(p.tile.x - from.x >= 4, `ran ${p.tile.x - from.x}`);
  });

  it("bad moves are refused with a clear error and change nothing", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    await ticks(room, 1);
    const before = { ...room.world.players.get(a.id)!.tile };
    const cases: Array<[unknown, string]> = [
      // (The default world is smaller than the 200-tile limit: TOO_FAR is covered by the movement unit tests.)
      [{ x: before.x + 201, z: before.z }, "OUT_OF_BOUNDS"],
      [{ x: -5000, z: before.z }, "OUT_OF_BOUNDS"],
      [{ x: "10", z: 5 }, "INVALID_PAYLOAD"],
      [{ x: Number.NaN, z: 5 }, "INVALID_PAYLOAD"],
      [{ x: 1e308, z: 5 }, "INVALID_PAYLOAD"],
      [{ z: 5 }, "INVALID_PAYLOAD"],
      [{ x: 1, z: 2, extra: true }, "INVALID_PAYLOAD"],
      [null, "INVALID_PAYLOAD"],
    ];
    for (const [payload, code] of cases) {
      const since = a.mark();
      a.send("player:move", payload);
      const err = await a.next("error", () => true, { since });
      assert.equal(err.code, code, JSON.stringify(payload));
      assert.equal(typeof err.message, "string");
    }
    await ticks(room, 2);
    assert.deepEqual(room.world.players.get(a.id)!.tile, before);
    assert.deepEqual(room.world.players.get(a.id)!.path, []);
  });

  it("an unknown event is answered with UNKNOWN_EVENT", async () => {
    const a = await join();
    const since = a.mark();
    a.send("player:teleport-me", { x: 1 });
    assert.equal((await a.next("error", () => true, { since })).code, "UNKNOWN_EVENT");
  });

  it("a client sees players near it and not those outside its area of interest", async () => {
    const a = await join();
    const b = await join();
    const c = await join();
    const room = worldRoomOf(a);
    const spawn = room.world.spawnTile;
    place(room, b.id, { x: spawn.x + 3, z: spawn.z });
    // c stands far away (beyond the 32-tile area of interest).
    const far = { x: spawn.x + 60, z: spawn.z };
    assert.ok(room.world.map.inBounds(far.x, far.z) && !room.world.map.isBlocked(far.x, far.z));
    place(room, c.id, far);
    await ticks(room, 2);
    await a.sees((s) => s.players.get(b.id), "a sees b");
    await b.sees((s) => s.players.get(a.id), "b sees a");
    assert.equal(a.room.state.players.get(c.id), undefined, "a does not see c");
    assert.equal(c.room.state.players.get(a.id), undefined, "c does not see a");
    assert.equal(c.room.state.players.get(b.id), undefined, "c does not see b");
    // c walks into range: now a sees c; a walks... and c leaves again: a no longer sees it.
    place(room, c.id, { x: spawn.x + 5, z: spawn.z });
    await a.sees((s) => s.players.get(c.id), "c came into view");
    place(room, c.id, far);
    await a.sees((s) => !s.players.get(c.id), "c left the view");
  });

  it("world:update deltas go to clients that ask for them", async () => {
    const a = await join({ worldUpdates: true });
    const first = await a.next("world:update");
    assert.ok(first.players.some((p: { id: string }) => p.id === a.id));
    assert.ok(first.npcs.length + first.resources.length > 0);
    const since = a.mark();
    const room = worldRoomOf(a);
    const here = room.world.players.get(a.id)!.tile;
    a.send("player:move", { x: here.x + 2, z: here.z });
    const delta = await a.next("world:update", (u) => u.players.some((p: { id: string; x: number }) => p.id === a.id && p.x === here.x + 2), { since });
    assert.equal(typeof delta.tick, "number");
    assert.ok(Array.isArray(delta.removed));
  });
});
