import assert from "node:assert/strict";
import { maxHealth } from "../../src/game/skills.js";
import { refreshLevels } from "../../src/game/world/xp.js";
import { loadGameData } from "../../src/manifests/index.js";
import { QUEST_STAGE_TYPES } from "../../src/manifests/quests.js";
import { captureLogs, LEVEL, type LogLine } from "../helpers/logCapture.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { joinWorld, type WorldPlayer } from "../helpers/worldClient.js";
import { besideOf, place, setRng, ticks, worldRoomOf } from "../helpers/worldRoom.js";
import { captureLogger, COMPAT_2025, COMPAT_2026, requireCompat } from "../manifests/support.js";
import {
  UNPLAYED_LOG,
  slotOf,
  countIn,
  questIn,
  npcNamed,
  dialogueEffects,
  stagePlayable,
  talkTo,
  answerWith,
  acceptQuest,
  handIn,
  rubLamp,
  nodeYielding,
  clearTiles,
} from "./compatPlay.js";
import { DIALOGUE_EFFECTS, parseEffect } from "../../src/manifests/dialogue.js";

/**
 * The real game's published content played in a real server: its dialogue trees, its stores and
 * the quests whose stages this server plays now (kills, gathering, fires, cooking). The quests that
 * need production (smelting, smithing, crafting, fletching, runecrafting) wait for it.
 */

