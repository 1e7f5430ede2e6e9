import assert from "node:assert/strict";
import { emptyInventory } from "../../src/game/inventory.js";
import { xpForLevel } from "../../src/game/skills.js";
import { refreshLevels } from "../../src/game/world/xp.js";
import { loadGameData } from "../../src/manifests/index.js";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { joinWorld, type WorldPlayer } from "../helpers/worldClient.js";
import { place, setRng, tileAway, worldRoomOf } from "../helpers/worldRoom.js";
import { captureLogger, COMPAT_2026, requireCompat } from "../manifests/support.js";
import { countIn, npcNamed } from "./compatPlay.js";

/**
 * The real game's fights played in a real server over the SDK: a goblin shot with the set's shortbow
 * and bronze arrows, wind strike cast with the set's runes (and autocast with its staff of air),
 * thick skin turned on and drained, and the set's dark ranger and dark wizard fighting in their
 * data's styles. Every roll is 0.5: a level-1 archer, or a caster with the staff, hits a goblin
 * (a chance over a half) for 1; bare-handed the cast splashes (a chance just under a half).
 */
describe("compat: the 2026 set's ranged, magic and prayer played in a real server", function () {
  this.timeout(60_000);
  let server: TestServer;
  const players: WorldPlayer[] = [];

  async function fighter() {
    const p = await joinWorld(server);
    players.push(p);
    const room = worldRoomOf(p);
    setRng(room, 0.5);
    const e = room.world.players.get(p.id)!;
    e.inventory = emptyInventory();
    e.equipment = {};
    return { p, room, e };
  }

  function goblin(room: WorldRoom) {
    const g = [...room.world.npcs.values()].find((n) => n.defId === "goblin" && n.deadUntilTick == null && n.target == null)!;
    assert.ok(g, "a goblin to fight");
    g.health = 2;
    return g;
  }

  before(async function () {
    requireCompat(COMPAT_2026);
    const gameData = await loadGameData(COMPAT_2026, captureLogger().logger);
    assert.ok(gameData.ammunition.has("bronze_arrow") && gameData.spells.has("wind_strike") && gameData.prayers.has("thick_skin"));
    server = await startTestServer({ gameData });
  });
  afterEach(async () => {
    await Promise.all(players.splice(0).map((p) => p.leave().catch(() => {})));
  });
  after(async () => {
    await server?.close();
  });

  it("shoots a goblin with the shortbow and bronze arrows: an arrow a shot, the rest under the goblin, ranged xp", async () => {
    const { p, room, e } = await fighter();
    const g = goblin(room);
    e.equipment = { weapon: { itemId: "shortbow", quantity: 1 }, arrows: { itemId: "bronze_arrow", quantity: 10 } };
    place(room, p.id, tileAway(room, g.position, 5));
    const since = p.mark();
    p.send("player:action", { action: "attack", targetId: g.id });
    await p.next("npc:killed", (k) => k.npcId === "goblin", { since });
    const shots = p.received.slice(since).filter((m) => m.type === "combat:hit" && m.data.attackerId === p.id);
    assert.ok(shots.length === 2 && shots.every((m) => m.data.style === "ranged"));
    assert.equal(e.equipment.arrows?.quantity, 8);
    const landed = [...room.world.groundItems.values()].filter((i) => i.itemId === "bronze_arrow" && i.ownerId === p.id);
    assert.equal(
      landed.reduce((n, i) => n + i.quantity, 0),
      2,
    );
    assert.equal((await p.next("skill:xp", (m) => m.skill === "ranged", { since })).gained, 4);
  });

  it("casts wind strike with the set's runes: a splash bare-handed, then autocast with the staff of air (air runes spared)", async () => {
    const { p, room, e } = await fighter();
    const g = goblin(room);
    e.inventory[0] = { itemId: "air_rune", quantity: 10 };
    e.inventory[1] = { itemId: "mind_rune", quantity: 10 };
    place(room, p.id, tileAway(room, g.position, 5));
    let since = p.mark();
    p.send("combat:cast", { spellId: "wind_strike", targetId: g.id });
    const splash = await p.next("combat:hit", (h) => h.attackerId === p.id, { since });
    assert.deepEqual([splash.style, splash.damage, splash.splash], ["magic", 0, true]);
    await p.next("player:sync", (s) => countIn(s, "air_rune") === 9 && countIn(s, "mind_rune") === 9, { since });
    const spell = room.world.data.spells.get("wind_strike")!;
    assert.equal((await p.next("skill:xp", (m) => m.skill === "magic", { since })).xp, Math.round(spell.baseXp), "a splash earns the cast's xp (stored whole)");
    e.equipment = { weapon: { itemId: "staff_of_air", quantity: 1 } };
    since = p.mark();
    p.send("combat:autocast", { spellId: "wind_strike" });
    await p.next("player:sync", (s) => s.autocast === "wind_strike", { since });
    p.send("player:action", { action: "attack", targetId: g.id });
    await p.next("npc:killed", () => true, { since });
    const casts = p.received.slice(since).filter((m) => m.type === "combat:hit" && m.data.attackerId === p.id).length;
    await p.next("player:sync", (s) => countIn(s, "mind_rune") === 9 - casts && countIn(s, "air_rune") === 9, { since });
  });

  it("thick skin: on, drained a point by the tick past the drain threshold; a level-too-low prayer is refused", async () => {
    const { p, e } = await fighter();
    e.xp.prayer = xpForLevel(5);
    refreshLevels(e);
    e.prayer.points = 5;
    let since = p.mark();
    p.send("prayer:toggle", { prayerId: "thick_skin", on: true });
    await p.next("player:sync", (s) => s.prayer.active.includes("thick_skin"), { since });
    e.prayer.drain = 60;
    await p.next("player:sync", (s) => s.prayer.points === 4 && s.prayer.max === 5, { since });
    since = p.mark();
    p.send("prayer:toggle", { prayerId: "rock_skin", on: true });
    assert.equal((await p.next("error", () => true, { since })).code, "LEVEL_TOO_LOW");
    assert.deepEqual([...e.prayer.active], ["thick_skin"]);
  });

  it("the dark ranger shoots and the dark wizard casts, from afar", async () => {
    const { p, room, e } = await fighter();
    for (const [npcId, style] of [
      ["dark_ranger", "ranged"],
      ["dark_wizard", "magic"],
    ] as const) {
      const npc = npcNamed(room, npcId);
      e.health = 990;
      const since = p.mark();
      place(room, p.id, tileAway(room, npc.position, 4));
      const hit = await p.next("combat:hit", (h) => h.attackerId === npc.id, { since });
      assert.equal(hit.style, style, npcId);
    }
  });

  it("The Wastes (pvpEnabled, difficulty 1) is played: two players fight there, the attacker skulled; in the safe Central Haven they may not", async () => {
    const a = await fighter();
    const b = await fighter();
    const wastes = a.room.world.data.worldAreas.get("wilderness_test")!;
    assert.deepEqual([wastes.name, wastes.pvpEnabled, wastes.safeZone, wastes.difficultyLevel], ["The Wastes", true, false, 1]);
    for (const npc of a.room.world.npcs.values()) if (npc.attackable) npc.deadUntilTick = a.room.world.tick + 10_000;
    // In the safe starter town: refused.
    let since = a.p.mark();
    a.p.send("player:action", { action: "attack", targetId: b.p.id });
    assert.equal((await a.p.next("error", () => true, { since })).code, "SAFE_ZONE");
    const centre = { x: Math.round((wastes.bounds.minX + wastes.bounds.maxX) / 2), z: Math.round((wastes.bounds.minZ + wastes.bounds.maxZ) / 2) };
    const here = a.room.world.map.isBlocked(centre.x, centre.z) ? tileAway(a.room, centre, 1) : centre;
    place(a.room, a.p.id, here);
    place(a.room, b.p.id, tileAway(a.room, here, 1));
    b.e.vars.autoRetaliate = false;
    since = b.p.mark();
    a.p.send("player:action", { action: "attack", targetId: b.p.id });
    await b.p.next("combat:hit", (h) => h.attackerId === a.p.id && h.targetId === b.p.id, { since });
    assert.ok((a.e.vars.skullTicks as number) > 0, "the attacker is skulled");
  });
});
