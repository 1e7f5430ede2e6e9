/**
 * Gathering resources: trees, rocks and fishing spots from gathering/*.json (current format)
 * or the older format's resources.json (times in milliseconds), indexed by skill and id.
 */
import type { LoadContext } from "./context.js";
import { labelOf, rawOf } from "./context.js";
import { GATHERING_SKILLS } from "../protocol/vocabulary.js";
import type { GatheringResource, GatheringSkill, GatheringYield } from "./gameData.js";
import { gatheringFileSchemas, gatheringListKey, gatheringResourceSchema, gatheringYieldSchema, legacyResourcesFileSchema } from "./schemasWorld.js";
import { def, msToTicks } from "./util.js";
import type { z } from "zod";

type ResourceRecord = z.infer<typeof gatheringResourceSchema>;

/** Defaults when the data leaves depletion out: trees sometimes fall, rocks always empty, spots never. */
const DEFAULT_DEPLETE: Record<GatheringSkill, number> = { woodcutting: 0.125, mining: 1, fishing: 0 };

/** The skill a resource belongs to, from its harvestSkill or its type. */
export function skillOfType(type: string | undefined | null): GatheringSkill | undefined {
  if (!type) return undefined;
  const t = type.toLowerCase();
  if ((GATHERING_SKILLS as readonly string[]).includes(t)) return t as GatheringSkill;
  if (t === "tree" || t.startsWith("tree_")) return "woodcutting";
  if (t === "ore" || t === "rock" || t.startsWith("ore_") || t.startsWith("rock")) return "mining";
  if (t.startsWith("fish")) return "fishing";
  return undefined;
}

function yieldsOf(ctx: LoadContext, file: string, r: ResourceRecord): GatheringYield[] | undefined {
  const out: GatheringYield[] = [];
  for (const [index, value] of r.harvestYield.entries()) {
    const y = ctx.record(gatheringYieldSchema, value, file, `resource ${r.id} yield ${labelOf(value, index, ["itemId"])}`);
    if (!y) return undefined;
    out.push({
      itemId: y.itemId,
      quantity: y.quantity ?? 1,
      chance: y.chance ?? 1,
      xp: y.xpAmount ?? 0,
      levelRequired: def(y.levelRequired),
      catchLow: def(y.catchLow),
      catchHigh: def(y.catchHigh),
    });
  }
  return out;
}

function toResource(ctx: LoadContext, file: string, r: ResourceRecord, skill: GatheringSkill, raw: Record<string, unknown>): GatheringResource | undefined {
  const yields = yieldsOf(ctx, file, r);
  if (!yields) return undefined;
  const low = r.catchLow ?? yields[0]?.catchLow;
  const high = r.catchHigh ?? yields[0]?.catchHigh;
  return {
    id: r.id,
    name: r.name,
    type: r.type ?? r.resourceType ?? skill,
    skill,
    levelRequired: (r.levelRequired ?? r.requiredLevel)!,
    toolRequired: def(r.toolRequired),
    toolItemIds: [],
    secondaryRequired: def(r.secondaryRequired),
    cycleTicks: r.baseCycleTicks ?? (r.harvestTime != null ? msToTicks(r.harvestTime, 1) : 4),
    depleteChance: r.depleteChance ?? DEFAULT_DEPLETE[skill],
    respawnTicks: r.respawnTicks ?? (r.respawnTime != null ? msToTicks(r.respawnTime) : 0),
    successChance: low != null && high != null ? { low, high } : undefined,
    yields,
    source: file,
    raw,
  };
}

export type GatheringIndex = Record<GatheringSkill, Map<string, GatheringResource>>;

export function emptyGathering(): GatheringIndex {
  return { woodcutting: new Map(), mining: new Map(), fishing: new Map() };
}

function add(ctx: LoadContext, index: GatheringIndex, file: string, resource: GatheringResource): void {
  for (const skill of GATHERING_SKILLS) {
    const existing = index[skill].get(resource.id);
    if (existing) {
      ctx.warn(file, `resource ${resource.id} is already defined in ${existing.source}; duplicate skipped`);
      return;
    }
  }
  index[resource.skill].set(resource.id, resource);
}

/** Read gathering/{woodcutting,mining,fishing}.json. */
export function readGatheringFile(ctx: LoadContext, index: GatheringIndex, skill: GatheringSkill, file: string, json: unknown): void {
  const top = ctx.topLevel(gatheringFileSchemas[skill], json, file, false);
  if (!top) return;
  const list = (top as Record<string, unknown[]>)[gatheringListKey[skill]] ?? [];
  list.forEach((value, i) => {
    const r = ctx.record(gatheringResourceSchema, value, file, `resource ${labelOf(value, i)}`);
    if (!r) return;
    const declared = skillOfType(r.harvestSkill);
    if (declared && declared !== skill) {
      ctx.warn(file, `resource ${r.id} has harvestSkill ${r.harvestSkill} in the ${skill} file; skipped`);
      return;
    }
    const resource = toResource(ctx, file, r, skill, rawOf(value));
    if (resource) add(ctx, index, file, resource);
  });
}

/** Read the older format's resources.json, sorting each resource into its skill. */
export function readLegacyResources(ctx: LoadContext, index: GatheringIndex, file: string, json: unknown): void {
  const list = ctx.topLevel(legacyResourcesFileSchema, json, file, false);
  if (!list) return;
  list.forEach((value, i) => {
    const r = ctx.record(gatheringResourceSchema, value, file, `resource ${labelOf(value, i)}`);
    if (!r) return;
    const skill = skillOfType(r.harvestSkill) ?? skillOfType(r.resourceType) ?? skillOfType(r.type);
    if (!skill) {
      ctx.warn(file, `resource ${r.id}: cannot tell its gathering skill (harvestSkill ${r.harvestSkill ?? "absent"}); skipped`);
      return;
    }
    const resource = toResource(ctx, file, r, skill, rawOf(value));
    if (resource) add(ctx, index, file, resource);
  });
}
