import type { TradeCancelReason } from "./codes.js";
import type { DuelEvents } from "./duelMessages.js";
import type { AgentMessages } from "./agentMessages.js";
import type { FEATURE_ACTIONS } from "./featureMessages.js";
import type { ChatChannel, CombatStyle, EquipmentSlot, ProductionKind, SkillName } from "./vocabulary.js";
import type { InventorySlotView, ItemStackView, Position, SkillView } from "./shapes.js";

/**
 * Every server → client message and its payload (docs/PROTOCOL.md §4, §8, §9; the agent messages
 * in docs/API.md). The same names and payloads over the Colyseus protocol and over /ws.
 */

/** What a player is busy with, in its own `player:sync`. */
/** What a player is busy with: the engine's actions, or a feature's by its name (FEATURE_ACTIONS). */
export type PlayerActionType = "gather" | "attack" | "pickup" | "talk" | "make" | "pray" | keyof typeof FEATURE_ACTIONS;

// ---- The world (§4) ----

/** A bank stack as its owner sees it: its tab (0 to BANK_TABS - 1); a quantity of 0 is a placeholder. */
export interface BankStackView extends ItemStackView {
  tab: number;
}

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
  /** The spell the worn staff casts on every attack, or null. */
  autocast: string | null;
  /** Prayer points (`max` is the prayer level) and the prayers turned on. */
  prayer: { points: number; max: number; active: string[] };
  /** Every skill, by name. */
  skills: { [skill: string]: SkillView };
  /** The occupied slots only. */
  inventory: InventorySlotView[];
  equipment: Partial<Record<EquipmentSlot, ItemStackView>>;
  /** Present while within 3 tiles of a bank, else null: each stack with its tab; quantity 0 is a placeholder. */
  bank: BankStackView[] | null;
  action: PlayerActionType | null;
  /** The quest journal: every quest started, and the quest points earned. */
  quests: QuestJournalView;
  /** The player's settings and the features' state shown to it, by name (`autoRetaliate`, `homeTeleportReadyAt`, ...; docs/PROTOCOL.md). */
  vars: { [name: string]: number | boolean };
}

// ---- Quests, dialogue and stores ----

export type QuestStatusName = "not_started" | "in_progress" | "ready_to_complete" | "completed";

/** One quest in a journal. */
export interface QuestView {
  questId: string;
  name: string;
  status: QuestStatusName;
  /** The index of the stage in force (the number of stages once completed). */
  stage: number;
  /** What the stage in force asks, null once completed. */
  stageDescription: string | null;
  /** Progress on the stage in force and what it needs (kill, gather and interact stages). */
  count: number;
  needed: number;
  /** Times completed. */
  completions: number;
  /**
   * Where the stage in force is done, for a client's marker: the npc to talk to (`talk`, its npc
   * id; the start npc while not started), the npc kind to kill (`kill`), the item to gather
   * (`gather`) or to make (`interact`); null once completed.
   */
  target: QuestTargetView | null;
}

export interface QuestTargetView {
  type: "talk" | "kill" | "gather" | "interact";
  /** An npc definition id (talk, kill) or an item id (gather, interact). */
  id: string;
}

export interface QuestJournalView {
  questPoints: number;
  quests: QuestView[];
}

export interface DialogueNodeView {
  /** The npc instance talked to. */
  npcId: string;
  npcName: string;
  nodeId: string;
  text: string;
  /** Answer with `dialogue:respond {index}`; none: the conversation ends with this node. */
  responses: { index: number; text: string }[];
}

/** One shelf of a store. */
export interface StoreItemView {
  itemId: string;
  name: string;
  /** What one costs. */
  price: number;
  /** On the shelf; -1 unlimited. */
  quantity: number;
  /** What the store pays for one, null when it does not buy it. */
  sellPrice: number | null;
}

