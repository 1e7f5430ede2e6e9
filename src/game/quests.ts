import type { ItemQuantity, QuestDef } from "../manifests/index.js";
import type { QuestStage } from "../manifests/quests.js";
import { GameError } from "./types.js";

/**
 * A character's quest journal and the rules that move it: starting a quest (its requirements),
 * progress counted for the stage in force only, dialogue stages passed by talking to their npc (with
 * what they ask to be handed over), and completion with the rewards. Pure: the world gives and takes
 * the items and xp.
 */

/** Where a quest stands for one character. */
export type QuestStatus = "not_started" | "in_progress" | "ready_to_complete" | "completed";

export interface QuestProgress {
  questId: string;
  /** Index of the stage in force (in_progress), or the number of stages (completed). */
  stage: number;
  /** Progress on the stage in force (kills, items gathered, items made). */
  count: number;
  /** Times completed (a replayable quest may be completed again). */
  completions: number;
}

/** By quest id. */
export type QuestJournal = Map<string, QuestProgress>;

/** What a quest rule did, for the player's `quest:*` events. */
export type QuestEvent =
  | { kind: "started"; questId: string; stage: number }
  | { kind: "progress"; questId: string; stage: number; count: number; needed: number }
  | { kind: "stage"; questId: string; stage: number }
  | { kind: "completed"; questId: string; questPoints: number };

/** Something a player did that a quest stage may count. */
export type QuestDeed =
  { type: "kill"; target: string } | { type: "gather"; target: string; count: number } | { type: "interact"; target: string; count: number };

export function statusOf(quest: QuestDef, p: QuestProgress | undefined): QuestStatus {
  if (!p) return "not_started";
  if (p.stage >= quest.stages.length) return "completed";
  const last = p.stage === quest.stages.length - 1;
  return last && quest.stages[p.stage].type === "dialogue" ? "ready_to_complete" : "in_progress";
}

const isActive = (quest: QuestDef, p: QuestProgress | undefined): p is QuestProgress => p !== undefined && p.stage < quest.stages.length;

/** What the player has that the requirements ask about. */
export interface QuestCandidate {
  levels: Record<string, number>;
  /** How many of an item the player carries. */
  holds(itemId: string): number;
}

/** Refuses (QUEST_*) when the player may not start the quest now. */
export function checkCanStart(quests: Map<string, QuestDef>, journal: QuestJournal, quest: QuestDef, who: QuestCandidate): void {
  const p = journal.get(quest.id);
  if (isActive(quest, p)) throw new GameError("QUEST_IN_PROGRESS", `You are already doing ${quest.name}`);
  if (p && !quest.replayable) throw new GameError("QUEST_COMPLETED", `You have already completed ${quest.name}`);
  for (const id of quest.requirements.quests) {
    const needed = quests.get(id);
    if ((journal.get(id)?.completions ?? 0) === 0) {
      throw new GameError("QUEST_REQUIREMENTS", `${quest.name} needs ${needed?.name ?? id} completed first`);
    }
  }
  for (const [skill, level] of Object.entries(quest.requirements.skills)) {
    if ((who.levels[skill] ?? 1) < level) throw new GameError("QUEST_REQUIREMENTS", `${quest.name} needs level ${level} ${skill}`);
  }
  for (const item of quest.requirements.items) {
    if (who.holds(item.itemId) < item.quantity) throw new GameError("QUEST_REQUIREMENTS", `${quest.name} needs ${item.quantity} x ${item.itemId}`);
  }
}

/**
 * Start the quest (after checkCanStart). A first stage that is talking to the start npc is passed
 * by starting. Returns the events; the caller gives `quest.startItems`.
 */
export function startQuest(journal: QuestJournal, quest: QuestDef): QuestEvent[] {
  const before = journal.get(quest.id);
  const first = quest.stages[0];
  const stage = first && first.type === "dialogue" && (!first.npcId || first.npcId === quest.startNpc) ? 1 : 0;
  journal.set(quest.id, { questId: quest.id, stage, count: 0, completions: before?.completions ?? 0 });
  return [{ kind: "started", questId: quest.id, stage }];
}

function advance(quest: QuestDef, p: QuestProgress, out: QuestEvent[]) {
  p.stage++;
  p.count = 0;
  out.push({ kind: "stage", questId: quest.id, stage: p.stage });
}

