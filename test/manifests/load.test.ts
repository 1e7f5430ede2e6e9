import assert from "node:assert/strict";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { loadGameData, ManifestError, REQUIRED_FILES, SPLIT_ITEM_FILES, type GameData } from "../../src/manifests/index.js";
import { brokenFixture, goodFixture, type Files } from "./fixture.js";
import { captureLogger, cleanup, tempDir, writeFiles } from "./support.js";

describe("manifests: loadGameData (validation, cross references, index)", function () {
  let dir: string | undefined;
  afterEach(async function () {
    await cleanup(dir);
    dir = undefined;
  });

  async function load(files: Files, opts?: { validate?: boolean }): Promise<GameData> {
    dir = await tempDir();
    await writeFiles(dir, files);
    return loadGameData(dir, captureLogger().logger, opts);
  }

  async function rejectsNaming(files: Files, file: string, pattern?: RegExp): Promise<void> {
    dir = await tempDir();
    await writeFiles(dir, files);
    await assert.rejects(loadGameData(dir, captureLogger().logger), (err: unknown) => {
      assert.ok(err instanceof ManifestError, `expected ManifestError, got ${String(err)}`);
      assert.equal(err.file, file);
      assert.ok(err.message.includes(file), err.message);
      if (pattern) assert.match(err.message, pattern);
      return true;
    });
    await cleanup(dir);
    dir = undefined;
  }

  it("loads a valid set with no warnings and indexes it", async function () {
    const data = await load(goodFixture());
    assert.deepEqual(data.warnings, []);
    assert.equal(data.itemLayout, "split");
    assert.equal(data.items.size, 11);
    assert.equal(data.items.get("fish")?.healAmount, 4);
    assert.deepEqual(data.items.get("bronze_sword")?.bonuses, { attack: 4, strength: 3 });
    assert.equal(data.items.get("bronze_sword")?.equipSlot, "weapon");
    assert.equal(data.items.get("bronze_sword")?.source, "items/weapons.json");
    assert.equal(data.npcs.get("goblin")?.combat.aggressive, true);
    assert.deepEqual(
      data.npcs.get("goblin")?.drops.map((d) => [d.itemId, d.rarity]),
      [
        ["logs", "always"],
        ["coins", "common"],
      ],
    );
    assert.deepEqual(data.npcs.get("clerk")?.services, ["bank"]);
    assert.equal(data.npcs.get("clerk")?.combat.attackable, false);
    const tree = data.gathering.woodcutting.get("tree_basic");
    assert.ok(tree);
    assert.deepEqual(tree.toolItemIds, ["bronze_hatchet", "iron_hatchet"]);
    assert.deepEqual(tree.successChance, { low: 60, high: 190 });
    assert.equal(tree.cycleTicks, 4);
    assert.equal(data.gathering.fishing.get("spot_net")?.depleteChance, 0);
    const town = data.worldAreas.get("town");
    assert.ok(town?.isStarterTown);
    assert.deepEqual(data.spawn, { areaId: "town", position: { x: 10, y: 0, z: 10 } });
    assert.equal(data.worldAreas.get("pond")?.resources[0]?.skill, "fishing");
    assert.deepEqual(data.recipes.cooking?.[0]?.inputs, [{ itemId: "raw_fish", quantity: 1 }]);
    assert.equal(data.recipes.cooking?.[0]?.failure, "burnt_fish");
    assert.deepEqual(data.starterKit, [
      { itemId: "bronze_hatchet", quantity: 1 },
      { itemId: "coins", quantity: 10 },
    ]);
    assert.deepEqual(data.templates.get("fighter")?.skills, { attack: 5, defense: 3 });
    assert.ok(data.files.includes("items/food.json") && data.files.includes("gathering/woodcutting.json"));
  });

  it("items are tradeable unless the data says otherwise", async function () {
    const data = await load(goodFixture());
    assert.equal(data.items.get("bronze_sword")?.tradeable, true);
    assert.equal(data.items.get("quest_scroll")?.tradeable, false);
    assert.equal(data.items.get("odd_gem")?.tradeable, false);
    assert.equal(data.items.get("coins")?.stackable, true);
    assert.equal(data.items.get("logs")?.stackable, false);
  });

  it("skill unlocks: sorted by level, typed, 'defence' read as 'defense', bad entries skipped", async function () {
    const data = await load(brokenFixture());
    assert.deepEqual(data.skillUnlocks.woodcutting, [
      { level: 1, description: "Normal trees", type: "item" },
      { level: 15, description: "Oak trees", type: "item" },
      { level: 30, description: "Lumber yard", type: "area" },
    ]);
    assert.deepEqual(data.skillUnlocks.defense, [{ level: 1, description: "Bronze armour", type: "item" }]);
    assert.equal(data.skillUnlocks.defence, undefined);
    assert.ok(data.warnings.some((w) => w.startsWith("skill-unlocks.json:") && w.includes("woodcutting unlock #3")));
  });

  describe("a set with broken references and invalid records", function () {
    let data: GameData;
    before(async function () {
      const d = await tempDir();
      try {
        await writeFiles(d, brokenFixture());
        data = await loadGameData(d, captureLogger().logger);
      } finally {
        await cleanup(d);
      }
    });
    const warned = (file: string, ...parts: string[]) =>
      assert.ok(
        data.warnings.some((w) => w.startsWith(`${file}:`) && parts.every((p) => w.includes(p))),
        `no warning in ${file} mentioning ${parts.join(", ")}:\n${data.warnings.join("\n")}`,
      );

    it("an invalid item is skipped with a warning; the rest load", function () {
      warned("items/misc.json", "nameless", "invalid");
      assert.equal(data.items.has("nameless"), false);
      assert.equal(data.items.has("quest_scroll"), true);
    });
    it("a duplicate item keeps the first definition", function () {
      warned("items/misc.json", "coins", "duplicate");
      assert.equal(data.items.get("coins")?.stackable, true);
    });
    it("a drop naming an unknown item is skipped; the npc stays", function () {
      warned("npcs.json", "goblin", "ghost_item");
      assert.deepEqual(
        data.npcs.get("goblin")?.drops.map((d) => d.itemId),
        ["logs", "coins"],
      );
    });
    it("a store selling an unknown item: that entry is skipped, the store stays", function () {
      warned("stores.json", "shop", "unobtainium");
      warned("stores.json", "shop", "invalid");
      assert.deepEqual(
        data.stores.get("shop")?.items.map((i) => i.itemId),
        ["bronze_hatchet"],
      );
    });
    it("a gathering yield naming an unknown item skips the resource, and its placements", function () {
      warned("gathering/woodcutting.json", "tree_phantom", "phantom_logs");
      assert.equal(data.gathering.woodcutting.has("tree_phantom"), false);
      warned("world-areas.json", "tree_phantom", "unknown gathering id");
    });
    it("a resource whose tool no item provides is skipped", function () {
      warned("gathering/mining.json", "rock_basic", "pickaxe");
      assert.equal(data.gathering.mining.size, 0);
    });
    it("placements naming unknown npcs, stores, gathering ids or mobs are skipped", function () {
      const town = data.worldAreas.get("town")!;
      warned("world-areas.json", "starterTowns.town", "phantom_npc");
      warned("world-areas.json", "no_such_store");
      warned("world-areas.json", "tree_missing", "(6, 0, 6)");
      warned("world-areas.json", "dragon", "unknown npc");
      warned("world-areas.json", "mob spawn goblin", "invalid");
      assert.deepEqual(
        town.npcs.map((n) => n.npcId),
        ["clerk", "goblin"],
      );
      assert.deepEqual(
        town.resources.map((r) => r.resourceId),
        ["tree_basic"],
      );
      assert.deepEqual(
        town.mobSpawns.map((m) => m.mobId),
        ["goblin"],
      );
    });
    it("a vegetation asset not in vegetation.json is dropped from the layer", function () {
      warned("biomes.json", "plains", "undefined_bush");
      assert.deepEqual(data.biomes.get("plains")?.vegetation[0]?.assets, ["oak_a"]);
    });
    it("a recipe naming an unknown item is skipped", function () {
      warned("recipes/cooking.json", "eel", "raw_eel");
      assert.deepEqual(
        data.recipes.cooking?.map((r) => r.id),
        ["fish"],
      );
    });
    it("starter kit and template entries naming unknown items are skipped", function () {
      warned("starter-kit.json", "golden_spoon");
      warned("character-templates.json", "fighter", "mythic_blade");
      assert.deepEqual(
        data.starterKit.map((e) => e.itemId),
        ["bronze_hatchet", "coins"],
      );
      assert.deepEqual(
        data.templates.get("fighter")?.items.map((e) => e.itemId),
        ["bronze_sword"],
      );
    });
    it("every warning names its file", function () {
      for (const w of data.warnings) assert.match(w, /^[\w./-]+\.json: /);
    });
  });

  it("a missing required file is a ManifestError naming it", async function () {
    for (const file of [...REQUIRED_FILES, ...SPLIT_ITEM_FILES]) {
      const files = goodFixture();
      delete files[file];
      await rejectsNaming(files, file, /missing/);
    }
  });

  it("no item file at all is a ManifestError naming items.json", async function () {
    const files = goodFixture();
    for (const f of Object.keys(files)) if (f.startsWith("items/")) delete files[f];
    await rejectsNaming(files, "items.json", /missing/);
  });

  it("a missing manifest directory is a ManifestError naming a required file", async function () {
    await assert.rejects(loadGameData(path.join("/nonexistent", "manifests"), captureLogger().logger), ManifestError);
  });

  it("unparseable JSON is a ManifestError naming the file (required or optional)", async function () {
    for (const file of ["npcs.json", "items/food.json", "recipes/cooking.json"]) {
      await rejectsNaming({ ...goodFixture(), [file]: '[{ "id": ' }, file, /not valid JSON/);
    }
  });

  it("a required file with the wrong top-level shape is a ManifestError naming it", async function () {
    await rejectsNaming({ ...goodFixture(), "npcs.json": { goblin: {} } }, "npcs.json", /top-level/);
    await rejectsNaming({ ...goodFixture(), "world-areas.json": [] }, "world-areas.json", /top-level/);
    await rejectsNaming({ ...goodFixture(), "items/tools.json": { items: [] } }, "items/tools.json", /top-level/);
  });

  it("an optional file with the wrong top-level shape is skipped with a warning", async function () {
    const data = await load({ ...goodFixture(), "skill-unlocks.json": [1, 2, 3] });
    assert.deepEqual(data.skillUnlocks, {});
    assert.ok(data.warnings.some((w) => w.startsWith("skill-unlocks.json:") && w.includes("top-level")));
  });

  it("reads the older single items.json layout; items/ wins when both exist", async function () {
    const files = goodFixture();
    const all = Object.entries(files)
      .filter(([f]) => f.startsWith("items/"))
      .flatMap(([, v]) => v as unknown[]);
    for (const f of Object.keys(files)) if (f.startsWith("items/")) delete files[f];
    files["items.json"] = all;
    const data = await load(files);
    assert.equal(data.itemLayout, "single");
    assert.equal(data.items.size, 11);
    assert.deepEqual(data.warnings, []);
    await cleanup(dir);
    const both = await load({ ...goodFixture(), "items.json": [{ id: "only_in_single", name: "x" }] });
    assert.equal(both.itemLayout, "split");
    assert.equal(both.items.has("only_in_single"), false);
  });

  it("records with extra fields pass; unknown files are kept in extras", async function () {
    const files = goodFixture() as Record<string, any>;
    files["items/weapons.json"][0].sparkle = { colour: "gold" };
    files["model-bounds.json"] = { models: [{ id: "a1" }] };
    const data = await load(files);
    assert.deepEqual((data.items.get("bronze_sword")?.raw as any).sparkle, { colour: "gold" });
    assert.deepEqual(data.extras["model-bounds"], { models: [{ id: "a1" }] });
    assert.equal(data.extras["npcs"], undefined);
  });

  it("combat manifests: prayers, spells by book and tier, arrows; a spell naming a rune that is no item is skipped", async function () {
    const files = goodFixture() as Record<string, any>;
    files["items/misc.json"].push({ id: "air_rune", name: "Air rune", stackable: true }, { id: "bronze_arrow", name: "Bronze arrow", stackable: true });
    files["prayers.json"] = {
      prayers: [
        { id: "thick_skin", name: "Thick Skin", level: 1, drainEffect: 1, bonuses: { defenseMultiplier: 1.05 }, conflicts: ["rock_skin", "piety"] },
        { id: "broken", name: "Broken", level: 0, drainEffect: 1 },
      ],
    };
    files["combat-spells.json"] = {
      _comment: "test",
      standard: {
        strike: [
          { id: "wind_strike", name: "Wind Strike", level: 1, baseMaxHit: 2, baseXp: 5.5, element: "air", runes: [{ runeId: "air_rune", quantity: 1 }] },
        ],
        bolt: [{ id: "wind_bolt", name: "Wind Bolt", level: 17, baseMaxHit: 9, baseXp: 13.5, runes: [{ runeId: "chaos_rune", quantity: 1 }] }],
      },
    };
    files["ammunition.json"] = {
      arrows: [
        { id: "bronze_arrow", rangedStrength: 7 },
        { id: "glass_arrow", rangedStrength: 5 },
      ],
    };
    const data = await load(files);
    assert.deepEqual([...data.prayers.keys()], ["thick_skin"]);
    assert.deepEqual(data.prayers.get("thick_skin")!.conflicts, ["rock_skin", "piety"], "conflicts may name prayers beyond the set");
    assert.deepEqual(data.spells.get("wind_strike"), {
      id: "wind_strike",
      name: "Wind Strike",
      book: "standard",
      tier: "strike",
      level: 1,
      baseMaxHit: 2,
      baseXp: 5.5,
      element: "air",
      attackSpeed: 5,
      runes: [{ runeId: "air_rune", quantity: 1 }],
    });
    assert.equal(data.spells.has("wind_bolt"), false);
    assert.deepEqual(data.ammunition.get("bronze_arrow"), { id: "bronze_arrow", rangedStrength: 7, requiredRangedLevel: 1, requiredBowTier: 1 });
    assert.equal(data.ammunition.has("glass_arrow"), false);
    for (const expected of [
      /prayers\.json: prayer broken is invalid/,
      /spell wind_bolt: unknown rune chaos_rune; skipped/,
      /arrow glass_arrow: not an item; skipped/,
    ]) {
      assert.ok(
        data.warnings.some((w) => expected.test(w)),
        `${expected}: ${data.warnings.join("; ")}`,
      );
    }
  });

  it("lenient load (validate: false): nothing is fatal and references are not checked", async function () {
    const files = brokenFixture();
    delete files["biomes.json"];
    files["stores.json"] = "{ nope";
    const data = await load(files, { validate: false });
    assert.equal(data.biomes.size, 0);
    assert.equal(data.stores.size, 0);
    assert.ok(data.warnings.some((w) => w.startsWith("biomes.json:")));
    assert.ok(data.warnings.some((w) => w.startsWith("stores.json:")));
    assert.deepEqual(
      data.starterKit.map((e) => e.itemId),
      ["bronze_hatchet", "coins", "golden_spoon"],
    );
    assert.ok(data.worldAreas.get("town")?.mobSpawns.some((m) => m.mobId === "dragon"));
  });

  it("temporary files left by an interrupted write are ignored", async function () {
    dir = await tempDir();
    await writeFiles(dir, goodFixture());
    await writeFile(path.join(dir, "npcs.json.123.abcd.tmp"), "{ partial");
    const data = await loadGameData(dir, captureLogger().logger);
    assert.deepEqual(data.warnings, []);
    await rm(path.join(dir, "npcs.json.123.abcd.tmp"));
  });

  it("dialogue effects the server does not play, and quest effects naming no quest, are warned about at load (npc kept)", async function () {
    const files = goodFixture();
    const npcs = files["npcs.json"] as Array<Record<string, unknown>>;
    npcs.find((n) => n.id === "clerk")!.dialogue = {
      entryNodeId: "hello",
      nodes: [
        {
          id: "hello",
          text: "Hello.",
          responses: [
            { text: "Bank", effect: "openBank" },
            { text: "Dance", effect: "openDanceFloor" },
            { text: "Quest", effect: "startQuest:no_such_quest" },
          ],
        },
        { id: "done", text: "Done.", effect: "completeQuest:no_such_quest" },
      ],
    };
    const data = await load(files);
    assert.ok(data.npcs.get("clerk")?.dialogue, "the npc and its dialogue are kept");
    const about = data.warnings.filter((w) => w.includes("npc clerk dialogue"));
    assert.equal(about.length, 3, about.join("\n"));
    assert.ok(about.some((w) => w.includes("node hello") && w.includes("openDanceFloor") && w.includes("not played")));
    assert.ok(about.some((w) => w.includes("node hello") && w.includes("startQuest:no_such_quest") && w.includes("unknown quest")));
    assert.ok(about.some((w) => w.includes("node done") && w.includes("completeQuest:no_such_quest")));
  });

  it("a production recipe whose station is unknown is skipped; one whose station, altar or tanner the world places nowhere is reported", async function () {
    const files = goodFixture();
    files["stations.json"] = {
      stations: [
        { type: "furnace", name: "Furnace" },
        { type: "runecrafting_altar", name: "Altar" },
      ],
    };
    files["recipes/smelting.json"] = { recipes: [{ output: "ore_bar", inputs: [{ item: "ore", amount: 1 }], level: 1, xp: 5 }] };
    files["recipes/smithing.json"] = { recipes: [{ output: "ore_bar", bar: "ore", level: 1, xp: 5 }] };
    files["recipes/runecrafting.json"] = { recipes: [{ runeType: "air", runeItemId: "coins", levelRequired: 1, xpPerEssence: 5, essenceTypes: ["ore"] }] };
    files["recipes/tanning.json"] = { recipes: [{ input: "ore", output: "ore_bar", cost: 1 }] };
    (files["items/resources.json"] as unknown[]).push({ id: "ore", name: "Ore", type: "resource" }, { id: "ore_bar", name: "Ore bar", type: "resource" });
    const data = await load(files);
    const about = (file: string) => data.warnings.filter((w) => w.startsWith(`recipes/${file}.json`));
    assert.equal(data.recipes.smithing!.length, 0, "the anvil is not a station type here");
    assert.match(about("smithing").join(), /recipe ore_bar: unknown station anvil; skipped/);
    assert.equal(data.recipes.smelting!.length, 1, "kept: a furnace could be placed later");
    assert.match(about("smelting").join(), /recipe ore_bar: no furnace is placed in the world/);
    assert.match(about("runecrafting").join(), /no runecrafting_altar of rune type air is placed/);
    assert.match(about("tanning").join(), /no tanner .* is placed in the world/);
  });
});
