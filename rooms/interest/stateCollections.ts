import type { EntityKind } from "../../src/game/world/entities.js";
import type { GroundItemState, NpcState, PlayerState, ResourceState, StationState, WorldState } from "../../schema/WorldState.js";

/** The schema state of any one entity. */
export type AnyState = PlayerState | NpcState | ResourceState | GroundItemState | StationState;

export const KINDS: EntityKind[] = ["player", "npc", "resource", "groundItem", "station"];

/** The WorldState collection each kind of entity lives in (also the world:update list it is listed in). */
export const COLLECTION = { player: "players", npc: "npcs", resource: "resources", groundItem: "groundItems", station: "stations" } as const;

/** The schema collection of a kind, as a plain map of its states. */
export function collectionOf(state: WorldState, kind: EntityKind): Map<string, AnyState> {
  return state[COLLECTION[kind]] as unknown as Map<string, AnyState>;
}
