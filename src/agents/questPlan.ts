import { firemakingRecipe } from "../game/firemaking.js";
import { checkCanStart, missingHandOver, type QuestJournal } from "../game/quests.js";
import { GameError } from "../game/types.js";
import type { DialogueDef } from "../manifests/dialogue.js";
import type { QuestDef } from "../manifests/index.js";
import type { QuestView } from "../protocol/index.js";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import type { AgentView } from "./view.js";

/**
 * How an agent goes about a quest, from the quest's definition and where its journal stands
 * (`player:sync` quests): the next thing to do for the stage in force, and which answer in an
 * npc's dialogue leads to the effect it wants (starting or completing the quest). Pure.
 */

/** Where the journal stands with one quest (a `QuestView`, or none: not started). */
export type QuestStanding = Pick<QuestView, "status" | "stage" | "count" | "completions">;

export type QuestStep =
  /** Talk to the npc (definition id) and answer toward the dialogue effect `want` (none: talking is enough). */
  | { kind: "talk"; npcId: string; want: string | null }
  | { kind: "kill"; npcId: string; remaining: number }
  | { kind: "gather"; itemId: string; remaining: number }
  /** Light fires (logs and a tinderbox). */
  | { kind: "fire"; remaining: number }
  | { kind: "done" }
  | { kind: "stuck"; reason: string };

/**
 * The next step of a quest. `again`: a replayable quest completed before is started over rather
 * than counted as done. `holds` (how many of an item the pack has): a dialogue stage whose
 * hand-over is not all in the pack first gathers what an earlier stage gathered (logs cut, then
 * lost), else is stuck saying what is missing.
 */
export function questStep(quest: QuestDef, standing: QuestStanding | undefined, again = false, holds?: (itemId: string) => number): QuestStep {
  const status = standing?.status ?? "not_started";
  if (status === "completed" && !again) return { kind: "done" };
  if (status === "not_started" || status === "completed") {
    return quest.startNpc
      ? { kind: "talk", npcId: quest.startNpc, want: `startQuest:${quest.id}` }
      : { kind: "stuck", reason: `${quest.name} has no one to start it` };
  }
  const index = standing!.stage;
  const stage = quest.stages[index];
  if (!stage) return { kind: "done" };
  const remaining = Math.max(1, stage.count - standing!.count);
  switch (stage.type) {
    case "dialogue": {
      const npcId = stage.npcId ?? quest.startNpc;
      if (!npcId) return { kind: "stuck", reason: `${quest.name}: no one to talk to for "${stage.description}"` };
      const lacking = holds ? missingHandOver(stage, holds)[0] : undefined;
      if (lacking) {
        const short = lacking.quantity - holds!(lacking.itemId);
        const gathered = quest.stages.slice(0, index).some((s) => s.type === "gather" && s.target === lacking.itemId);
        if (gathered) return { kind: "gather", itemId: lacking.itemId, remaining: short };
        return {
          kind: "stuck",
          reason: `${quest.name}: "${stage.description}" needs ${lacking.quantity} x ${lacking.itemId} handed over, and I have ${holds!(lacking.itemId)}`,
        };
      }
      // The last stage is passed by completing the quest in the npc's dialogue; the others by talking.
      return { kind: "talk", npcId, want: index === quest.stages.length - 1 ? `completeQuest:${quest.id}` : null };
    }
    case "kill":
      return stage.target
        ? { kind: "kill", npcId: stage.target, remaining }
        : { kind: "stuck", reason: `${quest.name}: "${stage.description}" names nothing to kill` };
    case "gather":
      return stage.target
        ? { kind: "gather", itemId: stage.target, remaining }
        : { kind: "stuck", reason: `${quest.name}: "${stage.description}" names nothing to gather` };
    case "interact":
      if (stage.target === "fire") return { kind: "fire", remaining };
      return { kind: "stuck", reason: `I don't know how to "${stage.description}" (${stage.target ?? "nothing"})` };
    default:
      return { kind: "stuck", reason: `I don't know how to "${stage.description}" (a ${stage.type} stage)` };
  }
}

/**
 * The answer on node `nodeId` that leads soonest to `want` (a response with that effect, or a node
 * showing it), never through another effect; null when none does.
 */
