import type { GroundItemView, NpcView, PlayerView, ResourceView, StationView, WorldUpdate } from "../../../../src/protocol/index.js";
import type { StateMap, WorldStateView } from "../../connection.js";

/** A map of entities by id, as the client reads a schema map (StateMap), kept from JSON. */
export class JsonMap<T extends { id: string }> implements StateMap<T> {
  private readonly byId = new Map<string, T>();

  get(id: string): T | undefined {
    return this.byId.get(id);
  }

  forEach(cb: (value: T, key: string) => void): void {
    this.byId.forEach((value, key) => cb(value, key));
  }

  get size(): number {
    return this.byId.size;
  }

  set(value: T): void {
    this.byId.set(value.id, value);
  }

  delete(id: string): boolean {
    return this.byId.delete(id);
  }

  clear(): void {
    this.byId.clear();
  }
}

/**
 * The world as a spectator sees it: a spectator's room state holds no entities, so this mirror is
 * built from the `world:update` messages the agent is sent (the whole form: an entity entering the
 * view or changed is listed whole and replaces the one held; `removed` ids leave). The first update
 * after `spectate:started` lists everything the agent sees. It is read as the room's state is
 * (WorldStateView), so the map, the minimap and the panels draw from it unchanged.
 */
export class StateMirror implements WorldStateView {
  tick = 0;
  readonly players = new JsonMap<PlayerView>();
  readonly npcs = new JsonMap<NpcView>();
  readonly resources = new JsonMap<ResourceView>();
  readonly groundItems = new JsonMap<GroundItemView>();
  readonly stations = new JsonMap<StationView>();
  private readonly maps: ReadonlyArray<JsonMap<{ id: string }>> = [this.players, this.npcs, this.resources, this.groundItems, this.stations];

  /** Take one update: its entities replace those held, then its removed ids leave (the agents' own order, src/agents/view.ts). */
  apply(update: WorldUpdate): void {
    this.tick = update.tick;
    for (const p of update.players ?? []) this.players.set(p);
    for (const n of update.npcs ?? []) this.npcs.set(n);
    for (const r of update.resources ?? []) this.resources.set(r);
    for (const g of update.groundItems ?? []) this.groundItems.set(g);
    for (const s of update.stations ?? []) this.stations.set(s);
    for (const id of update.removed ?? []) for (const map of this.maps) map.delete(id);
  }

  /** Forget everything (a new watch starts from the agent's whole view). */
  clear(): void {
    this.tick = 0;
    for (const map of this.maps) map.clear();
  }
}
