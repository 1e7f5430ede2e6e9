import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import type { NpcEntity } from "../../src/game/world/entities.js";
import { refreshLevels } from "../../src/game/world/xp.js";
import { xpForLevel } from "../../src/game/skills.js";
import { worldSuite, type WorldPlayer } from "../helpers/worldClient.js";
import { countInSync, givePack, place, setRng, stationOf, tileAway, ticks, worldRoomOf } from "../helpers/worldRoom.js";

/**
 * Ranged, magic and prayer in the default world over the SDK. Every roll is 0.5: a level-1 archer
 * or caster with the default world's bow or staff lands its blows on a goblin (a chance over
 * a half), each for 1, and every shot arrow lands on the ground (it breaks below 0.2); the
 * goblin's own swings miss (a chance just under a half).
 */
describe("world room: ranged, magic and prayer", function () {
  this.timeout(60_000);
  const suite = worldSuite();
  const join = suite.join;

  function goblinFor(room: WorldRoom): NpcEntity {
    const g = [...room.world.npcs.values()].find((n) => n.defId === "goblin" && n.deadUntilTick == null && n.target == null)!;
    g.health = 2;
    return g;
  }

  function setLevel(room: WorldRoom, a: WorldPlayer, skill: "prayer" | "magic" | "ranged", level: number) {
    const p = room.world.players.get(a.id)!;
    p.xp[skill] = xpForLevel(level);
    refreshLevels(p);
    if (skill === "prayer") p.prayer.points = level;
  }

  it("kills a goblin with a shortbow: one arrow a shot, the arrows under the goblin seen by the shooter alone, ranged xp", async () => {
    const a = await join();
    const b = await join();
    const room = worldRoomOf(a);
    setRng(room, 0.5);
    const goblin = goblinFor(room);
    const p = room.world.players.get(a.id)!;
    givePack(room, a.id, []);
    p.equipment = { weapon: { itemId: "shortbow", quantity: 1 }, arrows: { itemId: "bronze_arrow", quantity: 20 } };
    p.combatStyle = "accurate";
    place(room, a.id, tileAway(room, goblin.position, 4));
    place(room, b.id, tileAway(room, goblin.position, 3));
    const since = a.mark();
    a.send("player:action", { action: "attack", targetId: goblin.id });
    const hit = await a.next("combat:hit", (h) => h.attackerId === a.id, { since });
    assert.equal(hit.style, "ranged");
    assert.equal(hit.damage, 1);
    await a.next("npc:killed", () => true, { since });
    const xp = await a.next("skill:xp", (m) => m.skill === "ranged", { since });
    assert.equal(xp.gained, 4);
    const shots = a.received.slice(since).filter((m) => m.type === "combat:hit" && m.data.attackerId === a.id).length;
    assert.equal(shots, 2);
    assert.equal(p.equipment.arrows?.quantity, 20 - shots, "one arrow a shot");
    const sync = await a.next("player:sync", (s) => s.equipment.arrows?.quantity === 20 - shots, { since });
    assert.equal(sync.equipment.weapon.itemId, "shortbow");
    // The goblin walks up to its attacker: the arrows lie where it stood when each one hit.
    const piles = [...room.world.groundItems.values()].filter((g) => g.itemId === "bronze_arrow" && g.ownerId === a.id);
    assert.equal(
      piles.reduce((n, g) => n + g.quantity, 0),
      shots,
      "none broke at 0.5",
    );
    const pile = piles.find((g) => g.tile.x === goblin.position.x && g.tile.z === goblin.position.z)!;
    assert.ok(pile, "the last arrow lies under the goblin");
    await a.sees((s) => s.groundItems.get(pile.id), "the shooter sees the arrows");
    assert.equal(b.room.state.groundItems.get(pile.id), undefined, "nobody else does yet");
  });

  it("a bow needs arrows that fit it: NO_AMMO, LEVEL_TOO_LOW; rapid is a bow's style, not a sword's", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const goblin = goblinFor(room);
    const p = room.world.players.get(a.id)!;
    p.equipment = { weapon: { itemId: "shortbow", quantity: 1 } };
    p.combatStyle = "accurate";
    let since = a.mark();
    a.send("player:action", { action: "attack", targetId: goblin.id });
    assert.equal((await a.next("error", () => true, { since })).code, "NO_AMMO");
    since = a.mark();
    a.send("player:action", { action: "style", style: "rapid" });
    await a.next("player:sync", (s) => s.combatStyle === "rapid", { since });
    since = a.mark();
    a.send("inventory:use", { slot: 0, action: "unequip", targetId: "weapon" });
    await a.next("player:sync", (s) => !s.equipment.weapon && s.combatStyle === "accurate", { since });
    since = a.mark();
    a.send("player:action", { action: "style", style: "longrange" });
    assert.equal((await a.next("error", () => true, { since })).code, "STYLE_NOT_AVAILABLE");
    assert.equal(p.combatStyle, "accurate");
  });

  it("casts a spell: one cast splashes without a staff, a staff's autocast kills; runes taken per cast, an elemental staff's rune not", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    setRng(room, 0.5);
    const goblin = goblinFor(room);
    const p = room.world.players.get(a.id)!;
    p.equipment = {};
    givePack(room, a.id, [
      ["air_rune", 10],
      ["mind_rune", 10],
    ]);
    place(room, a.id, tileAway(room, goblin.position, 5));
    // Bare-handed, the chance is about 0.62 (the goblin's magic defence is its defenceBonus, -15): a roll of 0.7 splashes, the runes are gone all the same.
    setRng(room, 0.7);
    let since = a.mark();
    a.send("combat:cast", { spellId: "gust_dart", targetId: goblin.id });
    const splash = await a.next("combat:hit", (h) => h.attackerId === a.id, { since });
    assert.deepEqual([splash.style, splash.damage, splash.splash], ["magic", 0, true]);
    const sync = await a.next("player:sync", (s) => countInSync(s, "air_rune") === 9 && countInSync(s, "mind_rune") === 9, { since });
    assert.equal(sync.action, null, "one cast, then the player waits");
    assert.equal((await a.next("skill:xp", (m) => m.skill === "magic", { since })).gained, 5, "a splash earns the cast's xp");
    // Autocast needs a staff.
    since = a.mark();
    a.send("combat:autocast", { spellId: "gust_dart" });
    assert.equal((await a.next("error", () => true, { since })).code, "NO_STAFF");
    // The gale staff provides air: only mind runes go.
    setRng(room, 0.5);
    p.equipment = { weapon: { itemId: "gale_staff", quantity: 1 } };
    setLevel(room, a, "magic", 6);
    since = a.mark();
    a.send("combat:autocast", { spellId: "gust_dart" });
    await a.next("player:sync", (s) => s.autocast === "gust_dart", { since });
    a.send("player:action", { action: "attack", targetId: goblin.id });
    await a.next("npc:killed", () => true, { since });
    const casts = a.received.slice(since).filter((m) => m.type === "combat:hit" && m.data.attackerId === a.id);
    assert.ok(casts.length >= 2 && casts.every((c) => c.data.style === "magic"));
    assert.equal(countInSync(await a.next("player:sync", (s) => countInSync(s, "mind_rune") === 9 - casts.length, { since }), "air_rune"), 9);
  });

  it("out of runes, a cast is refused with NO_RUNES; unknown spells and a spell above the level are refused", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const goblin = goblinFor(room);
    givePack(room, a.id, [["air_rune", 5]]);
    room.world.players.get(a.id)!.equipment = {};
    for (const [msg, code] of [
      [{ spellId: "gust_dart", targetId: goblin.id }, "NO_RUNES"],
      [{ spellId: "no_such_spell", targetId: goblin.id }, "UNKNOWN_SPELL"],
      [{ spellId: "brine_lance", targetId: goblin.id }, "LEVEL_TOO_LOW"],
    ] as const) {
      const since = a.mark();
      a.send("combat:cast", msg);
      assert.equal((await a.next("error", () => true, { since })).code, code, msg.spellId);
    }
    assert.deepEqual(room.world.players.get(a.id)!.inventory[0], { itemId: "air_rune", quantity: 5 }, "nothing taken");
  });

  it("prayer: a boost on while fighting drains points; conflicts turn each other off; the altar restores; bones bury", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    setRng(room, 0.5);
    const p = room.world.players.get(a.id)!;
    setLevel(room, a, "prayer", 10);
    givePack(room, a.id, [["bones", 2]]);
    let since = a.mark();
    a.send("prayer:toggle", { prayerId: "bark_ward", on: true });
    await a.next("player:sync", (s) => s.prayer.active.includes("bark_ward") && s.prayer.points === 10 && s.prayer.max === 10, { since });
    // Iron ward is bark ward's stronger kin: turning it on turns bark ward off.
    since = a.mark();
    a.send("prayer:toggle", { prayerId: "iron_ward", on: true });
    await a.next("player:sync", (s) => s.prayer.active.join() === "iron_ward", { since });
    // Fight with it on: the counter is a point from its threshold, the next tick costs a point.
    p.prayer.drain = 60 + 2 * 0 - 1;
    const goblin = goblinFor(room);
    place(room, a.id, tileAway(room, goblin.position, 1));
    since = a.mark();
    a.send("player:action", { action: "attack", targetId: goblin.id });
    await a.next("npc:killed", () => true, { since });
    await a.next("player:sync", (s) => s.prayer.points === 9, { since });
    // Out of points: every prayer goes off, with a notice; turning one on is refused.
    p.prayer.points = 1;
    p.prayer.drain = 59;
    since = a.mark();
    assert.equal((await a.next("notice", (n) => n.code === "NO_PRAYER_POINTS", { since })).code, "NO_PRAYER_POINTS");
    await a.next("player:sync", (s) => s.prayer.points === 0 && s.prayer.active.length === 0, { since });
    since = a.mark();
    a.send("prayer:toggle", { prayerId: "bark_ward", on: true });
    assert.equal((await a.next("error", () => true, { since })).code, "NO_PRAYER_POINTS");
    // Pray at the altar: walked there, points back to the level.
    const altar = stationOf(room, "altar");
    place(room, a.id, tileAway(room, altar.tile, 3));
    since = a.mark();
    a.send("player:action", { action: "pray", targetId: altar.id });
    await a.next("notice", (n) => n.code === "PRAYED", { since, timeoutMs: 20_000 });
    await a.next("player:sync", (s) => s.prayer.points === 10, { since });
    // Bury a bone: prayer xp, one bone fewer.
    since = a.mark();
    a.send("inventory:use", { slot: 0 });
    await a.next("notice", (n) => n.code === "BURIED", { since });
    const xp = await a.next("skill:xp", (m) => m.skill === "prayer", { since });
    assert.equal(xp.gained, room.world.data.items.get("bones")!.prayerXp);
    await a.next("player:sync", (s) => countInSync(s, "bones") === 1, { since });
  });

  it("refuses prayers the player may not use, and items that cannot be buried", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    givePack(room, a.id, [["logs", 1]]);
    for (const [msg, code] of [
      [{ prayerId: "iron_ward", on: true }, "LEVEL_TOO_LOW"],
      [{ prayerId: "no_such_prayer", on: true }, "UNKNOWN_PRAYER"],
      [{ prayerId: "no_such_prayer", on: false }, "UNKNOWN_PRAYER"],
    ] as const) {
      const since = a.mark();
      a.send("prayer:toggle", msg);
      assert.equal((await a.next("error", () => true, { since })).code, code, msg.prayerId);
    }
    const since = a.mark();
    a.send("inventory:use", { slot: 0, action: "bury" });
    assert.equal((await a.next("error", () => true, { since })).code, "NOT_BURIABLE");
    assert.deepEqual(room.world.players.get(a.id)!.inventory[0], { itemId: "logs", quantity: 1 });
  });

  it("npcs fight in their data's style: the bowman shoots and the hexer casts from afar", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    setRng(room, 0.5);
    for (const [npcId, style, reach] of [
      ["outlaw_bowman", "ranged", 4],
      ["ashcloak_hexer", "magic", 5],
    ] as const) {
      const npc = [...room.world.npcs.values()].find((n) => n.defId === npcId && n.deadUntilTick == null)!;
      assert.ok(npc, `${npcId} is in the world`);
      room.world.players.get(a.id)!.health = 990;
      const since = a.mark();
      place(room, a.id, tileAway(room, npc.position, reach));
      const hit = await a.next("combat:hit", (h) => h.attackerId === npc.id, { since });
      assert.equal(hit.style, style, npcId);
      assert.ok(hit.damage > 0, `${npcId} hits from ${reach} tiles`);
    }
  });
});
