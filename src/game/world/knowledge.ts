import type { GameData, GatheringResource } from "../../manifests/index.js";
import { newStock, type StoreStock } from "../store.js";
import type { Tile } from "../types.js";
import { isTanner } from "./making.js";
import type { World } from "./World.js";

/**
 * The map as every client knows it from the world data: where the banks, the resource spots and
 * the npcs' spawns are, the named areas, and which tiles can be walked on. Static: made once.
 */
export interface WorldKnowledge {
  data: GameData;
  banks: Tile[];
  /** Spots of each gathering resource (by resource id), with their skill. */
  resourceSpots: Map<string, { skill: string; tiles: Tile[] }>;
  /** Spawn tiles of each attackable npc kind (by npc definition id), with its level. */
  npcSpawns: Map<string, { name: string; level: number; tiles: Tile[] }>;
  areas: Array<{ id: string; name: string; centre: Tile }>;
  /** Npcs one talks or trades with (not fighters), by npc definition id: each instance where it stands. */
  townsfolk: Map<string, Townsperson[]>;
  /** Who keeps which store (an npc instance with a `storeId`). */
  keepers: Townsperson[];
  /** Every store as its data lists it (prices and what it buys; live stock is told when it opens). */
  stores: Map<string, StoreStock>;
  /** Which gathering resources (ids) yield an item, by item id. */
  yieldsOf: Map<string, string[]>;
  /** The stations the world places (furnaces, anvils, altars with their rune type, ...): `production:make`'s `stationId`. */
  stations: Station[];
  /** The npcs who tan hides (`production:make` tanning names one as its `stationId`). */
  tanners: Townsperson[];
  walkable(x: number, z: number): boolean;
}

export interface Townsperson {
  /** The npc instance id (what `player:action talk` and `store` name). */
  id: string;
  npcId: string;
  name: string;
  tile: Tile;
  storeId?: string;
}

export interface Station {
  /** The station's entity id. */
  id: string;
  type: string;
  name: string;
  tile: Tile;
  runeType?: string;
}

export function knowledgeOf(world: World): WorldKnowledge {
  const resourceSpots = new Map<string, { skill: string; tiles: Tile[] }>();
  for (const r of world.resources.values()) {
    if (r.skill === "firemaking") continue;
    const spot = resourceSpots.get(r.resourceId) ?? { skill: r.skill, tiles: [] };
    spot.tiles.push({ ...r.tile });
    resourceSpots.set(r.resourceId, spot);
  }
  const npcSpawns = new Map<string, { name: string; level: number; tiles: Tile[] }>();
  const townsfolk = new Map<string, Townsperson[]>();
  const keepers: Townsperson[] = [];
  for (const n of world.npcs.values()) {
    if (!n.attackable && (n.storeId || world.data.npcs.get(n.defId)?.dialogue)) {
      const t: Townsperson = { id: n.id, npcId: n.defId, name: n.name, tile: { ...n.spawn }, ...(n.storeId ? { storeId: n.storeId } : {}) };
      townsfolk.set(n.defId, [...(townsfolk.get(n.defId) ?? []), t]);
      if (t.storeId) keepers.push(t);
    }
    if (!n.attackable) continue;
    const spawns = npcSpawns.get(n.defId) ?? { name: n.name, level: n.level, tiles: [] };
    spawns.tiles.push({ ...n.spawn });
    npcSpawns.set(n.defId, spawns);
  }
  const areas = [...world.data.worldAreas.values()].map((a) => ({
    id: a.id,
    name: a.name,
    centre: { x: Math.round((a.bounds.minX + a.bounds.maxX) / 2), z: Math.round((a.bounds.minZ + a.bounds.maxZ) / 2) },
  }));
  const yieldsOf = new Map<string, string[]>();
  for (const skill of Object.values(world.data.gathering)) {
    for (const def of skill.values()) for (const y of def.yields) yieldsOf.set(y.itemId, [...new Set([...(yieldsOf.get(y.itemId) ?? []), def.id])]);
  }
  return {
    data: world.data,
    banks: world.bankTiles.map((t) => ({ ...t })),
    resourceSpots,
    npcSpawns,
    areas,
    townsfolk,
    keepers,
    stores: new Map([...world.data.stores.values()].map((s) => [s.id, newStock(s)])),
    yieldsOf,
    stations: [...world.stations.values()].map((s) => ({
      id: s.id,
      type: s.type,
      name: s.name,
      tile: { ...s.tile },
      ...(s.runeType ? { runeType: s.runeType } : {}),
    })),
    tanners: [...townsfolk.values()].flat().filter((t) => {
      const npc = world.npcs.get(t.id);
      return npc !== undefined && isTanner(world, npc);
    }),
    walkable: (x, z) => world.map.inBounds(x, z) && !world.map.isBlocked(x, z),
  };
}

/** A walkable tile at most `radius` tiles from `t` (nearest first), or undefined. */
export function walkableNear(k: WorldKnowledge, t: Tile, radius = 3): Tile | undefined {
  for (let r = 0; r <= radius; r++) {
    for (let dx = -r; dx <= r; dx++) {
      for (let dz = -r; dz <= r; dz++) {
        if (Math.max(Math.abs(dx), Math.abs(dz)) !== r) continue;
        if (k.walkable(t.x + dx, t.z + dz)) return { x: t.x + dx, z: t.z + dz };
      }
    }
  }
  return undefined;
}

/** The gathering resource of that id, whatever its skill. */
export function resourceDef(k: WorldKnowledge, id: string): GatheringResource | undefined {
  for (const skill of Object.values(k.data.gathering)) if (skill.has(id)) return skill.get(id);
  return undefined;
}
