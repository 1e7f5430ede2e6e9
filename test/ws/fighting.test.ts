import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { xpForLevel } from "../../src/game/skills.js";
import type { NpcEntity } from "../../src/game/world/entities.js";
import { refreshLevels } from "../../src/game/world/xp.js";
import { givePack, setRng, tileAway } from "../helpers/worldRoom.js";
import { syncCount, wsWorldSuite } from "../helpers/wsWorld.js";

/**
 * Ranged, magic and prayer over the plain JSON protocol: the same rules as for SDK clients. Every
 * roll is 0.5 (see test/world/fighting.test.ts): a level-1 archer or staff-caster hits a goblin for 1.
 */
describe("/ws: ranged, magic and prayer", function () {
  this.timeout(60_000);
  const suite = wsWorldSuite();

  function goblinFor(room: WorldRoom): NpcEntity {
    const g = [...room.world.npcs.values()].find((n) => n.defId === "goblin" && n.deadUntilTick == null && n.target == null)!;
    g.health = 2;
    return g;
  }

  it("kills a goblin with a shortbow: arrows used, arrows on the ground, ranged hits", async () => {
    const { ws, room, p } = await suite.player();
    setRng(room, 0.5);
    const goblin = goblinFor(room);
    p.equipment = { weapon: { itemId: "shortbow", quantity: 1 }, arrows: { itemId: "bronze_arrow", quantity: 10 } };
    p.tile = tileAway(room, goblin.position, 4);
    room.world.place("player", p.id, p.tile);
    const since = ws.mark();
    ws.send("player:action", { action: "attack", targetId: goblin.id });
    const hit = await ws.next("combat:hit", (f) => f.data.attackerId === p.id, { since });
    assert.equal(hit.data.style, "ranged");
    await ws.next("npc:killed", () => true, { since });
    await ws.next("player:sync", (f) => f.data.equipment.arrows?.quantity === 8, { since });
    const onGround = [...room.world.groundItems.values()].filter((g) => g.itemId === "bronze_arrow" && g.ownerId === p.id);
    assert.equal(
      onGround.reduce((n, g) => n + g.quantity, 0),
      2,
    );
  });

  it("casts with runes, autocasts with a staff, fights with a prayer on (a point drained); refusals echo the frame's id", async () => {
    const { ws, room, p } = await suite.player();
    setRng(room, 0.5);
    const goblin = goblinFor(room);
    p.xp.magic = xpForLevel(6);
    p.xp.prayer = xpForLevel(5);
    refreshLevels(p);
    p.prayer.points = 5;
    p.equipment = { weapon: { itemId: "staff", quantity: 1 } };
    givePack(room, p.id, [
      ["air_rune", 10],
      ["mind_rune", 10],
    ]);
    p.tile = tileAway(room, goblin.position, 5);
    room.world.place("player", p.id, p.tile);
    let since = ws.mark();
    ws.send("prayer:toggle", { prayerId: "ox_resolve", on: true }, "pray");
    await ws.next("player:sync", (f) => f.data.prayer.active.includes("ox_resolve"), { since });
    // The drain counter a point from its threshold: the fight costs a prayer point.
    p.prayer.drain = 59;
    ws.send("combat:autocast", { spellId: "gust_dart" }, "auto");
    await ws.next("player:sync", (f) => f.data.autocast === "gust_dart", { since });
    ws.send("player:action", { action: "attack", targetId: goblin.id });
    await ws.next("npc:killed", () => true, { since });
    await ws.next("player:sync", (f) => f.data.prayer.points === 4, { since });
    const casts = ws.frames.slice(since).filter((f) => f.type === "combat:hit" && f.data.attackerId === p.id);
    assert.ok(casts.length >= 2 && casts.every((f) => f.data.style === "magic"));
    await ws.next("player:sync", (f) => syncCount(f, "air_rune") === 10 - casts.length && syncCount(f, "mind_rune") === 10 - casts.length, { since });
    since = ws.mark();
    ws.send("combat:cast", { spellId: "no_such_spell", targetId: goblinFor(room).id }, "bad-spell");
    const err = await ws.next("error", () => true, { since });
    assert.deepEqual([err.data.code, err.id], ["UNKNOWN_SPELL", "bad-spell"]);
    since = ws.mark();
    ws.send("prayer:toggle", { prayerId: "ox_resolve", on: "yes" }, "bad-toggle");
    const bad = await ws.next("error", () => true, { since });
    assert.deepEqual([bad.data.code, bad.id], ["INVALID_PAYLOAD", "bad-toggle"]);
    assert.deepEqual([...p.prayer.active], ["ox_resolve"], "unchanged");
  });
});
