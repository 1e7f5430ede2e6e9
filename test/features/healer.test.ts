import assert from "node:assert/strict";
import { refreshLevels } from "../../src/game/world/xp.js";
import { worldSuite } from "../helpers/worldClient.js";
import { besideOf, place, worldRoomOf } from "../helpers/worldRoom.js";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import type { WorldPlayer } from "../helpers/worldClient.js";

/** The default world's healer (services: healer), and a player put beside her hurt and out of prayer. */
function hurtBesideHealer(room: WorldRoom, a: WorldPlayer) {
  const sister = [...room.world.npcs.values()].find((n) => n.services.includes("healer"))!;
  assert.ok(sister, "the default world has a healer");
  const p = room.world.players.get(a.id)!;
  p.xp.prayer = 1_200; // level 10
  refreshLevels(p);
  p.prayer.points = 2;
  p.health = 30;
  place(room, a.id, besideOf(room, sister.position));
  return { sister, p };
}

describe("feature: healers", function () {
  this.timeout(30_000);
  const suite = worldSuite();

  it("talking to the healer shows her words and restores health and prayer points in full", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const { sister } = hurtBesideHealer(room, a);
    const since = a.mark();
    a.send("player:action", { action: "talk", targetId: sister.id });
    const node = await a.next("dialogue:node", (n) => n.npcId === sister.id, { since });
    assert.match(node.text, /Hold still/);
    const notice = await a.next("notice", (n) => n.code === "HEALED", { since });
    assert.match(notice.message, /Sister Wenna restores your health and prayer/);
    const sync = await a.next("player:sync", (s) => s.health === s.maxHealth, { since });
    assert.deepEqual([sync.health, sync.prayer.points], [100, 10]);
  });

  it("refuses a player who is in a fight (IN_COMBAT) and changes nothing", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const { sister, p } = hurtBesideHealer(room, a);
    p.lastHitTick = room.world.tick; // hit just now
    const since = a.mark();
    a.send("player:action", { action: "talk", targetId: sister.id });
    const error = await a.next("error", (e) => e.code === "IN_COMBAT", { since });
    assert.match(error.message, /middle of a fight/);
    assert.deepEqual([p.health, p.prayer.points], [30, 2]);
  });

  it("a healthy player is told so, and an npc that is no healer heals no one", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const { sister, p } = hurtBesideHealer(room, a);
    p.health = 100;
    p.prayer.points = 10;
    let since = a.mark();
    a.send("player:action", { action: "talk", targetId: sister.id });
    assert.match((await a.next("notice", (n) => n.code === "HEALED", { since })).message, /fine shape/);
    const clerk = [...room.world.npcs.values()].find((n) => n.services.includes("bank"))!;
    p.health = 30;
    place(room, a.id, besideOf(room, clerk.position));
    since = a.mark();
    a.send("player:action", { action: "talk", targetId: clerk.id });
    await a.next("dialogue:node", (n) => n.npcId === clerk.id, { since });
    assert.equal(
      a.received.slice(since).some((m) => m.type === "notice" && (m.data as { code?: string }).code === "HEALED"),
      false,
    );
    assert.equal(p.health, 30);
  });
});
