import assert from "node:assert/strict";
import { WORLD_FEATURES } from "../../src/features/index.js";
import { bracketOf, KEPT_ITEMS, SKULL_TICKS } from "../../src/features/pvp/pvpRules.js";
import { emptyInventory } from "../../src/game/inventory.js";
import type { Tile } from "../../src/game/types.js";
import { startAttack } from "../../src/game/world/commands.js";
import type { PlayerEntity } from "../../src/game/world/entities.js";
import { removePlayer } from "../../src/game/world/players.js";
import { tickWorld } from "../../src/game/world/tick.js";
import type { World } from "../../src/game/world/World.js";
import { refreshLevels } from "../../src/game/world/xp.js";
import { createWorld } from "../../rooms/worldSetup.js";
import { addStarter } from "../helpers/handPlaced.js";
import { addTo, bagOf, plain, readLedger } from "../helpers/itemLedger.js";
import { defaultGameData } from "../helpers/server.js";
import { codeOf } from "../game/fixtures.js";
import { guestToken, joinWorld, worldSuite } from "../helpers/worldClient.js";
import { leaveAndSettle, place, setRng, ticks, worldRoomOf } from "../helpers/worldRoom.js";

/** Ravelstone Ruins: the default world's PvP area (difficulty 2). */
const RUINS = { x: 150, z: 140 };

/** A walkable tile near `t`, n tiles along x (skipping blocked ones). */
function freeNear(world: World, t: Tile, n: number): Tile {
  for (let d = n; d < n + 20; d++) if (!world.map.isBlocked(t.x + d, t.z)) return { x: t.x + d, z: t.z };
  throw new Error("no free tile");
}

/** Strong enough to kill a starter in a few blows, at combat level 3 still (only strength raised: no level gap). */
function hitsHard(p: PlayerEntity) {
  p.xp.strength = 13_034_431;
  refreshLevels(p);
  p.combatLevel = 3;
}

