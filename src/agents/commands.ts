import type { WorldKnowledge } from "../game/world/knowledge.js";
import { PRODUCTION_KINDS, type AgentCommand, type ProductionKind } from "../protocol/index.js";
import { productionWordsList } from "./productionWords.js";

/** A command an owner can send in words: the wire's `AgentCommand` (an external runtime is told the same). */
export type Command = AgentCommand;

/** Lower case, apostrophes dropped, anything but letters a space: "Warden's Letter!" → "wardens letter". */
export const normalName = (text: string) =>
  text
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^a-z ]/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** The verbs of making, and the kind of production each names (null: any). */
const MAKE_VERBS: Record<string, ProductionKind | null> = {
  ...Object.fromEntries(productionWordsList().flatMap(([kind, w]) => w.words.map((word) => [word, kind]))),
  make: null,
  create: null,
};
/** Words that name no item in particular: the best it can make. */
const ANYTHING = /^(bars?|ores?|hides?|cowhides?|skins?|items?|things?|stuff|something|anything|some)$/;

/** "smith a bronze dagger", "smelt", "smith 5 bronze daggers", "make arrows", "tan hides", "runecraft", "craft runes". */
function parseMake(text: string): Command | null {
  const t = text
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9 ]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  const m = /^([a-z]+)(?: (?:me )?(?:a|an|some|the)?)?(?: ?(\d{1,6}))?(?: ([a-z ]+))?$/.exec(t);
  if (!m || !Object.hasOwn(MAKE_VERBS, m[1])) return null;
  const skill = MAKE_VERBS[m[1]];
  const item = m[3]?.trim().replace(/ (please|for me)$/, "") || null;
  if (skill === null && !item) return null;
  const count = m[2] ? Number(m[2]) : null;
  return { kind: "make", skill, item: item && !ANYTHING.test(item) ? item : null, count: count && count > 0 ? count : null };
}

/**
 * "chop trees", "mine", "fish", "smith a bronze dagger" (and "smelt", "craft", "fletch",
 * "runecraft", "tan", "make ..."), "attack goblin", "pick up", "go to bank", "buy a hatchet", "sell",
 * "do quest the wardens letter", "stop", "idle" (and close variants); null otherwise.
 */
export function parseCommand(text: string): Command | null {
  const make = parseMake(text);
  if (make) return make;
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

/**
 * The production recipes a spoken name refers to, among `kinds`: those making an item of that name
 * ("bronze dagger", "arrows", "runes"), else those using one ("cowhide", "copper").
 */
export function recipesByName(
  k: WorldKnowledge,
  name: string,
  kinds: readonly ProductionKind[] = PRODUCTION_KINDS,
): Array<{ kind: ProductionKind; id: string }> {
  const items = itemsByName(k, name);
  const all = kinds.flatMap((kind) => (k.data.recipes[kind] ?? []).map((r) => ({ kind, r })));
  const making = all.filter(({ r }) => items.includes(r.id));
  const using = all.filter(({ r }) => r.inputs.some((i) => items.includes(i.itemId)));
  return (making.length ? making : using).map(({ kind, r }) => ({ kind, id: r.id }));
}
