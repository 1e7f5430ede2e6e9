import type { WorldKnowledge } from "./game/world/knowledge.js";
import type { Tile } from "./game/types.js";
import type { CharacterSnapshot } from "./game/world/entities.js";
import type { ServerMessage, ServerMessageType } from "./protocol/index.js";
import type { WorldEntry } from "./worldSpecs.js";
import type { StandingView } from "./db/staffRepo.js";

/**
 * How everything outside the Colyseus glue (HTTP routes, agents, the /ws adapter, start-up) reaches
 * the worlds: `ctx.world`. Answers are copies, never the world's own objects, and every call is
 * async: a character's world may run on another process of a cluster, and is then reached by a
 * remote room call (rooms/cluster/worldFacade.ts). Every method answers as "not in the world" (undefined,
 * false, nothing sent) while the world concerned does not run.
 */
export interface WorldAccess {
  /** Who is in any world now (any order). */
  onlineCharacters(): Promise<OnlineCharacter[]>;
  /** The character as the world has it now (a copy), or undefined when it is not in the world. */
  character(characterId: string): Promise<LiveCharacter | undefined>;
  /** Where the character stands, or undefined when it is not in the world. */
  whereIs(characterId: string): Promise<Tile | undefined>;
  /** The id of the world the character is in, or undefined. */
  worldOf(characterId: string): Promise<number | undefined>;
  /** Is the character in the world? */
  isOnline(characterId: string): Promise<boolean>;
  /** Does a client (a player's socket, a built-in agent, an external agent runtime) hold the character's session? */
  hasSession(characterId: string): Promise<boolean>;
  /** Does any client of this account hold a character's session? */
  isAccountOnline(accountId: string): Promise<boolean>;
  /** Send a message to the client holding the character's session; false when there is none. */
  sendTo<K extends ServerMessageType>(characterId: string, type: K, data: ServerMessage<K>): Promise<boolean>;
  /** A private message to the character wherever it plays: delivered, dropped (its account ignores the sender), or offline. */
  deliverPrivate(characterId: string, payload: ServerMessage<"chat:message">): Promise<PrivateOutcome>;
  /** An admin's kick of the character's session, wherever it plays; false when it is in no world. */
  kick(characterId: string, by: string): Promise<boolean>;
  /** The account's standing (role, mute, ban) changed: its sessions in every world take it at once; a ban removes them (close 4102). */
  applyStanding(accountId: string, standing: StandingView): Promise<void>;
  /** `system:broadcast` to every player of the world it names (`world`), or of every world (null). */
  broadcast(payload: ServerMessage<"system:broadcast">): Promise<void>;
  /** The last lines of chat the character's world saw between it and `otherId` (empty when it plays nowhere). */
  chatBetween(characterId: string, otherId: string): Promise<Array<{ at: string; fromId: string; fromName: string; channel: string; message: string }>>;
  /** Save every player of every world now; how many were saved. */
  saveAll(): Promise<number>;
  /** The account's ignore list changed in the database: its online players use the new one at once. */
  reloadIgnores(accountId: string): Promise<void>;
  /** The character was renamed: a player in the world is seen under the new name at once. */
  rename(characterId: string, name: string): Promise<void>;
  /** Where new characters appear, or undefined while the first world does not run. */
  spawnTile(): Promise<Tile | undefined>;
  /** A world at a glance (its tick, who is in it, per-area counts): the first world unless one is named; undefined while it does not run. */
  summary(worldId?: number): Promise<WorldSummary | undefined>;
  /** Every running world's stats (who plays and how, its ticks, its process's memory), here or anywhere in the cluster. */
  worldStats(): Promise<WorldStats[]>;
  /** The configured worlds: id, name, capacity, players and whether each runs now (and where). */
  worlds(): Promise<WorldEntry[]>;
  /** The map as the world data places it (for agents); the same in every world. */
  mapKnowledge(): Promise<WorldKnowledge | undefined>;
}

export type PrivateOutcome = "delivered" | "ignored" | "offline";

/** A player in the world as anyone may see them. */
export interface OnlineCharacter {
  id: string;
  name: string;
  isAgent: boolean;
  combatLevel: number;
  tile: Tile;
  /** The id of the world they are in. */
  world: number;
}

/** A character as the world has it right now. */
export interface LiveCharacter extends CharacterSnapshot {
  combatLevel: number;
  /** The id of the world it is in. */
  world: number;
}

/** Npcs (alive, dead) and resources (available, depleted) of one world area. */
export interface AreaCounts {
  npcs: { alive: number; dead: number };
  resources: { available: number; depleted: number };
}

/** A running world as the admins' stats show it (GET /api/admin/stats). */
export interface WorldStats {
  world: number;
  tick: number;
  /** Everyone in the world (agents and players whose socket dropped and who wait for a resume included). */
  players: number;
  /** Of them, played as agents (the built-in runtime, MCP, an agent token). */
  agents: number;
  /** Sessions by how they play: colyseus (an SDK client), ws (the /ws adapter), runtime (a built-in agent), mcp. */
  sessionsByClient: Record<string, number>;
  /** Its latest ticks (up to the last 200): how many, their median and p99 in ms; null from a room that keeps none. */
  ticks: { ticks: number; medianMs: number; p99Ms: number } | null;
  /** The Colyseus process that runs it, and that process's memory. */
  processId: string | null;
  processMemory: { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number };
}

export interface WorldSummary {
  world: number;
  tick: number;
  players: OnlineCharacter[];
  /** By area id: only areas something was placed in. */
  areas: Record<string, AreaCounts>;
}
