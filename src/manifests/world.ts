/**
 * The world's layout: world areas with their placements, biomes and stores.
 * Records are validated one by one; references between them are checked later (crossrefs.ts).
 */
import type { LoadContext } from "./context.js";
import { labelOf, rawOf } from "./context.js";
import type {
  BiomeDef,
  MobSpawn,
  NpcPlacement,
  Position,
  ResourcePlacement,
  StationPlacement,
  StoreDef,
  StoreItem,
  VegetationLayer,
  WorldArea,
} from "./gameData.js";
import { skillOfType } from "./gathering.js";
import {
  biomeSchema,
  biomesFileSchema,
  mobSpawnSchema,
  npcPlacementSchema,
  resourcePlacementSchema,
  stationPlacementSchema,
  storeItemSchema,
  storeSchema,
  storesFileSchema,
  vegetationLayerSchema,
  worldAreaSchema,
  worldAreasFileSchema,
} from "./schemasWorld.js";
import { def, msToTicks } from "./util.js";

const WORLD_AREAS = "world-areas.json";

function pos(p: { x: number; y?: number | null; z: number }): Position {
  return { x: p.x, y: p.y ?? 0, z: p.z };
}

/** Validate each element of a list; invalid ones are skipped with a warning. */
function each<T>(
  ctx: LoadContext,
  file: string,
  list: unknown[] | null | undefined,
  what: string,
  idKeys: string[],
  read: (value: unknown, label: string) => T | undefined,
): T[] {
  const out: T[] = [];
  (list ?? []).forEach((value, i) => {
    const item = read(value, `${what} ${labelOf(value, i, idKeys)}`);
    if (item !== undefined) out.push(item);
  });
  return out;
}

function readArea(ctx: LoadContext, group: string, key: string, value: unknown): WorldArea | undefined {
  const where = `${group}.${key}`;
  const a = ctx.record(worldAreaSchema, value, WORLD_AREAS, `area ${where}`);
  if (!a) return undefined;
  const f = WORLD_AREAS;
  const npcs = each<NpcPlacement>(ctx, f, a.npcs, `${where} npc`, ["id"], (v, label) => {
    const r = ctx.record(npcPlacementSchema, v, f, label);
    if (!r) return undefined;
    const named = r.name ? { name: r.name, description: def(r.description), services: r.services ?? [], greeting: def(r.dialogue?.greeting) } : undefined;
    return { npcId: r.id, type: def(r.type), storeId: def(r.storeId), position: pos(r.position), ...(named ? { named } : {}), raw: rawOf(v) };
  });
  const resources = each<ResourcePlacement>(ctx, f, a.resources, `${where} resource`, ["resourceId"], (v, label) => {
    const r = ctx.record(resourcePlacementSchema, v, f, label);
    if (!r) return undefined;
    const skill = skillOfType(r.type) ?? skillOfType(r.resourceId) ?? "woodcutting";
    return { resourceId: r.resourceId, skill, type: def(r.type), position: pos(r.position), raw: rawOf(v) };
  });
  const mobSpawns = each<MobSpawn>(ctx, f, a.mobSpawns, `${where} mob spawn`, ["mobId"], (v, label) => {
    const r = ctx.record(mobSpawnSchema, v, f, label);
    return r && { mobId: r.mobId, position: pos(r.position), spawnRadius: r.spawnRadius ?? 0, maxCount: r.maxCount ?? 1, raw: rawOf(v) };
  });
  const stations = each<StationPlacement>(ctx, f, a.stations, `${where} station`, ["id"], (v, label) => {
    const r = ctx.record(stationPlacementSchema, v, f, label);
    return r && { id: r.id, type: r.type, position: pos(r.position), bankId: def(r.bankId), runeType: def(r.runeType), raw: rawOf(v) };
  });
  const isStarterTown = group === "starterTowns";
  const b = a.bounds;
  const spawnPoint = a.spawnPoint ? pos(a.spawnPoint) : isStarterTown ? { x: (b.minX + b.maxX) / 2, y: 0, z: (b.minZ + b.maxZ) / 2 } : undefined;
  return {
    id: a.id ?? key,
    name: a.name,
    description: def(a.description),
    group,
    isStarterTown,
    difficultyLevel: a.difficultyLevel ?? 0,
    bounds: { minX: b.minX, maxX: b.maxX, minZ: b.minZ, maxZ: b.maxZ },
    biomeType: def(a.biomeType),
    safeZone: a.safeZone ?? false,
    pvpEnabled: a.pvpEnabled ?? false,
    spawnPoint,
    npcs,
    resources,
    mobSpawns,
    stations,
    fishing: a.fishing ? { enabled: a.fishing.enabled ?? true, spotCount: a.fishing.spotCount ?? 0, spotTypes: a.fishing.spotTypes ?? [] } : undefined,
    raw: rawOf(value),
  };
}

