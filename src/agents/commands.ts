import type { WorldKnowledge } from "./knowledge.js";
import type { GatheringSkill } from "../protocol/index.js";

/** A command an owner can send in words. */
export type Command =
  | { kind: "gather"; skill: GatheringSkill }
  | { kind: "attack"; npc: string | null }
  | { kind: "pickup" }
  | { kind: "bank" }
  | { kind: "buy"; item: string }
  | { kind: "sell" }
  | { kind: "quest"; quest: string | null }
  | { kind: "stop" }
  | { kind: "idle" };

/** Lower case, apostrophes dropped, anything but letters a space: "Warden's Letter!" → "wardens letter". */
export const normalName = (text: string) =>
  text
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^a-z ]/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/**
 * "chop trees", "mine", "fish", "attack goblin", "pick up", "go to bank", "buy a hatchet", "sell",
 * "do quest the wardens letter", "stop", "idle" (and close variants); null otherwise.
 */
export function parseCommand(text: string): Command | null {
  const t = normalName(text);
  if (/^(chop|cut)( down)?( some| the)? (trees?|wood|logs)$|^(chop|woodcut|woodcutting)$/.test(t)) return { kind: "gather", skill: "woodcutting" };
  if (/^(mine|mining)( (some|the))?( (ore|rocks?|copper|tin))?$/.test(t)) return { kind: "gather", skill: "mining" };
  if (/^(fish|fishing)( (some|for))?( (fish|shrimps?))?$/.test(t)) return { kind: "gather", skill: "fishing" };
  const attack = /^(attack|fight|kill)( (a|an|the|some))?( ([a-z ]+?))?s?$/.exec(t);
  if (attack) return { kind: "attack", npc: attack[5]?.trim() || null };
  if (/^(pick up|pickup|loot|take)( (it|items?|that|everything|the loot))?$/.test(t)) return { kind: "pickup" };
  if (/^(go to( the)? bank|bank|bank (it|everything|the inventory))$/.test(t)) return { kind: "bank" };
  if (/^(go )?sell( (it|them|everything|all|what i gathered|(my |the )?(stuff|items|logs|ores?|fish)))?$/.test(t)) return { kind: "sell" };
  const buy = /^(buy|purchase)( (a|an|some|the|me a|me an))? ([a-z ]+)$/.exec(t);
  if (buy) return { kind: "buy", item: buy[4].trim() };
  const quest = /^((do|start|finish|complete)( the)? quest|quest)( ([a-z ]+))?$/.exec(t);
  if (quest) return { kind: "quest", quest: quest[5]?.trim() || null };
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

/** The quest a spoken name refers to ("the wardens letter", "wardens letter", "mudfoot_menace"), or null. */
export function questByName(k: WorldKnowledge, name: string): string | null {
  const n = normalName(name).replace(/^the /, "");
  for (const q of k.data.quests.values()) {
    const names = [q.name, q.id.replace(/_/g, " ")].map((x) => normalName(x).replace(/^the /, ""));
    if (names.includes(n)) return q.id;
  }
  return null;
}

/** The items a spoken name refers to ("hatchet", "bronze hatchet", "iron_pickaxe"), best match first. */
export function itemsByName(k: WorldKnowledge, name: string): string[] {
  const n = normalName(name).replace(/s$/, "");
  const exact: string[] = [];
  const partial: string[] = [];
  for (const def of k.data.items.values()) {
    const names = [def.name, def.id.replace(/_/g, " ")].map(normalName);
    if (names.includes(n)) exact.push(def.id);
    else if (names.some((x) => x.split(" ").includes(n) || x.endsWith(` ${n}`))) partial.push(def.id);
  }
  return [...exact, ...partial];
}
