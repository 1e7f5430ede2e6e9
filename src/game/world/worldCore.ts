import type { GameData } from "../../manifests/index.js";
import { SpatialGrid } from "../spatialGrid.js";
import { buildTileMap, type TileMap } from "../tileMap.js";
import { GameError, type Rng, type Tile } from "../types.js";
import type { EntityKind, GroundItemEntity, NpcEntity, PlayerEntity, ResourceEntity, StationEntity } from "./entities.js";
import type { StoreStock } from "../store.js";
import { EventSink } from "./events.js";

/** Tiles per side of a persistence chunk (world_chunks). */
export const CHUNK_SIZE = 32;

export const chunkKey = (tile: Tile) => `${Math.floor(tile.x / CHUNK_SIZE)},${Math.floor(tile.z / CHUNK_SIZE)}`;

/**
 * What the world of one shard holds, but for its trades and duels (World.ts adds those): entities,
 * the tile map, the spatial index and the bookkeeping the room reads after each tick (what
 * changed, what was removed, what to save). The trade and duel books see the world as this.
 */
export class WorldCore {
  /** The game data the world plays by: replaced whole by a content reload, between two ticks (contentReload.ts). */
  data: GameData;
  readonly map: TileMap;
  readonly rng: Rng;
  readonly newId: () => string;
  tick = 0;

  readonly players = new Map<string, PlayerEntity>();
  readonly npcs = new Map<string, NpcEntity>();
  readonly resources = new Map<string, ResourceEntity>();
  readonly groundItems = new Map<string, GroundItemEntity>();
  /** Placed by the data once; they never move or change. */
  readonly stations = new Map<string, StationEntity>();

  readonly grids: Record<EntityKind, SpatialGrid<string>> = {
    player: new SpatialGrid(16),
    npc: new SpatialGrid(16),
    resource: new SpatialGrid(16),
    groundItem: new SpatialGrid(16),
    station: new SpatialGrid(16),
  };

  /** Entities whose public state changed this tick (cleared by `endTick`). */
  readonly changedThisTick: Record<EntityKind, Set<string>> = { player: new Set(), npc: new Set(), resource: new Set(), groundItem: new Set(), station: new Set() };
  /** Entities that left the world this tick (cleared by `endTick`). */
  readonly removedThisTick: Record<EntityKind, Set<string>> = { player: new Set(), npc: new Set(), resource: new Set(), groundItem: new Set(), station: new Set() };
  /** Bumped whenever an entity of the kind enters or leaves the world (not when it moves). */
  readonly membershipVersion: Record<EntityKind, number> = { player: 0, npc: 0, resource: 0, groundItem: 0, station: 0 };
  /** Chunks whose persistent state (ground items, depleted nodes) changed since the last save. */
  readonly dirtyChunks = new Set<string>();
  /** Players whose inventories exchanged items with the ground since the last save: saved with the chunks. */
  readonly groundLinked = new Set<string>();

  readonly events = new EventSink();
  /** Every store's shelves, by store id: shared by all the world's players. */
  readonly stores = new Map<string, StoreStock>();
  /**
   * Stock that moved by itself (restocks and decay) since the last save, by store and item: written
   * as changes by the next periodic save. (Purchases and sales are written by their own commits.)
   */
  readonly stockDrift = new Map<string, Map<string, number>>();
  /** Where new and dead players appear. */
  spawnTile: Tile = { x: 0, z: 0 };
  /** Tiles a player must be near to use a bank. */
  bankTiles: Tile[] = [];
  /** Tiles of cooking ranges. */
  rangeTiles: Tile[] = [];

  constructor(data: GameData, rng: Rng, newId: () => string) {
    this.data = data;
    this.rng = rng;
    this.newId = newId;
    this.map = buildTileMap(data);
  }

  /**
   * The end of a tick, once its changes are synchronised and sent: the per-tick change tracking
   * starts again. (What is still to be saved — dirty chunks, dirty players — is kept until saved.)
   */
  endTick() {
    for (const kind of Object.keys(this.changedThisTick) as EntityKind[]) {
      this.changedThisTick[kind].clear();
      this.removedThisTick[kind].clear();
      this.grids[kind].clearMoves();
    }
  }

  markChanged(kind: EntityKind, id: string) {
    this.changedThisTick[kind].add(id);
  }

  /** Place or move an entity in the spatial index and mark it changed. */
  place(kind: EntityKind, id: string, tile: Tile) {
    if (this.grids[kind].put(id, tile.x, tile.z)) this.membershipVersion[kind]++;
    this.changedThisTick[kind].add(id);
  }

  unplace(kind: EntityKind, id: string) {
    if (this.grids[kind].remove(id)) this.membershipVersion[kind]++;
    this.changedThisTick[kind].delete(id);
    this.removedThisTick[kind].add(id);
  }

  addGroundItem(item: GroundItemEntity) {
    this.groundItems.set(item.id, item);
    this.place("groundItem", item.id, item.tile);
    if (!item.deathId) this.dirtyChunks.add(chunkKey(item.tile));
  }

  removeGroundItem(id: string) {
    const item = this.groundItems.get(id);
    if (!item) return;
    this.groundItems.delete(id);
    this.unplace("groundItem", id);
    if (!item.deathId) this.dirtyChunks.add(chunkKey(item.tile));
  }

  /** A player's state changed: save it, sync it to its owner. */
  touchPlayer(p: PlayerEntity, publicToo = false) {
    p.dirty = true;
    p.privateDirty = true;
    if (publicToo) this.changedThisTick.player.add(p.id);
  }

  /** Who may see an entity changed though it did not move: the views around it look at it again (`crossedNear`). */
  seenAnew(kind: EntityKind, id: string) {
    this.grids[kind].seenAnew(id);
  }

  /**
   * The entities of a kind that came into or left the square `radius` around a tile since the end
   * of the last tick (put, removed, moved across its edge, or seen anew): into `out` (cleared first).
   */
  crossedNear(kind: EntityKind, tile: Tile, radius: number, out?: Set<string>): Set<string> {
    return this.grids[kind].crossedWithin(tile.x, tile.z, radius, out);
  }

  /** Is the entity of a kind in the world within `radius` of a tile? */
  within(kind: EntityKind, id: string, tile: Tile, radius: number): boolean {
    return this.grids[kind].within(id, tile.x, tile.z, radius);
  }

  /** The ids of a kind within `radius` of a tile: into `out` (cleared first) when given. */
  near(kind: EntityKind, tile: Tile, radius: number, out?: Set<string>): Set<string> {
    return this.grids[kind].queryRadius(tile.x, tile.z, radius, out);
  }
}

// The smallest rules on a player the core holds: the commands use them, and so do the trade and duel books.

/** The player a command is for; unknown means they already left. */
export function playerOf(world: WorldCore, id: string): PlayerEntity {
  const p = world.players.get(id);
  if (!p) throw new GameError("NOT_IN_WORLD", "You are not in the world");
  if (p.health <= 0) throw new GameError("DEAD", "You are dead");
  return p;
}

/** Every prayer off (a death, a duel's end). */
export function prayersOff(world: WorldCore, p: PlayerEntity) {
  if (p.prayer.active.size === 0) return;
  p.prayer.active.clear();
  p.prayer.drain = 0;
  world.touchPlayer(p);
}