export interface StoreView {
  storeId: string;
  name: string;
  /** The npc instance keeping it. */
  npcId: string;
  /** "all" (a general store: anything tradeable), "listed" (only what it sells) or "none". */
  buys: "all" | "listed" | "none";
  buybackRate: number;
  items: StoreItemView[];
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
  /** Skulled for attacking a player in a PvP area: a PvP death would keep nothing. */
  skulled: boolean;
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

/** A station as `world:update` lists it (StationState): an anvil, a furnace, a range, an altar, a bank booth. */
export interface StationView {
  id: string;
  type: string;
  name: string;
  x: number;
  z: number;
  /** A runecrafting altar's rune type, "" for other stations. */
  runeType: string;
}

/** `world:update`: a viewer's delta for one tick. */
export interface WorldUpdate {
  tick: number;
  /** Entities that entered the view or were touched this tick, by kind. */
  players: PlayerView[];
  npcs: NpcView[];
  resources: ResourceView[];
  groundItems: GroundItemView[];
  stations: StationView[];
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
  /** `style`: how the blow was struck; `splash`: a spell that missed outright. */
  "combat:hit": { attackerId: string; targetId: string; damage: number; targetHealth: number; style: "melee" | "ranged" | "magic"; splash?: boolean };
  /** `timestamp` ISO 8601. A private message names its recipient (`toId`, `toName`); its sender gets it too, as the echo. */
  "chat:message": { fromId: string; fromName: string; message: string; channel: ChatChannel; timestamp: string; toId?: string; toName?: string };
  notice: NoticePayload;
  error: ErrorPayload;
  /** To the player credited with the kill; `npcId` is the npc definition id. */
  "npc:killed": { npcId: string; position: Position };
  /** `items` went into the death pile; `killedBy` the npc instance id or null. */
  "player:death": { deathId: string; position: Position; items: ItemStackView[]; killedBy: string | null };
  /** Then the connection closes with CLOSE_CODES.REPLACED. */
  "session:replaced": { message: string };
  /**
   * The world moves to another process of the cluster (a drain: docs/DEPLOYMENT.md "Upgrades no
   * player notices"): everyone was saved and the session closes next with 4103 WORLD_MOVED. Join the
   * world again (the SDK: the same token and characterId; /ws: `resume` with `resumeToken`, on any
   * process of the cluster) once it runs again, within a second or so; `hosts` are the public
   * addresses of the processes that stay (for a client that reached this one by its own address),
   * `next` the one meant to run the world next (knock there first; null: not known).
   */
  "world:moving": { world: number; resumeToken: string; hosts: string[]; next: string | null; message: string };
  /** A node of a conversation with an npc (after `player:action` talk, or a response). */
  "dialogue:node": DialogueNodeView;
  /** The conversation is over: `finished` (a node without responses, or an effect took over), `closed` (asked), `walked_away`, `npc_gone`, `content_changed` (a content reload changed the npc). */
  "dialogue:end": { npcId: string; reason: "finished" | "closed" | "walked_away" | "npc_gone" | "content_changed" };
  /** A bank opened by an npc (the `openBank` effect); `player:sync` carries it too while in reach. */
  "bank:open": { npcId: string; items: BankStackView[] };
  /** A store opened (the `openStore` effect, or `player:action` store). */
  "store:open": StoreView;
  /** Shelves of the open store that changed (bought, sold, restocked); `removed`: shelves gone. */
  "store:update": { storeId: string; items: StoreItemView[]; removed: string[] };
  /** `reason`: `closed` (asked), `walked_away`, `npc_gone`, `content_changed` (a content reload changed the store or its keeper). */
  "store:close": { storeId: string; reason: "closed" | "walked_away" | "npc_gone" | "content_changed" };
  /** A purchase, written to the database (`dealId`: its ledger row): followed by `player:sync`. */
  "store:bought": { dealId: string; storeId: string; itemId: string; quantity: number; coins: number };
  /** A sale, written to the database (`dealId`: its ledger row): followed by `player:sync`. */
  "store:sold": { dealId: string; storeId: string; itemId: string; quantity: number; coins: number };
  /** One attempt of `production:make`: what it made (nothing when it failed) and how many are still to make (null: all the inputs allow). */
  "production:made": { kind: ProductionKind; recipeId: string; success: boolean; made: ItemStackView[]; remaining: number | null };
  /** The tanner's offer (the `openTanner` effect): make with `production:make {kind: "tanning", recipeId, stationId: npcId}`. */
  "tanner:open": { npcId: string; recipes: { recipeId: string; input: ItemStackView; output: ItemStackView; coins: number }[] };
  "quest:started": { questId: string; name: string; stage: number; stageDescription: string | null };
  /** Progress on a kill, gather or interact stage. */
  "quest:progress": { questId: string; stage: number; count: number; needed: number };
  /** The quest moved to another stage. */
  "quest:stage": { questId: string; stage: number; stageDescription: string | null };
  "quest:completed": { questId: string; name: string; questPoints: number; rewards: { items: ItemStackView[]; xp: { [skill: string]: number } } };
  /**
   * A message from the staff to one world (`world` its id) or every world (`world` null). `kind`
   * `restart`: a step of a scheduled restart's countdown (`restartAt` ISO 8601; `secondsLeft`);
   * `content`: the world's content was reloaded (`contentVersion`): read /api/v1/catalogue and
   * /api/v1/world/map again.
   */
  "system:broadcast": {
    message: string;
    from: string;
    world: number | null;
    kind: "broadcast" | "restart" | "content";
    timestamp: string;
    restartAt?: string;
    secondsLeft?: number;
    contentVersion?: string;
  };
  /**
   * The account's standing, at a join when it is staff or muted, and whenever it changes: its staff
   * `role`, and a mute in force (`until` ISO 8601, null: permanent), else null.
   */
  "account:standing": { role: "player" | "moderator" | "admin"; muted: { until: string | null; reason: string } | null };
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
  /**
   * `resumeToken`: takes this session back with `resume` after the socket drops (single use; every
   * `authenticated` brings a new one). `resumed`: this socket took a dropped session back.
   */
  authenticated: { accountId: string; characterId: string; playerId: string; resumeToken: string; resumed: boolean };
  /** The answer to `ping`: the server's clock, ms since the epoch. */
  pong: { time: number };
  /**
   * The world asked for (or the least full one) runs on another process of the cluster: connect to
   * `url` (the same token; `world` is in it) instead. The socket then closes with 4010 WORLD_ELSEWHERE.
   */
  "world:redirect": { world: number; url: string; message: string };
}

// ---- All of them ----

export interface ServerMessages extends WorldMessages, TradeEvents, DuelEvents, WsMessages, AgentMessages {}

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
  "system:broadcast",
  "account:standing",
  "npc:killed",
  "player:death",
  "session:replaced",
  "world:moving",
  "dialogue:node",
  "dialogue:end",
  "bank:open",
  "store:open",
  "store:update",
  "store:close",
  "store:bought",
  "store:sold",
  "production:made",
  "tanner:open",
  "quest:started",
  "quest:progress",
  "quest:stage",
  "quest:completed",
  "tradeRequestSent",
  "tradeIncoming",
  "tradeStarted",
  "tradeUpdated",
  "tradeConfirmScreen",
  "tradeCompleted",
  "tradeCancelled",
  "tradeError",
  "duel:requestSent",
  "duel:incoming",
  "duel:screen",
  "duel:countdown",
  "duel:fight",
  "duel:ended",
  "duel:cancelled",
  "duel:error",
  "authenticated",
  "pong",
  "world:redirect",
  "goalOverride",
  "agentMessage",
  "spectate:started",
  "spectate:ended",
] as const satisfies readonly ServerMessageType[];
