import assert from "node:assert/strict";
import { joinWorld, worldSuite } from "../helpers/worldClient.js";
import { refreshLevels } from "../../src/game/world/xp.js";
import { besideOf, place, setRng, ticks, worldRoomOf } from "../helpers/worldRoom.js";

const slotOf = (sync: any, itemId: string) => sync.inventory.find((s: { itemId: string }) => s.itemId === itemId)?.slot;

describe("world room: gathering, items and the bank", function () {
  this.timeout(40_000);
  const suite = worldSuite();
  const join = suite.join;

  it("woodcutting: cycles until logs and xp arrive; the tree depletes and respawns", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const tree = [...room.world.resources.values()].find((r) => r.resourceId === "tree_normal" && !r.depleted)!;
    place(room, a.id, besideOf(room, tree.tile));
    // 80 xp: the first log (24 xp) takes woodcutting to level 2 (83 xp), which is announced.
    const p = room.world.players.get(a.id)!;
    p.xp.woodcutting = 80;
    refreshLevels(p);
    // Every roll succeeds: the first cycle yields logs and fells the tree.
    setRng(room, 0);
    const since = a.mark();
    a.send("player:action", { action: "gather", targetId: tree.id });
    const xp = await a.next("skill:xp", (m) => m.skill === "woodcutting", { since });
    assert.ok(xp.gained > 0);
    assert.equal(xp.xp, 80 + xp.gained);
    assert.equal(xp.level, 2);
    assert.deepEqual(await a.next("skill:levelup", () => true, { since }), { skill: "woodcutting", level: 2 });
    const sync = await a.next("player:sync", (s) => s.inventory.some((i: { itemId: string }) => i.itemId === "logs"), { since });
    assert.ok(sync.skills.woodcutting.xp > 0);
    await ticks(room, 1);
    assert.equal(room.world.resources.get(tree.id)!.depleted, true);
    await a.sees((s) => s.resources.get(tree.id)?.depleted === true, "the tree depleted");
    // Gathering a depleted tree is refused.
    const s2 = a.mark();
    a.send("player:action", { action: "gather", targetId: tree.id });
    assert.equal((await a.next("error", () => true, { since: s2 })).code, "DEPLETED");
    // It grows back after its respawn time.
    // Fast-forward the regrowth (a scene change, not a sleep).
    room.world.resources.get(tree.id)!.respawnAtTick = room.world.tick + 2;
    await ticks(room, 3);
    assert.equal(room.world.resources.get(tree.id)!.depleted, false);
    setRng(room, 0.5);
  });

  it("gathering keeps going cycle after cycle until the player stops", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    // A fishing spot never depletes: every cycle is a catch while the rolls succeed.
    const spot = [...room.world.resources.values()].find((r) => r.resourceId === "fishing_spot_net")!;
    place(room, a.id, besideOf(room, spot.tile));
    setRng(room, 0);
    const since = a.mark();
    a.send("player:action", { action: "gather", targetId: spot.id });
    await a.next("skill:xp", (m) => m.skill === "fishing", { since });
    const s2 = a.mark();
    await a.next("skill:xp", (m) => m.skill === "fishing", { since: s2 });
    a.send("player:action", { action: "stop" });
    await ticks(room, 1);
    assert.equal(room.world.players.get(a.id)!.action, null);
    const caught = room.world.players.get(a.id)!.inventory.filter((s) => s && s.itemId.startsWith("raw_")).length;
    assert.ok(caught >= 2, `caught ${caught}`);
    const s3 = a.mark();
    await ticks(room, 8);
    assert.equal(a.received.slice(s3).filter((m) => m.type === "skill:xp").length, 0, "no more catches after stop");
    setRng(room, 0.5);
  });

  it("gathering without the level or tool is refused and changes nothing", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const oak = [...room.world.resources.values()].find((r) => r.resourceId === "tree_oak")!;
    place(room, a.id, besideOf(room, oak.tile));
    let since = a.mark();
    a.send("player:action", { action: "gather", targetId: oak.id });
    assert.equal((await a.next("error", () => true, { since })).code, "LEVEL_TOO_LOW");
    const p = room.world.players.get(a.id)!;
    const hatchet = p.inventory.findIndex((s) => s?.itemId === "bronze_hatchet");
    p.inventory[hatchet] = null;
    const tree = [...room.world.resources.values()].find((r) => r.resourceId === "tree_normal" && !r.depleted)!;
    since = a.mark();
    a.send("player:action", { action: "gather", targetId: tree.id });
    assert.equal((await a.next("error", () => true, { since })).code, "NO_TOOL");
    since = a.mark();
    a.send("player:action", { action: "gather", targetId: "res:nowhere:9" });
    assert.equal((await a.next("error", () => true, { since })).code, "UNKNOWN_TARGET");
    since = a.mark();
    a.send("player:action", { action: "gather" });
    assert.equal((await a.next("error", () => true, { since })).code, "INVALID_PAYLOAD");
    since = a.mark();
    a.send("player:action", { action: "teleport", targetId: tree.id });
    assert.equal((await a.next("error", () => true, { since })).code, "INVALID_PAYLOAD");
    assert.equal(p.action, null);
  });

  it("eat heals, equip wears, unequip returns, drop puts it on the ground, pickup takes it back", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    p.health = 40;
    room.world.touchPlayer(p, true);
    const sync0 = await a.next("player:sync", (s) => s.health === 40);
    let since = a.mark();
    a.send("inventory:use", { slot: slotOf(sync0, "shrimp"), action: "eat" });
    const fed = await a.next("player:sync", (s) => s.health > 40, { since });
    assert.equal(fed.health, 40 + suite.server.ctx.gameData.items.get("shrimp")!.healAmount! * 10);
    assert.equal(fed.inventory.filter((s: { itemId: string }) => s.itemId === "shrimp").length, 4, "one shrimp eaten");

    // Wear the hatchet (a weapon here), then take it off.
    since = a.mark();
    a.send("inventory:use", { slot: slotOf(fed, "bronze_hatchet"), action: "equip" });
    const worn = await a.next("player:sync", (s) => s.equipment.weapon?.itemId === "bronze_hatchet", { since });
    assert.equal(slotOf(worn, "bronze_hatchet"), undefined);
    since = a.mark();
    a.send("inventory:use", { slot: 0, action: "unequip", targetId: "weapon" });
    const off = await a.next("player:sync", (s) => !s.equipment.weapon, { since });
    assert.notEqual(slotOf(off, "bronze_hatchet"), undefined);

    // Drop the coins and pick them up again.
    const coinSlot = slotOf(off, "coins");
    since = a.mark();
    a.send("inventory:use", { slot: coinSlot, action: "drop", quantity: 10 });
    const dropped = await a.next("player:sync", (s) => s.inventory.find((i: { itemId: string }) => i.itemId === "coins")?.quantity === 15, { since });
    assert.ok(dropped);
    await ticks(room, 1);
    const ground = [...room.world.groundItems.values()].find((g) => g.itemId === "coins" && g.ownerId === a.id)!;
    assert.equal(ground.quantity, 10);
    await a.sees((s) => s.groundItems.get(ground.id), "the dropper sees the coins");
    since = a.mark();
    a.send("player:action", { action: "pickup", targetId: ground.id });
    await a.next("player:sync", (s) => s.inventory.find((i: { itemId: string }) => i.itemId === "coins")?.quantity === 25, { since });
    assert.equal(room.world.groundItems.has(ground.id), false);
  });

  it("a dropped item is seen by others only after the private window, then despawns", async () => {
    const a = await join();
    const b = await join();
    const room = worldRoomOf(a);
    place(room, b.id, { x: room.world.players.get(a.id)!.tile.x + 1, z: room.world.players.get(a.id)!.tile.z });
    const sync = a.sync();
    a.send("inventory:use", { slot: slotOf(sync, "tinderbox"), action: "drop" });
    await ticks(room, 2);
    const item = [...room.world.groundItems.values()].find((g) => g.itemId === "tinderbox" && g.ownerId === a.id)!;
    await a.sees((s) => s.groundItems.get(item.id), "the dropper sees it");
    assert.equal(b.room.state.groundItems.get(item.id), undefined, "others do not, yet");
    const since = b.mark();
    b.send("player:action", { action: "pickup", targetId: item.id });
    assert.equal((await b.next("error", () => true, { since })).code, "UNKNOWN_TARGET");
    // Fast-forward the item's age (a scene change, not a sleep): public now.
    item.createdTick -= 100;
    await ticks(room, 2);
    await b.sees((s) => s.groundItems.get(item.id), "others see it after the private window");
    item.createdTick -= 300;
    await ticks(room, 2);
    assert.equal(room.world.groundItems.has(item.id), false, "despawned");
    await a.sees((s) => !s.groundItems.get(item.id), "the despawned item leaves the view");
  });

  it("tinderbox on logs lights a fire (firemaking xp); raw food on it cooks", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    p.inventory[10] = { itemId: "logs", quantity: 1 };
    p.inventory[11] = { itemId: "raw_shrimp", quantity: 1 };
    room.world.touchPlayer(p);
    setRng(room, 0);
    const tinder = p.inventory.findIndex((s) => s?.itemId === "tinderbox");
    const before = new Set(room.world.resources.keys());
    const at = { ...p.tile };
    let since = a.mark();
    a.send("inventory:use", { slot: tinder, targetSlot: 10 });
    const xp = await a.next("skill:xp", (m) => m.skill === "firemaking", { since });
    assert.ok(xp.gained > 0);
    await ticks(room, 1);
    const fire = [...room.world.resources.values()].find((r) => r.skill === "firemaking" && !before.has(r.id))!;
    assert.ok(fire, "a fire was lit");
    const now = room.world.players.get(a.id)!;
    assert.deepEqual(fire.tile, at, `the fire burns where the player stood (now at ${JSON.stringify(now.tile)}, path ${now.path.length}, action ${JSON.stringify(now.action)})`);
    await a.sees((s) => s.resources.get(fire.id), "the fire in the view");
    assert.equal(p.inventory[10], null, "the logs burnt");
    // Cook next to it: with every roll at 0.999 nothing burns.
    place(room, a.id, besideOf(room, fire.tile));
    setRng(room, 0.999);
    since = a.mark();
    a.send("inventory:use", { slot: 11, targetId: fire.id, action: "cook" });
    const cooked = await a.next("skill:xp", (m) => m.skill === "cooking", { since });
    assert.ok(cooked.gained > 0);
    assert.equal(room.world.players.get(a.id)!.inventory[11]?.itemId, "shrimp");
    setRng(room, 0.5);
  });

  it("bad inventory:use input is refused and changes nothing", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const before = JSON.stringify(room.world.players.get(a.id)!.inventory);
    const cases: Array<[unknown, string]> = [
      [{ slot: 28 }, "INVALID_PAYLOAD"],
      [{ slot: -1 }, "INVALID_PAYLOAD"],
      [{ slot: 1.5 }, "INVALID_PAYLOAD"],
      [{ slot: 20, action: "eat" }, "EMPTY_SLOT"],
      [{ slot: 0, action: "eat" }, "NOT_EDIBLE"],
      [{ slot: 0, action: "explode" }, "INVALID_PAYLOAD"],
      [{ slot: 0, action: "unequip", targetId: "weapon" }, "NOTHING_EQUIPPED"],
      [{ slot: 0, action: "unequip", targetId: "tail" }, "INVALID_SLOT"],
      [{ slot: 0, action: "drop", quantity: -3 }, "INVALID_PAYLOAD"],
      [{ slot: 0, action: "drop", quantity: 0 }, "INVALID_PAYLOAD"],
      [{ slot: 0, action: "drop", quantity: 1e12 }, "INVALID_PAYLOAD"],
      [{ slot: 0, action: "cook", targetId: "fire:none" }, "UNKNOWN_TARGET"],
    ];
    for (const [payload, code] of cases) {
      const since = a.mark();
      a.send("inventory:use", payload);
      assert.equal((await a.next("error", () => true, { since })).code, code, JSON.stringify(payload));
    }
    assert.equal(JSON.stringify(room.world.players.get(a.id)!.inventory), before);
  });

  it("bank: deposit and withdraw near a bank, saved at once; nothing lost or duplicated", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    const coinSlot = p.inventory.findIndex((s) => s?.itemId === "coins");
    // Far from a bank: refused.
    let since = a.mark();
    place(room, a.id, { x: room.world.spawnTile.x + 20, z: room.world.spawnTile.z + 20 });
    a.send("bank:deposit", { slot: coinSlot, quantity: 5 });
    assert.equal((await a.next("error", () => true, { since })).code, "NOT_NEAR_BANK");

    place(room, a.id, besideOf(room, room.world.bankTiles[0]));
    since = a.mark();
    a.send("bank:deposit", { slot: coinSlot, quantity: 20 });
    const afterDeposit = await a.next("player:sync", (s) => s.bank?.some((b: { itemId: string }) => b.itemId === "coins"), { since });
    assert.deepEqual(afterDeposit.bank.find((b: { itemId: string }) => b.itemId === "coins"), { itemId: "coins", quantity: 20, tab: 0 });
    assert.equal(afterDeposit.inventory.find((s: { itemId: string }) => s.itemId === "coins").quantity, 5);
    await room.saver.flush();
    const banked = await suite.server.ctx.db.prisma.bankItem.findUnique({ where: { characterId_itemId: { characterId: a.id, itemId: "coins" } } });
    assert.equal(banked?.quantity, 20, "saved at once");
    const invRow = await suite.server.ctx.db.prisma.inventoryItem.findFirst({ where: { characterId: a.id, itemId: "coins" } });
    assert.equal(invRow?.quantity, 5);

    since = a.mark();
    a.send("bank:withdraw", { itemId: "dragon_scimitar", quantity: 1 });
    assert.equal((await a.next("error", () => true, { since })).code, "NOT_IN_BANK");
    for (const bad of [{ itemId: "coins", quantity: -1 }, { itemId: "coins", quantity: 0.5 }, { itemId: "coins", quantity: 1e10 }, { itemId: "coins" }, { itemId: 5, quantity: 1 }, { itemId: "", quantity: 1 }]) {
      since = a.mark();
      a.send("bank:withdraw", bad);
      assert.equal((await a.next("error", () => true, { since })).code, "INVALID_PAYLOAD", JSON.stringify(bad));
    }
    // Asking for more than the bank holds withdraws what there is: 25 coins in all, as before.
    since = a.mark();
    a.send("bank:withdraw", { itemId: "coins", quantity: 21 });
    const back = await a.next("player:sync", (s) => s.inventory.find((i: { itemId: string }) => i.itemId === "coins")?.quantity === 25, { since });
    assert.equal(back.bank.some((b: { itemId: string }) => b.itemId === "coins"), false);
    await room.saver.flush();
    assert.equal(await suite.server.ctx.db.prisma.bankItem.count({ where: { characterId: a.id } }), 0);
    assert.equal((await suite.server.ctx.db.prisma.inventoryItem.findFirst({ where: { characterId: a.id, itemId: "coins" } }))?.quantity, 25);

    // Withdrawing into a full inventory fails cleanly.
    p.bank = [{ itemId: "logs", quantity: 3 }];
    for (let i = 0; i < 28; i++) if (!p.inventory[i]) p.inventory[i] = { itemId: "bronze_pickaxe", quantity: 1 };
    since = a.mark();
    a.send("bank:withdraw", { itemId: "logs", quantity: 1 });
    assert.equal((await a.next("error", () => true, { since })).code, "INVENTORY_FULL");
    assert.deepEqual(p.bank, [{ itemId: "logs", quantity: 3 }]);
  });
});
