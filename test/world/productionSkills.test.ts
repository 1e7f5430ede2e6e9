import assert from "node:assert/strict";
import type { Recipe } from "../../src/manifests/recipes.js";
import type { QuestDef } from "../../src/manifests/index.js";
import { xpForLevel } from "../../src/game/skills.js";
import { refreshLevels } from "../../src/game/world/xp.js";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { worldSuite, type WorldPlayer } from "../helpers/worldClient.js";
import { besideOf, place, ticks, tileAway, worldRoomOf, countInSync, givePack, stationOf } from "../helpers/worldRoom.js";

const count = countInSync;

const chebyshev = (a: { x: number; z: number }, b: { x: number; z: number }) => Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z));

function recipeOf(room: WorldRoom, kind: string, id: string): Recipe {
  const r = room.world.data.recipes[kind]?.find((x) => x.id === id);
  assert.ok(r, `the default world has no ${kind} recipe for ${id}`);
  return r;
}

/** How many of an item one attempt of the recipe takes. */
const needs = (r: Recipe, itemId: string) => r.inputs.find((i) => i.itemId === itemId)!.quantity;

/** Scene: the player's skill at exactly `level`. */
function setLevel(room: WorldRoom, p: WorldPlayer, skill: string, level: number) {
  const e = room.world.players.get(p.id)!;
  (e.xp as Record<string, number>)[skill] = xpForLevel(level);
  refreshLevels(e);
  room.world.touchPlayer(e);
}

/** Send a production:make that must be refused: resolves with the error's code. */
async function refused(a: WorldPlayer, payload: unknown): Promise<string> {
  const since = a.mark();
  a.send("production:make", payload);
  return (await a.next("error", () => true, { since })).code;
}

const made = (a: WorldPlayer, since: number) => a.received.slice(since).filter((m) => m.type === "production:made");