describe("compat: the 2026 set's dialogue, stores and quests played in a real server", function () {
  this.timeout(60_000);
  let server: TestServer;
  let logs: ReturnType<typeof captureLogs>;
  const players: WorldPlayer[] = [];
  const join = async () => {
    const p = await joinWorld(server);
    players.push(p);
    return p;
  };
  const unplayedLines = (): LogLine[] => logs.lines.filter((l) => l.level === LEVEL.warn && l.msg === UNPLAYED_LOG);

  before(async function () {
    requireCompat(COMPAT_2026);
    const gameData = await loadGameData(COMPAT_2026, captureLogger().logger);
    logs = captureLogs("info");
    server = await startTestServer({ gameData, logger: logs.logger });
  });
  afterEach(async () => {
    await Promise.all(players.splice(0).map((p) => p.leave().catch(() => {})));
  });
  after(async () => {
    await server?.close();
  });

  it("loads with every stage type and every dialogue effect played", function () {
    const data = server.ctx.gameData;
    assert.equal(data.quests.size, 7);
    const unplayedStages = data.warnings.filter((w) => w.startsWith("quests.json: ") && w.includes("is not played"));
    assert.deepEqual(unplayedStages, []);
    for (const quest of data.quests.values()) {
      for (const s of quest.stages) assert.ok((QUEST_STAGE_TYPES as readonly string[]).includes(s.type), `${quest.id} stage ${s.id}: ${s.type}`);
    }
    // Every stage of every quest is one this server plays (production makes the interact stages' items).
    const waiting = [...data.quests.values()].flatMap((q) => q.stages.filter((s) => !stagePlayable(data, s)).map((s) => `${q.id}: ${s.type} ${s.target}`));
    assert.deepEqual(waiting, []);
    // Effects: all played; quest effects name quests of the set.
    const effects = dialogueEffects(data);
    assert.ok(effects.length > 0);
    for (const { npcId, effect } of effects) {
      const { verb, arg } = parseEffect(effect);
      assert.ok((DIALOGUE_EFFECTS as readonly string[]).includes(verb), `${npcId}: ${effect} is not played`);
      if (verb === "startQuest" || verb === "completeQuest") assert.ok(data.quests.has(arg ?? ""), `${npcId}: ${effect} names no quest`);
    }
    assert.equal(effects.filter((e) => e.effect === "openTanner").length, 1);
    assert.deepEqual(
      data.warnings.filter((w) => /\beffect\b/.test(w)),
      [],
    );
  });

  it("the duel arena's nurse, defined by her placement alone, restores health and prayer (the healer service)", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    p.health = 20;
    const since = a.mark();
    const { node } = await talkTo(a, room, "duel_arena_nurse");
    assert.match(node.text, /Let me restore your health and prayer/);
    assert.match((await a.next("notice", (n) => n.code === "HEALED", { since })).message, /Nurse Sarah restores/);
    assert.equal(p.health, maxHealth(p.levels.constitution));
  });

  it("the bank clerk's dialogue opens the bank (openBank)", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const since = a.mark();
    const { npc, node } = await talkTo(a, room, "bank_clerk");
    assert.equal(node.npcName, room.world.data.npcs.get("bank_clerk")!.name);
    assert.equal(node.nodeId, "greeting");
    const shown = await answerWith(a, node, "I'd like to access my bank.", "open_bank");
    const bank = await a.next("bank:open", () => true, { since });
    assert.equal(bank.npcId, npc.id);
    assert.deepEqual(bank.items, []);
    assert.equal(shown.responses.length, 0);
    await a.next("dialogue:end", (e) => e.npcId === npc.id && e.reason === "finished", { since });
  });

  it("general_store: opened through the shopkeeper's dialogue, a bronze hatchet bought and logs sold at the listed price and buyback rate", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const store = room.world.data.stores.get("general_store")!;
    const hatchetPrice = store.items.find((i) => i.itemId === "bronze_hatchet")!.price;
    const logsPrice = store.items.find((i) => i.itemId === "logs")!.price;
    assert.equal(hatchetPrice, 50);
    assert.equal(store.buybackRate, 0.5);
    const logsEach = Math.floor(logsPrice * store.buybackRate);
    assert.ok(logsEach > 0);
    // The scene: 120 coins and three logs in the pack.
    const p = room.world.players.get(a.id)!;
    p.inventory[0] = { itemId: "coins", quantity: 120 };
    for (const s of [1, 2, 3]) p.inventory[s] = { itemId: "logs", quantity: 1 };
    room.world.touchPlayer(p);

    let since = a.mark();
    const { npc, node } = await talkTo(a, room, "shopkeeper");
    await answerWith(a, node, "Yes, what are you selling?", "trade");
    const view = await a.next("store:open", () => true, { since });
    assert.equal(view.storeId, "general_store");
    assert.equal(view.npcId, npc.id);
    assert.equal(view.name, store.name);
    assert.equal(view.buys, "all");
    assert.equal(view.buybackRate, store.buybackRate);
    assert.deepEqual(
      view.items.find((i: { itemId: string }) => i.itemId === "bronze_hatchet"),
      { itemId: "bronze_hatchet", name: "Bronze Hatchet", price: hatchetPrice, quantity: -1, sellPrice: Math.floor(hatchetPrice * store.buybackRate) },
    );
    assert.equal(view.items.find((i: { itemId: string }) => i.itemId === "logs").sellPrice, logsEach);
    assert.equal(view.items.length, store.items.length);

    since = a.mark();
    a.send("store:buy", { itemId: "bronze_hatchet", quantity: 1 });
    const { dealId, ...bought } = await a.next("store:bought", () => true, { since });
    assert.equal(typeof dealId, "string");
    assert.deepEqual(bought, { storeId: "general_store", itemId: "bronze_hatchet", quantity: 1, coins: hatchetPrice });
    let sync = await a.next("player:sync", (s) => countIn(s, "bronze_hatchet") === 1, { since });
    assert.equal(countIn(sync, "coins"), 120 - hatchetPrice);

    // Asked for five, the pack holds three: three are sold.
    since = a.mark();
    a.send("store:sell", { slot: 1, quantity: 5 });
    const sold = await a.next("store:sold", () => true, { since });
    assert.equal(sold.itemId, "logs");
    assert.equal(sold.quantity, 3);
    assert.equal(sold.coins, 3 * logsEach);
    sync = await a.next("player:sync", (s) => countIn(s, "logs") === 0, { since });
    assert.equal(countIn(sync, "coins"), 120 - hatchetPrice + 3 * logsEach);
    const deals = await server.ctx.db.prisma.storeDeal.findMany({ where: { characterId: a.id }, orderBy: { id: "asc" } });
    assert.deepEqual(
      deals.map((d) => [d.kind, d.itemId, d.quantity, d.coins]).sort(),
      [
        ["buy", "bronze_hatchet", 1, hatchetPrice],
        ["sell", "logs", 3, 3 * logsEach],
      ].sort(),
    );

    // `player:action store` opens it directly, without the conversation.
    since = a.mark();
    a.send("store:close", {});
    await a.next("store:close", (c) => c.reason === "closed", { since });
    a.send("player:action", { action: "store", targetId: npc.id });
    assert.equal((await a.next("store:open", () => true, { since })).storeId, "general_store");
    assert.equal(a.received.slice(since).filter((m) => m.type === "dialogue:node").length, 0);
  });

  it("goblin_slayer: accepted from Captain Rowan, 15 goblins killed, handed in; the lamp gives 100 xp", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const quest = room.world.data.quests.get("goblin_slayer")!;
    const killStage = quest.stages.findIndex((s) => s.type === "kill");
    const needed = quest.stages[killStage].count;
    assert.equal(needed, 15);

    let since = a.mark();
    const started = await acceptQuest(a, room, "captain_rowan", "Is there anything I can do to help?", "I'll do it.");
    assert.deepEqual(started, { questId: "goblin_slayer", name: quest.name, stage: killStage, stageDescription: quest.stages[killStage].description });
    let sync = await a.next("player:sync", (s) => countIn(s, "bronze_shortsword") === 1, { since });
    assert.equal(questIn(sync, "goblin_slayer").status, "in_progress");
    // Talking again: the captain asks how the hunt goes.
    assert.equal((await talkTo(a, room, "captain_rowan")).node.nodeId, "progress_check");
    a.send("dialogue:close", {});

    // Quick kills: goblins at 1 hp, strength 99 and every roll at 0.3 (a level-1 attacker lands a
    // hit at 0.3; 0.3 of a max hit of 11 is at least 1); a killed goblin comes back next tick.
    const p = room.world.players.get(a.id)!;
    p.xp.strength = 13_034_431;
    refreshLevels(p);
    setRng(room, 0.3);
    try {
      for (let k = 1; k <= needed; k++) {
        const goblin = npcNamed(room, "goblin");
        goblin.health = 1;
        place(room, a.id, besideOf(room, goblin.position));
        p.lastAttackTick = -1000;
        p.health = maxHealth(p.levels.constitution);
        since = a.mark();
        a.send("player:action", { action: "attack", targetId: goblin.id });
        await a.next("npc:killed", (m) => m.npcId === "goblin", { since });
        const progress = await a.next("quest:progress", (m) => m.questId === "goblin_slayer", { since });
        assert.deepEqual(progress, { questId: "goblin_slayer", stage: killStage, count: k, needed });
        goblin.deadUntilTick = room.world.tick + 1;
      }
    } finally {
      setRng(room, 0.5);
    }
    const stage = await a.next("quest:stage", (m) => m.questId === "goblin_slayer", { since });
    assert.equal(stage.stage, killStage + 1);
    sync = await a.next("player:sync", (s) => questIn(s, "goblin_slayer")?.status === "ready_to_complete", { since });

    const { done, sync: after } = await handIn(a, room, "captain_rowan", "goblin_slayer");
    assert.deepEqual(done, {
      questId: "goblin_slayer",
      name: quest.name,
      questPoints: 1,
      rewards: { items: [{ itemId: "xp_lamp_100", quantity: 1 }], xp: {} },
    });
    assert.equal(after.quests.questPoints, 1);
    assert.equal(questIn(after, "goblin_slayer").completions, 1);
    // Once done, the captain thanks; the quest cannot be taken again.
    assert.equal((await talkTo(a, room, "captain_rowan")).node.nodeId, "post_quest");
    await rubLamp(a, room, "attack");
  });

  it("lumberjacks_first_lesson: 6 logs chopped, 6 fires lit, handed in to Forester Wilma", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const quest = room.world.data.quests.get("lumberjacks_first_lesson")!;
    const chop = quest.stages.findIndex((s) => s.type === "gather");
    const burn = quest.stages.findIndex((s) => s.type === "interact");
    assert.deepEqual([quest.stages[chop].target, quest.stages[chop].count, quest.stages[burn].target, quest.stages[burn].count], ["logs", 6, "fire", 6]);

    let since = a.mark();
    const started = await acceptQuest(a, room, "forester_wilma", "Sure, what do you need?", "I'll help.");
    assert.equal(started.stage, chop);
    await a.next("player:sync", (s) => countIn(s, "bronze_hatchet") === 1 && countIn(s, "tinderbox") === 1, { since });

    // The set's tree placements yielding plain logs name tree_normal, which its gathering data no
    // longer defines: a tree of the set's own (level 1, logs) is planted when none is placed.
    const wilma = npcNamed(room, "forester_wilma");
    const { node: tree } = nodeYielding(room, "logs", wilma.position);
    place(room, a.id, besideOf(room, tree.tile));
    // 0.2: a level-1 cut succeeds (about 1 in 4) and the tree does not fall (1 in 8); a fire lights (1 in 2).
    setRng(room, 0.2);
    try {
      since = a.mark();
      a.send("player:action", { action: "gather", targetId: tree.id });
      for (let k = 1; k <= 6; k++) {
        assert.deepEqual(await a.next("quest:progress", (m) => m.questId === quest.id && m.count === k, { since }), {
          questId: quest.id,
          stage: chop,
          count: k,
          needed: 6,
        });
      }
      assert.equal((await a.next("quest:stage", (m) => m.questId === quest.id, { since })).stage, burn);
      a.send("player:action", { action: "stop" });
      await ticks(room, 1);

      const p = room.world.players.get(a.id)!;
      for (const [k, tile] of clearTiles(room, tree.tile, 6).entries()) {
        place(room, a.id, tile);
        since = a.mark();
        a.send("inventory:use", { slot: slotOf(a, room, "tinderbox"), targetSlot: slotOf(a, room, "logs"), action: "light" });
        const progress = await a.next("quest:progress", (m) => m.questId === quest.id, { since });
        assert.deepEqual(progress, { questId: quest.id, stage: burn, count: k + 1, needed: 6 });
        assert.ok([...room.world.resources.values()].some((r) => r.skill === "firemaking" && r.tile.x === p.tile.x && r.tile.z === p.tile.z));
      }
      assert.equal((await a.next("quest:stage", (m) => m.questId === quest.id, { since })).stage, burn + 1);
    } finally {
      setRng(room, 0.5);
    }
    const { done } = await handIn(a, room, "forester_wilma", quest.id);
    assert.equal(done.questPoints, 1);
    await rubLamp(a, room, "firemaking");
  });

  it("fresh_catch: 6 raw shrimp caught, 6 cooked on the range, handed in to Fisherman Pete", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const quest = room.world.data.quests.get("fresh_catch")!;
    const catchStage = quest.stages.findIndex((s) => s.type === "gather");
    const cookStage = quest.stages.findIndex((s) => s.type === "interact");
    assert.deepEqual([quest.stages[catchStage].target, quest.stages[cookStage].target], ["raw_shrimp", "shrimp"]);

    let since = a.mark();
    const started = await acceptQuest(a, room, "fisherman_pete", "What do you need?", "I'll do it.");
    assert.equal(started.stage, catchStage);
    await a.next("player:sync", (s) => countIn(s, "small_fishing_net") === 1, { since });

    // The set places no fishing spot: its own net spot is planted beside Pete when none is placed.
    const pete = npcNamed(room, "fisherman_pete");
    const { node: spot } = nodeYielding(room, "raw_shrimp", pete.position);
    place(room, a.id, besideOf(room, spot.tile));
    try {
      // 0: every catch succeeds (a net spot never depletes).
      setRng(room, 0);
      since = a.mark();
      a.send("player:action", { action: "gather", targetId: spot.id });
      for (let k = 1; k <= 6; k++) await a.next("quest:progress", (m) => m.questId === quest.id && m.stage === catchStage && m.count === k, { since });
      assert.equal((await a.next("quest:stage", (m) => m.questId === quest.id, { since })).stage, cookStage);
      a.send("player:action", { action: "stop" });
      await ticks(room, 1);

      // 0.99: nothing burns. The set's range (Central Haven) cooks them.
      setRng(room, 0.99);
      assert.ok(room.world.rangeTiles.length > 0, "the set places a range");
      place(room, a.id, besideOf(room, room.world.rangeTiles[0]));
      for (let k = 1; k <= 6; k++) {
        since = a.mark();
        a.send("inventory:use", { slot: slotOf(a, room, "raw_shrimp"), targetId: "range", action: "cook" });
        assert.deepEqual(await a.next("quest:progress", (m) => m.questId === quest.id, { since }), {
          questId: quest.id,
          stage: cookStage,
          count: k,
          needed: 6,
        });
      }
      assert.equal((await a.next("quest:stage", (m) => m.questId === quest.id, { since })).stage, cookStage + 1);
      await a.next("player:sync", (s) => countIn(s, "shrimp") >= 6, { since });
    } finally {
      setRng(room, 0.5);
    }
    const { done } = await handIn(a, room, "fisherman_pete", quest.id);
    assert.equal(done.questPoints, 1);
    await rubLamp(a, room, "cooking");
  });

  it("the tanner's openTanner shows the set's tanning; a cowhide is tanned for its cost; no effect was ever logged as not played", async () => {
    const a = await join();
    const room = worldRoomOf(a);
    const recipe = room.world.data.recipes.tanning!.find((r) => r.inputs[0]!.itemId === "cowhide")!;
    const since = a.mark();
    const { node, npc } = await talkTo(a, room, "tanner");
    await answerWith(a, node, "I'd like some leather, please.", "tanning");
    const offer = await a.next("tanner:open", () => true, { since });
    assert.equal(offer.npcId, npc.id);
    assert.deepEqual(
      offer.recipes.find((r: { recipeId: string }) => r.recipeId === recipe.id),
      { recipeId: recipe.id, input: { itemId: "cowhide", quantity: 1 }, output: recipe.outputs[0], coins: recipe.coins },
    );
    const e = room.world.players.get(a.id)!;
    e.inventory = e.inventory.map(() => null);
    e.inventory[0] = { itemId: "cowhide", quantity: 1 };
    e.inventory[1] = { itemId: "coins", quantity: recipe.coins! + 3 };
    room.world.touchPlayer(e);
    a.send("production:make", { kind: "tanning", recipeId: recipe.id, stationId: npc.id });
    await a.next("production:made", (m) => m.success, { since });
    const sync = await a.next("player:sync", (s) => countIn(s, recipe.id) === 1, { since });
    assert.equal(countIn(sync, "cowhide"), 0);
    assert.equal(countIn(sync, "coins"), 3);
    assert.deepEqual(unplayedLines(), []);
  });
});

