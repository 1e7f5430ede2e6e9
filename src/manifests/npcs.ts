/**
 * Npcs: npcs.json (current format: stats/combat/movement/drops blocks) and the older format's
 * mobs.json (flat fields, times in milliseconds), both read into one index of NpcDef.
 */
import { z } from "zod";
import type { LoadContext } from "./context.js";
import { labelOf, rawOf } from "./context.js";
import { dialogueOf } from "./dialogue.js";
import type { DropEntry, DropRarity, NpcCombat, NpcDef, NpcPlacement } from "./gameData.js";
import { dropSchema, npcSchema, type NpcRecord } from "./schemas.js";
import { def, msToTicks } from "./util.js";

const npcFileSchema = z.array(z.unknown());

const CURRENT_GROUPS: Array<[string, DropRarity]> = [
  ["always", "always"],
  ["common", "common"],
  ["uncommon", "uncommon"],
  ["rare", "rare"],
  ["veryRare", "very_rare"],
];
const LEGACY_GROUPS: Array<[string, DropRarity]> = [
  ["guaranteedDrops", "always"],
  ["commonDrops", "common"],
  ["uncommonDrops", "uncommon"],
  ["rareDrops", "rare"],
];

function dropEntry(ctx: LoadContext, file: string, npcId: string, value: unknown, rarity: DropRarity): DropEntry | undefined {
  const r = ctx.record(dropSchema, value, file, `npc ${npcId} drop ${labelOf(value, 0, ["itemId"])}`);
  if (!r) return undefined;
  const min = r.minQuantity ?? r.quantity ?? 1;
  const max = r.maxQuantity ?? Math.max(min, r.quantity ?? min);
  if (max < min) {
    ctx.warn(file, `npc ${npcId} drop ${r.itemId}: maxQuantity ${max} is below minQuantity ${min}; skipped`);
    return undefined;
  }
  return { itemId: r.itemId, minQuantity: min, maxQuantity: max, chance: r.chance ?? 1, rarity };
}

function dropsOf(ctx: LoadContext, file: string, r: NpcRecord): DropEntry[] {
  const out: DropEntry[] = [];
  const push = (value: unknown, rarity: DropRarity) => {
    const entry = dropEntry(ctx, file, r.id, value, rarity);
    if (entry) out.push(entry);
  };
  const groups = (table: Record<string, unknown>, names: Array<[string, DropRarity]>) => {
    for (const [key, rarity] of names) {
      const list = table[key];
      if (Array.isArray(list)) list.forEach((v) => push(v, rarity));
    }
  };
  if (r.lootTable) {
    groups(r.lootTable, LEGACY_GROUPS);
  } else if (Array.isArray(r.drops)) {
    r.drops.forEach((v) => {
      const guaranteed = v && typeof v === "object" && (v as Record<string, unknown>).isGuaranteed === true;
      push(v, guaranteed ? "always" : "common");
    });
  } else if (r.drops) {
    const d = r.drops.defaultDrop;
    if (d && d.enabled !== false && d.itemId) {
      push({ itemId: d.itemId, quantity: d.quantity ?? 1, chance: 1 }, "always");
    }
    groups(r.drops, CURRENT_GROUPS);
  }
  return out;
}

/** The npc's fighting style; an unknown one is a warning and fights in melee. */
function attackStyleOf(
  ctx: LoadContext,
  file: string,
  npcId: string,
  c: NonNullable<NpcRecord["combat"]>,
): Pick<NpcCombat, "attackType" | "spellId" | "arrowId"> {
  const type = (c.attackType ?? "melee").toLowerCase();
  if (type !== "melee" && type !== "ranged" && type !== "magic") {
    ctx.warn(file, `npc ${npcId}: unknown attackType ${c.attackType}; it fights in melee`);
    return { attackType: "melee" };
  }
  return { attackType: type, ...(c.spellId ? { spellId: c.spellId } : {}), ...(c.arrowId ? { arrowId: c.arrowId } : {}) };
}

function servicesOf(r: NpcRecord): string[] {
  const list = Array.isArray(r.services) ? r.services : r.services?.enabled === false ? [] : (r.services?.types ?? []);
  return list.map(serviceName);
}

const serviceName = (s: string) => (s === "banking" ? "bank" : s);

/**
 * A townsperson defined by its world-areas placement alone (a `name`, and npcs.json without its
 * id): not attackable, standing still, offering the placement's `type` and `services`, saying its
 * `dialogue.greeting` when talked to. The published duel arena's nurse (type `healer`) is one.
 */
