import type { TradeCancelReason } from "./codes.js";
import type { ChatChannel, CombatStyle, EquipmentSlot, SkillName } from "./vocabulary.js";

/**
 * Every server → client message and its payload (docs/PROTOCOL.md §4, §8, §9; the agent messages
 * in docs/API.md). The same names and payloads over the Colyseus protocol and over /ws.
 */

// ---- Shared shapes ----

export interface ItemStackView {
  itemId: string;
  quantity: number;
}

/** An occupied inventory slot in `player:sync`. */
export interface InventorySlotView extends ItemStackView {
  slot: number;
  /** Offered in a trade: no drop, use, bank or equip. */
  locked: boolean;
}

/** A world position: the tile, `y` always 0. */
export interface Position {
  x: number;
  y: number;
  z: number;
}

export interface SkillView {
  level: number;
  xp: number;
}

/** What a player is busy with, in its own `player:sync`. */
export type PlayerActionType = "gather" | "attack" | "pickup";

// ---- The world (§4) ----

/** `player:sync`: a player's private state, to that player alone. */
export interface PlayerSync {
  id: string;
  name: string;
  position: Position;
  /** Life points. */
  health: number;
  maxHealth: number;
  combatLevel: number;
  combatStyle: CombatStyle;
  /** Every skill, by name. */
  skills: { [skill: string]: SkillView };
  /** The occupied slots only. */
  inventory: InventorySlotView[];
  equipment: Partial<Record<EquipmentSlot, ItemStackView>>;
  /** Present while within 3 tiles of a bank, else null. */
  bank: ItemStackView[] | null;
  action: PlayerActionType | null;
}

/** A player as `world:update` lists it: the fields of PlayerState (schema/WorldState.ts). */
export interface PlayerView {
  id: string;
  name: string;
  x: number;
  z: number;
  wx: number;
  wy: number;
  wz: number;
  health: number;
  maxHealth: number;
  combatLevel: number;
  /** "" idle, the resource's skill while gathering, "combat", "pickup". */
  action: string;
  moving: boolean;
  running: boolean;
  isAgent: boolean;
}

/** An npc as `world:update` lists it (NpcState). */
export interface NpcView {
  id: string;
  npcId: string;
  name: string;
  x: number;
  z: number;
  /** Hitpoints (the npc data's units). */
  health: number;
  maxHealth: number;
  level: number;
  /** "idle", "moving", "combat" or "dead". */
  state: string;
  /** The player it fights, "" if none. */
  targetId: string;
}

/** A resource node or a fire as `world:update` lists it (ResourceState). */
export interface ResourceView {
  id: string;
  resourceId: string;
  /** "woodcutting", "mining", "fishing", or "firemaking" for a lit fire. */
  skill: string;
  name: string;
  x: number;
  z: number;
  depleted: boolean;
}

/** A ground item as `world:update` lists it (GroundItemState). */
export interface GroundItemView {
  id: string;
  itemId: string;
  quantity: number;
  x: number;
  z: number;
}

/** `world:update`: a viewer's delta for one tick. */
export interface WorldUpdate {
  tick: number;
  /** Entities that entered the view or were touched this tick, by kind. */
  players: PlayerView[];
  npcs: NpcView[];
  resources: ResourceView[];
  groundItems: GroundItemView[];
  /** Ids (of any kind) that left the view. */
  removed: string[];
}

/** `error`: a refused request or an action that ended. `code` is one of ERROR_CODES (codes.ts). */
export interface ErrorPayload {
  code: string;
  message: string;
}

/** `notice`: `code` is one of NOTICE_CODES (codes.ts). */
export interface NoticePayload {
  code: string;
  message: string;
}

export interface WorldMessages {
  "player:sync": PlayerSync;
  "world:update": WorldUpdate;
  /** `xp` the skill's total, `gained` what was just added (> 0). */
  "skill:xp": { skill: SkillName; xp: number; level: number; gained: number };
  "skill:levelup": { skill: SkillName; level: number };
  /** `damage` 0 is a miss; units are the target's. */
  "combat:hit": { attackerId: string; targetId: string; damage: number; targetHealth: number };
  /** `timestamp` ISO 8601. */
  "chat:message": { fromId: string; fromName: string; message: string; channel: ChatChannel; timestamp: string };
  notice: NoticePayload;
  error: ErrorPayload;
  /** To the player credited with the kill; `npcId` is the npc definition id. */
  "npc:killed": { npcId: string; position: Position };
  /** `items` went into the death pile; `killedBy` the npc instance id or null. */
  "player:death": { deathId: string; position: Position; items: ItemStackView[]; killedBy: string | null };
  /** Then the connection closes with CLOSE_CODES.REPLACED. */
  "session:replaced": { message: string };
}

