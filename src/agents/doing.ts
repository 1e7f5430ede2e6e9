import type { WorldKnowledge } from "../game/world/knowledge.js";
import { itemName } from "../manifests/gameData.js";
import type { Goal } from "./goals.js";
import type { Order } from "./mind.js";
import type { AgentView } from "./view.js";

/**
 * What the built-in agent does, in words, for the people watching it (its activity's "doing"
 * lines and "goal" lines): the first order of a step that acts, and a goal with why it was taken.
 */

/** The step's orders in words (chat aside), or null when it sent none that acts. */
export function describeOrders(orders: readonly Order[], view: AgentView, k: WorldKnowledge): string | null {
  for (const o of orders) {
    switch (o.type) {
      case "player:move":
        return `Walking to (${o.data.x}, ${o.data.z})`;
      case "player:action": {
        const id = o.data.targetId ?? "";
        const npc = view.npcs.get(id)?.name;
        switch (o.data.action) {
          case "gather": {
            const r = view.resources.get(id);
            const def = r ? k.data.gathering[r.skill as keyof typeof k.data.gathering]?.get(r.resourceId) : undefined;
            return `Gathering at ${def?.name ?? r?.resourceId ?? "a resource"}${r ? ` (${r.skill})` : ""}`;
          }
          case "attack":
            return `Attacking ${npc ?? "an npc"}`;
          case "pickup": {
            const item = view.groundItems.get(id);
            return `Picking up ${item ? itemName(k.data, item.itemId) : "an item"}`;
          }
          case "talk":
            return `Talking to ${npc ?? "someone"}`;
          case "store":
            return `Opening ${npc ? `${npc}'s` : "a"} store`;
          case "stop":
            return "Stopping";
          default:
            continue;
        }
      }
      case "inventory:use": {
        const s = view.self?.inventory.find((i) => i.slot === o.data.slot);
        const what = s ? itemName(k.data, s.itemId) : "an item";
        return o.data.action === "eat" ? `Eating ${what} (health ${view.self?.health}/${view.self?.maxHealth})` : `Using ${what}`;
      }
      case "bank:deposit":
        return "Banking the pack";
      case "bank:withdraw":
        return `Taking ${itemName(k.data, o.data.itemId)} from the bank`;
      case "store:buy":
        return `Buying ${o.data.quantity} × ${itemName(k.data, o.data.itemId)}`;
      case "store:sell":
        return `Selling ${itemName(k.data, view.self?.inventory.find((i) => i.slot === o.data.slot)?.itemId ?? "")}`;
      case "production:make":
        return `Making ${itemName(k.data, o.data.recipeId)} (${o.data.kind})`;
      case "dialogue:respond":
        return "Answering in a dialogue";
      default:
        continue;
    }
  }
  return null;
}

const SOURCES: Record<Goal["source"], string> = { auto: "", owner: "its owner set it", command: "its owner asked for it in words" };

/** A goal as its activity's line says it: its name and why it was taken; null: no goal. */
export function describeGoal(goal: Goal | null, paused: boolean): string {
  if (!goal) return paused ? "No goal: its owner paused its own choice of goals" : "No goal";
  const name = goal.name ?? [goal.type, goal.target].filter(Boolean).join(" ");
  const why = goal.why ?? SOURCES[goal.source];
  return why ? `${name}: ${why}` : name;
}
