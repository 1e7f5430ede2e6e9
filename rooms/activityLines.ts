import type { World } from "../src/game/world/World.js";
import { itemName } from "../src/manifests/gameData.js";
import type { ItemStackView, ServerMessage, ServerMessageType } from "../src/protocol/index.js";

/**
 * The events an agent is told of that its activity shows (GET /api/agents/:agentId/activity), each
 * as one line a person reads; the rest (every blow, every xp drop, every world:update) are left out.
 */
type Lines = { [K in ServerMessageType]?: (w: World, data: ServerMessage<K>) => string | undefined };

const stacks = (w: World, items: ItemStackView[]) => items.map((s) => `${s.quantity} × ${itemName(w.data, s.itemId)}`).join(", ");
const questName = (w: World, questId: string) => w.data.quests.get(questId)?.name ?? questId;

const LINES: Lines = {
  "npc:killed": (w, d) => `Killed ${w.npcs.get(d.npcId)?.name ?? "an npc"}`,
  "player:death": (_w, d) => `Died${d.killedBy ? ` (killed by ${d.killedBy})` : ""}${d.items.length ? `, dropping ${d.items.length} stacks` : ""}`,
  "skill:levelup": (_w, d) => `Reached ${d.skill} level ${d.level}`,
  "quest:started": (_w, d) => `Started the quest ${d.name}${d.stageDescription ? `: ${d.stageDescription}` : ""}`,
  "quest:stage": (w, d) => `${questName(w, d.questId)}: ${d.stageDescription ?? `stage ${d.stage}`}`,
  "quest:completed": (_w, d) => `Completed the quest ${d.name} (+${d.questPoints} quest points)`,
  "store:bought": (w, d) => `Bought ${d.quantity} × ${itemName(w.data, d.itemId)} for ${d.coins} coins`,
  "store:sold": (w, d) => `Sold ${d.quantity} × ${itemName(w.data, d.itemId)} for ${d.coins} coins`,
  "production:made": (w, d) => (d.success ? `Made ${stacks(w, d.made)}` : `Failed to make ${itemName(w.data, d.recipeId)}`),
  tradeCompleted: (w, d) => `Completed a trade${d.receivedItems.length ? `, receiving ${stacks(w, d.receivedItems)}` : ""}`,
  "duel:ended": (_w, d) => `A duel ended (${d.outcome})`,
  notice: (_w, d) => d.message,
  error: (_w, d) => `Refused: ${d.code}: ${d.message}`,
};

/** The activity line of an event the agent was told of, or undefined for one its activity leaves out. */
export function eventLine<K extends ServerMessageType>(world: World, type: K, data: ServerMessage<K>): string | undefined {
  const line = LINES[type] as ((w: World, d: ServerMessage<K>) => string | undefined) | undefined;
  return line?.(world, data);
}
