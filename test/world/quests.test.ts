import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { loadCharacter } from "../../src/db/characterRepo.js";
import type { NpcEntity, PlayerEntity, ResourceEntity } from "../../src/game/world/entities.js";
import { questView } from "../../src/game/world/questing.js";
import { refreshLevels } from "../../src/game/world/xp.js";
import { worldSuite, type WorldPlayer } from "../helpers/worldClient.js";
import { besideOf, leaveAndSettle, place, setRng, worldRoomOf } from "../helpers/worldRoom.js";

const LETTER = "the_wardens_letter";
const MENACE = "mudfoot_menace";

const npcOf = (room: WorldRoom, defId: string): NpcEntity => [...room.world.npcs.values()].find((n) => n.defId === defId && n.deadUntilTick == null)!;
const count = (inv: PlayerEntity["inventory"], itemId: string) => inv.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
const syncCount = (sync: any, itemId: string) =>
  sync.inventory.filter((s: { itemId: string }) => s.itemId === itemId).reduce((n: number, s: { quantity: number }) => n + s.quantity, 0);
const journalOf = (sync: any, questId: string) => sync.quests.quests.find((q: { questId: string }) => q.questId === questId);
/** The index just after a message already received (to wait for what comes after it). */
const indexAfter = (a: WorldPlayer, data: unknown) => a.received.findIndex((m) => m.data === data) + 1;

