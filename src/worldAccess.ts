import type { WorldKnowledge } from "./agents/knowledge.js";
import type { Tile } from "./game/types.js";
import type { CharacterSnapshot } from "./game/world/entities.js";
import type { ServerMessage, ServerMessageType } from "./protocol/index.js";

/** The world's name: its rows (world_chunks, store shelves) are kept under it, and its voice room is named by it. */
export const WORLD_NAME = "main";

/**
 * How everything outside the Colyseus glue (HTTP routes, agents, the /ws adapter, start-up) reaches
 * the world: `ctx.world`. Answers are copies, never the world's own objects, and every call is
 * async, so a cluster can answer them through presence or remote room calls. The in-process
 * implementation is rooms/worldFacade.ts. Every method answers as "not in the world" (undefined,
 * false, nothing sent) while no world runs.
 */
export interface WorldAccess {
  /** Who is in the world now (any order). */
  onlineCharacters(): Promise<OnlineCharacter[]>;
  /** The character as the world has it now (a copy), or undefined when it is not in the world. */
  character(characterId: string): Promise<LiveCharacter | undefined>;
  /** Where the character stands, or undefined when it is not in the world. */
  whereIs(characterId: string): Promise<Tile | undefined>;
  /** Is the character in the world? */
  isOnline(characterId: string): Promise<boolean>;
  /** Does a client (a player's socket, a built-in agent, an external agent runtime) hold the character's session? */
  hasSession(characterId: string): Promise<boolean>;
  /** Does any client of this account hold a character's session? */
  isAccountOnline(accountId: string): Promise<boolean>;
  /** Send a message to the client holding the character's session; false when there is none. */
  sendTo<K extends ServerMessageType>(characterId: string, type: K, data: ServerMessage<K>): Promise<boolean>;
  /** The account's ignore list changed in the database: its online players use the new one at once. */
  reloadIgnores(accountId: string): Promise<void>;
  /** The character was renamed: a player in the world is seen under the new name at once. */
  rename(characterId: string, name: string): Promise<void>;
  /** Where new characters appear, or undefined while no world runs. */
  spawnTile(): Promise<Tile | undefined>;
  /** The world at a glance (its tick, who is online, per-area counts), or undefined while none runs. */
  summary(): Promise<WorldSummary | undefined>;
  /** The map as the world data gives it (for agents), or undefined while no world runs. */
  mapKnowledge(): Promise<WorldKnowledge | undefined>;
}

/** A player in the world as anyone may see them. */
export interface OnlineCharacter {
  id: string;
  name: string;
  isAgent: boolean;
  combatLevel: number;
  tile: Tile;
}

/** A character as the world has it right now. */
export interface LiveCharacter extends CharacterSnapshot {
  combatLevel: number;
}

/** Npcs (alive, dead) and resources (available, depleted) of one world area. */
export interface AreaCounts {
  npcs: { alive: number; dead: number };
  resources: { available: number; depleted: number };
}

export interface WorldSummary {
  tick: number;
  players: OnlineCharacter[];
  /** By area id: only areas something was placed in. */
  areas: Map<string, AreaCounts>;
}