/** world-areas.json: groups of areas keyed by id. A duplicate area id keeps the first one. */
export function buildWorldAreas(ctx: LoadContext, json: unknown): Map<string, WorldArea> {
  const areas = new Map<string, WorldArea>();
  const top = ctx.topLevel(worldAreasFileSchema, json, WORLD_AREAS, true);
  if (!top) return areas;
  for (const [group, members] of Object.entries(top)) {
    for (const [key, value] of Object.entries(members)) {
      const area = readArea(ctx, group, key, value);
      if (!area) continue;
      const existing = areas.get(area.id);
      if (existing) {
        ctx.warn(WORLD_AREAS, `area ${group}.${key}: id ${area.id} is already used in ${existing.group}; skipped`);
        continue;
      }
      areas.set(area.id, area);
    }
  }
  return areas;
}

/** biomes.json: a list of biomes. */
export function buildBiomes(ctx: LoadContext, json: unknown): Map<string, BiomeDef> {
  const file = "biomes.json";
  const biomes = new Map<string, BiomeDef>();
  const list = ctx.topLevel(biomesFileSchema, json, file, true) ?? [];
  list.forEach((value, i) => {
    const b = ctx.record(biomeSchema, value, file, `biome ${labelOf(value, i)}`);
    if (!b) return;
    if (biomes.has(b.id)) {
      ctx.warn(file, `biome ${b.id} is defined twice; duplicate skipped`);
      return;
    }
    const layers = each<VegetationLayer>(ctx, file, b.vegetation?.layers, `biome ${b.id} vegetation layer`, ["category"], (v, label) => {
      const l = ctx.record(vegetationLayerSchema, v, file, label);
      return l && { category: l.category, density: l.density ?? 0, assets: [...(l.assets ?? [])], raw: rawOf(v) };
    });
    biomes.set(b.id, {
      id: b.id,
      name: b.name,
      description: def(b.description),
      difficultyLevel: b.difficultyLevel ?? 0,
      terrain: def(b.terrain),
      mobs: [...(b.mobs ?? [])],
      vegetationEnabled: b.vegetation?.enabled ?? layers.length > 0,
      vegetation: layers,
      raw: rawOf(value),
    });
  });
  return biomes;
}

/** stores.json: a list of stores, each with the items it sells. */
export function buildStores(ctx: LoadContext, json: unknown): Map<string, StoreDef> {
  const file = "stores.json";
  const stores = new Map<string, StoreDef>();
  const list = ctx.topLevel(storesFileSchema, json, file, true) ?? [];
  list.forEach((value, i) => {
    const s = ctx.record(storeSchema, value, file, `store ${labelOf(value, i)}`);
    if (!s) return;
    if (stores.has(s.id)) {
      ctx.warn(file, `store ${s.id} is defined twice; duplicate skipped`);
      return;
    }
    const items = each<StoreItem>(ctx, file, s.items, `store ${s.id} item`, ["itemId", "id"], (v, label) => {
      const r = ctx.record(storeItemSchema, v, file, label);
      return (
        r && {
          itemId: (r.itemId ?? r.id)!,
          price: r.price,
          stockQuantity: r.stockQuantity ?? -1,
          restockTime: r.restockTime ?? 0,
          restockTicks: msToTicks((r.restockTime ?? 0) * 1000, r.restockTime ? 1 : 0),
          category: def(r.category),
        }
      );
    });
    stores.set(s.id, {
      id: s.id,
      name: s.name,
      description: def(s.description),
      buyback: s.buyback ?? true,
      buybackRate: s.buybackRate ?? 0.5,
      items,
      raw: rawOf(value),
    });
  });
  return stores;
}
