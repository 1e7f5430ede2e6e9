import assert from "node:assert/strict";
import { arenasOf } from "../../src/features/duel/duelArenas.js";
import { RESTORE_UNITS, restorePerTick } from "../../src/features/agility/stamina.js";
import { loadGameData, type GameData } from "../../src/manifests/index.js";
import { captureLogger, COMPAT_2025, COMPAT_2026, requireCompat } from "../manifests/support.js";

function warningsIn(data: GameData, file: string): string[] {
  return data.warnings.filter((w) => w.startsWith(`${file}: `));
}

function assertSortedUnlocks(data: GameData): void {
  for (const [skill, list] of Object.entries(data.skillUnlocks)) {
    for (let i = 1; i < list.length; i++) assert.ok(list[i - 1]!.level <= list[i]!.level, `${skill} unlocks not sorted`);
    for (const u of list) {
      assert.ok(["item", "ability", "area", "quest", "activity"].includes(u.type));
      assert.equal(typeof u.description, "string");
    }
  }
}

describe("manifests: the published 2026 set (current format) loads as it is", function () {
  let data: GameData;
  before(async function () {
    requireCompat(COMPAT_2026);
    data = await loadGameData(COMPAT_2026, captureLogger().logger);
  });

  it("indexes the good records", function () {
    assert.equal(data.itemLayout, "split");
    assert.equal(data.items.size, 259);
    const sword = data.items.get("bronze_shortsword");
    assert.equal(sword?.equipSlot, "weapon");
    assert.equal(sword?.bonuses?.attack, 4);
    assert.equal(sword?.tradeable, true);
    assert.equal(data.items.get("shrimp")?.healAmount, 3);
    assert.equal(data.items.get("coins")?.stackable, true);
    assert.equal(data.items.get("burnt_shrimp")?.tradeable, false);
    assert.equal(data.items.get("bronze_full_helm")?.stackable, false, "absent stackable means not stackable");
    assert.equal(data.npcs.size, 18 + 3, "npcs.json's 18 and the duel arena's three, defined by their placements");
    assert.equal(data.npcs.get("goblin")?.combat.respawnTicks, 35);
    assert.ok(data.npcs.get("goblin")!.drops.some((d) => d.itemId === "bones" && d.rarity === "always"));
    assert.deepEqual(data.npcs.get("bank_clerk")?.services, ["bank"]);
    assert.equal(data.stores.size, 7);
    assert.ok(data.stores.get("general_store")!.items.length > 0);
    assert.equal(data.biomes.size, 9);
    assert.deepEqual([...data.worldAreas.keys()], ["central_haven", "haven_pond", "wilderness_test", "duel_arena"]);
    assert.equal(data.gathering.woodcutting.size, 12);
    assert.equal(data.gathering.mining.size, 8);
    assert.equal(data.gathering.fishing.size, 7);
    assert.equal(data.recipes.smithing?.length, 72);
    assert.equal(data.recipes.cooking?.length, 11);
    assert.equal(data.tools.size, 15);
    assert.equal(data.quests.size, 7);
    assert.ok("model-bounds" in data.extras && "duel-arenas" in data.extras, "the duel feature's file is kept for it");
    const duels = arenasOf(data);
    assert.deepEqual(duels.warnings, []);
    assert.deepEqual(
      duels.arenas.map((a) => a.id),
      [1, 2, 3, 4, 5, 6],
    );
    assert.deepEqual(duels.arenas[0]!.spawnPoints, [
      { x: 206, z: 210 },
      { x: 214, z: 210 },
    ]);
    assert.deepEqual(duels.places.hospital, { center: { x: 210, z: 295 }, width: 20, depth: 15, spawnPoint: { x: 210, z: 295 } });
    assert.deepEqual([data.prayers.size, data.spells.size, data.ammunition.size], [9, 8, 5]);
  });

  it("resolves tool families: 'bronze_hatchet' means any hatchet, 'pickaxe' any pickaxe", function () {
    const oak = data.gathering.woodcutting.get("tree_oak")!;
    assert.ok(oak.toolItemIds.includes("bronze_hatchet") && oak.toolItemIds.includes("rune_hatchet"));
    const copper = data.gathering.mining.get("ore_copper")!;
    assert.ok(copper.toolItemIds.includes("bronze_pickaxe") && copper.toolItemIds.includes("rune_pickaxe"));
    assert.equal(copper.toolItemIds.includes("bronze_hatchet"), false);
    const fly = data.gathering.fishing.get("fishing_spot_fly")!;
    assert.equal(fly.secondaryRequired, "feathers");
    assert.ok(fly.successChance && fly.successChance.high > fly.successChance.low);
  });

  it("warns about the world-areas resources naming gathering ids that no longer exist", function () {
    for (const id of ["tree_normal", "tree_willow", "tree_teak", "tree_yew"]) {
      assert.ok(
        warningsIn(data, "world-areas.json").some((w) => w.includes(`resource ${id} `) && w.includes("unknown gathering id")),
        `no world-areas.json warning for ${id}`,
      );
    }
    const resources = data.worldAreas.get("central_haven")!.resources.map((r) => r.resourceId);
    assert.ok(resources.includes("tree_oak") && resources.includes("ore_copper"));
    assert.equal(resources.includes("tree_willow"), false);
  });

  it("warns about the 71 vegetation references vegetation.json does not define", function () {
    const veg = warningsIn(data, "biomes.json").filter((w) => w.includes("not defined in vegetation.json"));
    assert.equal(veg.length, 71);
    const plains = data.biomes.get("plains")!;
    assert.deepEqual(plains.vegetation.find((l) => l.category === "mushroom")?.assets, ["mushroom"]);
  });

  it("warns about items referenced but not defined: gold_ore, burnt_tuna, feather", function () {
    assert.ok(warningsIn(data, "gathering/mining.json").some((w) => w.includes("ore_gold") && w.includes("gold_ore")));
    assert.equal(data.gathering.mining.has("ore_gold"), false);
    assert.ok(warningsIn(data, "world-areas.json").some((w) => w.includes("resource ore_gold ")));
    assert.ok(warningsIn(data, "recipes/cooking.json").some((w) => w.includes("burnt_tuna")));
    assert.equal(
      data.recipes.cooking!.some((r) => r.id === "tuna"),
      false,
    );
    assert.ok(warningsIn(data, "quests.json").some((w) => w.includes("fletchers_introduction") && w.includes("item feather:")));
    const quest = data.quests.get("fletchers_introduction")!;
    assert.equal(
      quest.startItems.some((i) => i.itemId === "feather"),
      false,
    );
    assert.ok(quest.startItems.length > 0);
  });

  it("warns about the five tools that are not items", function () {
    for (const id of ["dragon_hatchet", "crystal_hatchet", "dragon_pickaxe", "crystal_pickaxe", "barbarian_rod"]) {
      assert.ok(
        warningsIn(data, "tools.json").some((w) => w.includes(`tool ${id}:`)),
        `no tools.json warning for ${id}`,
      );
      assert.equal(data.tools.has(id), false);
    }
    assert.ok(data.tools.has("bronze_hatchet"));
  });

  it("places the three duel-arena npcs defined inline in world-areas, with no warning: the nurse a healer, each saying its greeting", function () {
    assert.equal(warningsIn(data, "world-areas.json").filter((w) => w.includes("duel_arena")).length, 0);
    assert.deepEqual(
      data.worldAreas.get("duel_arena")!.npcs.map((p) => p.npcId),
      ["duel_arena_nurse", "duel_arena_scoreboard", "duel_arena_guide"],
    );
    const nurse = data.npcs.get("duel_arena_nurse")!;
    assert.deepEqual([nurse.name, nurse.services, nurse.combat.attackable], ["Nurse Sarah", ["healer"], false]);
    assert.match(nurse.dialogue!.nodes.get("greeting")!.text, /restore your health and prayer/);
    assert.deepEqual(data.npcs.get("duel_arena_scoreboard")!.services, ["scoreboard"]);
    assert.equal(data.worldAreas.get("duel_arena")!.stations.length, 1);
  });

  it("reports those defects and nothing else", function () {
    assert.equal(data.warnings.length, 4 + 1 + 71 + 5 + 3, data.warnings.join("\n"));
  });

  it("agility's unlocks are played: run energy comes back faster by the percent each unlock names", function () {
    const unlocks = data.skillUnlocks.agility!;
    const named = unlocks.flatMap((u) => {
      const m = /\+(\d+)%/.exec(u.description);
      return m ? [{ level: u.level, percent: Number(m[1]) }] : [];
    });
    assert.ok(named.length >= 5, JSON.stringify(unlocks));
    for (const { level, percent } of named.filter((n) => n.level > 1)) {
      assert.ok(Math.abs(restorePerTick(level) - RESTORE_UNITS * (1 + percent / 100)) <= 0.5, `level ${level}: +${percent}%`);
    }
  });

  it("skill unlocks: every skill sorted by level, typed; 'defence' is read as 'defense'", function () {
    assert.equal(Object.keys(data.skillUnlocks).length, 17);
    assert.ok(data.skillUnlocks.defense!.length > 0);
    assert.equal(data.skillUnlocks.defence, undefined);
    assert.deepEqual(data.skillUnlocks.strength, [
      { level: 1, description: "Increased max hit", type: "ability" },
      { level: 99, description: "Strength cape", type: "item" },
    ]);
    assertSortedUnlocks(data);
  });
});