async function until(cond: () => boolean, what: string) {
  const end = Date.now() + 10_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function refused(a: WorldPlayer, type: string, data: unknown): Promise<string> {
  const since = a.mark();
  a.send(type, data);
  return (await a.next("error", () => true, { since })).code;
}

/** Stand next to the npc and talk to it: resolves with the first node shown. */
async function talkTo(a: WorldPlayer, room: WorldRoom, defId: string) {
  const npc = npcOf(room, defId);
  place(room, a.id, besideOf(room, npc.position));
  const since = a.mark();
  a.send("player:action", { action: "talk", targetId: npc.id });
  return a.next("dialogue:node", (n) => n.npcId === npc.id, { since });
}

/** Answer the node shown and resolve with the next node (or the end). */
async function answer(a: WorldPlayer, index: number) {
  const since = a.mark();
  a.send("dialogue:respond", { index });
  return a.next("*", (d) => d?.nodeId !== undefined || d?.reason !== undefined, { since });
}

/** Scene: the player's journal holds this progress. */
function setQuest(room: WorldRoom, p: PlayerEntity, questId: string, stage: number, completions = 0) {
  p.quests.set(questId, { questId, stage, count: 0, completions });
  room.world.touchPlayer(p);
}

/** Kill a goblin through the real attack: one swing lands and kills (health 1, a strong arm, rolls that hit). */
async function killGoblin(a: WorldPlayer, room: WorldRoom) {
  const p = room.world.players.get(a.id)!;
  const goblin = npcOf(room, "goblin");
  goblin.health = 1;
  p.lastAttackTick = -1_000;
  setRng(room, 0.3);
  place(room, a.id, besideOf(room, goblin.position));
  const since = a.mark();
  a.send("player:action", { action: "attack", targetId: goblin.id });
  await a.next("npc:killed", (k) => k.npcId === "goblin", { since });
  return since;
}

/** Cut `logs` logs from a tree through the real gather action, each cycle brought forward to the next tick. */
async function chop(a: WorldPlayer, room: WorldRoom, logs: number) {
  const p = room.world.players.get(a.id)!;
  const tree = [...room.world.resources.values()].find((r: ResourceEntity) => r.resourceId === "tree_normal" && !r.depleted)!;
  // 0.2: every cut succeeds at level 1 (63/256) and never fells the tree (0.15).
  setRng(room, 0.2);
  place(room, a.id, besideOf(room, tree.tile));
  const since = a.mark();
  a.send("player:action", { action: "gather", targetId: tree.id });
  let from = since;
  for (let i = 0; i < logs; i++) {
    await until(() => p.action?.type === "gather", "gathering");
    (p.action as { nextTick: number }).nextTick = room.world.tick + 1;
    from = indexAfter(a, await a.next("skill:xp", (m) => m.skill === "woodcutting", { since: from }));
  }
  a.send("player:action", { action: "stop" });
  await until(() => p.action === null, "stopped");
  setRng(room, 0.5);
  return since;
}

describe("world room: quests", function () {
  this.timeout(30_000);
  const suite = worldSuite();

  it("the_wardens_letter from start to end by talking: letter given, stage passed at the bank, rewards and a quest point", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    const quest = room.world.data.quests.get(LETTER)!;
    const coins = count(p.inventory, "coins");
    assert.equal((await talkTo(a, room, "warden_holt")).nodeId, "greeting");
    assert.equal((await answer(a, 0)).nodeId, "letter_offer");
    const since = a.mark();
    assert.equal((await answer(a, 0)).nodeId, "quest_accepted");
    assert.deepEqual(await a.next("quest:started", () => true, { since }), { questId: LETTER, name: quest.name, stage: 1, stageDescription: quest.stages[1].description });
    assert.equal((await a.next("dialogue:end", () => true, { since })).reason, "finished");
    const started = await a.next("player:sync", (s) => syncCount(s, "sealed_letter") === 1, { since });
    assert.deepEqual(journalOf(started, LETTER), {
      questId: LETTER,
      name: quest.name,
      status: "in_progress",
      stage: 1,
      stageDescription: quest.stages[1].description,
      count: 0,
      needed: 0,
      completions: 0,
      target: { type: "talk", id: "bank_clerk" },
    });

    // At the bank the clerk knows of the letter and keeps it, and the stage passes.
    let s2 = a.mark();
    assert.equal((await talkTo(a, room, "bank_clerk")).nodeId, "letter_received");
    assert.deepEqual(await a.next("quest:stage", () => true, { since: s2 }), { questId: LETTER, stage: 2, stageDescription: quest.stages[2].description });
    assert.equal(count(p.inventory, "sealed_letter"), 0, "the letter was handed over");
    await a.next("player:sync", (s) => syncCount(s, "sealed_letter") === 0 && journalOf(s, LETTER)?.stage === 2, { since: s2 });
    a.send("dialogue:close", {});
    await a.next("dialogue:end", () => true, { since: s2 });

    // Back at the warden: completed, with the rewards.
    s2 = a.mark();
    assert.equal((await talkTo(a, room, "warden_holt")).nodeId, "letter_done");
    const done = await a.next("quest:completed", () => true, { since: s2 });
    assert.deepEqual(done, {
      questId: LETTER,
      name: quest.name,
      questPoints: quest.questPoints,
      rewards: { items: quest.rewardItems.map((i) => ({ itemId: i.itemId, quantity: i.quantity })), xp: {} },
    });
    assert.equal((await a.next("dialogue:end", () => true, { since: s2 })).reason, "finished");
    const reward = (itemId: string) => quest.rewardItems.find((i) => i.itemId === itemId)!.quantity;
    const sync = await a.next("player:sync", (s) => journalOf(s, LETTER)?.status === "completed", { since: s2 });
    assert.equal(syncCount(sync, "coins"), coins + reward("coins"));
    assert.equal(syncCount(sync, "iron_hatchet"), reward("iron_hatchet"));
    assert.equal(sync.quests.questPoints, 1);
    assert.deepEqual(journalOf(sync, LETTER), { questId: LETTER, name: quest.name, status: "completed", stage: 3, stageDescription: null, count: 0, needed: 0, completions: 1, target: null });
    // The warden moves on to the next errand.
    assert.equal((await talkTo(a, room, "warden_holt")).nodeId, "menace_offer");
  });

  it("at the bank without the letter (or with it offered in a trade) the clerk only greets: the stage stays, a notice says what is missing", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    setQuest(room, p, LETTER, 1);
    const notice = async () => {
      const since = a.mark();
      assert.equal((await talkTo(a, room, "bank_clerk")).nodeId, "greeting");
      const told = await a.next("notice", (n) => n.code === "QUEST_ITEMS_MISSING", { since });
      assert.match(told.message, /Odessa the Banker is waiting for 1 x Sealed Letter \(The Warden's Letter\)/);
      a.send("dialogue:close", {});
      await a.next("dialogue:end", () => true, { since });
      assert.equal(a.received.slice(since).filter((m) => m.type === "quest:stage").length, 0);
      assert.equal(p.quests.get(LETTER)?.stage, 1);
    };
    assert.equal(count(p.inventory, "sealed_letter"), 0);
    await notice();
    // The letter is back, but offered in a trade: it cannot be handed over.
    const slot = p.inventory.findIndex((s) => s === null);
    p.inventory[slot] = { itemId: "sealed_letter", quantity: 1 };
    p.lockedSlots.add(slot);
    room.world.touchPlayer(p);
    await notice();
    assert.deepEqual(p.inventory[slot], { itemId: "sealed_letter", quantity: 1 });
    // Free to give: the clerk takes it.
    p.lockedSlots.delete(slot);
    const since = a.mark();
    assert.equal((await talkTo(a, room, "bank_clerk")).nodeId, "letter_received");
    await a.next("quest:stage", (q) => q.questId === LETTER && q.stage === 2, { since });
    assert.equal(p.inventory[slot], null);
  });

  it("starting the letter quest again is refused (QUEST_COMPLETED) and the conversation ends", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    setQuest(room, p, LETTER, 3, 1);
    const warden = npcOf(room, "warden_holt");
    place(room, a.id, besideOf(room, warden.position));
    // Scene: the offer on screen (no entry leads there once the quest is done).
    p.dialogue = { npcInstanceId: warden.id, npcId: "warden_holt", nodeId: "letter_offer" };
    const pack = JSON.stringify(p.inventory);
    const since = a.mark();
    assert.equal(await refused(a, "dialogue:respond", { index: 0 }), "QUEST_COMPLETED");
    assert.deepEqual(await a.next("dialogue:end", () => true, { since }), { npcId: warden.id, reason: "finished" });
    assert.equal(p.dialogue, null);
    assert.equal(JSON.stringify(p.inventory), pack, "no second letter");
    assert.deepEqual(p.quests.get(LETTER), { questId: LETTER, stage: 3, count: 0, completions: 1 });
    assert.equal(a.received.slice(since).filter((m) => m.type.startsWith("quest:")).length, 0);
  });

  it("mudfoot_menace needs the letter quest first (QUEST_REQUIREMENTS)", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    const warden = npcOf(room, "warden_holt");
    place(room, a.id, besideOf(room, warden.position));
    p.dialogue = { npcInstanceId: warden.id, npcId: "warden_holt", nodeId: "menace_offer" };
    const since = a.mark();
    assert.equal(await refused(a, "dialogue:respond", { index: 0 }), "QUEST_REQUIREMENTS");
    assert.equal((await a.next("dialogue:end", () => true, { since })).reason, "finished");
    assert.equal(p.quests.has(MENACE), false);
    // Nor does the warden offer it: he starts on the letter.
    assert.equal((await talkTo(a, room, "warden_holt")).nodeId, "greeting");
  });

  it("the journal names each stage's target for a client's marker: the start npc, the npc to talk to, the kind to kill, the item to gather; none once completed", () => {
    const quests = suite.server.ctx.gameData.quests;
    const letter = quests.get(LETTER)!;
    const menace = quests.get(MENACE)!;
    const at = (stage: number, completions = 0) => ({ questId: "", stage, count: 0, completions });
    assert.deepEqual(questView(letter, undefined).target, { type: "talk", id: "warden_holt" });
    assert.deepEqual(questView(letter, at(1)).target, { type: "talk", id: "bank_clerk" });
    assert.deepEqual(questView(letter, at(2)).target, { type: "talk", id: "warden_holt" });
    assert.equal(questView(letter, at(3, 1)).target, null);
    assert.deepEqual(
      [1, 2, 3].map((stage) => questView(menace, at(stage)).target),
      [
        { type: "kill", id: "goblin" },
        { type: "gather", id: "logs" },
        { type: "talk", id: "warden_holt" },
      ],
    );
  });

  it("mudfoot_menace: offered after the letter; logs before the kill stage and kills count only on it", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    p.xp.strength = 13_034_431;
    refreshLevels(p);
    setQuest(room, p, LETTER, 3, 1);
    const quest = room.world.data.quests.get(MENACE)!;
    assert.equal((await talkTo(a, room, "warden_holt")).nodeId, "menace_offer");
    let since = a.mark();
    assert.equal((await answer(a, 0)).nodeId, "menace_accepted");
    assert.deepEqual(await a.next("quest:started", () => true, { since }), { questId: MENACE, name: quest.name, stage: 1, stageDescription: quest.stages[1].description });
    await a.next("dialogue:end", () => true, { since });

    // Logs cut while goblins are the task do not count.
    since = await chop(a, room, 1);
    assert.equal(a.received.slice(since).filter((m) => m.type === "quest:progress").length, 0);
    assert.deepEqual(p.quests.get(MENACE), { questId: MENACE, stage: 1, count: 0, completions: 0 });

    const needed = quest.stages[1].type === "kill" ? quest.stages[1].count : NaN;
    for (let k = 1; k <= needed; k++) {
      since = await killGoblin(a, room);
      assert.deepEqual(await a.next("quest:progress", () => true, { since }), { questId: MENACE, stage: 1, count: k, needed });
    }
    assert.deepEqual(await a.next("quest:stage", () => true, { since }), { questId: MENACE, stage: 2, stageDescription: quest.stages[2].description });
    const sync = await a.next("player:sync", (s) => journalOf(s, MENACE)?.stage === 2, { since });
    assert.deepEqual([journalOf(sync, MENACE).count, journalOf(sync, MENACE).needed], [0, 3]);
    assert.deepEqual(journalOf(sync, MENACE).target, { type: "gather", id: "logs" }, "the journal points at the item to gather");
    setRng(room, 0.5);
  });

  it("mudfoot_menace: kills after the kill stage do not count, logs do; completion gives the lamp, coins and attack xp", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    p.xp.strength = 13_034_431;
    refreshLevels(p);
    setQuest(room, p, LETTER, 3, 1);
    setQuest(room, p, MENACE, 2);
    const quest = room.world.data.quests.get(MENACE)!;
    let since = await killGoblin(a, room);
    assert.equal(a.received.slice(since).filter((m) => m.type.startsWith("quest:")).length, 0);
    assert.deepEqual(p.quests.get(MENACE), { questId: MENACE, stage: 2, count: 0, completions: 0 });

    since = await chop(a, room, 3);
    const progress = a.received.slice(since).filter((m) => m.type === "quest:progress").map((m) => m.data.count);
    assert.deepEqual(progress, [1, 2, 3]);
    assert.deepEqual(await a.next("quest:stage", () => true, { since }), { questId: MENACE, stage: 3, stageDescription: quest.stages[3].description });

    // Two of the three logs: the warden talks as while the quest is under way, and says what he waits for.
    assert.equal(count(p.inventory, "logs"), 3);
    const third = p.inventory.findIndex((s) => s?.itemId === "logs");
    p.inventory[third] = null;
    room.world.touchPlayer(p);
    since = a.mark();
    assert.equal((await talkTo(a, room, "warden_holt")).nodeId, "menace_progress");
    assert.match((await a.next("notice", (n) => n.code === "QUEST_ITEMS_MISSING", { since })).message, /waiting for 3 x Logs \(Mudfoot Menace\)/);
    a.send("dialogue:close", {});
    await a.next("dialogue:end", () => true, { since });
    assert.equal(count(p.inventory, "logs"), 2, "nothing taken");
    p.inventory[third] = { itemId: "logs", quantity: 1 };
    room.world.touchPlayer(p);

    const coins = count(p.inventory, "coins");
    const attackXp = p.xp.attack;
    since = a.mark();
    assert.equal((await talkTo(a, room, "warden_holt")).nodeId, "menace_done");
    const done = await a.next("quest:completed", () => true, { since });
    assert.deepEqual(done.rewards, { items: quest.rewardItems.map((i) => ({ itemId: i.itemId, quantity: i.quantity })), xp: quest.rewardXp });
    const xp = await a.next("skill:xp", (m) => m.skill === "attack", { since });
    assert.equal(xp.gained, quest.rewardXp.attack);
    assert.equal(xp.xp, attackXp + quest.rewardXp.attack);
    const sync = await a.next("player:sync", (s) => journalOf(s, MENACE)?.status === "completed", { since });
    assert.equal(syncCount(sync, "coins"), coins + quest.rewardItems.find((i) => i.itemId === "coins")!.quantity);
    assert.equal(syncCount(sync, "lamp_of_learning"), 1);
    assert.equal(syncCount(sync, "logs"), 0, "the warden took the logs for the fence");
    assert.equal(sync.quests.questPoints, 2);
    assert.equal(sync.skills.attack.xp, attackXp + quest.rewardXp.attack);
    setRng(room, 0.5);
  });

  it("the lamp of learning: rubbed for a skill it gives its xp and is gone; without a skill it stays", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    const slot = p.inventory.findIndex((s) => !s);
    p.inventory[slot] = { itemId: "lamp_of_learning", quantity: 1 };
    room.world.touchPlayer(p);
    const lampXp = room.world.data.items.get("lamp_of_learning")!.lampXp!;
    assert.equal(await refused(a, "inventory:use", { slot, action: "rub" }), "INVALID_PAYLOAD");
    assert.equal(await refused(a, "inventory:use", { slot, action: "rub", skill: "juggling" }), "INVALID_PAYLOAD");
    assert.equal(await refused(a, "inventory:use", { slot: p.inventory.findIndex((s) => s?.itemId === "shrimp"), action: "rub", skill: "mining" }), "NOTHING_HAPPENS");
    assert.deepEqual(p.inventory[slot], { itemId: "lamp_of_learning", quantity: 1 });
    assert.equal(p.xp.mining, 0);
    const since = a.mark();
    a.send("inventory:use", { slot, action: "rub", skill: "mining" });
    const xp = await a.next("skill:xp", (m) => m.skill === "mining", { since });
    assert.deepEqual([xp.gained, xp.xp], [lampXp, lampXp]);
    const sync = await a.next("player:sync", (s) => syncCount(s, "lamp_of_learning") === 0, { since });
    assert.equal(sync.skills.mining.xp, lampXp);
    assert.equal(await refused(a, "inventory:use", { slot, action: "rub", skill: "mining" }), "EMPTY_SLOT");
  });

  it("quest progress persists across leave and rejoin; the journal is the same", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    p.xp.strength = 13_034_431;
    refreshLevels(p);
    setQuest(room, p, LETTER, 3, 1);
    assert.equal((await talkTo(a, room, "warden_holt")).nodeId, "menace_offer");
    await answer(a, 0);
    const since = await killGoblin(a, room);
    assert.equal((await a.next("quest:progress", () => true, { since })).count, 1);
    const journal = (await a.next("player:sync", (s) => journalOf(s, MENACE)?.count === 1, { since })).quests;
    setRng(room, 0.5);
    await leaveAndSettle(a);
    const saved = (await loadCharacter(suite.server.ctx.db.sql, a.id))!;
    assert.deepEqual(
      saved.quests!.sort((x, y) => x.questId.localeCompare(y.questId)),
      [
        { questId: MENACE, stage: 1, count: 1, completions: 0 },
        { questId: LETTER, stage: 3, count: 0, completions: 1 },
      ],
    );
    const again = await suite.join({}, { token: a.token, accountId: a.accountId });
    assert.equal(again.id, a.id);
    const sorted = (j: any) => ({ ...j, quests: [...j.quests].sort((x: any, y: any) => x.questId.localeCompare(y.questId)) });
    assert.deepEqual(sorted(again.sync().quests), sorted(journal));
    // The warden picks up where the player left off.
    assert.equal((await talkTo(again, room, "warden_holt")).nodeId, "menace_progress");
  });

  it("a full pack at completion is refused (INVENTORY_FULL): the quest stays ready to complete", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    setQuest(room, p, LETTER, 2);
    const free = p.inventory.flatMap((s, i) => (s ? [] : [i]));
    for (const i of free) p.inventory[i] = { itemId: "logs", quantity: 1 };
    room.world.touchPlayer(p);
    const pack = JSON.stringify(p.inventory);
    let since = a.mark();
    assert.equal((await talkTo(a, room, "warden_holt")).nodeId, "letter_done");
    assert.equal((await a.next("error", () => true, { since })).code, "INVENTORY_FULL");
    assert.equal((await a.next("dialogue:end", () => true, { since })).reason, "finished");
    assert.equal(a.received.slice(since).filter((m) => m.type === "quest:completed").length, 0);
    assert.equal(JSON.stringify(p.inventory), pack);
    assert.deepEqual(p.quests.get(LETTER), { questId: LETTER, stage: 2, count: 0, completions: 0 });
    const sync = await a.next("player:sync", () => true, { since });
    assert.equal(journalOf(sync, LETTER).status, "ready_to_complete");
    // Room for one of the two items the reward adds (a sword and a hatchet; the coins join their stack): still refused.
    p.inventory[free[0]] = null;
    room.world.touchPlayer(p);
    since = a.mark();
    assert.equal((await talkTo(a, room, "warden_holt")).nodeId, "letter_done");
    assert.equal((await a.next("error", () => true, { since })).code, "INVENTORY_FULL");
    await a.next("dialogue:end", () => true, { since });
    assert.equal(p.quests.get(LETTER)?.stage, 2);
    assert.equal(p.inventory[free[0]], null, "nothing of the reward was given");
    // Room for both: the warden completes it now.
    p.inventory[free[1]] = null;
    room.world.touchPlayer(p);
    since = a.mark();
    assert.equal((await talkTo(a, room, "warden_holt")).nodeId, "letter_done");
    assert.equal((await a.next("quest:completed", () => true, { since })).questId, LETTER);
    assert.deepEqual([p.inventory[free[0]]?.itemId, p.inventory[free[1]]?.itemId], ["bronze_shortsword", "iron_hatchet"]);
  });
});