// ---- Trades (§9) ----

export interface OfferItemView {
  inventorySlot: number;
  itemId: string;
  quantity: number;
}

export interface OfferView {
  items: OfferItemView[];
  accepted: boolean;
}

/** Values from the manifests' item `value`, from the receiver's point of view. */
export interface TradeValuesView {
  myOfferValue: number;
  theirOfferValue: number;
  /** What this side gains: their offer's value minus mine. */
  difference: number;
  lopsided: boolean;
}

/** A seat reserved in a room (Colyseus's `ISeatReservation`): `client.consumeSeatReservation(reservation)`. */
export interface SeatReservation {
  name: string;
  sessionId: string;
  roomId: string;
  publicAddress?: string;
  processId?: string;
  reconnectionToken?: string;
  devMode?: boolean;
}

export interface TradeEvents {
  tradeRequestSent: { tradeId: string; targetPlayerId: string; targetName: string };
  tradeIncoming: { tradeId: string; fromPlayerId: string; fromPlayerName: string };
  /** `reservation`: the seat in the trade's room (/ws clients never see it). */
  tradeStarted: { tradeId: string; partnerId: string; partnerName: string; reservation?: SeatReservation };
  tradeUpdated: { tradeId: string; myOffer: OfferView; theirOffer: OfferView };
  tradeConfirmScreen: { tradeId: string; myOffer: OfferView; theirOffer: OfferView; values: TradeValuesView };
  /** Followed at once by `player:sync`. */
  tradeCompleted: { tradeId: string; receivedItems: ItemStackView[] };
  tradeCancelled: { tradeId: string; reason: TradeCancelReason; message: string };
  /** The move was refused and changed nothing. */
  tradeError: { code: string; message: string; tradeId?: string };
}

// ---- The /ws adapter's own (§8) ----

export interface WsMessages {
  authenticated: { accountId: string; characterId: string; playerId: string };
  /** The answer to `ping`: the server's clock, ms since the epoch. */
  pong: { time: number };
}

// ---- An agent driven by an external runtime (docs/API.md, Agents) ----

export type AgentGoalType = "woodcutting" | "mining" | "fishing" | "combat" | "bank" | "pickup" | "idle";

/** A goal as its owner and an external runtime see it. */
export interface AgentGoalView {
  id: string;
  type: AgentGoalType;
  /** A resource id (gathering), an npc definition id (combat), or null. */
  target: string | null;
  source: "auto" | "owner" | "command";
  progress: { xpGained: number; gathered: number; banked: number; pickedUp: number; kills: number };
  resume: { type: AgentGoalType; target: string | null } | null;
}

/** An owner's chat-style command, parsed. */
export type AgentCommand =
  | { kind: "gather"; skill: "woodcutting" | "mining" | "fishing" }
  | { kind: "attack"; npc: string | null }
  | { kind: "pickup" }
  | { kind: "bank" }
  | { kind: "stop" }
  | { kind: "idle" };

export interface AgentMessages {
  goalOverride: { goal?: AgentGoalView | null; goalsPaused?: boolean };
  agentMessage: { content: string; command: AgentCommand | null };
}

// ---- All of them ----

export interface ServerMessages extends WorldMessages, TradeEvents, WsMessages, AgentMessages {}

export type ServerMessageType = keyof ServerMessages;
export type ServerMessage<K extends ServerMessageType> = ServerMessages[K];
/** A server message with its type, as one value (narrow it with a switch on `type`). */
export type ServerEnvelope = { [K in ServerMessageType]: { type: K; data: ServerMessage<K> } }[ServerMessageType];
/** A server message as a sender's arguments: `(...[type, data]: ServerMessageArgs)` narrows `data` by `type`. */
export type ServerMessageArgs = { [K in ServerMessageType]: [type: K, data: ServerMessage<K>] }[ServerMessageType];

/** Every server message type, for code that checks names at run time. */
export const SERVER_MESSAGE_TYPES = [
  "player:sync",
  "world:update",
  "skill:xp",
  "skill:levelup",
  "combat:hit",
  "chat:message",
  "notice",
  "error",
  "npc:killed",
  "player:death",
  "session:replaced",
  "tradeRequestSent",
  "tradeIncoming",
  "tradeStarted",
  "tradeUpdated",
  "tradeConfirmScreen",
  "tradeCompleted",
  "tradeCancelled",
  "tradeError",
  "authenticated",
  "pong",
  "goalOverride",
  "agentMessage",
] as const satisfies readonly ServerMessageType[];
