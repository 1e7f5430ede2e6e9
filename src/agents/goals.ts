import type { WorldKnowledge } from "../game/world/knowledge.js";
import { itemName } from "../manifests/gameData.js";
import { coinsOf, equippedOf, hasBankable, isTool } from "./pack.js";
import { bestRecipe, recipeAvailability, recipesOf } from "./productionPlan.js";
import { questAvailability } from "./questPlan.js";
import { gatherNeeds, offersOf, salePlan, type Skip } from "./storePlans.js";
import type { AgentView } from "./view.js";
import { productionWordsList } from "./productionWords.js";
import { GATHERING_SKILLS, PRODUCTION_KINDS, type GatheringSkill, type ProductionKind } from "../protocol/index.js";

/**
 * An agent's goals: what it can choose from (by its levels, tools, coins, quest journal and
 * inventory) and what it picks on its own. Pure.
 */

export { parseCommand, npcByName, type Command } from "./commands.js";
export { inventoryOf, isKept, hasBankable } from "./pack.js";

export type GoalType = GatheringSkill | ProductionKind | "combat" | "bank" | "pickup" | "buy" | "sell" | "quest" | "idle";

export interface GoalProgress {
  /** Experience gained in the goal's skill (or combat skills; every skill for a quest) since it began. */
  xpGained: number;
  /** Items gathered, banked, picked up; npcs killed. */
  gathered: number;
  banked: number;
  pickedUp: number;
  kills: number;
  /** Items bought and sold in stores, and the coins those deals brought in (negative: spent). */
  bought: number;
  sold: number;
  coins: number;
  /** Items of its target a production goal made (from `production:made`). */
  made: number;
}

export interface Goal {
  /** Stable within a run; stored in agent_goals. */
  id: string;
  type: GoalType;
  /**
   * A resource id (gathering), a recipe's output item id (production: null until it picked the best
   * recipe it can make), an npc definition id (combat), an item id (buy), a quest id (quest), or null.
   */
  target: string | null;
  /** Who set it: the agent itself, its owner (REST), or a chat command. */
  source: "auto" | "owner" | "command";
  startedTick: number;
  /** XP at the start, per skill, to measure progress. */
  startXp: Record<string, number>;
  progress: GoalProgress;
  /** The goal the agent comes back to after this errand (banking a full pack, buying a tool, selling). */
  resume?: Goal;
  /** How many to buy (buy), or items to make (production; none: no end). */
  amount?: number;
  /** What a goal keeps between steps (a quest's completions when it began, talks tried per stage). */
  memo?: Record<string, number>;
  /** It reached its end (banked, bought, sold, quest completed, made all it was to make) rather than being dropped. */
  completed?: boolean;
  /** What its last step did (production: "gather:copper_ore", "make:bronze_bar:<station>"): a new step starts afresh. */
  step?: string;
  /** Its name as the goals list gives it ("Chop oak tree"), and why it was taken (the agent's own choice, an errand): for its activity. */
  name?: string;
  why?: string;
}

/** A goal as the owner (REST) and an external runtime (`goalOverride`) are shown it: what it is, who set it, how far it got. */
export interface GoalView {
  id: string;
  type: GoalType;
  target: string | null;
  source: Goal["source"];
  progress: GoalProgress;
  /** How many to make (production) or buy (buy); null: no end (production) or one (buy). */
  count: number | null;
  resume: { type: GoalType; target: string | null } | null;
}

export const goalView = (g: Goal | null): GoalView | null =>
  g
    ? {
        id: g.id,
        type: g.type,
        target: g.target,
        source: g.source,
        progress: g.progress,
        count: g.amount ?? null,
        resume: g.resume ? { type: g.resume.type, target: g.resume.target } : null,
      }
    : null;

export interface GoalOption {
  /** Use it as `goalId` in POST /goal. */
  id: string;
  type: GoalType;
  target: string | null;
  name: string;
  available: boolean;
  reason?: string;
}

