import { parseEffect, type DIALOGUE_EFFECTS, type DialogueDef, type DialogueNode } from "../../manifests/dialogue.js";
import { answer, entryNodeId } from "../dialogue.js";
import { statusOf } from "../quests.js";
import { GameError } from "../types.js";
import { adjacent, itemHolderOf, walkTowards, withinTalk } from "./commands.js";
import type { NpcEntity, PlayerEntity } from "./entities.js";
import { beginQuest, carriesHandOver, finishQuest, questOf, questTalk } from "./questing.js";
import { closeStore, openStore, storeOfNpc } from "./stores.js";
import type { World } from "./World.js";
import { playerOf } from "./worldCore.js";

/**
 * Talking to npcs: walking up to one, its dialogue tree walked node by node on the player's
 * answers, and the effects responses and nodes name (openBank, openStore, startQuest:<id>,
 * completeQuest:<id>). A conversation ends on a node without responses, on request, or when the
 * player walks more than TALK_RANGE tiles away. `player:action store` opens a keeper's store
 * without the conversation.
 */

function npcOf(world: World, npcInstanceId: string): NpcEntity {
  const npc = world.npcs.get(npcInstanceId);
  if (!npc || npc.deadUntilTick != null) throw new GameError("UNKNOWN_TARGET", "There is no one to talk to there");
  return npc;
}

const dialogueOf = (world: World, npc: NpcEntity) => world.data.npcs.get(npc.defId)?.dialogue;

/** `player:action talk` (or `store`): checked now, opened by the tick once next to the npc. */
export function startTalk(world: World, id: string, npcInstanceId: string, store = false) {
  const p = playerOf(world, id);
  const npc = npcOf(world, npcInstanceId);
  if (store) storeOfNpc(world, npc);
  else if (!dialogueOf(world, npc) && !servicesPlayed(world, npc).length) throw new GameError("NO_DIALOGUE", `The ${npc.name.toLowerCase()} has nothing to say`);
  walkTowards(world, p, npc.position);
  p.action = { type: "talk", targetId: npc.id, ...(store ? { store: true } : {}) };
  world.markChanged("player", p.id);
}

/** The tick's part of `talk`: follow the npc, and open the conversation (or store) once next to it. */
export function tickTalk(world: World, p: PlayerEntity) {
  const action = p.action as Extract<PlayerEntity["action"], { type: "talk" }>;
  const npc = npcOf(world, action.targetId);
  if (!adjacent(p.tile, npc.position)) {
    const end = p.path[p.path.length - 1];
    if (!end || !adjacent(end, npc.position)) walkTowards(world, p, npc.position);
    return;
  }
  p.path = [];
  p.action = null;
  world.markChanged("player", p.id);
  endConversation(world, p, "finished");
  closeStore(world, p, "closed");
  if (action.store) return openStore(world, p, npc);
  const dialogue = dialogueOf(world, npc);
  const services = servicesPlayed(world, npc);
  if (!dialogue) {
    if (services.length === 0) throw new GameError("NO_DIALOGUE", `The ${npc.name.toLowerCase()} has nothing to say`);
    for (const run of services) run(world, p, npc);
    return;
  }
  // The entry node follows the quests as they stood when the player walked up; talking may then pass a stage.
  // A stage whose hand-over the player does not carry is not reached yet: the npc talks as while the quest is under way.
  const entry = entryNodeId(dialogue, (questId) => {
    const quest = world.data.quests.get(questId);
    const progress = p.quests.get(questId);
    if (!quest) return { status: "not_started" };
    if (!carriesHandOver(world, p, questId)) return { status: "in_progress" };
    return { status: statusOf(quest, progress), stageId: progress ? quest.stages[progress.stage]?.id : undefined };
  });
  questTalk(world, p, npc);
  show(world, p, npc, dialogue, dialogue.nodes.get(entry)!);
  for (const run of services) run(world, p, npc);
}

/** The services of an npc that a feature of the world plays (a healer's healing, ...). */
function servicesPlayed(world: World, npc: NpcEntity) {
  return npc.services.flatMap((s) => world.npcServices.get(s) ?? []);
}

