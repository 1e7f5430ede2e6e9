import assert from "node:assert/strict";
import { createWorld } from "../../rooms/worldSetup.js";
import { newMind, step } from "../../src/agents/brain.js";
import { AgentDriver } from "../../src/agents/driver.js";
import { availableGoals, parseCommand } from "../../src/agents/goals.js";
import { knowledgeOf, type WorldKnowledge } from "../../src/game/world/knowledge.js";
import { goalFrom } from "../../src/agents/mind.js";
import { productionStep, type ProductionStep } from "../../src/agents/productionPlan.js";
import { AgentView } from "../../src/agents/view.js";
import type { Recipe } from "../../src/manifests/index.js";
import { defaultGameData } from "../helpers/server.js";

/** The production planner's pure parts (in the world: production.test.ts): what it may make, the next step of a chain, the orders and commands. */
describe("agents and production: the planner", () => {
  let k: WorldKnowledge;
  const recipe = (kind: string, id: string): Recipe => k.data.recipes[kind]!.find((r) => r.id === id)!;
  const station = (type: string) => k.stations.find((s) => s.type === type)!;
  const SKILLS = ["woodcutting", "mining", "fishing", "smithing", "crafting", "fletching", "runecrafting", "attack", "strength", "defense", "constitution"];

  /** An agent standing at `at`, carrying `inventory`, at level 1 unless `levels` say otherwise. */
  function viewAt(at: { x: number; z: number }, inventory: Array<[string, number]>, levels: Record<string, number> = {}) {
    const v = new AgentView();
    v.sync({
      id: "c_me",
      name: "Me",
      position: { x: at.x, y: 0, z: at.z },
      health: 100,
      maxHealth: 100,
      combatLevel: 3,
      skills: Object.fromEntries(SKILLS.map((s) => [s, { level: levels[s] ?? 1, xp: 0 }])),
      inventory: inventory.map(([itemId, quantity], slot) => ({ slot, itemId, quantity })),
      equipment: {},
      bank: null,
      action: null,
    });
    v.update({ tick: 10, players: [{ id: "c_me", x: at.x, z: at.z, moving: false, health: 100, action: "" }] });
    return v;
  }
  const town = { x: 100, z: 100 };
  const option = (v: AgentView, id: string, k2 = k) => availableGoals(v, k2).find((g) => g.id === id)!;
  /** The planner's step for `attempts` of a recipe, as plain data. */
  const plan = (v: AgentView, kind: string, id: string, attempts = 1, making = false) => brief(productionStep(v, k, recipe(kind, id), attempts, making));
  const brief = (s: ProductionStep) =>
    s.kind === "make"
      ? { kind: s.kind, recipe: s.recipe.id, count: s.count, place: s.place?.id ?? null }
      : s.kind === "gather"
        ? { kind: s.kind, itemId: s.itemId, resource: s.resource.id }
        : s;

  before(async () => {
    k = knowledgeOf(createWorld(await defaultGameData()));
  });

  it("lists one goal per kind (the best it can) and one per recipe, with the reason when it can't: level, no station, inputs, tools", () => {
    const v = viewAt(town, [
      ["bronze_pickaxe", 1],
      ["coins", 25],
    ]);
    const goals = availableGoals(v, k);
    const smithing = goals.filter((g) => g.type === "smithing");
    assert.deepEqual([smithing[0].id, smithing[0].target, smithing[0].available], ["smithing", null, true], "the best it can comes first");
    assert.equal(option(v, "smithing:bronze_dagger").available, true, "ores to mine, a furnace, an anvil, a hammer to buy");
    assert.equal(option(v, "smelting:bronze_bar").available, true);
    assert.match(option(v, "smithing:iron_dagger").reason!, /Smithing level 15/);
    assert.equal(option(v, "tanning:leather").available, true, "cows drop hides");
    const noCows: WorldKnowledge = { ...k, npcSpawns: new Map([...k.npcSpawns].filter(([id]) => id !== "cow")) };
    assert.match(option(v, "tanning:leather", noCows).reason!, /Nothing here yields Cowhide, no store sells it, and I have none/);
    assert.match(option(v, "crafting:leather_gloves", noCows).reason!, /^Leather: nothing here yields Cowhide/);
    assert.equal(
      option(
        viewAt(town, [
          ["cowhide", 2],
          ["coins", 10],
        ]),
        "tanning:leather",
      ).available,
      true,
      "hides in the pack",
    );
    assert.match(option(viewAt(town, [["bronze_bar", 1]]), "smithing:bronze_dagger").reason!, /Hammer.*4 coins and I have 0/);
    // A world without an anvil.
    const noAnvil: WorldKnowledge = { ...k, stations: k.stations.filter((s) => s.type !== "anvil") };
    assert.match(option(v, "smithing:bronze_dagger", noAnvil).reason!, /There is no anvil here/);
    assert.equal(option(v, "smithing", noAnvil).available, false);
    // Bars seen in the bank will do.
    const banker = viewAt(town, [["hammer", 1]]);
    assert.equal(option(banker, "smithing:bronze_dagger").available, false);
    banker.banked = [{ itemId: "bronze_bar", quantity: 1 }];
    assert.equal(option(banker, "smithing:bronze_dagger").available, true);
  });

  it("the next step of a chain: a tool first, then ores it lacks, then bars at the furnace, then the item at the anvil", () => {
    const kit: Array<[string, number]> = [
      ["bronze_pickaxe", 1],
      ["coins", 25],
    ];
    assert.deepEqual(plan(viewAt(town, kit), "smithing", "bronze_dagger"), { kind: "buy", itemId: "hammer", quantity: 1 });
    const tools: Array<[string, number]> = [...kit, ["hammer", 1]];
    assert.deepEqual(plan(viewAt(town, tools), "smithing", "bronze_dagger"), { kind: "gather", itemId: "copper_ore", resource: "ore_copper" });
    assert.deepEqual(plan(viewAt(town, [...tools, ["copper_ore", 1]]), "smithing", "bronze_dagger"), {
      kind: "gather",
      itemId: "tin_ore",
      resource: "ore_tin",
    });
    const ores: Array<[string, number]> = [...tools, ["copper_ore", 1], ["tin_ore", 1]];
    assert.deepEqual(plan(viewAt(town, ores), "smithing", "bronze_dagger"), {
      kind: "make",
      recipe: "bronze_bar",
      count: "all",
      place: station("furnace").id,
    });
    assert.deepEqual(plan(viewAt(town, [...tools, ["bronze_bar", 1]]), "smithing", "bronze_dagger"), {
      kind: "make",
      recipe: "bronze_dagger",
      count: "all",
      place: station("anvil").id,
    });
    // Two to make and one bar: it gets the ores for the other first; while making, it makes what it can.
    const oneBar = viewAt(town, [...tools, ["bronze_bar", 1]]);
    assert.deepEqual(plan(oneBar, "smithing", "bronze_dagger", 2), { kind: "gather", itemId: "copper_ore", resource: "ore_copper" });
    assert.deepEqual(plan(oneBar, "smithing", "bronze_dagger", 2, true).kind, "make");
    // Ore for two bars and one to make: a count, not all.
    assert.deepEqual(plan(viewAt(town, [...ores, ["copper_ore", 1], ["tin_ore", 1]]), "smithing", "bronze_dagger", 1), {
      kind: "make",
      recipe: "bronze_bar",
      count: 1,
      place: station("furnace").id,
    });
  });

  it("the next step: from the bank, to the bank when the pack is full, inputs bought, the tanner, and stuck with the reason", () => {
    const banker = viewAt(town, [["hammer", 1]]);
    banker.banked = [{ itemId: "bronze_bar", quantity: 5 }];
    assert.deepEqual(plan(banker, "smithing", "bronze_dagger", 3), { kind: "withdraw", itemId: "bronze_bar", quantity: 3 });
    const full = viewAt(town, [["hammer", 1], ["bronze_pickaxe", 1], ...Array.from({ length: 26 }, () => ["logs", 1] as [string, number])]);
    assert.deepEqual(plan(full, "smithing", "bronze_dagger"), { kind: "bank" });
    const gloves = plan(
      viewAt(town, [
        ["needle", 1],
        ["leather", 2],
        ["coins", 10],
      ]),
      "crafting",
      "leather_gloves",
      2,
    );
    assert.deepEqual(gloves, { kind: "buy", itemId: "thread", quantity: 2 });
    const tanner = k.tanners[0];
    assert.deepEqual(
      plan(
        viewAt(town, [
          ["cowhide", 2],
          ["coins", 10],
        ]),
        "tanning",
        "leather",
        2,
      ),
      { kind: "make", recipe: "leather", count: "all", place: tanner.id },
    );
    // No hides: cows drop them; the hide on the ground is picked up, else a cow fought.
    assert.deepEqual(plan(viewAt(town, [["coins", 10]]), "tanning", "leather"), { kind: "hunt", itemId: "cowhide", npcId: "cow" });
    const hunter = newMind(() => 0);
    hunter.paused = true;
    const field = viewAt(town, [["coins", 10]]);
    hunter.goal = goalFrom({ type: "tanning", target: "leather" }, field, "owner", 1);
    field.update({ npcs: [{ id: "npc:cow1", npcId: "cow", name: "Cow", x: 104, z: 100, health: 8, state: "idle" }] });
    assert.deepEqual(step(hunter, field, k), [{ type: "player:action", data: { action: "attack", targetId: "npc:cow1" } }]);
    field.update({ groundItems: [{ id: "gi:hide", itemId: "cowhide", quantity: 1, x: 103, z: 100 }] });
    assert.deepEqual(step(hunter, field, k), [{ type: "player:action", data: { action: "pickup", targetId: "gi:hide" } }]);
    const broke = plan(viewAt(town, [["cowhide", 2]]), "tanning", "leather", 2);
    assert.equal(broke.kind, "stuck");
    assert.deepEqual(plan(viewAt(town, [["bronze_bar", 1]]), "smithing", "iron_dagger").kind, "stuck");
    assert.deepEqual(plan(viewAt(town, [["bronze_bar", 1]]), "smithing", "bronze_dagger", 0), { kind: "done" });
  });

  it("orders: walks toward a far furnace, asks to make at it from near, waits while making; a goal without a target takes the best it can", () => {
    const furnace = station("furnace");
    const ores: Array<[string, number]> = [
      ["hammer", 1],
      ["copper_ore", 1],
      ["tin_ore", 1],
    ];
    const mind = newMind(() => 0);
    mind.paused = true;
    mind.goal = goalFrom({ type: "smithing", target: "bronze_dagger" }, viewAt(town, ores), "owner", 1);
    const far = viewAt({ x: furnace.tile.x - 40, z: furnace.tile.z }, ores);
    assert.deepEqual(
      step(mind, far, k).map((o) => o.type),
      ["player:move"],
    );
    const near = viewAt({ x: furnace.tile.x - 6, z: furnace.tile.z }, ores);
    assert.deepEqual(step(mind, near, k), [
      { type: "production:make", data: { kind: "smelting", recipeId: "bronze_bar", count: "all", stationId: furnace.id } },
    ]);
    near.update({ tick: 11, players: [{ id: "c_me", x: near.self!.tile.x, z: near.self!.tile.z, moving: true, health: 100, action: "smithing" }] });
    assert.deepEqual(step(mind, near, k), [], "making: nothing new");
    // Refused (no path): that furnace is skipped, and with no other the goal is given up, the reason said.
    mind.lastError = "NO_PATH";
    const said = step(mind, near, k);
    assert.equal(mind.goal, null);
    assert.match((said[0]?.data as { message: string }).message, /can't go on: I can't get to a furnace to make a Bronze Bar/);

    const best = newMind(() => 0);
    best.paused = true;
    best.goal = goalFrom({ type: "smelting", target: null }, near, "owner");
    step(best, near, k);
    assert.equal(best.goal?.target, "bronze_bar", "the only bar it may smelt at level 1");
  });

  it("commands: smith, smelt, make, tan, craft runes, with a count; taken when it can, else the reason said", () => {
    const cases: Array<[string, unknown]> = [
      ["smith a bronze dagger", { kind: "make", skill: "smithing", item: "bronze dagger", count: null }],
      ["Smith 5 bronze daggers!", { kind: "make", skill: "smithing", item: "bronze daggers", count: 5 }],
      ["smelt", { kind: "make", skill: "smelting", item: null, count: null }],
      ["smelt some bars", { kind: "make", skill: "smelting", item: null, count: null }],
      ["make arrows", { kind: "make", skill: null, item: "arrows", count: null }],
      ["tan hides", { kind: "make", skill: "tanning", item: null, count: null }],
      ["craft runes", { kind: "make", skill: "crafting", item: "runes", count: null }],
      ["runecraft", { kind: "make", skill: "runecrafting", item: null, count: null }],
      ["make", null],
    ];
    for (const [text, want] of cases) assert.deepEqual(parseCommand(text), want, text);

    const v = viewAt(town, [
      ["bronze_pickaxe", 1],
      ["bronze_hatchet", 1],
      ["coins", 25],
    ]);
    const told = (text: string) => {
      const mind = newMind(() => 0);
      mind.paused = true;
      mind.queue.push(parseCommand(text)!);
      const said = step(mind, v, k).filter((o) => o.type === "player:chat");
      return { goal: mind.goal, said: said.map((o) => (o.data as { message: string }).message) };
    };
    const dagger = told("smith 2 bronze daggers");
    assert.deepEqual([dagger.goal?.resume?.type ?? dagger.goal?.type, dagger.goal?.resume?.target ?? dagger.goal?.target], ["smithing", "bronze_dagger"]);
    assert.equal((dagger.goal?.resume ?? dagger.goal)?.amount, 2);
    assert.deepEqual([told("craft runes").goal?.type, told("craft runes").goal?.target], ["runecrafting", "air_rune"]);
    const arrows = told("make arrows").goal;
    assert.deepEqual([arrows?.type, arrows?.target, arrows?.resume?.type], ["buy", "knife", "fletching"], "a knife bought first");
    assert.match(told("smith an iron dagger").said[0], /I can't do that: I need Smithing level 15/);
    assert.match(told("smith a sandwich").said[0], /don't know how to smith sandwich/);
  });

  it("the driver counts the goal's items made (production:made) and what it gathered for it", () => {
    const d = new AgentDriver("s_test", "a_test", k);
    d.sight.self = viewAt(town, []).self;
    d.mind.goal = goalFrom({ type: "smithing", target: "bronze_dagger" }, d.sight, "owner", 2);
    d.send("skill:xp", { skill: "mining", gained: 17, xp: 17, level: 1 });
    d.send("production:made", { kind: "smelting", recipeId: "bronze_bar", success: true, made: [{ itemId: "bronze_bar", quantity: 1 }], remaining: null });
    d.send("production:made", {
      kind: "smithing",
      recipeId: "bronze_dagger",
      success: true,
      made: [{ itemId: "bronze_dagger", quantity: 1 }],
      remaining: null,
    });
    d.send("production:made", { kind: "smithing", recipeId: "bronze_dagger", success: false, made: [], remaining: null });
    assert.deepEqual([d.mind.goal.progress.made, d.mind.goal.progress.gathered], [1, 1]);
  });
});