/** A deed counts toward the stage in force of every active quest it matches; a full count passes the stage. */
export function recordDeed(quests: Map<string, QuestDef>, journal: QuestJournal, deed: QuestDeed): QuestEvent[] {
  const out: QuestEvent[] = [];
  for (const p of journal.values()) {
    const quest = quests.get(p.questId);
    if (!quest || !isActive(quest, p)) continue;
    const stage = quest.stages[p.stage];
    if (stage.type !== deed.type || stage.target !== deed.target) continue;
    p.count = Math.min(stage.count, p.count + (deed.type === "kill" ? 1 : deed.count));
    out.push({ kind: "progress", questId: quest.id, stage: p.stage, count: p.count, needed: stage.count });
    if (p.count >= stage.count) advance(quest, p, out);
  }
  return out;
}

/** How many of an item the player can hand over (its pack, slots offered in a trade left out). */
export type Holds = (itemId: string) => number;

/** What a stage asks to be handed over that the player does not carry (empty: nothing is missing). */
export function missingHandOver(stage: QuestStage | undefined, holds: Holds): ItemQuantity[] {
  return (stage?.handOver ?? []).filter((i) => holds(i.itemId) < i.quantity);
}

/** What talking to an npc did: the events, the items to take for each stage passed, and the stages held back for want of items. */
export interface Talked {
  events: QuestEvent[];
  handed: Array<{ questId: string; items: ItemQuantity[] }>;
  missing: Array<{ questId: string; items: ItemQuantity[] }>;
}

/**
 * The player talks to an npc: a dialogue stage in force naming it is passed, unless it is the
 * quest's last stage (that one is passed by completing the quest, from the npc's dialogue). A stage
 * with a `handOver` passes only when the player carries all of it (the caller takes it); else it
 * stays, and is listed as missing (the last stage too: completing will ask for it).
 */
export function talkedTo(quests: Map<string, QuestDef>, journal: QuestJournal, npcId: string, holds: Holds): Talked {
  const out: Talked = { events: [], handed: [], missing: [] };
  for (const p of journal.values()) {
    const quest = quests.get(p.questId);
    if (!quest || !isActive(quest, p)) continue;
    const stage = quest.stages[p.stage];
    if (stage.type !== "dialogue" || stage.npcId !== npcId) continue;
    const missing = missingHandOver(stage, holds);
    if (missing.length) {
      out.missing.push({ questId: quest.id, items: missing });
      continue;
    }
    if (p.stage >= quest.stages.length - 1) continue;
    if (stage.handOver?.length) out.handed.push({ questId: quest.id, items: stage.handOver });
    advance(quest, p, out.events);
  }
  return out;
}

/** Complete a quest that is ready to, its last stage's hand-over carried (QUEST_ITEMS_MISSING): the caller takes `handed` and gives the rewards returned. */
export function completeQuest(
  journal: QuestJournal,
  quest: QuestDef,
  holds: Holds,
  nameOf?: (itemId: string) => string,
): { events: QuestEvent[]; handed: ItemQuantity[]; items: ItemQuantity[]; xp: Record<string, number> } {
  const p = journal.get(quest.id);
  if (statusOf(quest, p) !== "ready_to_complete" || !p) throw new GameError("QUEST_NOT_READY", `${quest.name} is not ready to be completed`);
  const last = quest.stages[p.stage];
  const missing = missingHandOver(last, holds);
  if (missing.length) throw new GameError("QUEST_ITEMS_MISSING", `${quest.name} needs ${itemsText(missing, nameOf)} handed over`);
  p.stage = quest.stages.length;
  p.count = 0;
  p.completions++;
  return {
    events: [{ kind: "completed", questId: quest.id, questPoints: quest.questPoints }],
    handed: last?.handOver ?? [],
    items: quest.rewardItems,
    xp: quest.rewardXp,
  };
}

/** "1 x sealed_letter, 3 x logs": items in a message (the world names them by their names). */
export function itemsText(items: readonly ItemQuantity[], nameOf: (itemId: string) => string = (id) => id): string {
  return items.map((i) => `${i.quantity} x ${nameOf(i.itemId)}`).join(", ");
}

/** Quest points earned: each completed quest once. */
export function questPointsOf(quests: Map<string, QuestDef>, journal: QuestJournal): number {
  let points = 0;
  for (const p of journal.values()) if (p.completions > 0) points += quests.get(p.questId)?.questPoints ?? 0;
  return points;
}
