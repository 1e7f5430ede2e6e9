import type { ItemStack, Tile } from "../types.js";
import type { NpcEntity, ResourceEntity, StationEntity } from "./entities.js";
import { newStock, restoreShelf } from "../store.js";
import type { World } from "./World.js";
import { chunkKey } from "./worldCore.js";

const tileOf = (p: { x: number; z: number }): Tile => ({ x: Math.round(p.x), z: Math.round(p.z) });

/**
 * Populate a new world from its game data: npcs (townsfolk and mob spawns), resource nodes,
 * the spawn point, bank and range tiles. Ids are derived from the data (area and index), so the
 * same node or npc has the same id after a restart and persisted changes find it again.
 */
export function populateWorld(world: World) {
  const { data } = world;
  world.spawnTile = data.spawn ? tileOf(data.spawn.position) : { x: 0, z: 0 };
  for (const store of data.stores.values()) world.stores.set(store.id, newStock(store));

  for (const area of data.worldAreas.values()) {
    area.npcs.forEach((placement, i) => {
      const def = data.npcs.get(placement.npcId);
      const tile = tileOf(placement.position);
      if (placement.type === "bank" || def?.services.includes("bank")) world.bankTiles.push(tile);
      if (!def) return;
      const npc = addNpc(world, `npc:${area.id}:t${i}`, def.id, tile);
      const storeId = placement.storeId ?? (sellsThings(def.services) && data.stores.size === 1 ? [...data.stores.keys()][0] : undefined);
      if (storeId && data.stores.has(storeId)) npc.storeId = storeId;
    });
    area.mobSpawns.forEach((spawn, i) => {
      const def = data.npcs.get(spawn.mobId);
      if (!def) return;
      for (let k = 0; k < Math.max(1, spawn.maxCount); k++) {
        const tile = findSpawnTile(world, tileOf(spawn.position), spawn.spawnRadius, k);
        addNpc(world, `npc:${area.id}:m${i}:${k}`, def.id, tile);
      }
    });
    area.resources.forEach((placement, i) => {
      const def = data.gathering[placement.skill]?.get(placement.resourceId);
      if (!def) return;
      const r: ResourceEntity = {
        id: `res:${area.id}:${i}`,
        resourceId: def.id,
        skill: placement.skill,
        name: def.name,
        tile: tileOf(placement.position),
        depleted: false,
        respawnAtTick: null,
      };
      world.resources.set(r.id, r);
      world.place("resource", r.id, r.tile);
    });
    for (const station of area.stations) {
      const tile = tileOf(station.position);
      const s: StationEntity = {
        id: `station:${area.id}:${station.id}`,
        type: station.type,
        name: data.stations.get(station.type)?.name ?? station.type,
        tile,
        ...(station.runeType ? { runeType: station.runeType } : {}),
      };
      world.stations.set(s.id, s);
      world.place("station", s.id, tile);
      if (station.type === "bank" || station.type === "bank_booth") world.bankTiles.push(tile);
      if (station.type === "range") world.rangeTiles.push(tile);
    }
  }
  for (const f of world.features) f.populate?.(world);
}

/** Services that make an npc a shopkeeper ("store" in the default world, "shop" in the published data). */
const sellsThings = (services: string[]) => services.includes("store") || services.includes("shop");

function addNpc(world: World, id: string, npcId: string, tile: Tile): NpcEntity {
  const def = world.data.npcs.get(npcId)!;
  const npc: NpcEntity = {
    id,
    defId: npcId,
    name: def.name,
    level: def.level,
    position: { ...tile },
    spawn: { ...tile },
    health: def.stats.health,
    maxHealth: def.stats.health,
    attackable: def.combat.attackable,
    services: def.services,
    target: null,
    lastAttackTick: -1000,
    deadUntilTick: null,
    damageBy: new Map(),
  };
  world.npcs.set(id, npc);
  world.place("npc", id, npc.position);
  return npc;
}

/** A deterministic walkable tile near a mob spawn point, spread around it by index. */
function findSpawnTile(world: World, centre: Tile, radius: number, index: number): Tile {
  const r = Math.max(0, Math.floor(radius));
  const offsets: Tile[] = [];
  for (let dz = -r; dz <= r; dz++) for (let dx = -r; dx <= r; dx++) offsets.push({ x: dx, z: dz });
  offsets.sort((a, b) => Math.max(Math.abs(a.x), Math.abs(a.z)) - Math.max(Math.abs(b.x), Math.abs(b.z)));
  const walkable = offsets.map((o) => ({ x: centre.x + o.x, z: centre.z + o.z })).filter((t) => world.map.inBounds(t.x, t.z) && !world.map.isBlocked(t.x, t.z));
  if (walkable.length === 0) return centre;
  // Spread the k-th npc of a spawn over the ring rather than stacking them on the centre.
  return walkable[(index * 7) % walkable.length];
}

/** What a chunk stores: its ground items (not death piles) and its depleted nodes. */
export interface ChunkData {
  groundItems: Array<{ id: string; itemId: string; quantity: number; x: number; z: number; ownerId: string | null; ageTicks: number }>;
  depleted: Array<{ id: string; respawnInTicks: number }>;
}

export function chunkData(world: World, key: string): ChunkData {
  const out: ChunkData = { groundItems: [], depleted: [] };
  for (const g of world.groundItems.values()) {
    if (g.deathId || chunkKey(g.tile) !== key) continue;
    out.groundItems.push({ id: g.id, itemId: g.itemId, quantity: g.quantity, x: g.tile.x, z: g.tile.z, ownerId: g.ownerId, ageTicks: world.tick - g.createdTick });
  }
  for (const r of world.resources.values()) {
    if (!r.depleted || r.skill === "firemaking" || chunkKey(r.tile) !== key) continue;
    out.depleted.push({ id: r.id, respawnInTicks: Math.max(1, (r.respawnAtTick ?? world.tick) - world.tick) });
  }
  return out;
}

/** Put persisted chunk state back into a freshly populated world (start-up). */
export function restoreChunk(world: World, data: ChunkData) {
  for (const g of data.groundItems ?? []) {
    if (!world.data.items.has(g.itemId) || !(g.quantity > 0)) continue;
    world.addGroundItem({ id: g.id, itemId: g.itemId, quantity: g.quantity, tile: { x: g.x, z: g.z }, ownerId: g.ownerId, createdTick: world.tick - g.ageTicks });
  }
  for (const d of data.depleted ?? []) {
    const r = world.resources.get(d.id);
    if (!r) continue;
    r.depleted = true;
    r.respawnAtTick = world.tick + d.respawnInTicks;
    world.markChanged("resource", r.id);
  }
}

/** Put the shelves back as the database remembers them (start-up). */
export function restoreStock(world: World, rows: Array<{ storeId: string; itemId: string; quantity: number }>) {
  for (const r of rows) {
    const stock = world.stores.get(r.storeId);
    if (stock) restoreShelf(stock, r.itemId, r.quantity, world.data.items, world.tick);
  }
}

/** Put an open death lock's pile back on the ground (start-up), owned by its character. */
export function restoreDeathPile(world: World, death: { id: string; characterId: string; tile: Tile; items: ItemStack[] }) {
  death.items.forEach((stack, i) => {
    if (!world.data.items.has(stack.itemId)) return;
    world.addGroundItem({ id: `death:${death.id}:${i}`, itemId: stack.itemId, quantity: stack.quantity, tile: death.tile, ownerId: death.characterId, createdTick: world.tick, deathId: death.id });
  });
}
