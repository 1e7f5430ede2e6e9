import assert from "node:assert/strict";
import { loadGameData, type GameData, type Position, type WorldArea } from "../../src/manifests/index.js";
import { captureLogger, DEFAULT_MANIFESTS } from "./support.js";

const dist = (a: Position, b: Position) => Math.hypot(a.x - b.x, a.z - b.z);
const inside = (p: Position, a: WorldArea) => p.x >= a.bounds.minX && p.x <= a.bounds.maxX && p.z >= a.bounds.minZ && p.z <= a.bounds.maxZ;

describe("manifests: the default world (world/manifests)", function () {
  let data: GameData;
  before(async function () {
    data = await loadGameData(DEFAULT_MANIFESTS, captureLogger().logger);
  });

  it("loads with zero warnings, in the current split format", function () {
    assert.deepEqual(data.warnings, []);
    assert.equal(data.itemLayout, "split");
    for (const f of [
      "items/armor.json",
      "gathering/woodcutting.json",
      "recipes/cooking.json",
      "recipes/firemaking.json",
      "skill-unlocks.json",
      "stations.json",
      "music.json",
      "starter-kit.json",
      "character-templates.json",
    ]) {
      assert.ok(data.files.includes(f), f);
    }
  });

  it("has the items a small world needs, every one with a value", function () {
    const needed = [
      "bronze_shortsword",
      "iron_shortsword",
      "steel_longsword",
      "bronze_platebody",
      "iron_full_helm",
      "steel_kiteshield",
      "bronze_hatchet",
      "iron_hatchet",
      "bronze_pickaxe",
      "iron_pickaxe",
      "fishing_rod",
      "small_fishing_net",
      "tinderbox",
      "logs",
      "oak_logs",
      "willow_logs",
      "copper_ore",
      "tin_ore",
      "iron_ore",
      "bronze_bar",
      "iron_bar",
      "raw_shrimp",
      "shrimp",
      "burnt_shrimp",
      "raw_trout",
      "trout",
      "burnt_trout",
      "coins",
      "bones",
      "feathers",
    ];
    for (const id of needed) assert.ok(data.items.has(id), id);
    for (const item of data.items.values()) assert.equal(typeof item.raw.value, "number", `${item.id} has no value`);
    assert.equal(data.items.get("coins")?.stackable, true);
    assert.equal(data.items.get("feathers")?.stackable, true);
    assert.equal(data.items.get("sealed_letter")?.tradeable, false);
    assert.equal(data.items.get("shrimp")?.healAmount, 3);
    assert.equal(data.items.get("bronze_platebody")?.equipSlot, "body");
    assert.ok((data.items.get("steel_longsword")?.bonuses?.attack ?? 0) > (data.items.get("bronze_longsword")?.bonuses?.attack ?? 0));
    assert.deepEqual(data.items.get("steel_full_helm")?.requirements?.skills, { defense: 5 });
  });

  it("has the npcs: bank clerk, shopkeeper, goblins, chickens, cows, a guard and a stronger monster", function () {
    assert.ok(data.npcs.get("bank_clerk")?.services.includes("bank"));
    assert.ok(data.npcs.get("shopkeeper")?.services.includes("store"));
    for (const id of ["goblin", "chicken", "cow", "town_guard", "bog_troll"]) {
      const npc = data.npcs.get(id);
      assert.ok(npc?.combat.attackable, id);
      assert.ok(npc.drops.length > 0, `${id} drops`);
      assert.ok(npc.combat.respawnTicks > 0 && npc.combat.attackSpeedTicks > 0);
    }
    const troll = data.npcs.get("bog_troll")!;
    assert.ok(troll.level > data.npcs.get("goblin")!.level * 5);
    assert.equal(troll.combat.aggressive, true);
  });

  it("has one safe starter town with a bank clerk, a store npc and a spawn point", function () {
    const towns = [...data.worldAreas.values()].filter((a) => a.isStarterTown);
    assert.equal(towns.length, 1);
    const town = towns[0]!;
    assert.equal(town.safeZone, true);
    assert.deepEqual(data.spawn, { areaId: town.id, position: { x: 100, y: 0, z: 100 } });
    assert.ok(inside(data.spawn!.position, town));
    assert.ok(town.npcs.some((n) => n.npcId === "bank_clerk"));
    const store = town.npcs.find((n) => n.npcId === "shopkeeper");
    assert.equal(store?.storeId, "general_store");
    assert.ok(town.stations.some((s) => s.type === "bank"));
  });

  it("puts a forest, a mine, a fishing shore and a goblin field within ~100 tiles of the spawn", function () {
    const spawn = data.spawn!.position;
    const near = (pred: (a: WorldArea) => boolean, what: string) => {
      const area = [...data.worldAreas.values()].find(pred);
      assert.ok(area, what);
      const centre = { x: (area.bounds.minX + area.bounds.maxX) / 2, y: 0, z: (area.bounds.minZ + area.bounds.maxZ) / 2 };
      assert.ok(dist(spawn, centre) <= 100, `${what} is ${dist(spawn, centre)} tiles away`);
    };
    near((a) => a.resources.filter((r) => r.skill === "woodcutting").length >= 5, "forest");
    near((a) => a.resources.filter((r) => r.skill === "mining").length >= 5, "mine");
    near((a) => a.resources.filter((r) => r.skill === "fishing").length >= 3, "fishing shore");
    near((a) => a.mobSpawns.some((s) => s.mobId === "goblin"), "goblin field");
    near((a) => a.mobSpawns.some((s) => s.mobId === "cow") && a.mobSpawns.some((s) => s.mobId === "chicken"), "pasture");
  });

  it("keeps every placement inside its area, at positive coordinates, clear of buildings", function () {
    const solid = data.buildings.map((b) => ({
      id: b.id,
      minX: b.position.x - b.footprint.width / 2,
      maxX: b.position.x + b.footprint.width / 2,
      minZ: b.position.z - b.footprint.depth / 2,
      maxZ: b.position.z + b.footprint.depth / 2,
    }));
    assert.ok(solid.length >= 3);
    for (const area of data.worldAreas.values()) {
      const points = [
        ...area.npcs.map((n) => n.position),
        ...area.resources.map((r) => r.position),
        ...area.mobSpawns.map((m) => m.position),
        ...area.stations.map((s) => s.position),
        ...(area.spawnPoint ? [area.spawnPoint] : []),
      ];
      for (const p of points) {
        assert.ok(p.x > 0 && p.z > 0, `${area.id}: (${p.x}, ${p.z}) not positive`);
        assert.ok(inside(p, area), `${area.id}: (${p.x}, ${p.z}) outside its bounds`);
        for (const b of solid) {
          const blocked = p.x >= b.minX && p.x <= b.maxX && p.z >= b.minZ && p.z <= b.maxZ;
          assert.ok(!blocked, `${area.id}: (${p.x}, ${p.z}) inside building ${b.id}`);
        }
      }
    }
  });

  it("defines trees, rocks and fishing spots with levels, tools, xp, ticks, chances and respawn", function () {
    const ids = Object.fromEntries(Object.entries(data.gathering).map(([k, m]) => [k, [...m.keys()]]));
    assert.deepEqual(ids, {
      woodcutting: ["tree_normal", "tree_oak", "tree_willow"],
      mining: ["ore_copper", "ore_tin", "ore_iron", "ore_runestone"],
      fishing: ["fishing_spot_net", "fishing_spot_lure"],
    });
    for (const map of Object.values(data.gathering)) {
      for (const r of map.values()) {
        assert.ok(r.toolItemIds.length > 0, `${r.id} tool`);
        assert.ok(r.levelRequired >= 1 && r.cycleTicks > 0 && r.respawnTicks > 0, r.id);
        assert.ok(r.successChance && r.successChance.high > r.successChance.low, `${r.id} success chance`);
        assert.ok(
          r.yields.every((y) => y.xp > 0 && data.items.has(y.itemId)),
          `${r.id} yields`,
        );
      }
    }
    assert.deepEqual(data.gathering.woodcutting.get("tree_oak")?.toolItemIds, ["bronze_hatchet", "iron_hatchet", "steel_hatchet"]);
    assert.equal(data.gathering.fishing.get("fishing_spot_lure")?.secondaryRequired, "feathers");
  });

  it("has stores, recipes, stations and music", function () {
    const store = data.stores.get("general_store")!;
    for (const id of ["bronze_hatchet", "bronze_pickaxe", "small_fishing_net", "tinderbox", "shrimp"]) {
      assert.ok(
        store.items.some((i) => i.itemId === id),
        id,
      );
    }
    assert.ok(data.recipes.cooking!.some((r) => r.inputs[0]?.itemId === "raw_shrimp" && r.outputs[0]?.itemId === "shrimp" && r.failure === "burnt_shrimp"));
    assert.deepEqual(
      data.recipes.firemaking!.map((r) => r.id),
      ["logs", "oak_logs", "willow_logs"],
    );
    assert.deepEqual([...data.stations.keys()].sort(), ["altar", "anvil", "bank", "furnace", "range", "runecrafting_altar"]);
    assert.ok(data.music.some((t) => t.category === "normal") && data.music.some((t) => t.category === "combat"));
  });

  it("has skill unlocks for the core skills, sorted and typed", function () {
    for (const skill of ["attack", "strength", "defense", "woodcutting", "mining", "fishing", "firemaking", "cooking"]) {
      const list = data.skillUnlocks[skill];
      assert.ok(list && list.length > 0, skill);
      assert.deepEqual(
        list.map((u) => u.level),
        [...list.map((u) => u.level)].sort((a, b) => a - b),
      );
    }
    const types = new Set(
      Object.values(data.skillUnlocks)
        .flat()
        .map((u) => u.type),
    );
    for (const t of ["item", "ability", "area", "activity"]) assert.ok(types.has(t as never), t);
  });

  it("has the starter kit and character templates", function () {
    assert.deepEqual(data.starterKit, [
      { itemId: "bronze_hatchet", quantity: 1 },
      { itemId: "bronze_pickaxe", quantity: 1 },
      { itemId: "small_fishing_net", quantity: 1 },
      { itemId: "tinderbox", quantity: 1 },
      { itemId: "shrimp", quantity: 5 },
      { itemId: "coins", quantity: 25 },
    ]);
    assert.ok(data.templates.size >= 3);
    for (const t of data.templates.values()) {
      assert.ok(t.name && t.description);
      assert.ok(t.items.every((i) => data.items.has(i.itemId)));
    }
    assert.deepEqual(data.templates.get("woodsman")?.skills, { woodcutting: 5, firemaking: 3 });
  });

  it("skill unlocks follow the recipes: every recipe's level has an unlock of its skill at that level", function () {
    const missing: string[] = [];
    for (const [kind, recipes] of Object.entries(data.recipes)) {
      for (const r of recipes) if (!(data.skillUnlocks[r.skill] ?? []).some((u) => u.level === r.level)) missing.push(`${kind} ${r.id}: ${r.skill} ${r.level}`);
    }
    assert.ok(Object.keys(data.recipes).length >= 8, "every recipe file is there");
    assert.deepEqual(missing, []);
  });
});
