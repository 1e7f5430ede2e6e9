import assert from "node:assert/strict";
import { joinWorld, worldSuite } from "../helpers/worldClient.js";
import { refreshLevels } from "../../src/game/world/xp.js";
import { besideOf, place, setRng, ticks, worldRoomOf } from "../helpers/worldRoom.js";

describe("world room: combat, loot and death", function () {
  this.timeout(40_000);
  const suite = worldSuite();
  const join = suite.join;

  it("kills an npc: hits are announced, combat xp arrives, loot drops for the killer, the kill is counted", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const goblin = [...room.world.npcs.values()].find((n) => n.defId === "goblin" && n.deadUntilTick == null)!;
    // Every roll at 0.3: a level-1 attacker lands about half of its swings against a goblin, so
    // 0.3 always hits; with strength 99 the damage roll (0.3 of the max hit) is at least 1.
    setRng(room, 0.3);
    goblin.health = 1;
    const p = room.world.players.get(a.id)!;
    p.xp.strength = 13_034_431;
    refreshLevels(p);
    place(room, a.id, besideOf(room, goblin.position));
    const since = a.mark();
    a.send("player:action", { action: "attack", targetId: goblin.id });
    const hit = await a.next("combat:hit", (h) => h.attackerId === a.id && h.targetId === goblin.id, { since });
    assert.equal(hit.targetHealth, 1 - hit.damage);
    const killed = await a.next("npc:killed", () => true, { since });
    assert.equal(killed.npcId, "goblin");
    const xp = await a.next("skill:xp", (m) => m.skill === "constitution", { since });
    assert.ok(xp.gained > 0);
    await ticks(room, 1);
    assert.ok(goblin.deadUntilTick != null, "dead until its respawn");
    await a.sees((s) => !s.npcs.get(goblin.id), "the dead goblin gone from view");
    const loot = [...room.world.groundItems.values()].filter((g) => g.ownerId === a.id && g.tile.x === goblin.position.x && g.tile.z === goblin.position.z);
    assert.ok(loot.length > 0, "loot on the ground");
    // Pick the first drop up.
    const s2 = a.mark();
    a.send("player:action", { action: "pickup", targetId: loot[0].id });
    await a.next("player:sync", (s) => s.inventory.some((i: { itemId: string }) => i.itemId === loot[0].itemId), { since: s2 });
    await room.saver.saveDirty(room.world);
    const kills = await suite.server.ctx.db.prisma.npcKill.findUnique({ where: { characterId_npcId: { characterId: a.id, npcId: "goblin" } } });
    assert.equal(kills?.count, 1);
    // It comes back after its respawn time.
    goblin.deadUntilTick = room.world.tick + 1;
    await ticks(room, 2);
    assert.equal(goblin.deadUntilTick, null);
    assert.equal(goblin.health, goblin.maxHealth);
  });

  it("townsfolk cannot be attacked; unknown and dead targets are refused", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const clerk = [...room.world.npcs.values()].find((n) => !n.attackable)!;
    let since = a.mark();
    a.send("player:action", { action: "attack", targetId: clerk.id });
    assert.equal((await a.next("error", () => true, { since })).code, "NOT_ATTACKABLE");
    since = a.mark();
    a.send("player:action", { action: "attack", targetId: "npc:nowhere" });
    assert.equal((await a.next("error", () => true, { since })).code, "UNKNOWN_TARGET");
    since = a.mark();
    a.send("player:action", { action: "pickup", targetId: "no-such-item" });
    assert.equal((await a.next("error", () => true, { since })).code, "UNKNOWN_TARGET");
  });

  it("an aggressive npc attacks; at 0 health the player dies, respawns, and can take the pile back once", async () => {
    const a = await join();
    const b = await join();
    const room = worldRoomOf(a);
    const troll = [...room.world.npcs.values()].find((n) => n.defId === "bog_troll")!;
    const p = room.world.players.get(a.id)!;
    p.health = 10;
    const inventoryBefore = p.inventory.filter(Boolean).map((s) => ({ ...s! }));
    // At 0.3 the troll's swing always lands for 1 hitpoint (10 life points): one hit kills.
    setRng(room, 0.3);
    const since = a.mark();
    place(room, a.id, besideOf(room, troll.position));
    const death = await a.next("player:death", () => true, { since });
    assert.deepEqual(death.items, inventoryBefore);
    const sync = await a.next("player:sync", (s) => s.health === s.maxHealth && s.inventory.length === 0, { since });
    assert.deepEqual(sync.position, { x: room.world.spawnTile.x, y: 0, z: room.world.spawnTile.z });
    await room.saver.flush();
    const lock = await suite.server.ctx.db.prisma.playerDeath.findUniqueOrThrow({ where: { id: death.deathId } });
    assert.equal(lock.resolvedAt, null);
    assert.deepEqual(lock.items, inventoryBefore);
    assert.equal(await suite.server.ctx.db.prisma.inventoryItem.count({ where: { characterId: a.id } }), 0, "the saved inventory is empty with the lock open");

    const pile = [...room.world.groundItems.values()].filter((g) => g.deathId === death.deathId);
    assert.equal(pile.length, inventoryBefore.length);
    place(room, b.id, { x: death.position.x, z: death.position.z });
    pile[0].createdTick -= 200; // older than any drop's private window: still the owner's alone
    await ticks(room, 2);
    assert.equal(b.room.state.groundItems.get(pile[0].id), undefined, "others never see a death pile");
    const sb = b.mark();
    b.send("player:action", { action: "pickup", targetId: pile[0].id });
    assert.equal((await b.next("error", () => true, { since: sb })).code, "UNKNOWN_TARGET");

    // The owner walks back (teleported here) and takes it all back, once.
    place(room, b.id, room.world.spawnTile);
    place(room, a.id, { x: death.position.x, z: death.position.z });
    const sa = a.mark();
    a.send("player:action", { action: "pickup", targetId: pile[0].id });
    const back = await a.next("player:sync", (s) => s.inventory.length === inventoryBefore.length, { since: sa });
    assert.deepEqual(back.inventory.map((s: { itemId: string; quantity: number }) => ({ itemId: s.itemId, quantity: s.quantity })).sort((x: any, y: any) => x.itemId.localeCompare(y.itemId)), [...inventoryBefore].sort((x, y) => x.itemId.localeCompare(y.itemId)));
    assert.equal([...room.world.groundItems.values()].filter((g) => g.deathId === death.deathId).length, 0);
    await room.saver.saveDirty(room.world);
    await room.saver.flush();
    const resolved = await suite.server.ctx.db.prisma.playerDeath.findUniqueOrThrow({ where: { id: death.deathId } });
    assert.equal(resolved.resolution, "reclaimed");
    assert.equal(await suite.server.ctx.db.prisma.inventoryItem.count({ where: { characterId: a.id } }), inventoryBefore.length);
  });
});
