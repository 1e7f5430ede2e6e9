/**
 * Items: every item file of the split layout (items/*.json) or the older single items.json,
 * validated record by record and indexed by id.
 */
import type { LoadContext } from "./context.js";
import { labelOf, rawOf } from "./context.js";
import type { ItemDef } from "./gameData.js";
import { itemSchema, type ItemRecord } from "./schemas.js";
import { z } from "zod";
import { def, normalizeSkillName } from "./util.js";

const itemFileSchema = z.array(z.unknown());

export function toItemDef(r: ItemRecord, source: string, raw: Record<string, unknown>): ItemDef {
  const requirements = r.requirements
    ? {
        level: def(r.requirements.level),
        skills: Object.fromEntries(Object.entries(r.requirements.skills ?? {}).map(([k, v]) => [normalizeSkillName(k), v])),
      }
    : undefined;
  return {
    id: r.id,
    name: r.name,
    type: r.type ?? "misc",
    stackable: r.stackable ?? false,
    maxStackSize: def(r.maxStackSize),
    value: r.value ?? 0,
    tradeable: !(r.tradeable === false || r.untradeable === true),
    weight: def(r.weight),
    tier: def(r.tier),
    equipSlot: r.equipSlot ? r.equipSlot : undefined,
    bonuses: r.bonuses ? { ...r.bonuses } : undefined,
    healAmount: r.healAmount != null && r.healAmount > 0 ? r.healAmount : undefined,
    requirements,
    weaponType: def(r.weaponType),
    attackType: def(r.attackType),
    attackSpeed: def(r.attackSpeed),
    attackRange: def(r.attackRange),
    toolSkill: r.tool?.skill,
    prayerXp: r.prayerXp != null && r.prayerXp > 0 ? r.prayerXp : undefined,
    providesRunes: r.providesInfiniteRunes?.length ? [...r.providesInfiniteRunes] : undefined,
    lampXp: r.useEffect?.type === "xp_lamp" && r.useEffect.xpAmount ? r.useEffect.xpAmount : undefined,
    description: def(r.description),
    examine: def(r.examine),
    modelPath: def(r.modelPath),
    iconPath: def(r.iconPath),
    source,
    raw,
  };
}

/**
 * Build the item index from parsed item files (in load order). Item files are required:
 * a wrong top-level shape is fatal. A duplicate id keeps the first definition.
 */
export function buildItems(ctx: LoadContext, files: Array<[string, unknown]>): Map<string, ItemDef> {
  const items = new Map<string, ItemDef>();
  for (const [file, json] of files) {
    const list = ctx.topLevel(itemFileSchema, json, file, true);
    if (!list) continue;
    list.forEach((value, index) => {
      const label = labelOf(value, index);
      const record = ctx.record(itemSchema, value, file, `item ${label}`);
      if (!record) return;
      const existing = items.get(record.id);
      if (existing) {
        ctx.warn(file, `item ${record.id} is already defined in ${existing.source}; duplicate skipped`);
        return;
      }
      items.set(record.id, toItemDef(record, file, rawOf(value)));
    });
  }
  return items;
}