export function responseToward(dialogue: DialogueDef, nodeId: string, want: string): number | null {
  const start = dialogue.nodes.get(nodeId);
  if (!start) return null;
  const seen = new Set([nodeId]);
  // Breadth first: [node, the index on the start node that led there].
  let frontier: Array<[string, number]> = [];
  for (const [i, r] of start.responses.entries()) {
    if (r.effect === want) return i;
    if (!r.effect && r.nextNodeId && !seen.has(r.nextNodeId)) {
      seen.add(r.nextNodeId);
      frontier.push([r.nextNodeId, i]);
    }
  }
  while (frontier.length) {
    const next: Array<[string, number]> = [];
    for (const [id, first] of frontier) {
      const node = dialogue.nodes.get(id);
      if (!node) continue;
      if (node.effect === want) return first;
      if (node.effect) continue;
      for (const r of node.responses) {
        if (r.effect === want) return first;
        if (!r.effect && r.nextNodeId && !seen.has(r.nextNodeId)) {
          seen.add(r.nextNodeId);
          next.push([r.nextNodeId, first]);
        }
      }
    }
    frontier = next;
  }
  return null;
}

/** The journal as the quest rules keep it, from the `player:sync` views. */
export function journalOf(quests: readonly QuestView[]): QuestJournal {
  return new Map(quests.map((q) => [q.questId, { questId: q.questId, stage: q.stage, count: q.count, completions: q.completions }]));
}

/** Why the agent could not play the quest in this world (a stage it cannot do, someone missing), or null. */
export function unplayable(k: WorldKnowledge, view: AgentView, quest: QuestDef): string | null {
  const npcName = (id: string) => k.data.npcs.get(id)?.name ?? id;
  if (!quest.startNpc || !k.townsfolk.has(quest.startNpc))
    return `${quest.name} starts with ${quest.startNpc ? npcName(quest.startNpc) : "no one"}, who is not here`;
  for (const stage of quest.stages) {
    const step = questStep(quest, { status: "in_progress", stage: quest.stages.indexOf(stage), count: 0, completions: 0 });
    if (step.kind === "stuck") return step.reason;
    if (step.kind === "talk" && !k.townsfolk.has(step.npcId)) return `${quest.name} needs a word with ${npcName(step.npcId)}, who is not here`;
    if (step.kind === "kill" && !k.npcSpawns.has(step.npcId)) return `${quest.name} needs ${npcName(step.npcId)}s, and there are none here`;
    if (step.kind === "gather") {
      const sources = (k.yieldsOf.get(step.itemId) ?? []).filter((id) => k.resourceSpots.has(id));
      if (sources.length === 0) return `${quest.name} needs ${step.itemId}, and nothing here yields it`;
      const levels = sources.map((id) => {
        const skill = k.resourceSpots.get(id)!.skill as "woodcutting";
        return [k.data.gathering[skill].get(id)!.levelRequired, view.self?.skills[skill]?.level ?? 1];
      });
      if (!levels.some(([need, have]) => have >= need)) return `${quest.name} needs ${step.itemId}, and I lack the level to gather it`;
    }
    if (step.kind === "fire" && ![...k.yieldsOf.keys()].some((id) => firemakingRecipe(k.data.recipes.firemaking ?? [], id))) {
      return `${quest.name} needs a fire, and nothing here yields logs to burn`;
    }
  }
  return null;
}

/** Whether the agent may take the quest as a goal now (to start it or to go on with it), else why not. */
export function questAvailability(view: AgentView, k: WorldKnowledge, quest: QuestDef): { available: boolean; reason?: string } {
  const self = view.self!;
  const standing = self.quests.find((q) => q.questId === quest.id);
  if (standing?.status === "completed" && !quest.replayable) return { available: false, reason: `I have already completed ${quest.name}` };
  if (standing?.status !== "in_progress" && standing?.status !== "ready_to_complete") {
    try {
      const levels = Object.fromEntries(Object.entries(self.skills).map(([s, v]) => [s, v.level]));
      checkCanStart(k.data.quests, journalOf(self.quests), quest, { levels, holds: (itemId) => view.count(itemId) });
    } catch (err) {
      if (err instanceof GameError) return { available: false, reason: err.message };
      throw err;
    }
  }
  const why = unplayable(k, view, quest);
  return why ? { available: false, reason: why } : { available: true };
}
