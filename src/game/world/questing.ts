import { heldOf, noteChange } from "../ledger.js";
import type { QuestDef } from "../../manifests/index.js";
import type { QuestJournalView, QuestTargetView, QuestView } from "../../protocol/index.js";
import { addItemAll, assertSlot, canAdd, countItem, removeFromSlot, takeUnlocked, unlockedView } from "../inventory.js";
import {
  checkCanStart,
  completeQuest,
  itemsText,
  missingHandOver,
  questPointsOf,
  recordDeed,
  startQuest,
  statusOf,
  talkedTo,
  type QuestDeed,
  type QuestEvent,
  type QuestJournal,
  type QuestProgress,
} from "../quests.js";
import { GameError, type Inventory, type SkillName } from "../types.js";
import type { ItemQuantity } from "../../manifests/shapes.js";
import type { PlayerEntity } from "./entities.js";
import { grantXp } from "./xp.js";
import type { World } from "./World.js";

/**
 * The quest rules applied to a player of the world: starting (items given), deeds counted,
 * talking passing dialogue stages, completing (rewards given) and experience lamps. Every change
 * marks the player to be saved and synced, and is told as `quest:*` events.
 */

export function questOf(world: World, questId: string): QuestDef {
  const quest = world.data.quests.get(questId);
  if (!quest) throw new GameError("UNKNOWN_QUEST", `There is no quest called ${questId}`);
  return quest;
}

function announce(world: World, p: PlayerEntity, events: QuestEvent[]) {
  if (events.length === 0) return;
  world.touchPlayer(p);
  for (const event of events) world.events.push({ kind: "quest", playerId: p.id, event });
}

/** Start a quest: its requirements are met, and the items it gives fit in the pack (else nothing changes). */
export function beginQuest(world: World, p: PlayerEntity, questId: string) {
  const quest = questOf(world, questId);
  checkCanStart(world.data.quests, p.quests, quest, { levels: p.levels, holds: (itemId) => countItem(p.inventory, itemId) });
  const given = quest.startItems.filter((i) => world.data.items.has(i.itemId));
  if (!canAdd(p.inventory, given, world.data.items)) throw new GameError("INVENTORY_FULL", `Make room in your pack to start ${quest.name}`);
  const before = heldOf(p);
  for (const i of given) p.inventory = addItemAll(p.inventory, i.itemId, i.quantity, world.data.items).inventory;
  noteChange(p, before, "quest", questId);
  announce(world, p, startQuest(p.quests, quest));
}

/**
 * Complete a quest that is ready: what its last stage asks to be handed over must be in the pack
 * (QUEST_ITEMS_MISSING), and its reward items must fit once that is taken (INVENTORY_FULL); else
 * nothing changes and it stays ready.
 */
export function finishQuest(world: World, p: PlayerEntity, questId: string) {
  const quest = questOf(world, questId);
  const held = { ...p.quests.get(questId)! };
  const done = completeQuest(p.quests, quest, holds(p), nameOf(world));
  const after = handOver(p, done.handed);
  const rewards = done.items.filter((i) => world.data.items.has(i.itemId));
  if (!canAdd(after, rewards, world.data.items)) {
    p.quests.set(questId, held);
    throw new GameError("INVENTORY_FULL", `Make room in your pack for the reward of ${quest.name}`);
  }
  const before = heldOf(p);
  p.inventory = after;
  for (const i of rewards) p.inventory = addItemAll(p.inventory, i.itemId, i.quantity, world.data.items).inventory;
  noteChange(p, before, "quest", questId);
  for (const [skill, xp] of Object.entries(done.xp)) if (skill in p.xp) grantXp(world, p, skill as SkillName, xp);
  announce(world, p, done.events);
}

/** Something the player did that quest stages may count (a kill, items gathered, made or lit). */
export function questDeed(world: World, p: PlayerEntity, deed: QuestDeed) {
  if (p.quests.size === 0) return;
  announce(world, p, recordDeed(world.data.quests, p.quests, deed));
}

/**
 * The player talks to an npc: a dialogue stage naming it is passed, and what it asks to be handed
 * over is taken; a stage held back for want of items is told (notice QUEST_ITEMS_MISSING).
 */
export function questTalk(world: World, p: PlayerEntity, npc: { defId: string; name: string }) {
  if (p.quests.size === 0) return;
  const talked = talkedTo(world.data.quests, p.quests, npc.defId, holds(p));
  for (const h of talked.handed) {
    const before = heldOf(p);
    p.inventory = handOver(p, h.items);
    noteChange(p, before, "quest", h.questId);
  }
  for (const m of talked.missing) {
    const quest = questOf(world, m.questId);
    world.events.push({
      kind: "notice",
      playerId: p.id,
      code: "QUEST_ITEMS_MISSING",
      message: `${npc.name} is waiting for ${itemsText(m.items, nameOf(world))} (${quest.name}).`,
    });
  }
  announce(world, p, talked.events);
}

