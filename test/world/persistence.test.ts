import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../../src/db/client.js";
import { GROUND_ITEM_PRIVATE_TICKS, groundItemVisibleTo } from "../../src/game/drops.js";
import { silentLogger } from "../../src/logger.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { guestToken, joinWorld, type WorldPlayer } from "../helpers/worldClient.js";
import { besideOf, leaveAndSettle, place, setRng, ticks, worldRoomOf } from "../helpers/worldRoom.js";

/** `a` fells a tree beside it (the world's rolls made to succeed): a change of the ground no character shares. */
async function fellTree(room: WorldRoom, a: WorldPlayer) {
  const tree = [...room.world.resources.values()].find((r) => r.resourceId === "tree_normal")!;
  place(room, a.id, besideOf(room, tree.tile));
  setRng(room, 0);
  a.send("player:action", { action: "gather", targetId: tree.id });
  await a.next("skill:xp", (m) => m.skill === "woodcutting");
  setRng(room, 0.5);
  return tree;
}

/** `a` drops 7 of its starting 25 coins where it stands. */
async function dropSevenCoins(room: WorldRoom, a: WorldPlayer) {
  const coinSlot = room.world.players.get(a.id)!.inventory.findIndex((s) => s?.itemId === "coins");
  a.send("inventory:use", { slot: coinSlot, action: "drop", quantity: 7 });
  await a.next("player:sync", (s) => s.inventory.find((i: { itemId: string }) => i.itemId === "coins")?.quantity === 18);
}

