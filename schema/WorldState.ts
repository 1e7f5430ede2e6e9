import { schema, t, type SchemaType } from "@colyseus/schema";

/**
 * What every client in range sees, synchronised as Colyseus patches once per tick.
 * Each entity collection is view-filtered: a client receives only the entities the room adds to
 * its StateView (its area of interest). A player's private state (inventory, equipment, skills,
 * bank) is not here: it goes to its owner alone as `player:sync` messages.
 */

export const PlayerState = schema(
  {
    id: t.string(),
    name: t.string(),
    /** Tile position. */
    x: t.int32(),
    z: t.int32(),
    /** World position (tile centre; y is height). */
    wx: t.float32(),
    wy: t.float32(),
    wz: t.float32(),
    health: t.int32(),
    maxHealth: t.int32(),
    combatLevel: t.uint8(),
    /** What the player is doing: "" (idle), "woodcutting", "mining", "fishing", "combat", ... */
    action: t.string(),
    moving: t.boolean(),
    running: t.boolean(),
    isAgent: t.boolean(),
    /** Skulled for attacking a player in a PvP area (src/features/pvp/): a PvP death keeps nothing. */
    skulled: t.boolean(),
  },
  "PlayerState",
);
export type PlayerState = SchemaType<typeof PlayerState>;

export const NpcState = schema(
  {
    id: t.string(),
    npcId: t.string(),
    name: t.string(),
    x: t.int32(),
    z: t.int32(),
    health: t.int32(),
    maxHealth: t.int32(),
    level: t.uint8(),
    /** "idle", "moving", "combat", "dead" */
    state: t.string(),
    targetId: t.string(),
  },
  "NpcState",
);
export type NpcState = SchemaType<typeof NpcState>;

export const ResourceState = schema(
  {
    id: t.string(),
    resourceId: t.string(),
    /** "woodcutting", "mining", "fishing", or "firemaking" for a lit fire. */
    skill: t.string(),
    name: t.string(),
    x: t.int32(),
    z: t.int32(),
    depleted: t.boolean(),
  },
  "ResourceState",
);
export type ResourceState = SchemaType<typeof ResourceState>;

export const GroundItemState = schema(
  {
    id: t.string(),
    itemId: t.string(),
    quantity: t.int32(),
    x: t.int32(),
    z: t.int32(),
  },
  "GroundItemState",
);
export type GroundItemState = SchemaType<typeof GroundItemState>;

export const StationState = schema(
  {
    id: t.string(),
    /** The stations.json type: "anvil", "furnace", "range", "runecrafting_altar", "bank", ... */
    type: t.string(),
    name: t.string(),
    x: t.int32(),
    z: t.int32(),
    /** A runecrafting altar's rune type, "" for other stations. */
    runeType: t.string(),
  },
  "StationState",
);
export type StationState = SchemaType<typeof StationState>;

export const WorldState = schema(
  {
    tick: t.uint32(),
    players: t.map(PlayerState).view(),
    npcs: t.map(NpcState).view(),
    resources: t.map(ResourceState).view(),
    groundItems: t.map(GroundItemState).view(),
    stations: t.map(StationState).view(),
  },
  "WorldState",
);
export type WorldState = SchemaType<typeof WorldState>;