describe("compat: the 2025 set (older format) starts a world", function () {
  this.timeout(30_000);
  let server: TestServer;
  let player: WorldPlayer | undefined;

  before(async function () {
    requireCompat(COMPAT_2025);
    const gameData = await loadGameData(COMPAT_2025, captureLogger().logger);
    server = await startTestServer({ gameData });
  });
  after(async () => {
    await player?.leave().catch(() => {});
    await server?.close();
  });

  it("a player joins; the stores are on their shelves; there are no quests", async () => {
    player = await joinWorld(server);
    const room = worldRoomOf(player);
    const data = room.world.data;
    assert.equal(data.quests.size, 0);
    assert.deepEqual(player.sync().quests, { questPoints: 0, quests: [] });
    assert.deepEqual([...room.world.stores.keys()].sort(), ["central_store", "eastern_store", "northern_store", "southern_store", "western_store"]);
    for (const [id, stock] of room.world.stores) {
      const def = data.stores.get(id)!;
      assert.deepEqual(
        [...stock.entries.values()].map((e) => [e.itemId, e.price, e.quantity]),
        def.items.map((i) => [i.itemId, Math.floor(i.price), i.stockQuantity]),
      );
      assert.equal(stock.entries.get("bronze_hatchet")?.price, 50);
    }
    // A mob has nothing to say; the world keeps answering.
    const mob = [...room.world.npcs.values()].find((n) => n.attackable);
    assert.ok(mob, "the set's mobs are spawned");
    const since = player.mark();
    player.send("player:action", { action: "talk", targetId: mob.id });
    assert.equal((await player.next("error", () => true, { since })).code, "NO_DIALOGUE");
  });
});