/** Does the player carry what the stage in force of a quest asks to be handed over? (No stage, or nothing asked: yes.) */
export function carriesHandOver(world: World, p: PlayerEntity, questId: string): boolean {
  const quest = world.data.quests.get(questId);
  const progress = p.quests.get(questId);
  return !quest || !progress || missingHandOver(quest.stages[progress.stage], holds(p)).length === 0;
}

/** How many of an item the player can hand over: its pack's, slots offered in a trade left out. */
const holds = (p: PlayerEntity) => (itemId: string) => countItem(unlockedView(p.inventory, p.lockedSlots), itemId);
const nameOf = (world: World) => (itemId: string) => world.data.items.get(itemId)?.name ?? itemId;

/** The pack once `items` are taken from its unlocked slots (the caller checked they are there; the stage or completion it goes with touches the player). */
function handOver(p: PlayerEntity, items: readonly ItemQuantity[]): Inventory {
  let inv = p.inventory;
  for (const i of items) inv = takeUnlocked(inv, i.itemId, i.quantity, undefined, p.lockedSlots);
  return inv;
}

/** Rub an experience lamp: its xp goes to the skill chosen, and the lamp is used up. */
export function rubLamp(world: World, p: PlayerEntity, slot: number, skill: SkillName | undefined) {
  assertSlot(slot);
  const held = p.inventory[slot];
  if (!held) throw new GameError("EMPTY_SLOT", "That slot is empty");
  const xp = world.data.items.get(held.itemId)?.lampXp;
  if (!xp) throw new GameError("NOTHING_HAPPENS", "Nothing interesting happens");
  if (!skill) throw new GameError("INVALID_PAYLOAD", "skill: choose the skill the lamp's experience goes to");
  const lamp = heldOf(p);
  p.inventory = removeFromSlot(p.inventory, slot, 1).inventory;
  noteChange(p, lamp, "consumed", "lamp");
  world.touchPlayer(p);
  grantXp(world, p, skill, xp);
}

/** What the stage in force asks, and the count it needs. */
function stageOf(quest: QuestDef, stage: number) {
  const s = quest.stages[stage];
  return { description: s?.description ?? null, needed: s && s.type !== "dialogue" ? s.count : 0 };
}

/** One quest as a journal shows it, from the character's progress in it (none: not started). */
export function questView(quest: QuestDef, progress: QuestProgress | undefined): QuestView {
  const stage = progress?.stage ?? 0;
  const { description, needed } = stageOf(quest, stage);
  return {
    questId: quest.id,
    name: quest.name,
    status: statusOf(quest, progress),
    stage,
    stageDescription: progress && stage < quest.stages.length ? description : null,
    count: progress?.count ?? 0,
    needed,
    completions: progress?.completions ?? 0,
    target: targetOf(quest, progress),
  };
}

/** What the stage in force points at (the start npc while not started), for a client's marker. */
function targetOf(quest: QuestDef, progress: QuestProgress | undefined): QuestTargetView | null {
  if (!progress) return quest.startNpc ? { type: "talk", id: quest.startNpc } : null;
  const s = quest.stages[progress.stage];
  if (!s) return null;
  if (s.type === "dialogue") return s.npcId ? { type: "talk", id: s.npcId } : null;
  if ((s.type === "kill" || s.type === "gather" || s.type === "interact") && s.target) return { type: s.type, id: s.target };
  return null;
}

/** A journal as its owner sees it (`player:sync`, an agent's view): the quests started that the data has, and the quest points. */
export function journalView(quests: Map<string, QuestDef>, progress: Iterable<QuestProgress>): QuestJournalView {
  const journal: QuestJournal = new Map([...progress].map((q) => [q.questId, { questId: q.questId, stage: q.stage, count: q.count, completions: q.completions }]));
  const views: QuestView[] = [];
  for (const [id, q] of journal) {
    const quest = quests.get(id);
    if (quest) views.push(questView(quest, q));
  }
  return { questPoints: questPointsOf(quests, journal), quests: views };
}

/** A stage's description, for the `quest:*` messages. */
export function stageDescription(world: World, questId: string, stage: number): string | null {
  const quest = world.data.quests.get(questId);
  return quest ? (stageOf(quest, stage).description ?? null) : null;
}