/** Crafting, tanning, fletching and runecrafting in the default world, over the SDK. */
describe("world room: production skills of the default world", function () {
  this.timeout(60_000);
  const suite = worldSuite();

  it("crafting leather gloves: the needle is kept, the leather and a thread are used, xp; NO_TOOL without the needle", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const gloves = recipeOf(room, "crafting", "leather_gloves");
    assert.deepEqual(gloves.tools, ["needle"]);
    const leather = needs(gloves, "leather");
    const thread = needs(gloves, "thread");
    givePack(room, a.id, [
      ["leather", 1],
      ["thread", thread + 4],
    ]);
    const before = JSON.stringify(room.world.players.get(a.id)!.inventory);
    assert.equal(await refused(a, { kind: "crafting", recipeId: "leather_gloves" }), "NO_TOOL");
    assert.equal(JSON.stringify(room.world.players.get(a.id)!.inventory), before);

    givePack(room, a.id, [
      ["needle", 1],
      ["leather", leather],
      ["thread", thread + 4],
    ]);
    const since = a.mark();
    a.send("production:make", { kind: "crafting", recipeId: "leather_gloves" });
    const first = await a.next("production:made", () => true, { since });
    assert.deepEqual(first, { kind: "crafting", recipeId: "leather_gloves", success: true, made: gloves.outputs, remaining: 0 });
    const xp = await a.next("skill:xp", (m) => m.skill === gloves.skill, { since });
    assert.equal(xp.gained, Math.round(gloves.xp));
    const sync = await a.next("player:sync", (s) => count(s, "leather_gloves") === 1 && s.action === null, { since });
    assert.deepEqual([count(sync, "needle"), count(sync, "leather"), count(sync, "thread")], [1, 0, 4]);
  });

  it("tanning at the tanner through its dialogue: tanner:open lists the fee, then two hides for twice the fee, walking there", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const leather = recipeOf(room, "tanning", "leather");
    const fee = leather.coins!;
    assert.ok(fee > 0, "the tanner charges");
    const tanner = [...room.world.npcs.values()].find((n) => n.defId === "tanner")!;
    const p = room.world.players.get(a.id)!;

    // The dialogue's openTanner response shows the tanner's offer (the player walks up to talk).
    const away = tileAway(room, tanner.position, 3);
    place(room, a.id, away);
    givePack(room, a.id, [
      ["cowhide", 1],
      ["cowhide", 1],
      ["coins", 2 * fee + 3],
    ]);
    const greeting = room.world.data.npcs.get("tanner")!.dialogue!.nodes.get("greeting")!;
    const index = greeting.responses.findIndex((r) => r.effect === "openTanner");
    assert.ok(index >= 0, "the tanner's greeting offers tanning");
    let since = a.mark();
    a.send("player:action", { action: "talk", targetId: tanner.id });
    await a.next("dialogue:node", (n) => n.npcId === tanner.id && n.nodeId === "greeting", { since });
    since = a.mark();
    a.send("dialogue:respond", { index });
    const offer = await a.next("tanner:open", () => true, { since });
    assert.deepEqual(offer, {
      npcId: tanner.id,
      recipes: room.world.data.recipes.tanning!.map((r) => ({ recipeId: r.id, input: r.inputs[0], output: r.outputs[0], coins: r.coins })),
    });

    // Make two, from a few tiles away: the player walks to the tanner first.
    place(room, a.id, away);
    since = a.mark();
    a.send("production:make", { kind: "tanning", recipeId: "leather", count: 2, stationId: tanner.id });
    await a.next("production:made", (m) => m.remaining === 0, { since });
    const sync = await a.next("player:sync", (s) => count(s, "leather") === 2 && s.action === null, { since });
    assert.deepEqual([count(sync, "cowhide"), count(sync, "coins")], [0, 3]);
    assert.deepEqual(
      made(a, since).map((m) => m.data.made),
      [leather.outputs, leather.outputs],
    );
    assert.ok(chebyshev(sync.position, tanner.position) <= 1, "tanned beside the tanner");

    // Without the coins: refused at once, and nothing changes (the player stays where it is).
    place(room, a.id, away);
    givePack(room, a.id, [
      ["cowhide", 1],
      ["cowhide", 1],
    ]);
    const bare = JSON.stringify(p.inventory);
    assert.equal(await refused(a, { kind: "tanning", recipeId: "leather", count: 2, stationId: tanner.id }), "MISSING_MATERIALS");
    assert.equal(JSON.stringify(p.inventory), bare);
    assert.equal(p.action, null);
    assert.deepEqual(p.path, [], "a refused make does not set the player walking");
  });

  it("fletching: all the shafts two logs make, headless arrows, then bronze arrows once the level allows", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const shafts = recipeOf(room, "fletching", "arrow_shaft");
    const headless = recipeOf(room, "fletching", "headless_arrow");
    const arrows = recipeOf(room, "fletching", "bronze_arrow");
    const perLog = shafts.outputs[0]!.quantity;
    givePack(room, a.id, [
      ["knife", 1],
      ["logs", 1],
      ["logs", 1],
      ["feathers", 2 * perLog],
    ]);
    let since = a.mark();
    a.send("production:make", { kind: "fletching", recipeId: "arrow_shaft", count: "all" });
    let sync = await a.next("player:sync", (s) => count(s, "arrow_shaft") === 2 * perLog && s.action === null, { since });
    assert.equal(count(sync, "logs"), 0);
    assert.deepEqual(
      made(a, since).map((m) => [m.data.made, m.data.remaining]),
      [
        [shafts.outputs, null],
        [shafts.outputs, null],
      ],
    );
    const xp = a.received.slice(since).filter((m) => m.type === "skill:xp" && m.data.skill === "fletching");
    assert.equal(
      xp.reduce((n, m) => n + m.data.gained, 0),
      2 * shafts.xp,
    );

    since = a.mark();
    a.send("production:make", { kind: "fletching", recipeId: "headless_arrow", count: "all" });
    const sets = Math.min(2 * perLog / needs(headless, "arrow_shaft"), 2 * perLog / needs(headless, "feathers"));
    const headlessMade = sets * headless.outputs[0]!.quantity;
    sync = await a.next("player:sync", (s) => count(s, "headless_arrow") === headlessMade && s.action === null, { since });
    assert.deepEqual([count(sync, "arrow_shaft"), count(sync, "feathers")], [0, 0]);

    givePack(room, a.id, [
      ["headless_arrow", headlessMade],
      ["bronze_arrowtips", needs(arrows, "bronze_arrowtips")],
    ]);
    assert.ok(room.world.players.get(a.id)!.levels.fletching < arrows.level);
    assert.equal(await refused(a, { kind: "fletching", recipeId: "bronze_arrow" }), "LEVEL_TOO_LOW");
    setLevel(room, a, "fletching", arrows.level);
    since = a.mark();
    a.send("production:make", { kind: "fletching", recipeId: "bronze_arrow" });
    sync = await a.next("player:sync", (s) => count(s, "bronze_arrow") === arrows.outputs[0]!.quantity && s.action === null, { since });
    assert.deepEqual([count(sync, "headless_arrow"), count(sync, "bronze_arrowtips")], [headlessMade - needs(arrows, "headless_arrow"), 0]);
  });

  it("runecrafting air runes at the air altar: not at the water altar; more runes per essence at the data's first extra level", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const air = recipeOf(room, "runecrafting", "air_rune");
    const altar = stationOf(room, "runecrafting_altar", "air");
    const water = stationOf(room, "runecrafting_altar", "water");
    givePack(room, a.id, [
      ["rune_essence", 1],
      ["rune_essence", 1],
    ]);
    assert.equal(await refused(a, { kind: "runecrafting", recipeId: "air_rune", stationId: water.id }), "WRONG_STATION");
    assert.equal(room.world.players.get(a.id)!.path.length, 0);

    place(room, a.id, tileAway(room, altar.tile, 3));
    let since = a.mark();
    a.send("production:make", { kind: "runecrafting", recipeId: "air_rune", count: "all", stationId: altar.id });
    let sync = await a.next("player:sync", (s) => count(s, "air_rune") === 2 && s.action === null, { since });
    assert.equal(count(sync, "rune_essence"), 0);
    assert.deepEqual(
      made(a, since).map((m) => m.data.made),
      [air.outputs, air.outputs],
    );
    const xp = a.received.slice(since).filter((m) => m.type === "skill:xp" && m.data.skill === "runecrafting");
    assert.equal(
      xp.reduce((n, m) => n + m.data.gained, 0),
      2 * air.xp,
    );

    const extra = air.extraOutputLevels![0]!;
    setLevel(room, a, "runecrafting", extra);
    givePack(room, a.id, [
      ["rune_essence", 1],
      ["rune_essence", 1],
    ]);
    since = a.mark();
    a.send("production:make", { kind: "runecrafting", recipeId: "air_rune", count: 2 });
    sync = await a.next("player:sync", (s) => count(s, "rune_essence") === 0 && s.action === null, { since });
    assert.equal(count(sync, "air_rune"), 2 * 2 * air.outputs[0]!.quantity, `two runes per essence at level ${extra}`);
    assert.deepEqual(
      made(a, since).map((m) => m.data.made),
      [
        [{ itemId: "air_rune", quantity: 2 }],
        [{ itemId: "air_rune", quantity: 2 }],
      ],
    );
  });

  it("what is made counts toward a quest's interact stage naming it", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const perLog = recipeOf(room, "fletching", "arrow_shaft").outputs[0]!.quantity;
    const onShafts = (q: QuestDef) => q.stages.findIndex((s) => s.type === "interact" && s.target === "arrow_shaft");
    // A quest of the world's data on made shafts, else a small one added for this test.
    const ours: QuestDef = {
      id: "test_shafts_for_the_fence",
      name: "Shafts for the Fence",
      questPoints: 0,
      replayable: false,
      requirements: { quests: [], skills: {}, items: [] },
      stages: [
        { id: "whittle", type: "interact", description: "Whittle arrow shafts", target: "arrow_shaft", count: perLog },
        { id: "return", type: "dialogue", description: "Report back", npcId: "warden_holt", count: 1 },
      ],
      startItems: [],
      rewardItems: [],
      rewardXp: {},
      raw: {},
    };
    const existing = [...room.world.data.quests.values()].find((q) => onShafts(q) >= 0);
    const quest = existing ?? ours;
    const stage = onShafts(quest);
    const needed = quest.stages[stage]!.count;
    const p = room.world.players.get(a.id)!;
    if (!existing) room.world.data.quests.set(quest.id, quest);
    try {
      p.quests.set(quest.id, { questId: quest.id, stage, count: 0, completions: 0 });
      givePack(room, a.id, [
        ["knife", 1],
        ["logs", 1],
      ]);
      const since = a.mark();
      a.send("production:make", { kind: "fletching", recipeId: "arrow_shaft" });
      const progress = await a.next("quest:progress", () => true, { since });
      assert.deepEqual(progress, { questId: quest.id, stage, count: Math.min(perLog, needed), needed });
      if (perLog >= needed) {
        await a.next("quest:stage", (m) => m.questId === quest.id && m.stage === stage + 1, { since });
        assert.deepEqual(p.quests.get(quest.id), { questId: quest.id, stage: stage + 1, count: 0, completions: 0 });
      }
      assert.equal(count(await a.next("player:sync", (s) => s.action === null && count(s, "arrow_shaft") > 0, { since }), "arrow_shaft"), perLog);
    } finally {
      p.quests.delete(quest.id);
      if (!existing) room.world.data.quests.delete(quest.id);
    }
  });

  it("production stops when the player walks away mid make-all: the action ends, nothing more is made", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const altar = stationOf(room, "runecrafting_altar", "air");
    place(room, a.id, besideOf(room, altar.tile));
    givePack(
      room,
      a.id,
      Array.from({ length: 20 }, () => ["rune_essence", 1] as [string, number]),
    );
    const since = a.mark();
    a.send("production:make", { kind: "runecrafting", recipeId: "air_rune", count: "all" });
    await a.next("production:made", () => true, { since });
    const making = a.mark();
    const far = tileAway(room, altar.tile, 8);
    a.send("player:move", { x: far.x, z: far.z });
    const stopped = await a.next("player:sync", (s) => s.action === null, { since: making });
    const runes = count(stopped, "air_rune");
    assert.ok(runes >= 1 && runes < 20, `stopped after ${runes} runes`);
    assert.equal(count(stopped, "rune_essence"), 20 - runes);
    assert.equal(made(a, since).length, runes);

    const after = a.mark();
    await ticks(room, 4);
    assert.equal(made(a, after).length, 0, "no attempt after walking away");
    const p = room.world.players.get(a.id)!;
    assert.equal(p.action, null);
    assert.ok(chebyshev(p.tile, altar.tile) > 1, "the player walked off");
    assert.equal(a.received.slice(making).filter((m) => m.type === "error").length, 0, "walking off ends making quietly");
    // The owner's player:sync tells the action ended in the tick it ended, not once the walk is over.
    assert.ok(chebyshev(stopped.position, far) > 1, `the first sync without the action came at ${JSON.stringify(stopped.position)}, the walk's end`);
  });

  it("items offered in a trade are never used", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const perLog = recipeOf(room, "fletching", "arrow_shaft").outputs[0]!.quantity;
    givePack(room, a.id, [
      ["knife", 1],
      ["logs", 1],
      ["logs", 1],
    ]);
    const p = room.world.players.get(a.id)!;
    p.lockedSlots.add(2);
    try {
      const since = a.mark();
      a.send("production:make", { kind: "fletching", recipeId: "arrow_shaft", count: "all" });
      const sync = await a.next("player:sync", (s) => count(s, "arrow_shaft") === perLog && s.action === null, { since });
      assert.deepEqual(
        sync.inventory.find((s: { slot: number }) => s.slot === 2),
        { slot: 2, itemId: "logs", quantity: 1, locked: true },
      );
      assert.equal(made(a, since).length, 1);
      assert.equal(a.received.slice(since).filter((m) => m.type === "error").length, 0);

      assert.equal(await refused(a, { kind: "fletching", recipeId: "arrow_shaft" }), "MISSING_MATERIALS");
      p.lockedSlots.add(0);
      givePack(room, a.id, [
        ["knife", 1],
        ["logs", 1],
      ]);
      assert.equal(await refused(a, { kind: "fletching", recipeId: "arrow_shaft" }), "NO_TOOL", "an offered knife is not at hand");
    } finally {
      p.lockedSlots.clear();
    }
    assert.deepEqual(p.inventory[1], { itemId: "logs", quantity: 1 });
  });

  it("a pack frozen by a trade commit refuses production:make with TRADE_COMPLETING and changes nothing", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const altar = stationOf(room, "runecrafting_altar", "air");
    place(room, a.id, tileAway(room, altar.tile, 3));
    givePack(room, a.id, [
      ["knife", 1],
      ["logs", 1],
      ["rune_essence", 1],
    ]);
    const p = room.world.players.get(a.id)!;
    const before = JSON.stringify({ inventory: p.inventory, tile: p.tile });
    p.inventoryFrozen = "trade";
    try {
      const since = a.mark();
      assert.equal(await refused(a, { kind: "fletching", recipeId: "arrow_shaft" }), "TRADE_COMPLETING");
      assert.equal(await refused(a, { kind: "runecrafting", recipeId: "air_rune", stationId: altar.id }), "TRADE_COMPLETING");
      assert.deepEqual([p.action, p.path], [null, []]);
      await ticks(room, recipeOf(room, "fletching", "arrow_shaft").ticks! + 1);
      assert.equal(made(a, since).length, 0);
      assert.equal(JSON.stringify({ inventory: p.inventory, tile: p.tile }), before);
    } finally {
      p.inventoryFrozen = false;
    }
  });
});