const unavailable = (reason: string | undefined) => ({ available: false, reason: reason ?? "not available now" });

/**
 * Every goal the agent could take now, each available or with the reason it is not. A gathering
 * goal whose tool (or bait) a store sells is available when the agent's coins pay for it: it buys
 * it first. `skip`: store offers that failed lately.
 */
export function availableGoals(view: AgentView, k: WorldKnowledge, skip?: Skip): GoalOption[] {
  const self = view.self;
  if (!self) return [];
  const out: GoalOption[] = [];
  for (const skill of GATHERING_SKILLS) {
    for (const def of k.data.gathering[skill].values()) {
      if (!k.resourceSpots.has(def.id)) continue;
      const needs = gatherNeeds(view, k, def, skip);
      const buying = needs.ok && needs.buy.length ? ` (buying ${needs.buy.map((b) => itemName(k.data, b.itemId).toLowerCase()).join(" and ")} first)` : "";
      out.push({
        id: `${skill}:${def.id}`,
        type: skill,
        target: def.id,
        name: `${verb(skill)} ${def.name.toLowerCase()}${buying}`,
        ...(needs.ok ? { available: true } : unavailable(needs.reason)),
      });
    }
  }
  out.push(...productionOptions(view, k, skip));
  for (const [npcId, spawns] of k.npcSpawns) {
    const tooStrong = spawns.level > self.combatLevel + 5;
    out.push({
      id: `combat:${npcId}`,
      type: "combat",
      target: npcId,
      name: `Fight ${spawns.name.toLowerCase()}s`,
      available: !tooStrong,
      ...(tooStrong ? { reason: `${spawns.name} (level ${spawns.level}) is too strong for combat level ${self.combatLevel}` } : {}),
    });
  }
  const bankable = hasBankable(k, self);
  out.push({ id: "bank", type: "bank", target: null, name: "Bank the inventory", available: bankable, ...(bankable ? {} : { reason: "Nothing to bank" }) });
  // Tools the stores sell that it does not have.
  const held = new Set([...self.inventory.map((s) => s.itemId), ...equippedOf(self)]);
  const tools = new Set(k.keepers.flatMap((kp) => [...(k.stores.get(kp.storeId!)?.entries.keys() ?? [])]).filter((id) => isTool(k, id) && !held.has(id)));
  for (const itemId of tools) {
    const offer = offersOf(k, itemId, self.tile, skip)[0];
    if (!offer) continue;
    const coins = coinsOf(self);
    const short = offer.price > coins ? `${itemName(k.data, itemId)} costs ${offer.price} coins at ${offer.storeName}; I have ${coins}` : undefined;
    const full = !short && view.freeSlots() === 0 ? "No room in the pack" : undefined;
    out.push({
      id: `buy:${itemId}`,
      type: "buy",
      target: itemId,
      name: `Buy ${article(itemName(k.data, itemId).toLowerCase())} (${offer.price} coins at ${offer.storeName})`,
      ...(short || full ? unavailable(short ?? full) : { available: true }),
    });
  }
  const sale = salePlan(view, k, skip);
  out.push({
    id: "sell",
    type: "sell",
    target: null,
    name: sale.ok ? `Sell what I gathered at ${sale.storeName}` : "Sell what I gathered",
    ...(sale.ok ? { available: true } : unavailable(sale.reason)),
  });
  for (const quest of k.data.quests.values()) {
    const standing = self.quests.find((q) => q.questId === quest.id);
    const going = standing?.status === "in_progress" || standing?.status === "ready_to_complete";
    const can = questAvailability(view, k, quest);
    out.push({
      id: `quest:${quest.id}`,
      type: "quest",
      target: quest.id,
      name: `${going ? "Finish" : "Do"} the quest ${quest.name}`,
      ...(can.available ? { available: true } : unavailable(can.reason)),
    });
  }
  out.push({ id: "idle", type: "idle", target: null, name: "Idle", available: true });
  return out;
}