for (const kind of DATABASE_KINDS) {
  describe(`world persistence on ${kind}`, function () {
    this.timeout(60_000);
    let t: TestDb;
    let server: TestServer | undefined;

    beforeEach(async () => {
      t = await openTestDb(kind);
    });
    afterEach(async () => {
      await server?.close();
      server = undefined;
      await t.cleanup();
    });

    it("saves on leave and reloads on join: position, skills, inventory, equipment, bank, health, prayer points; sessions recorded", async () => {
      server = await startTestServer({ db: t.db });
      const who = await guestToken(server);
      const a = await joinWorld(server, {}, who);
      const room = worldRoomOf(a);
      const p = room.world.players.get(a.id)!;
      const dest = { x: room.world.spawnTile.x + 4, z: room.world.spawnTile.z + 2 };
      place(room, a.id, dest);
      p.xp.woodcutting = 1_000;
      p.xp.prayer = 1_200; // level 10
      p.prayer.points = 3; // a logout is no free recharge
      p.health = 55;
      p.inventory[27] = { itemId: "logs", quantity: 1 };
      p.equipment.weapon = { itemId: "bronze_shortsword", quantity: 1 };
      p.bank = [{ itemId: "coins", quantity: 500 }];
      room.world.touchPlayer(p);
      await leaveAndSettle(a);

      const row = await t.db.prisma.character.findUniqueOrThrow({ where: { id: a.id }, include: { inventory: true, equipment: true, bank: true } });
      assert.deepEqual([row.positionX, row.positionZ, row.health, row.woodcuttingXp, row.woodcuttingLevel, row.prayerPoints], [dest.x, dest.z, 55, 1000, 9, 3]);
      assert.ok(row.inventory.some((r) => r.slot === 27 && r.itemId === "logs"));
      assert.deepEqual(row.equipment.map((e) => [e.slot, e.itemId]), [["weapon", "bronze_shortsword"]]);
      assert.deepEqual(row.bank.map((b) => [b.itemId, b.quantity]), [["coins", 500]]);
      const sessions = await t.db.prisma.playerSession.findMany({ where: { characterId: a.id } });
      assert.equal(sessions.length, 1);
      assert.equal(sessions[0].endReason, "logout");
      assert.ok(sessions[0].endedAt);

      const again = await joinWorld(server, {}, who);
      const sync = again.sync();
      assert.equal(again.id, a.id);
      assert.deepEqual(sync.position, { x: dest.x, y: 0, z: dest.z });
      assert.equal(sync.health, 55);
      assert.deepEqual(sync.prayer, { points: 3, max: 10, active: [] });
      assert.deepEqual(sync.skills.woodcutting, { level: 9, xp: 1000 });
      assert.deepEqual(sync.equipment.weapon, { itemId: "bronze_shortsword", quantity: 1 });
      assert.ok(sync.inventory.some((s: { slot: number; itemId: string }) => s.slot === 27 && s.itemId === "logs"));
      await again.leave();
    });

    it("saves changed characters every SAVE_INTERVAL while they play", async () => {
      server = await startTestServer({ db: t.db, env: { SAVE_INTERVAL: "1" } });
      const a = await joinWorld(server);
      const room = worldRoomOf(a);
      const p = room.world.players.get(a.id)!;
      p.xp.mining = 4_470;
      room.world.touchPlayer(p);
      const savesBefore = room.saver.stats.saves;
      // A save happens within the next interval (two ticks at 600 ms each), with no leave.
      while (room.saver.stats.saves === savesBefore) await ticks(room, 1);
      await room.saver.flush();
      const row = await t.db.prisma.character.findUniqueOrThrow({ where: { id: a.id } });
      assert.deepEqual([row.miningXp, row.miningLevel], [4470, 20]);
      await a.leave();
    });

    it("the periodic save takes the changed characters a slice a tick: each once in an interval, no tick all of them", async () => {
      // SAVE_INTERVAL 6: ten ticks, and as many slices.
      server = await startTestServer({ db: t.db, env: { SAVE_INTERVAL: "6" } });
      const players: WorldPlayer[] = [];
      for (let i = 0; i < 8; i++) players.push(await joinWorld(server));
      const room = worldRoomOf(players[0]!);
      const saves: Array<{ tick: number; ids: string[] }> = [];
      const saveWith = room.saver.saveWith.bind(room.saver);
      room.saver.saveWith = ((world, ps, ...rest) => {
        saves.push({ tick: world.tick, ids: ps.map((p) => p.id) });
        return saveWith(world, ps, ...rest);
      }) as typeof room.saver.saveWith;
      // Every character changes before each tick, for ten ticks in a row (each still changed if a tick went by unseen).
      await ticks(room, 1);
      const first = room.world.tick + 1;
      while (room.world.tick < first + 9) {
        for (const pl of players) {
          const p = room.world.players.get(pl.id)!;
          p.xp.mining += 10;
          room.world.touchPlayer(p);
        }
        await ticks(room, 1);
      }
      const taken = saves.filter((s) => s.tick >= first && s.tick <= first + 9).map((s) => s.ids);
      await room.saver.flush();
      const ids = players.map((p) => p.id).sort();
      assert.deepEqual(taken.flat().sort(), ids, "each character once in the ten ticks");
      assert.ok(taken.length > 1 && taken.every((s) => s.length < ids.length), `saves of ${taken.map((s) => s.length)}`);
      const rows = await t.db.prisma.character.findMany({ where: { id: { in: ids } } });
      assert.ok(rows.every((r) => r.miningXp > 0), "every character's change written");
      for (const p of players) await p.leave();
    });

    it("a save writes a character's stats row only when its stats or place changed; after a failed save, the next one writes them", async () => {
      server = await startTestServer({ db: t.db });
      const a = await joinWorld(server);
      const room = worldRoomOf(a);
      const p = room.world.players.get(a.id)!;
      const row = () => t.db.prisma.character.findUniqueOrThrow({ where: { id: a.id } });
      // (The first save may write what the world made of the row as loaded: its prayer points.)
      await room.saver.save(room.world, [p]);
      const loaded = await row();
      // Items changed, stats and place as last saved: the stats row is left as it is.
      p.inventory[27] = { itemId: "logs", quantity: 1 };
      await room.saver.save(room.world, [p]);
      const unchanged = await row();
      assert.equal(unchanged.updatedAt.getTime(), loaded.updatedAt.getTime(), "the stats row was not written");
      assert.ok((await t.db.prisma.inventoryItem.findMany({ where: { characterId: a.id } })).some((r) => r.slot === 27 && r.itemId === "logs"));

      p.xp.mining = 4_470;
      await room.saver.save(room.world, [p]);
      const written = await row();
      assert.deepEqual([written.miningXp, written.miningLevel], [4470, 20]);
      assert.ok(written.updatedAt.getTime() > loaded.updatedAt.getTime());

      // A save that fails (a reclaim of no death) writes nothing; the next save writes the stats it held.
      p.xp.mining = 5_000;
      p.pendingReclaims = ["no-such-death"];
      await assert.rejects(room.saver.save(room.world, [p]));
      assert.equal((await row()).miningXp, 4470);
      p.pendingReclaims = [];
      await room.saver.save(room.world, [p]);
      assert.equal((await row()).miningXp, 5000);
      await a.leave();
    });

    it("a save of characters the ground has no part in leaves the chunks' changes to the periodic save; one of a character that dropped something writes them with it", async () => {
      server = await startTestServer({ db: t.db });
      const a = await joinWorld(server);
      const b = await joinWorld(server);
      const room = worldRoomOf(a);
      const chunks = () => t.db.prisma.worldChunk.findMany({ where: { world: "1" } });
      // A node felled: a change of the ground no character shares.
      const tree = await fellTree(room, a);
      assert.ok(room.world.dirtyChunks.size > 0, "the felled tree's chunk changed");
      const pb = room.world.players.get(b.id)!;
      pb.xp.mining = 4_470;
      await room.saver.save(room.world, [pb]);
      assert.deepEqual(await chunks(), [], "b's save wrote no chunk");
      assert.ok(room.world.dirtyChunks.size > 0, "the chunk is still to be saved");
      // a drops coins: its pack and the ground are written together, by a's save or anyone's
      // (here b's, or a slice of the periodic save that took a first: read once every save is done).
      await dropSevenCoins(room, a);
      pb.xp.mining = 5_000;
      await room.saver.save(room.world, [pb]);
      await room.saver.flush();
      const written = await chunks();
      const ground = written.flatMap((c) => (c.data as { groundItems?: Array<{ itemId: string; quantity: number }> }).groundItems ?? []);
      assert.ok(
        ground.some((g) => g.itemId === "coins" && g.quantity === 7),
        "the dropped coins were written",
      );
      assert.ok(
        written.some((c) => JSON.stringify(c.data).includes(tree.id)),
        "and the felled tree with them",
      );
      const coins = await t.db.prisma.inventoryItem.findMany({ where: { characterId: a.id, itemId: "coins" } });
      assert.deepEqual(
        coins.map((r) => r.quantity),
        [18],
        "with a's pack",
      );
      assert.equal(room.world.dirtyChunks.size, 0);
      await a.leave();
      await b.leave();
    });

    it("world changes survive a restart: ground items, depleted nodes and open death piles", async () => {
      server = await startTestServer({ db: t.db });
      const a = await joinWorld(server);
      const room = worldRoomOf(a);
      const tree = await fellTree(room, a);
      await dropSevenCoins(room, a);
      const dropped = [...room.world.groundItems.values()].find((g) => g.itemId === "coins")!;
      assert.ok(room.world.resources.get(tree.id)!.depleted);
      await a.leave();
      await server.close();
      server = undefined;

      // A new process on the same database.
      server = await startTestServer({ db: t.db });
      const b = await joinWorld(server);
      const room2 = worldRoomOf(b);
      const restored = room2.world.groundItems.get(dropped.id);
      assert.ok(restored, "the dropped coins are back");
      assert.deepEqual([restored.itemId, restored.quantity, restored.tile], ["coins", 7, dropped.tile]);
      assert.equal(room2.world.resources.get(tree.id)!.depleted, true, "the felled tree is still felled");
      await b.leave();
    });

    it("ground items keep their age across a restart: another player sees a drop turn public when it would have, not 100 ticks later", async () => {
      server = await startTestServer({ db: t.db });
      const a = await joinWorld(server);
      const room = worldRoomOf(a);
      await dropSevenCoins(room, a);
      const dropped = [...room.world.groundItems.values()].find((g) => g.itemId === "coins" && g.ownerId === a.id)!;
      // The drop is saved with its chunk; then it lies there (90 ticks pass, as play passes them)
      // while nothing else changes in its chunk, and the server stops with its dropper still online.
      await room.saveAll();
      dropped.createdTick -= GROUND_ITEM_PRIVATE_TICKS - 10;
      const ageAtStop = room.world.tick - dropped.createdTick;
      await server.close();
      server = undefined;

      server = await startTestServer({ db: t.db });
      const b = await joinWorld(server);
      const room2 = worldRoomOf(b);
      const restored = room2.world.groundItems.get(dropped.id)!;
      assert.ok(restored, "the dropped coins are back");
      const age = room2.world.tick - restored.createdTick;
      assert.ok(age >= ageAtStop && age <= ageAtStop + 5, `age ${age} after the restart, ${ageAtStop} at the stop`);
      assert.equal(restored.ownerId, a.id, "still the dropper's for now");
      // Another player beside it: it turns public within the 10 ticks it had left.
      place(room2, b.id, dropped.tile);
      assert.equal(groundItemVisibleTo(restored, b.id, room2.world.tick), false, "private to its dropper at first");
      await b.sees((state) => state.groundItems?.get(dropped.id), "the coins turned public", 30_000);
      assert.ok(room2.world.tick - restored.createdTick >= GROUND_ITEM_PRIVATE_TICKS);
      await b.leave();
    });

    it("a death lock holds across a restart: the pile comes back once, and only once", async () => {
      server = await startTestServer({ db: t.db });
      const who = await guestToken(server);
      const a = await joinWorld(server, {}, who);
      const room = worldRoomOf(a);
      const troll = [...room.world.npcs.values()].find((n) => n.defId === "bog_troll")!;
      room.world.players.get(a.id)!.health = 10;
      setRng(room, 0.3);
      place(room, a.id, besideOf(room, troll.position));
      const death = await a.next("player:death");
      setRng(room, 0.5);
      await leaveAndSettle(a);
      await server.close();
      server = undefined;

      server = await startTestServer({ db: t.db });
      const again = await joinWorld(server, {}, who);
      const room2 = worldRoomOf(again);
      const pile = [...room2.world.groundItems.values()].filter((g) => g.deathId === death.deathId);
      assert.equal(pile.length, death.items.length, "the pile is back after the restart");
      assert.equal(again.sync().inventory.length, 0);
      place(room2, again.id, { x: death.position.x, z: death.position.z });
      again.send("player:action", { action: "pickup", targetId: pile[0].id });
      await again.next("player:sync", (s) => s.inventory.length === death.items.length);
      await leaveAndSettle(again);
      await server.close();
      server = undefined;

      // And after another restart it is gone for good: reclaimed once.
      server = await startTestServer({ db: t.db });
      const third = await joinWorld(server, {}, who);
      const room3 = worldRoomOf(third);
      assert.equal([...room3.world.groundItems.values()].filter((g) => g.deathId === death.deathId).length, 0);
      assert.equal(third.sync().inventory.length, death.items.length);
      const lock = await t.db.prisma.playerDeath.findUniqueOrThrow({ where: { id: death.deathId } });
      assert.equal(lock.resolution, "reclaimed");
      await third.leave();
    });
  });
}

describe("world persistence on shutdown", function () {
  this.timeout(60_000);
  it("a graceful shutdown saves every online player before the database closes", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "arena-shutdown-"));
    const db = await openDatabase({ dataDir: dir, logger: silentLogger });
    const server = await startTestServer({ db });
    const a = await joinWorld(server);
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    p.xp.fishing = 2_411;
    room.world.touchPlayer(p);
    await server.close();
    const row = await db.prisma.character.findUniqueOrThrow({ where: { id: a.id } });
    assert.equal(row.fishingXp, 2411);
    const session = await db.prisma.playerSession.findFirstOrThrow({ where: { characterId: a.id } });
    assert.ok(session.endedAt);
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });
});
