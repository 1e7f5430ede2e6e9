import { canGather } from "../game/gathering.js";
import { INVENTORY_SIZE, type Inventory } from "../game/types.js";
import type { WorldKnowledge } from "./knowledge.js";
import type { AgentView, SelfState } from "./view.js";

/**
 * An agent's goals: what it can choose from (by its levels, tools and inventory), what it picks
 * on its own, and the chat-style commands its owner may send. Pure.
 */

import { GATHERING_SKILLS, type GatheringSkill } from "../protocol/index.js";
export type GoalType = GatheringSkill | "combat" | "bank" | "pickup" | "idle";

export interface GoalProgress {
  /** Experience gained in the goal's skill (or combat skills) since it began. */
  xpGained: number;
  /** Items gathered, banked, picked up; npcs killed. */
  gathered: number;
  banked: number;
  pickedUp: number;
  kills: number;
}

export interface Goal {
  /** Stable within a run; stored in agent_goals. */
  id: string;
  type: GoalType;
  /** A resource id (gathering), an npc definition id (combat), or null. */
  target: string | null;
  /** Who set it: the agent itself, its owner (REST), or a chat command. */
  source: "auto" | "owner" | "command";
  startedTick: number;
  /** XP at the start, per skill, to measure progress. */
  startXp: Record<string, number>;
  progress: GoalProgress;
  /** A gathering goal the agent comes back to after emptying its pack at the bank. */
  resume?: Goal;
}

/** A goal as the owner (REST) and an external runtime (`goalOverride`) are shown it: what it is, who set it, how far it got. */
export interface GoalView {
  id: string;
  type: GoalType;
  target: string | null;
  source: Goal["source"];
  progress: GoalProgress;
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

/** The inventory as the game rules see it (28 slots). */
export function inventoryOf(self: SelfState): Inventory {
  const inv: Inventory = new Array(INVENTORY_SIZE).fill(null);
  for (const s of self.inventory) inv[s.slot] = { itemId: s.itemId, quantity: s.quantity };
  return inv;
}

/** Items the agent keeps when it banks: its tools (and whatever it wears). */
export function isKept(k: WorldKnowledge, itemId: string): boolean {
  const def = k.data.items.get(itemId);
  return Boolean(def && (def.toolSkill || def.type === "tool" || k.data.tools.has(itemId)));
}

export const hasBankable = (k: WorldKnowledge, self: SelfState) => self.inventory.some((s) => !s.locked && !isKept(k, s.itemId));

/** Every goal the agent could take now, each available or with the reason it is not. */
export function availableGoals(view: AgentView, k: WorldKnowledge): GoalOption[] {
  const self = view.self;
  if (!self) return [];
  const out: GoalOption[] = [];
  const inv = inventoryOf(self);
  const equipped = Object.values(self.equipment).flatMap((s) => (s ? [s.itemId] : []));
  for (const skill of GATHERING_SKILLS) {
    for (const def of k.data.gathering[skill].values()) {
      if (!k.resourceSpots.has(def.id)) continue;
      const check = canGather(def, self.skills[skill]?.level ?? 1, inv, k.data.items, { tools: k.data.tools, equipped });
      out.push({
        id: `${skill}:${def.id}`,
        type: skill,
        target: def.id,
        name: `${verb(skill)} ${def.name.toLowerCase()}`,
        available: check.ok,
        ...(check.ok ? {} : { reason: check.message }),
      });
    }
  }
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
  out.push({ id: "idle", type: "idle", target: null, name: "Idle", available: true });
  return out;
}

const verb = (skill: GatheringSkill) => (skill === "woodcutting" ? "Chop" : skill === "mining" ? "Mine" : "Fish at");

/**
 * What the agent picks on its own: bank a full pack; otherwise train its lowest gathering skill it
 * can train here; otherwise fight the weakest npc it can; otherwise idle.
 */
export function chooseGoal(view: AgentView, k: WorldKnowledge, rng: () => number = Math.random): GoalOption {
  const options = availableGoals(view, k).filter((o) => o.available);
  const self = view.self!;
  if (view.freeSlots() === 0 && options.some((o) => o.type === "bank")) return options.find((o) => o.type === "bank")!;
  const gathering = options.filter((o) => (GATHERING_SKILLS as readonly string[]).includes(o.type));
  if (gathering.length) {
    // The lowest skill first (a random one among equals, so a crowd spreads out); within it, the
    // hardest resource the agent may work.
    const lowest = Math.min(...gathering.map((o) => self.skills[o.type]?.level ?? 1));
    const skills = [...new Set(gathering.filter((o) => (self.skills[o.type]?.level ?? 1) === lowest).map((o) => o.type))];
    const skill = skills[Math.floor(rng() * skills.length)];
    return gathering.filter((o) => o.type === skill).sort((a, b) => levelOf(k, b) - levelOf(k, a))[0];
  }
  const combat = options.filter((o) => o.type === "combat").sort((a, b) => k.npcSpawns.get(a.target!)!.level - k.npcSpawns.get(b.target!)!.level);
  if (combat.length) return combat[0];
  return options.find((o) => o.type === "idle")!;
}

const levelOf = (k: WorldKnowledge, o: GoalOption) => k.data.gathering[o.type as GatheringSkill].get(o.target!)?.levelRequired ?? 1;

/** A command an owner can send in words. */
export type Command =
  | { kind: "gather"; skill: GatheringSkill }
  | { kind: "attack"; npc: string | null }
  | { kind: "pickup" }
  | { kind: "bank" }
  | { kind: "stop" }
  | { kind: "idle" };

/** "chop trees", "mine", "fish", "attack goblin", "pick up", "go to bank", "stop", "idle" (and close variants); null otherwise. */
export function parseCommand(text: string): Command | null {
  const t = text
    .toLowerCase()
    .replace(/[^a-z ]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (/^(chop|cut)( down)?( some| the)? (trees?|wood|logs)$|^(chop|woodcut|woodcutting)$/.test(t)) return { kind: "gather", skill: "woodcutting" };
  if (/^(mine|mining)( (some|the))?( (ore|rocks?|copper|tin))?$/.test(t)) return { kind: "gather", skill: "mining" };
  if (/^(fish|fishing)( (some|for))?( (fish|shrimps?))?$/.test(t)) return { kind: "gather", skill: "fishing" };
  const attack = /^(attack|fight|kill)( (a|an|the|some))?( ([a-z ]+?))?s?$/.exec(t);
  if (attack) return { kind: "attack", npc: attack[5]?.trim() || null };
  if (/^(pick up|pickup|loot|take)( (it|items?|that|everything|the loot))?$/.test(t)) return { kind: "pickup" };
  if (/^(go to( the)? bank|bank|bank (it|everything|the inventory))$/.test(t)) return { kind: "bank" };
  if (/^(stop|halt|wait)$/.test(t)) return { kind: "stop" };
  if (/^(idle|rest|relax)$/.test(t)) return { kind: "idle" };
  return null;
}

/** The npc definition a spoken name refers to ("goblin", "goblins", "Goblin"). */
export function npcByName(k: WorldKnowledge, name: string): string | null {
  const n = name.toLowerCase().replace(/s$/, "");
  for (const [id, s] of k.npcSpawns) if (id === n || s.name.toLowerCase() === n || id.replace(/_/g, " ") === n) return id;
  return null;
}