export function placementNpc(p: NpcPlacement & { named: NonNullable<NpcPlacement["named"]> }, file: string): NpcDef {
  const services = [...new Set([...(p.type ? [p.type] : []), ...p.named.services].map(serviceName))];
  const greeting = p.named.greeting;
  return {
    id: p.npcId,
    name: p.named.name,
    description: p.named.description,
    category: "neutral",
    level: 1,
    stats: { level: 1, health: 10, attack: 1, strength: 1, defense: 1, defenseBonus: 0, ranged: 1, magic: 1 },
    combat: {
      attackable: false,
      aggressive: false,
      retaliates: false,
      aggroRange: 0,
      combatRange: 1,
      leashRange: 0,
      attackSpeedTicks: 4,
      respawnTicks: 25,
      attackType: "melee",
    },
    movement: { type: "stationary", speed: 0, wanderRadius: 0 },
    drops: [],
    services,
    dialogue: greeting
      ? { entryNodeId: "greeting", nodes: new Map([["greeting", { id: "greeting", text: greeting, responses: [] }]]), questOverrides: {} }
      : undefined,
    source: file,
    raw: {},
  };
}

export function toNpcDef(ctx: LoadContext, file: string, r: NpcRecord, legacyMob: boolean): NpcDef {
  const attackableDefault = legacyMob || r.category === "mob";
  const category = r.category ?? (legacyMob ? "mob" : "neutral");
  const s = r.stats ?? {};
  const c = r.combat ?? {};
  const level = s.level ?? r.level ?? r.levelRange?.[0] ?? 1;
  return {
    id: r.id,
    name: r.name,
    description: def(r.description),
    category,
    faction: def(r.faction),
    level,
    stats: {
      level,
      health: s.health ?? r.health ?? s.constitution ?? 10,
      attack: s.attack ?? 1,
      strength: s.strength ?? 1,
      defense: s.defense ?? 1,
      defenseBonus: s.defenseBonus ?? 0,
      ranged: s.ranged ?? 1,
      magic: s.magic ?? 1,
    },
    combat: {
      attackable: c.attackable ?? attackableDefault,
      aggressive: c.aggressive ?? r.behavior?.aggressive ?? false,
      retaliates: c.retaliates ?? true,
      aggroRange: c.aggroRange ?? r.behavior?.aggroRange ?? 4,
      combatRange: c.combatRange ?? r.combatRange ?? 1,
      leashRange: c.leashRange ?? r.behavior?.chaseRange ?? 7,
      attackSpeedTicks: c.attackSpeedTicks ?? (r.attackSpeed != null ? msToTicks(r.attackSpeed * 1000, 1) : 4),
      respawnTicks: c.respawnTicks ?? (r.respawnTime != null ? msToTicks(r.respawnTime) : 25),
      ...attackStyleOf(ctx, file, r.id, c),
    },
    movement: {
      type: r.movement?.type ?? (attackableDefault ? "wander" : "stationary"),
      speed: r.movement?.speed ?? r.moveSpeed ?? 0,
      wanderRadius: r.movement?.wanderRadius ?? 0,
    },
    drops: dropsOf(ctx, file, r),
    services: servicesOf(r),
    dialogue: dialogueOf(ctx, file, r.id, r.dialogue),
    modelPath: def(r.appearance?.modelPath) ?? def(r.modelPath),
    source: file,
    raw: {},
  };
}

/**
 * Build the npc index from npcs.json (required) and, in the older format, mobs.json.
 * A duplicate id keeps the first definition.
 */
export function buildNpcs(ctx: LoadContext, files: Array<[string, unknown, { required: boolean; legacyMobs: boolean }]>) {
  const npcs = new Map<string, NpcDef>();
  for (const [file, json, { required, legacyMobs }] of files) {
    const list = ctx.topLevel(npcFileSchema, json, file, required);
    if (!list) continue;
    list.forEach((value, index) => {
      const record = ctx.record(npcSchema, value, file, `npc ${labelOf(value, index)}`);
      if (!record) return;
      const existing = npcs.get(record.id);
      if (existing) {
        ctx.warn(file, `npc ${record.id} is already defined in ${existing.source}; duplicate skipped`);
        return;
      }
      const npc = toNpcDef(ctx, file, record, legacyMobs);
      npc.raw = rawOf(value);
      npcs.set(record.id, npc);
    });
  }
  return npcs;
}
