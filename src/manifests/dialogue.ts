/**
 * An npc's dialogue tree (npcs.json `dialogue`): nodes of text with numbered responses, an entry
 * node, effects named on responses and nodes, and per-quest overrides of the entry node.
 */
import { z } from "zod";
import type { LoadContext } from "./context.js";

export interface DialogueResponse {
  text: string;
  /** The node shown next; none ends the dialogue. */
  nextNodeId?: string;
  /** Run when this response is chosen, e.g. "openBank", "openStore", "startQuest:<questId>". */
  effect?: string;
}

export interface DialogueNode {
  id: string;
  text: string;
  responses: DialogueResponse[];
  /** Run when the node is shown, e.g. "completeQuest:<questId>". */
  effect?: string;
}

/**
 * Which node a player enters at, by the state of a quest of theirs: by quest id, a status
 * ("in_progress", "ready_to_complete", "completed") or the id of the stage in force → node id.
 */
export type QuestOverrides = Record<string, Record<string, string>>;

export interface DialogueDef {
  entryNodeId: string;
  nodes: Map<string, DialogueNode>;
  questOverrides: QuestOverrides;
}

/** The effects the server plays (`verb` or `verb:argument`); any other is warned about at load and ignored. */
export const DIALOGUE_EFFECTS = ["openBank", "openStore", "openTanner", "startQuest", "completeQuest"] as const;

/** An effect name split into its verb and argument: "startQuest:goblin_slayer" → ["startQuest", "goblin_slayer"]. */
export function parseEffect(effect: string): { verb: string; arg?: string } {
  const at = effect.indexOf(":");
  return at < 0 ? { verb: effect } : { verb: effect.slice(0, at), arg: effect.slice(at + 1) };
}

/** Every effect of a dialogue, with where it stands. */
export function effectsOf(dialogue: DialogueDef): Array<{ nodeId: string; effect: string }> {
  const out: Array<{ nodeId: string; effect: string }> = [];
  for (const node of dialogue.nodes.values()) {
    if (node.effect) out.push({ nodeId: node.id, effect: node.effect });
    for (const r of node.responses) if (r.effect) out.push({ nodeId: node.id, effect: r.effect });
  }
  return out;
}

const text = z.string().min(1).max(4000);
const nodeId = z.string().min(1).max(200);
const effect = z.string().min(1).max(200);

const dialogueSchema = z.looseObject({
  entryNodeId: nodeId,
  questOverrides: z.record(z.string(), z.record(z.string(), nodeId)).nullish(),
  nodes: z
    .array(
      z.looseObject({
        id: nodeId,
        text,
        effect: effect.nullish(),
        responses: z.array(z.looseObject({ text, nextNodeId: nodeId.nullish(), effect: effect.nullish() })).nullish(),
      }),
    )
    .min(1),
});

/**
 * The npc's dialogue, or undefined when it has none. A broken tree is warned about: a missing entry
 * node drops the dialogue; a response or an override naming an unknown node ends the dialogue there.
 */
export function dialogueOf(ctx: LoadContext, file: string, npcId: string, value: unknown): DialogueDef | undefined {
  if (value === undefined || value === null) return undefined;
  const r = ctx.record(dialogueSchema, value, file, `npc ${npcId} dialogue`);
  if (!r) return undefined;
  const nodes = new Map<string, DialogueNode>();
  for (const n of r.nodes) {
    if (nodes.has(n.id)) {
      ctx.warn(file, `npc ${npcId} dialogue: node ${n.id} is defined twice; the first is kept`);
      continue;
    }
    nodes.set(n.id, {
      id: n.id,
      text: n.text,
      responses: (n.responses ?? []).map((x) => ({
        text: x.text,
        ...(x.nextNodeId ? { nextNodeId: x.nextNodeId } : {}),
        ...(x.effect ? { effect: x.effect } : {}),
      })),
      ...(n.effect ? { effect: n.effect } : {}),
    });
  }
  if (!nodes.has(r.entryNodeId)) {
    ctx.warn(file, `npc ${npcId} dialogue: entry node ${r.entryNodeId} does not exist; dialogue skipped`);
    return undefined;
  }
  for (const node of nodes.values()) {
    for (const response of node.responses) {
      if (response.nextNodeId && !nodes.has(response.nextNodeId)) {
        ctx.warn(file, `npc ${npcId} dialogue: node ${node.id} leads to unknown node ${response.nextNodeId}; that response ends the dialogue`);
        delete response.nextNodeId;
      }
    }
  }
  const questOverrides: QuestOverrides = {};
  for (const [questId, byState] of Object.entries(r.questOverrides ?? {})) {
    questOverrides[questId] = {};
    for (const [state, target] of Object.entries(byState)) {
      if (nodes.has(target)) questOverrides[questId][state] = target;
      else ctx.warn(file, `npc ${npcId} dialogue: quest override ${questId}.${state} names unknown node ${target}; ignored`);
    }
  }
  return { entryNodeId: r.entryNodeId, nodes, questOverrides };
}
