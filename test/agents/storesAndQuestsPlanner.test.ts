import assert from "node:assert/strict";
import { createWorld } from "../../rooms/worldSetup.js";
import { newMind, step } from "../../src/agents/brain.js";
import { availableGoals } from "../../src/agents/goals.js";
import { knowledgeOf, type WorldKnowledge } from "../../src/game/world/knowledge.js";
import { questStep, responseToward } from "../../src/agents/questPlan.js";
import { AgentView } from "../../src/agents/view.js";
import type { QuestDef } from "../../src/manifests/index.js";
import type { QuestView } from "../../src/protocol/index.js";
import { defaultGameData } from "../helpers/server.js";

const LETTER = "the_wardens_letter";
const MENACE = "mudfoot_menace";

/** The planner's pure parts (in the world: storesAndQuests.test.ts): the next step of a quest per stage type, the answer toward an effect, and single decisions. */
describe("agents and stores and quests: the planner", () => {
  let k: WorldKnowledge;
  const quest = (id: string) => k.data.quests.get(id)!;
  const inProgress = (stage: number, count = 0) => ({ status: "in_progress" as const, stage, count, completions: 0 });
  const townsperson = (npcId: string) => k.townsfolk.get(npcId)![0];

  /** An agent standing at `at`, carrying `inventory`, with a quest journal. */
  function viewAt(at: { x: number; z: number }, inventory: Array<[string, number]>, quests: QuestView[] = []) {
    const v = new AgentView();
    v.sync({
      id: "c_me",
      name: "Me",
      position: { x: at.x, y: 0, z: at.z },
      health: 100,
      maxHealth: 100,
      combatLevel: 3,
      skills: Object.fromEntries(
        ["woodcutting", "mining", "fishing", "firemaking", "attack", "strength", "defense", "constitution"].map((s) => [s, { level: 1, xp: 0 }]),
      ),
      inventory: inventory.map(([itemId, quantity], slot) => ({ slot, itemId, quantity })),
      equipment: {},
      bank: null,
      action: null,
      quests: { quests },
    });
    v.update({ tick: 10, players: [{ id: "c_me", x: at.x, z: at.z, moving: false, health: 100, action: "" }] });
    return v;
  }
  const journal = (questId: string, stage: number, status: QuestView["status"] = "in_progress", count = 0): QuestView => ({
    questId,
    name: quest(questId).name,
    status,
    stage,
    stageDescription: null,
    count,
    needed: 0,
    completions: status === "completed" ? 1 : 0,
    target: null,
  });
  /** A step of a mind whose goal is the quest. */
  const questMind = (questId: string) => {
    const mind = newMind(() => 0);
    mind.paused = true;
    mind.queue.push({ kind: "quest", quest: questId });
    return mind;
  };

  before(async () => {
    k = knowledgeOf(createWorld(await defaultGameData()));
  });

  it("maps a quest and its standing to the next step, for every stage type", () => {
    const menace = quest(MENACE);
    assert.deepEqual(questStep(menace, undefined), { kind: "talk", npcId: "warden_holt", want: `startQuest:${MENACE}` });
    assert.deepEqual(questStep(menace, inProgress(1, 1)), { kind: "kill", npcId: "goblin", remaining: 2 });
    assert.deepEqual(questStep(menace, inProgress(2)), { kind: "gather", itemId: "logs", remaining: 3 });
    assert.deepEqual(questStep(menace, { ...inProgress(3), status: "ready_to_complete" }), {
      kind: "talk",
      npcId: "warden_holt",
      want: `completeQuest:${MENACE}`,
    });
    assert.deepEqual(questStep(menace, { status: "completed", stage: 4, count: 0, completions: 1 }), { kind: "done" });
    // A dialogue stage before the last is passed by talking: no answer is wanted.
    assert.deepEqual(questStep(quest(LETTER), inProgress(1)), { kind: "talk", npcId: "bank_clerk", want: null });
    // A replayable quest done before starts over.
    assert.deepEqual(questStep(menace, { status: "completed", stage: 4, count: 0, completions: 1 }, true).kind, "talk");

    const made: QuestDef = {
      ...menace,
      id: "odd_jobs",
      stages: [
        { id: "fires", type: "interact", description: "Light two fires", target: "fire", count: 2 },
        { id: "cook", type: "interact", description: "Cook a trout", target: "trout", count: 1 },
        { id: "escort", type: "escort", description: "Walk the cow home", count: 1 },
      ],
    };
    assert.deepEqual(questStep(made, inProgress(0, 1)), { kind: "fire", remaining: 1 });
    assert.equal(questStep(made, inProgress(1)).kind, "stuck");
    assert.match((questStep(made, inProgress(2)) as { reason: string }).reason, /Walk the cow home/);
  });

  it("a hand-over not in the pack: logs an earlier stage cut are cut again; a letter nothing yields is a stop that says so", () => {
    const held = (n: Record<string, number>) => (id: string) => n[id] ?? 0;
    const menace = quest(MENACE);
    // Mudfoot Menace's report to the warden takes three logs.
    const last = menace.stages.length - 1;
    assert.deepEqual(questStep(menace, inProgress(last), false, held({ logs: 1 })), { kind: "gather", itemId: "logs", remaining: 2 });
    assert.deepEqual(questStep(menace, inProgress(last), false, held({ logs: 3 })), { kind: "talk", npcId: "warden_holt", want: `completeQuest:${MENACE}` });
    // The letter comes from the warden, not from a stage: without it the agent says what is missing.
    const step = questStep(quest(LETTER), inProgress(1), false, held({}));
    assert.equal(step.kind, "stuck");
    assert.match((step as { reason: string }).reason, /needs 1 x sealed_letter handed over, and I have 0/);
    assert.deepEqual(questStep(quest(LETTER), inProgress(1), false, held({ sealed_letter: 1 })), { kind: "talk", npcId: "bank_clerk", want: null });
  });

  it("answers toward the effect it wants, only through answers without other effects", () => {
    const warden = k.data.npcs.get("warden_holt")!.dialogue!;
    // greeting -> "What do you need?" -> letter_offer -> "I'll take it." (startQuest)
    assert.equal(responseToward(warden, "greeting", `startQuest:${LETTER}`), 0);
    assert.equal(responseToward(warden, "letter_offer", `startQuest:${LETTER}`), 0);
    assert.equal(responseToward(warden, "menace_offer", `startQuest:${MENACE}`), 0);
    assert.equal(responseToward(warden, "greeting", `startQuest:${MENACE}`), null, "not offered from the greeting");
    const clerk = k.data.npcs.get("bank_clerk")!.dialogue!;
    assert.equal(responseToward(clerk, "greeting", "openBank"), 0);
    const gated = {
      entryNodeId: "a",
      questOverrides: {},
      nodes: new Map([
        [
          "a",
          {
            id: "a",
            text: "a",
            responses: [
              { text: "shop", nextNodeId: "b", effect: "openStore" },
              { text: "talk", nextNodeId: "c" },
            ],
          },
        ],
        ["b", { id: "b", text: "b", responses: [{ text: "yes", effect: "startQuest:x" }] }],
        [
          "c",
          {
            id: "c",
            text: "c",
            responses: [
              { text: "back", nextNodeId: "a" },
              { text: "yes", effect: "startQuest:x" },
            ],
          },
        ],
      ]),
    };
    assert.equal(responseToward(gated, "a", "startQuest:x"), 1, "around the store, not through it");
  });

  it("a new agent may do the letter quest, not the menace (with the reason); one who finished the letter the other way round", () => {
    const fresh = availableGoals(viewAt({ x: 100, z: 100 }, [["coins", 25]]), k);
    assert.deepEqual(
      fresh.filter((g) => g.type === "quest").map((g) => [g.id, g.available]),
      [
        [`quest:${LETTER}`, true],
        [`quest:${MENACE}`, false],
      ],
    );
    assert.match(fresh.find((g) => g.id === `quest:${MENACE}`)!.reason!, /needs The Warden's Letter completed first/);
    const done = availableGoals(viewAt({ x: 100, z: 100 }, [], [journal(LETTER, 3, "completed")]), k);
    assert.match(done.find((g) => g.id === `quest:${LETTER}`)!.reason!, /already completed/);
    assert.equal(done.find((g) => g.id === `quest:${MENACE}`)!.available, true);
  });

  it("quest steps: walks to the start npc and talks, answers toward the start, leaves a finished conversation for the next npc", () => {
    const warden = townsperson("warden_holt");
    const far = viewAt({ x: warden.tile.x, z: warden.tile.z - 30 }, [["coins", 25]]);
    const mind = questMind(LETTER);
    const walk = step(mind, far, k);
    assert.equal(mind.goal?.type, "quest");
    assert.deepEqual(
      walk.map((o) => o.type),
      ["player:move"],
    );

    const near = viewAt({ x: warden.tile.x, z: warden.tile.z - 5 }, [["coins", 25]]);
    assert.deepEqual(step(mind, near, k), [{ type: "player:action", data: { action: "talk", targetId: warden.id } }]);
    assert.deepEqual(step(mind, near, k), [], "waits for the conversation");
    const greeting = k.data.npcs.get("warden_holt")!.dialogue!.nodes.get("greeting")!;
    near.dialogueShown({
      npcId: warden.id,
      npcName: "Warden Holt",
      nodeId: "greeting",
      text: greeting.text,
      responses: greeting.responses.map((r, index) => ({ index, text: r.text })),
    });
    mind.pending = null;
    assert.deepEqual(step(mind, near, k), [{ type: "dialogue:respond", data: { index: 0 } }]);

    // The letter taken: the bank clerk is next, and the warden's conversation is closed.
    const clerk = townsperson("bank_clerk");
    const later = viewAt({ x: clerk.tile.x + 3, z: clerk.tile.z }, [["sealed_letter", 1]], [journal(LETTER, 1)]);
    later.dialogueShown({ npcId: warden.id, npcName: "Warden Holt", nodeId: "quest_accepted", text: "...", responses: [{ index: 0, text: "Bye" }] });
    assert.deepEqual(step(mind, later, k), [{ type: "dialogue:close", data: {} }]);
    later.dialogueShown(null);
    assert.deepEqual(step(mind, later, k), [{ type: "player:action", data: { action: "talk", targetId: clerk.id } }]);
  });

  it("quest steps: a kill stage fights that npc, a gather stage gathers what yields the item, a fire stage lights logs", () => {
    const tree = { id: "res:tree", resourceId: "tree_normal", skill: "woodcutting", x: 103, z: 100, depleted: false };
    const goblin = { id: "npc:gob", npcId: "goblin", name: "Goblin", x: 104, z: 100, health: 5, state: "idle" };

    const kill = viewAt({ x: 100, z: 100 }, [["bronze_hatchet", 1]], [journal(LETTER, 3, "completed"), journal(MENACE, 1)]);
    kill.update({ npcs: [goblin], resources: [tree] });
    assert.deepEqual(step(questMind(MENACE), kill, k), [{ type: "player:action", data: { action: "attack", targetId: "npc:gob" } }]);

    const gather = viewAt({ x: 100, z: 100 }, [["bronze_hatchet", 1]], [journal(LETTER, 3, "completed"), journal(MENACE, 2)]);
    gather.update({ npcs: [goblin], resources: [tree] });
    assert.deepEqual(step(questMind(MENACE), gather, k), [{ type: "player:action", data: { action: "gather", targetId: "res:tree" } }]);

    // A quest of fires, in a copy of the world's data.
    const fires: QuestDef = {
      ...quest(LETTER),
      id: "warm_hearth",
      stages: [{ id: "fire", type: "interact", description: "Light a fire", target: "fire", count: 1 }],
    };
    const k2: WorldKnowledge = { ...k, data: { ...k.data, quests: new Map([...k.data.quests, [fires.id, fires]]) } };
    const standing: QuestView = { ...journal(LETTER, 0), questId: fires.id };
    const lit = viewAt(
      { x: 100, z: 100 },
      [
        ["bronze_hatchet", 1],
        ["tinderbox", 1],
        ["logs", 1],
      ],
      [standing],
    );
    assert.deepEqual(step(questMind(fires.id), lit, k2), [{ type: "inventory:use", data: { slot: 1, action: "light", targetSlot: 2 } }]);
    const noLogs = viewAt(
      { x: 100, z: 100 },
      [
        ["bronze_hatchet", 1],
        ["tinderbox", 1],
      ],
      [standing],
    );
    noLogs.update({ resources: [tree] });
    assert.deepEqual(step(questMind(fires.id), noLogs, k2), [{ type: "player:action", data: { action: "gather", targetId: "res:tree" } }]);
  });

  it("no hatchet: with the coins the woodcutting goal is taken and a hatchet bought first; without, unavailable with the reason", () => {
    const poor = availableGoals(viewAt({ x: 100, z: 100 }, [["coins", 10]]), k).find((g) => g.id === "woodcutting:tree_normal")!;
    assert.equal(poor.available, false);
    assert.match(poor.reason!, /hatchet.*Pell's Provisions sells a Bronze Hatchet for 32 coins; I have 10/);

    const keeper = k.keepers.find((kp) => kp.storeId === "general_store")!;
    const v = viewAt({ x: keeper.tile.x - 4, z: keeper.tile.z }, [["coins", 100]]);
    assert.equal(availableGoals(v, k).find((g) => g.id === "woodcutting:tree_normal")!.available, true);
    const mind = newMind(() => 0);
    mind.paused = true;
    mind.queue.push({ kind: "gather", skill: "woodcutting" });
    assert.deepEqual(step(mind, v, k), []);
    assert.deepEqual([mind.goal?.type, mind.goal?.target, mind.goal?.resume?.type], ["buy", "bronze_hatchet", "woodcutting"], "the cheapest hatchet first");
    assert.deepEqual(step(mind, v, k), [{ type: "player:action", data: { action: "store", targetId: keeper.id } }]);
    v.storeShown({
      storeId: "general_store",
      name: "Pell's Provisions",
      npcId: keeper.id,
      buys: "all",
      buybackRate: 0.4,
      items: [{ itemId: "bronze_hatchet", name: "Bronze Hatchet", price: 32, quantity: -1, sellPrice: 12 }],
    });
    mind.pending = null;
    assert.deepEqual(step(mind, v, k), [{ type: "store:buy", data: { itemId: "bronze_hatchet", quantity: 1 } }]);
    // Written: the hatchet is in the pack; the store is closed and the woodcutting goes on.
    mind.deals.push({ kind: "buy", itemId: "bronze_hatchet", quantity: 1, coins: 32 });
    v.sync({
      ...v.self!,
      action: null,
      quests: { quests: [] },
      position: { x: v.self!.tile.x, y: 0, z: v.self!.tile.z },
      inventory: [
        { slot: 0, itemId: "coins", quantity: 68 },
        { slot: 1, itemId: "bronze_hatchet", quantity: 1 },
      ],
    });
    assert.deepEqual(step(mind, v, k), [{ type: "store:close", data: {} }]);
    assert.deepEqual([mind.goal?.type, mind.goal?.progress.bought, mind.goal?.progress.coins], ["woodcutting", 1, -32]);
  });

  it("commands: buy names the cheapest item of that name; a quest is taken by name, or refused with the reason said", () => {
    const v = viewAt({ x: 100, z: 100 }, [["coins", 200]]);
    const mind = newMind(() => 0);
    mind.paused = true;
    mind.queue.push({ kind: "buy", item: "hatchet" });
    step(mind, v, k);
    assert.deepEqual([mind.goal?.type, mind.goal?.target], ["buy", "bronze_hatchet"]);

    const quester = newMind(() => 0);
    quester.paused = true;
    quester.queue.push({ kind: "quest", quest: "mudfoot menace" });
    const said = step(quester, v, k);
    assert.equal(quester.goal?.type, undefined, "no goal taken");
    assert.deepEqual(said, [
      { type: "player:chat", data: { message: "I can't do that: Mudfoot Menace needs The Warden's Letter completed first", channel: "world" } },
    ]);
    quester.queue.push({ kind: "quest", quest: "the wardens letter" });
    step(quester, v, k);
    assert.deepEqual([quester.goal?.type, quester.goal?.target], ["quest", LETTER]);
  });

  it("selling: what it gathered goes to the store that buys it, not its tools, coins or untradeable items", () => {
    const keeper = k.keepers[0];
    const v = viewAt({ x: keeper.tile.x - 2, z: keeper.tile.z }, [
      ["bronze_hatchet", 1],
      ["coins", 25],
      ["sealed_letter", 1],
      ["shrimp", 5],
      ["logs", 1],
      ["logs", 1],
    ]);
    const sell = availableGoals(v, k).find((g) => g.id === "sell")!;
    assert.equal(sell.available, true);
    const mind = newMind(() => 0);
    mind.paused = true;
    mind.queue.push({ kind: "sell" });
    assert.deepEqual(step(mind, v, k), [{ type: "player:action", data: { action: "store", targetId: keeper.id } }]);
    v.storeShown({ storeId: keeper.storeId!, name: "Pell's Provisions", npcId: keeper.id, buys: "all", buybackRate: 0.4, items: [] });
    mind.pending = null;
    assert.deepEqual(step(mind, v, k), [{ type: "store:sell", data: { slot: 4, quantity: 2 } }]);
    const nothing = availableGoals(viewAt({ x: 100, z: 100 }, [["bronze_hatchet", 1]]), k).find((g) => g.id === "sell")!;
    assert.deepEqual([nothing.available, nothing.reason], [false, "I have nothing gathered to sell"]);
  });
});