describe("manifests: the published 2025 set (older format) loads as it is", function () {
  let data: GameData;
  before(async function () {
    requireCompat(COMPAT_2025);
    data = await loadGameData(COMPAT_2025, captureLogger().logger);
  });

  it("reads items.json, npcs.json and mobs.json", function () {
    assert.equal(data.itemLayout, "single");
    assert.equal(data.items.size, 15);
    assert.equal(data.items.get("bronze_sword")?.equipSlot, "weapon");
    assert.equal(data.items.get("bronze_hatchet")?.equipSlot, undefined, "equipSlot null means none");
    assert.equal(data.npcs.size, 4 + 9 + 6, "npcs.json's 4, mobs.json's 9, and the three towns' bankers and shopkeepers, defined by their placements");
    const goblin = data.npcs.get("goblin")!;
    assert.equal(goblin.source, "mobs.json");
    assert.equal(goblin.category, "mob");
    assert.equal(goblin.level, 2);
    assert.equal(goblin.combat.aggressive, true);
    assert.equal(goblin.combat.attackSpeedTicks, 3);
    assert.equal(goblin.combat.respawnTicks, 1500);
    assert.deepEqual(data.npcs.get("bank_clerk")?.services, ["bank"]);
  });

  it("reads resources.json as gathering data; placements naming the yielded item resolve to it", function () {
    const tree = data.gathering.woodcutting.get("tree_normal")!;
    assert.equal(tree.levelRequired, 1);
    assert.equal(tree.cycleTicks, 5);
    assert.equal(tree.respawnTicks, 100);
    const lumbridge = data.worldAreas.get("lumbridge")!;
    assert.deepEqual(
      lumbridge.resources.map((r) => r.resourceId),
      ["tree_normal"],
    );
    assert.equal(lumbridge.mobSpawns.length, 2);
  });

  it("warns about and skips what does not resolve, keeping the rest", function () {
    assert.equal(warningsIn(data, "stores.json").filter((w) => w.includes("tinderbox")).length, 5);
    assert.ok(data.stores.get("central_store")!.items.some((i) => i.itemId === "bronze_hatchet"));
    assert.ok(warningsIn(data, "mobs.json").some((w) => w.includes("goblin") && w.includes("bronze_helmet")));
    // The town's banker and shopkeeper are named by their placements: placed, offering their services.
    assert.equal(
      warningsIn(data, "world-areas.json").some((w) => w.includes("lumbridge_banker")),
      false,
    );
    assert.deepEqual(data.npcs.get("lumbridge_banker")!.services, ["bank", "item_storage"]);
    assert.ok(warningsIn(data, "world-areas.json").some((w) => w.includes("raw_shrimps") && w.includes("unknown gathering id")));
    assert.equal(data.worldAreas.size, 11);
    assert.ok(data.worldAreas.get("blasted_lands")!.mobSpawns.length === 3);
    for (const w of data.warnings) assert.match(w, /^(stores|mobs|world-areas)\.json: /);
  });

  it("keeps the older files it does not model in extras", function () {
    for (const key of ["zones", "banks", "avatars"]) assert.ok(key in data.extras, key);
    assert.equal(data.music.length, 20);
    assertSortedUnlocks(data);
  });
});