/** How each kind of production is said ("Smith bronze dagger"). */
export const PRODUCTION_VERB = Object.fromEntries(productionWordsList().map(([kind, w]) => [kind, w.verb])) as Record<ProductionKind, string>;

/**
 * Production goals: for each kind, one to make the best it can (target null, listed first), then one
 * per recipe (`smithing:bronze_dagger`), each available or with the reason (the level, no station of
 * its type here, a tool or an input it cannot get).
 */
function productionOptions(view: AgentView, k: WorldKnowledge, skip?: Skip): GoalOption[] {
  const out: GoalOption[] = [];
  for (const kind of PRODUCTION_KINDS) {
    const recipes = recipesOf(k, kind).map((r) => ({ r, can: recipeAvailability(view, k, r, skip) }));
    const best = bestRecipe(view, k, kind, skip);
    const none = recipes[0] && !recipes[0].can.ok ? recipes[0].can.reason : `There is nothing to ${PRODUCTION_VERB[kind].toLowerCase()} here`;
    out.push({
      id: kind,
      type: kind,
      target: null,
      name: best ? `${PRODUCTION_VERB[kind]} the best I can (${itemName(k.data, best.id).toLowerCase()})` : `${PRODUCTION_VERB[kind]} the best I can`,
      ...(best ? { available: true } : unavailable(none)),
    });
    for (const { r, can } of recipes) {
      out.push({
        id: `${kind}:${r.id}`,
        type: kind,
        target: r.id,
        name: `${PRODUCTION_VERB[kind]} ${itemName(k.data, r.id).toLowerCase()}`,
        ...(can.ok ? { available: true } : unavailable(can.reason)),
      });
    }
  }
  return out;
}

const article = (name: string) => `${/^[aeiou]/.test(name) ? "an" : "a"} ${name}`;
const verb = (skill: GatheringSkill) => (skill === "woodcutting" ? "Chop" : skill === "mining" ? "Mine" : "Fish at");

/**
 * What the agent picks on its own: bank a full pack; otherwise train its lowest gathering skill it
 * can train here (buying a missing tool it can afford); otherwise fight the weakest npc it can;
 * otherwise idle.
 */
export function chooseGoal(view: AgentView, k: WorldKnowledge, rng: () => number = Math.random, skip?: Skip): GoalOption & { why: string } {
  const options = availableGoals(view, k, skip).filter((o) => o.available);
  const self = view.self!;
  if (view.freeSlots() === 0 && options.some((o) => o.type === "bank")) return { ...options.find((o) => o.type === "bank")!, why: "its pack is full" };
  const gathering = options.filter((o) => (GATHERING_SKILLS as readonly string[]).includes(o.type));
  if (gathering.length) {
    // The lowest skill first (a random one among equals, so a crowd spreads out); within it, the
    // hardest resource the agent may work.
    const lowest = Math.min(...gathering.map((o) => self.skills[o.type]?.level ?? 1));
    const skills = [...new Set(gathering.filter((o) => (self.skills[o.type]?.level ?? 1) === lowest).map((o) => o.type))];
    const skill = skills[Math.floor(rng() * skills.length)];
    const best = gathering.filter((o) => o.type === skill).sort((a, b) => levelOf(k, b) - levelOf(k, a))[0];
    return { ...best, why: `${skill} is its lowest gathering skill (level ${lowest}), and this the hardest it may work` };
  }
  const combat = options.filter((o) => o.type === "combat").sort((a, b) => k.npcSpawns.get(a.target!)!.level - k.npcSpawns.get(b.target!)!.level);
  if (combat.length) return { ...combat[0], why: "nothing to gather: the weakest foes around" };
  return { ...options.find((o) => o.type === "idle")!, why: "nothing else it can do now" };
}

const levelOf = (k: WorldKnowledge, o: GoalOption) => k.data.gathering[o.type as GatheringSkill].get(o.target!)?.levelRequired ?? 1;