describe("feature: PvP areas, tick by tick", () => {
  let world: World;
  beforeEach(async () => {
    world = createWorld(await defaultGameData(), { rng: () => 0.3, features: WORLD_FEATURES.list });
    for (const npc of world.npcs.values()) if (npc.attackable) world.unplace("npc", npc.id);
    world.npcs.clear();
  });

  it("refuses outside a PvP area (NOT_IN_PVP_AREA), in a safe zone (SAFE_ZONE), and across the level bracket (LEVEL_BRACKET)", () => {
    const a = addStarter(world, "Ann", { x: 100, z: 60 }); // Brindle Pasture: no PvP
    const b = addStarter(world, "Bob", { x: 101, z: 60 });
    assert.equal(
      codeOf(() => startAttack(world, a.id, b.id)),
      "NOT_IN_PVP_AREA",
    );
    const c = addStarter(world, "Cat"); // the spawn, in Brindlemere: a safe zone
    const d = addStarter(world, "Dan", freeNear(world, world.spawnTile, 1));
    assert.equal(
      codeOf(() => startAttack(world, c.id, d.id)),
      "SAFE_ZONE",
    );
    const e = addStarter(world, "Eve", RUINS);
    const f = addStarter(world, "Fay", freeNear(world, RUINS, 1));
    f.combatLevel = e.combatLevel + bracketOf(2) + 1;
    assert.equal(
      codeOf(() => startAttack(world, e.id, f.id)),
      "LEVEL_BRACKET",
    );
    f.combatLevel = e.combatLevel + bracketOf(2);
    assert.equal(
      codeOf(() => startAttack(world, e.id, f.id)),
      undefined,
      "within the bracket",
    );
    assert.equal(
      codeOf(() => startAttack(world, e.id, e.id)),
      "NOT_ATTACKABLE",
      "not oneself, even in the ruins",
    );
    // Nothing was started by the refusals.
    assert.deepEqual([a.action, c.action], [null, null]);
  });

  it("the attacker of an unskulled player is skulled; the one who fights back is not; the skull wears off with play", () => {
    const a = addStarter(world, "Aggro", RUINS);
    const b = addStarter(world, "Victim", freeNear(world, RUINS, 1));
    startAttack(world, a.id, b.id);
    for (let i = 0; i < 6 && b.lastHitTick < 0; i++) tickWorld(world);
    assert.ok((a.vars.skullTicks as number) > SKULL_TICKS - 6, "skulled at the first blow");
    assert.deepEqual(b.action, { type: "attack", targetId: a.id }, "the victim fights back (auto-retaliate)");
    for (let i = 0; i < 8; i++) tickWorld(world);
    assert.equal(b.vars.skullTicks, 0, "fighting back is no aggression");
    const left = a.vars.skullTicks as number;
    a.action = null;
    b.action = null;
    tickWorld(world);
    assert.equal(a.vars.skullTicks, left - 1);
  });

  it("a skulled player killed by a player keeps nothing: every item falls as the killer's loot, counted, and the killer picks it up", () => {
    const a = addStarter(world, "Skully", RUINS);
    const k = addStarter(world, "Killer", freeNear(world, RUINS, 1));
    hitsHard(k);
    a.equipment.weapon = { itemId: "steel_longsword", quantity: 1 };
    a.equipment.body = { itemId: "iron_platebody", quantity: 1 };
    a.vars.skullTicks = 500;
    a.health = 10;
    a.vars.autoRetaliate = false;
    const had = bagOf([...a.inventory.filter((s) => s !== null), ...Object.values(a.equipment)] as Array<{ itemId: string; quantity: number }>);
    const at = { ...a.tile };
    startAttack(world, k.id, a.id);
    for (let i = 0; i < 20 && a.health > 0 && a.tile.x === at.x; i++) tickWorld(world);
    assert.deepEqual(a.tile, world.spawnTile, "respawned at the spawn");
    assert.equal(a.inventory.every((s) => s === null) && Object.keys(a.equipment).length === 0, true, "kept nothing");
    assert.equal(a.vars.skullTicks, 0, "the skull is gone with the death");
    const pile = [...world.groundItems.values()].filter((g) => g.tile.x === at.x && g.tile.z === at.z);
    assert.ok(
      pile.every((g) => g.ownerId === k.id && !g.deathId),
      "the killer's loot, not a death pile",
    );
    assert.deepEqual(plain(bagOf(pile)), plain(had), "every item fell, none made or lost");
    const lost = bagOf(a.ledgerEvents.filter((e) => e.cause === "pvp_lost").map((e) => ({ itemId: e.itemId, quantity: -e.delta })));
    assert.deepEqual(plain(lost), plain(had), "the ledger names the cause");
    assert.ok(a.ledgerEvents.every((e) => e.cause !== "pvp_lost" || e.otherId === k.id));
    const death = world.events.drain().find((e) => e.kind === "death");
    assert.ok(death && death.kind === "death" && death.killedBy === k.id);
    // The killer takes it.
    k.inventory = emptyInventory();
    for (const g of pile) {
      k.action = { type: "pickup", targetId: g.id };
      k.path = [];
      k.tile = { ...at };
      tickWorld(world);
    }
    const got = bagOf(k.inventory.filter((s) => s !== null) as Array<{ itemId: string; quantity: number }>);
    assert.deepEqual(plain(got), plain(had));
  });

  it(`an unskulled player keeps its ${KEPT_ITEMS} most valuable items, one more under Keep Faith (a protectItem prayer)`, () => {
    for (const protect of [false, true]) {
      world.groundItems.clear();
      const a = addStarter(world, protect ? "Faithful" : "Careful", RUINS);
      const k = addStarter(world, protect ? "Hunter2" : "Hunter1", freeNear(world, RUINS, 1));
      hitsHard(k);
      a.inventory = emptyInventory();
      a.inventory[0] = { itemId: "coins", quantity: 1000 };
      a.inventory[1] = { itemId: "bronze_dagger", quantity: 1 };
      a.inventory[2] = { itemId: "steel_full_helm", quantity: 1 };
      a.equipment = {
        weapon: { itemId: "gale_staff", quantity: 1 },
        body: { itemId: "steel_platebody", quantity: 1 },
        legs: { itemId: "iron_platelegs", quantity: 1 },
      };
      a.vars.autoRetaliate = false;
      if (protect) {
        a.xp.prayer = 300_000;
        refreshLevels(a);
        a.prayer.points = a.levels.prayer;
        a.prayer.active.add("keep_faith");
      }
      a.health = 10;
      startAttack(world, k.id, a.id);
      for (let i = 0; i < 20 && a.health > 0 && a.tile.x !== world.spawnTile.x; i++) tickWorld(world);
      const kept = [...a.inventory.filter((s) => s !== null).map((s) => s!.itemId), ...Object.values(a.equipment).map((s) => s!.itemId)].sort();
      // By value: the staff 1200, the platebody 1045, the helm 330, then the platelegs 192.
      const expected = ["gale_staff", "steel_platebody", "steel_full_helm", ...(protect ? ["iron_platelegs"] : [])].sort();
      assert.deepEqual(kept, expected, protect ? "four kept" : "three kept");
      const fell = bagOf([...world.groundItems.values()].filter((g) => g.ownerId === k.id));
      const rest = addTo(addTo(new Map(), "coins", 1000), "bronze_dagger", 1);
      if (!protect) addTo(rest, "iron_platelegs", 1);
      assert.deepEqual(plain(fell), plain(rest));
      removePlayer(world, a.id);
      removePlayer(world, k.id);
    }
  });
});