/** `dialogue:respond`: answer the node shown last. */
export function respond(world: World, id: string, index: number) {
  const p = playerOf(world, id);
  const state = p.dialogue;
  if (!state) throw new GameError("NOT_IN_DIALOGUE", "You are not talking to anyone");
  const npc = world.npcs.get(state.npcInstanceId);
  const dialogue = npc && dialogueOf(world, npc);
  if (!npc || !dialogue || npc.deadUntilTick != null) {
    endConversation(world, p, "npc_gone");
    throw new GameError("NOT_IN_DIALOGUE", "That conversation is over");
  }
  const { effect, next } = answer(dialogue, state, index);
  let shown = next;
  if (effect) {
    const after = runEffect(world, p, npc, effect);
    if (after === "stop") return endConversation(world, p, "finished");
    if (after) shown = dialogue.nodes.get(after) ?? shown;
  }
  if (!shown) return endConversation(world, p, "finished");
  show(world, p, npc, dialogue, shown);
}

/** `dialogue:close`. */
export function closeDialogue(world: World, id: string) {
  const p = playerOf(world, id);
  if (!p.dialogue) throw new GameError("NOT_IN_DIALOGUE", "You are not talking to anyone");
  endConversation(world, p, "closed");
}

/** Show a node: its own effect runs, and a node without responses ends the conversation. */
function show(world: World, p: PlayerEntity, npc: NpcEntity, dialogue: DialogueDef, node: DialogueNode) {
  p.dialogue = { npcInstanceId: npc.id, npcId: npc.defId, nodeId: node.id };
  world.events.push({ kind: "dialogue", playerId: p.id, npcId: npc.id, npcName: npc.name, node });
  if (node.effect && runEffect(world, p, npc, node.effect) === "stop") return endConversation(world, p, "finished");
  if (node.responses.length === 0) endConversation(world, p, "finished");
}

type DialogueEffect = (typeof DIALOGUE_EFFECTS)[number];

/** What each played effect does; it may name the node to show instead of the response's (a quest's start dialogue). */
const EFFECTS: { [E in DialogueEffect]: (world: World, p: PlayerEntity, npc: NpcEntity, arg: string) => string | void } = {
  openBank: (world, p, npc) => void world.events.push({ kind: "bankOpened", playerId: p.id, npcId: npc.id }),
  openStore: (world, p, npc) => openStore(world, p, npc),
  openTanner: (world, p, npc) => void world.events.push({ kind: "tannerOpened", playerId: p.id, npcId: npc.id }),
  startQuest: (world, p, npc, questId) => {
    beginQuest(world, p, questId);
    const start = questOf(world, questId).startDialogue;
    return start && dialogueOf(world, npc)?.nodes.has(start) ? start : undefined;
  },
  // Completing takes and gives items: not while a trade, a deal or a duel's settlement holds the pack.
  completeQuest: (world, p, _npc, questId) => finishQuest(world, itemHolderOf(world, p.id), questId),
};

const isPlayed = (verb: string): verb is DialogueEffect => Object.prototype.hasOwnProperty.call(EFFECTS, verb);

/**
 * Run a dialogue effect. Returns "stop" when it was refused (the player is told why and the
 * conversation ends), the node to show instead of the response's, or nothing. An effect the
 * server does not play is reported (logged once by the room) and ignored.
 */
function runEffect(world: World, p: PlayerEntity, npc: NpcEntity, effect: string): "stop" | string | undefined {
  const { verb, arg } = parseEffect(effect);
  if (!isPlayed(verb)) {
    world.events.push({ kind: "unknownEffect", npcId: npc.defId, effect });
    return undefined;
  }
  try {
    return EFFECTS[verb](world, p, npc, arg ?? "") ?? undefined;
  } catch (err) {
    if (!(err instanceof GameError)) throw err;
    world.events.push({ kind: "actionFailed", playerId: p.id, code: err.code, message: err.message });
    return "stop";
  }
}

export function endConversation(world: World, p: PlayerEntity, reason: "finished" | "closed" | "walked_away" | "npc_gone" | "content_changed") {
  if (!p.dialogue) return;
  world.events.push({ kind: "dialogueEnd", playerId: p.id, npcId: p.dialogue.npcInstanceId, reason });
  p.dialogue = null;
}

/** Each tick: a conversation or store whose npc is gone, or more than TALK_RANGE away, ends. */
export function tickConversations(world: World, p: PlayerEntity) {
  if (p.dialogue) {
    const reason = outOfReach(world, p, p.dialogue.npcInstanceId);
    if (reason) endConversation(world, p, reason);
  }
  if (p.store) {
    const reason = outOfReach(world, p, p.store.npcInstanceId);
    if (reason) closeStore(world, p, reason);
  }
}

function outOfReach(world: World, p: PlayerEntity, npcInstanceId: string): "npc_gone" | "walked_away" | null {
  const npc = world.npcs.get(npcInstanceId);
  if (!npc || npc.deadUntilTick != null) return "npc_gone";
  return withinTalk(p.tile, npc.position) ? null : "walked_away";
}
