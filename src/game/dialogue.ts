import type { DialogueDef, DialogueNode } from "../manifests/dialogue.js";
import { GameError } from "./types.js";

/**
 * Walking an npc's dialogue tree: where a player enters (quest overrides), what a node offers, and
 * where an answer leads. The server is authoritative: a player answers only the node it was shown,
 * by the index of one of its responses. Pure: the world runs the effects it returns.
 */

/** A player's place in a dialogue. */
export interface DialogueState {
  /** The npc instance talked to. */
  npcInstanceId: string;
  /** Its definition id. */
  npcId: string;
  nodeId: string;
}

/** Where the player stands with a quest, for the overrides: its status and the id of the stage in force. */
export type QuestLookup = (questId: string) => { status: string; stageId?: string };

/** The node a player enters at: the first quest override matching the stage in force or the status, else the entry node. */
export function entryNodeId(dialogue: DialogueDef, quest: QuestLookup): string {
  for (const [questId, byState] of Object.entries(dialogue.questOverrides)) {
    const { status, stageId } = quest(questId);
    const target = (stageId !== undefined ? byState[stageId] : undefined) ?? byState[status];
    if (target) return target;
  }
  return dialogue.entryNodeId;
}

/** The node shown as the client gets it (`dialogue:node`). */
export function nodeView(npcInstanceId: string, npcName: string, node: DialogueNode) {
  return { npcId: npcInstanceId, npcName, nodeId: node.id, text: node.text, responses: node.responses.map((r, index) => ({ index, text: r.text })) };
}

/**
 * The player answers the node it is on with a response index. Returns the response's effect (if
 * any) and the next node (none: the dialogue ends). A wrong index is refused and changes nothing.
 */
export function answer(dialogue: DialogueDef, state: DialogueState, index: number): { effect?: string; next?: DialogueNode } {
  const node = dialogue.nodes.get(state.nodeId);
  if (!node) throw new GameError("NOT_IN_DIALOGUE", "That conversation is over");
  if (!Number.isInteger(index) || index < 0 || index >= node.responses.length) {
    throw new GameError(
      "INVALID_RESPONSE",
      node.responses.length ? `Answer with a response index from 0 to ${node.responses.length - 1}` : "This node has no responses",
    );
  }
  const response = node.responses[index];
  const next = response.nextNodeId ? dialogue.nodes.get(response.nextNodeId) : undefined;
  return { ...(response.effect ? { effect: response.effect } : {}), ...(next ? { next } : {}) };
}