describe("feature: PvP areas over the protocol", function () {
  this.timeout(60_000);
  const suite = worldSuite();

  it("attacking a player at the spawn is refused SAFE_ZONE, and an unknown or the own id changes nothing", async () => {
    const a = await suite.join();
    const b = await suite.join();
    let since = a.mark();
    a.send("player:action", { action: "attack", targetId: b.id });
    assert.equal((await a.next("error", () => true, { since })).code, "SAFE_ZONE");
    since = a.mark();
    a.send("player:action", { action: "attack", targetId: a.id });
    assert.equal((await a.next("error", () => true, { since })).code, "NOT_ATTACKABLE", "not oneself");
    since = a.mark();
    a.send("player:action", { action: "attack", targetId: "c_nobody" });
    assert.equal((await a.next("error", () => true, { since })).code, "UNKNOWN_TARGET");
    const room = worldRoomOf(a);
    assert.equal(room.world.players.get(a.id)!.action, null);
  });

  it("a PvP death in the ruins: the killer's loot is saved with the dead player's pack; a player leaving mid-fight stays until the fight's time is over", async () => {
    const who = await guestToken(suite.server);
    const a = await joinWorld(suite.server, {}, who);
    const k = await suite.join();
    const room = worldRoomOf(a);
    const world = room.world;
    setRng(room, 0.3);
    // The ruins' outlaws would join in: out of the way.
    for (const npc of [...world.npcs.values()]) if (npc.attackable) npc.deadUntilTick = world.tick + 10_000;
    const pa = world.players.get(a.id)!;
    const pk = world.players.get(k.id)!;
    hitsHard(pk);
    place(room, a.id, RUINS);
    place(room, k.id, freeNear(world, RUINS, 1));
    pa.health = 10;
    pa.vars.autoRetaliate = false;
    const before = await readLedger(suite.server.ctx.db);
    let since = a.mark();
    k.send("player:action", { action: "attack", targetId: a.id });
    const died = await a.next("player:death", () => true, { since });
    assert.equal(died.killedBy, k.id);
    assert.ok(died.items.length > 0, "the starter's pack fell");
    await room.saver.flush();
    await room.settled();
    const after = await readLedger(suite.server.ctx.db);
    assert.deepEqual(plain(after.total), plain(before.total), "nothing made or lost: the pack's items are on the ground");
    const rows = await suite.server.ctx.db.sql.query<{ otherId: string; delta: number }>(
      `SELECT "otherId", "delta" FROM "item_ledger" WHERE "characterId" = $1 AND "cause" = 'pvp_lost'`,
      [a.id],
    );
    assert.ok(rows.length > 0 && rows.every((r) => r.otherId === k.id && r.delta < 0), JSON.stringify(rows));
    // The killer strikes again after the respawn? No: the dead stand at the spawn, in the safe town.
    assert.equal(pk.action, null);
    // A fight, then a leave at once: held in the world for the fight's time.
    const c = await suite.join();
    place(room, a.id, RUINS);
    place(room, c.id, freeNear(world, RUINS, 1));
    world.players.get(c.id)!.vars.autoRetaliate = false;
    since = c.mark();
    a.send("player:action", { action: "attack", targetId: c.id });
    await c.next("combat:hit", (h) => h.attackerId === a.id, { since });
    // Everyone around sees the attacker's skull.
    await c.sees((st) => st.players.get(a.id)?.skulled === true, "the attacker skulled in the state");
    const leftAt = world.tick;
    void a.leave();
    await ticks(room, 3);
    assert.ok(world.players.has(a.id), "still in the world 3 ticks after leaving in a fight");
    while (world.players.has(a.id)) await ticks(room, 1);
    assert.ok(world.tick - leftAt >= 10, `held for ${world.tick - leftAt} ticks`);
    await room.settled();
    const back = await joinWorld(suite.server, {}, who);
    assert.equal(back.id, a.id);
    await back.leave();
    await leaveAndSettle(k).catch(() => {});
  });
});
