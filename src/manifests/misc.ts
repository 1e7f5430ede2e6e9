/**
 * The smaller optional manifests the server models: skill unlocks, tools, quests, the starter kit,
 * character templates, buildings, music, stations and vegetation assets.
 */
import type { LoadContext } from "./context.js";
import { itemList, labelOf, rawOf } from "./context.js";
import type { BuildingDef, CharacterTemplate, MusicTrack, SkillUnlock, StationDef, ToolDef, VegetationAsset } from "./gameData.js";
import type { ItemQuantity } from "./shapes.js";
import {
  buildingSchema,
  buildingsFileSchema,
  musicFileSchema,
  musicTrackSchema,
  skillUnlockSchema,
  skillUnlocksFileSchema,
  starterKitEntrySchema,
  starterKitFileSchema,
  stationSchema,
  stationsFileSchema,
  templateSchema,
  templatesFileSchema,
  toolSchema,
  toolsFileSchema,
  vegetationAssetSchema,
  vegetationFileSchema,
} from "./schemasMisc.js";
import { def, normalizeSkillName } from "./util.js";

/** skill-unlocks.json: skill -> unlocks, each list sorted by level (stable). */
export function buildSkillUnlocks(ctx: LoadContext, file: string, json: unknown): Record<string, SkillUnlock[]> {
  const out: Record<string, SkillUnlock[]> = {};
  const top = ctx.topLevel(skillUnlocksFileSchema, json, file, false);
  if (!top) return out;
  for (const [rawSkill, list] of Object.entries(top.skills)) {
    const skill = normalizeSkillName(rawSkill);
    const entries = (out[skill] ??= []);
    list.forEach((value, i) => {
      const r = ctx.record(skillUnlockSchema, value, file, `${rawSkill} unlock #${i}`);
      if (r) entries.push({ level: r.level, description: r.description, type: r.type });
    });
  }
  for (const list of Object.values(out)) list.sort((a, b) => a.level - b.level);
  return out;
}

/** tools.json: which items are gathering tools, their tier and level. */
export function buildTools(ctx: LoadContext, file: string, json: unknown): Map<string, ToolDef> {
  const tools = new Map<string, ToolDef>();
  const list = ctx.topLevel(toolsFileSchema, json, file, false) ?? [];
  list.forEach((value, i) => {
    const r = ctx.record(toolSchema, value, file, `tool ${labelOf(value, i, ["itemId"])}`);
    if (!r) return;
    if (tools.has(r.itemId)) {
      ctx.warn(file, `tool ${r.itemId} is listed twice; duplicate skipped`);
      return;
    }
    tools.set(r.itemId, {
      itemId: r.itemId,
      skill: normalizeSkillName(r.skill),
      tier: def(r.tier),
      levelRequired: r.levelRequired ?? 1,
      priority: r.priority ?? 0,
      rollTicks: def(r.rollTicks),
      raw: rawOf(value),
    });
  });
  return tools;
}

/** starter-kit.json: the items a new character starts with. */
export function buildStarterKit(ctx: LoadContext, file: string, json: unknown): ItemQuantity[] {
  const top = ctx.topLevel(starterKitFileSchema, json, file, false);
  if (!top) return [];
  const list = Array.isArray(top) ? top : top.items;
  const out: ItemQuantity[] = [];
  list.forEach((value, i) => {
    const r = ctx.record(starterKitEntrySchema, value, file, `entry ${labelOf(value, i, ["itemId"])}`);
    if (r) out.push({ itemId: r.itemId, quantity: r.quantity });
  });
  return out;
}

/** character-templates.json: starter builds a new character may pick. */
export function buildTemplates(ctx: LoadContext, file: string, json: unknown): Map<string, CharacterTemplate> {
  const templates = new Map<string, CharacterTemplate>();
  const top = ctx.topLevel(templatesFileSchema, json, file, false);
  if (!top) return templates;
  const list = Array.isArray(top) ? top : top.templates;
  list.forEach((value, i) => {
    const r = ctx.record(templateSchema, value, file, `template ${labelOf(value, i)}`);
    if (!r) return;
    if (templates.has(r.id)) {
      ctx.warn(file, `template ${r.id} is defined twice; duplicate skipped`);
      return;
    }
    const skills: Record<string, number> = {};
    for (const [k, v] of Object.entries(r.skills ?? {})) skills[normalizeSkillName(k)] = v;
    templates.set(r.id, {
      id: r.id,
      name: r.name,
      description: def(r.description),
      skills,
      items: itemList(ctx, file, r.items, `template ${r.id}`),
      raw: rawOf(value),
    });
  });
  return templates;
}

/** buildings.json: solid footprints placed in the world (obstacles for movement). */
export function buildBuildings(ctx: LoadContext, file: string, json: unknown): BuildingDef[] {
  const list = ctx.topLevel(buildingsFileSchema, json, file, false) ?? [];
  const out: BuildingDef[] = [];
  list.forEach((value, i) => {
    const r = ctx.record(buildingSchema, value, file, `building ${labelOf(value, i)}`);
    if (!r) return;
    out.push({
      id: r.id,
      name: def(r.name),
      type: def(r.type),
      areaId: def(r.areaId),
      position: { x: r.position.x, y: r.position.y ?? 0, z: r.position.z },
      footprint: { width: r.footprint.width, depth: r.footprint.depth },
      rotation: r.rotation ?? 0,
      raw: rawOf(value),
    });
  });
  return out;
}

/** music.json: tracks with their asset paths. */
export function buildMusic(ctx: LoadContext, file: string, json: unknown): MusicTrack[] {
  const list = ctx.topLevel(musicFileSchema, json, file, false) ?? [];
  const out: MusicTrack[] = [];
  list.forEach((value, i) => {
    const r = ctx.record(musicTrackSchema, value, file, `track ${labelOf(value, i)}`);
    if (r) out.push({ id: r.id, name: r.name, category: r.category ?? "normal", path: r.path, raw: rawOf(value) });
  });
  return out;
}

/** stations.json: station kinds (anvil, furnace, range, bank, ...) keyed by type. */
export function buildStations(ctx: LoadContext, file: string, json: unknown): Map<string, StationDef> {
  const stations = new Map<string, StationDef>();
  const top = ctx.topLevel(stationsFileSchema, json, file, false);
  (top?.stations ?? []).forEach((value, i) => {
    const r = ctx.record(stationSchema, value, file, `station ${labelOf(value, i, ["type"])}`);
    if (r) stations.set(r.type, { type: r.type, name: r.name, model: def(r.model), raw: rawOf(value) });
  });
  return stations;
}

/** vegetation.json: vegetation asset ids the biomes' layers may name. */
export function buildVegetation(ctx: LoadContext, file: string, json: unknown): Map<string, VegetationAsset> {
  const assets = new Map<string, VegetationAsset>();
  const top = ctx.topLevel(vegetationFileSchema, json, file, false);
  (top?.assets ?? []).forEach((value, i) => {
    const r = ctx.record(vegetationAssetSchema, value, file, `asset ${labelOf(value, i)}`);
    if (r) assets.set(r.id, { id: r.id, model: def(r.model), category: def(r.category), raw: rawOf(value) });
  });
  return assets;
}
