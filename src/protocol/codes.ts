import { FEATURE_ERROR_CODES, FEATURE_NOTICE_CODES } from "./featureMessages.js";

/**
 * The codes the server puts on the wire: close codes of its sockets, error codes (`error`,
 * `tradeError`, and the /ws adapter's), notice codes and trade cancel reasons. docs/PROTOCOL.md
 * §1, §4, §6, §8 and §9 explain each.
 */

/**
 * Close codes the server chooses, on a room connection (SDK) or a /ws socket. Colyseus closes
 * room connections with its own codes too (`CloseCode` of @colyseus/sdk: 4000 after
 * `room.leave()`, 4002 when a client floods the room); on /ws those never reach the socket except
 * the ones listed here.
 */
export const CLOSE_CODES = {
  /** /ws: the socket left the world normally. */
  NORMAL: 1000,
  /** /ws: the server is shutting down (every player saved first). */
  GOING_AWAY: 1001,
  /** /ws: a frame over the size limit. */
  TOO_BIG: 1009,
  /** /ws: the server could not join the socket's player (a guest not made, a join that failed). */
  INTERNAL: 1011,
  /** /ws: the join was refused for its options (bad options, a taken name, a bad query string). */
  INVALID_REQUEST: 4000,
  /** /ws: no valid token (or none in time). */
  UNAUTHORIZED: 4001,
  /** /ws: the character belongs to another account. */
  FORBIDDEN: 4003,
  /** /ws: the character does not exist. */
  NOT_FOUND: 4004,
  /** /ws: a flood of frames, or too many new guest identities from one address. */
  FLOOD: 4029,
  /** Another login took this character over (after `session:replaced`). */
  REPLACED: 4100,
  /** An admin's `/kick` (after `notice` KICKED). */
  KICKED: 4101,
  /** /ws: the world asked for is full (after `error` WORLD_FULL). */
  WORLD_FULL: 4009,
  /** /ws: the world runs on another process: connect where `world:redirect` says. */
  WORLD_ELSEWHERE: 4010,
  /** /ws: the world asked for (or every world) is not running right now; try again shortly. */
  WORLD_UNAVAILABLE: 4013,
  /** A spectator's connection: the agent it watched left this world (after `spectate:ended`); watch again where the activity feed says it plays. */
  WATCH_ENDED: 4110,
  /** The account was banned (after `error` BANNED with the reason and the end); every way in is refused until it ends. */
  BANNED: 4102,
  /** The world moved to another process of the cluster (a drain, after `world:moving`): join it again, or `resume` with its token on /ws. */
  WORLD_MOVED: 4103,
  /** The server restarts (a scheduled restart, after its countdown; every player saved first): connect again shortly. */
  RESTART: 1012,
} as const;
export type CloseCodeName = keyof typeof CLOSE_CODES;
/** A close code the server chooses (named apart from the SDK's own `CloseCode`). */
export type ServerCloseCode = (typeof CLOSE_CODES)[CloseCodeName];

/**
 * Every error code a client may receive in `error` or `tradeError` (and in the body of a refused
 * /ws upgrade), with where it comes from.
 */
export const ERROR_CODES = {
  // Any message (§6)
  INVALID_PAYLOAD: "a payload that does not match its schema; player:action without targetId or style",
  UNKNOWN_EVENT: "a message type nobody handles",
  NOT_IN_WORLD: "a message before the join completed",
  INTERNAL: "an unexpected server failure",
  DEAD: "a request while at 0 health",
  // Movement and targets
  OUT_OF_BOUNDS: "movement, /tp: outside the world",
  TOO_FAR: "movement, targets, trades: out of reach",
  BLOCKED: "movement, /tp: a tile that cannot be stood on",
  NO_PATH: "movement, targets: unreachable",
  // Gathering, combat, pickup
  UNKNOWN_TARGET: "gather, attack, pickup, cook: no such target",
  DEPLETED: "gather: the node is depleted",
  LEVEL_TOO_LOW: "gather, equip, light, cook: the skill level is too low",
  NO_TOOL: "gather: the tool is not in the inventory",
  NO_BAIT: "gather: no bait",
  INVENTORY_FULL: "gather, pickup, unequip, withdraw, /give: no room",
  NOT_ATTACKABLE: "attack: townsfolk",
  TARGET_DEAD: "attack: the npc is dead",
  GONE: "pickup: the item is gone",
  // Items (inventory:use)
  ITEM_LOCKED: "an item offered in a trade",
  EMPTY_SLOT: "an empty slot",
  UNKNOWN_ITEM: "an item the data does not know",
  NOTHING_HAPPENS: "inventory:use with nothing to do",
  NOT_EDIBLE: "eat",
  NOT_EQUIPPABLE: "equip",
  STACK_FULL: "equip: the worn stack is full",
  INVALID_SLOT: "a slot out of range (items and trades)",
  NOTHING_EQUIPPED: "unequip",
  CANNOT_LIGHT_HERE: "light: a resource or fire already here",
  NEED_TINDERBOX: "light",
  CANNOT_LIGHT: "light: not burnable logs",
  NOT_NEAR_RANGE: "cook on a range",
  CANNOT_COOK: "cook: not raw food",
  WRONG_STATION: "cook: this food needs the other station; production:make: stationId is not the recipe's station (or altar of its rune)",
  TRADE_COMPLETING: "item moves while the trade is being committed",
  // Bank
  NOT_NEAR_BANK: "bank moves away from a bank",
  NOT_IN_BANK: "withdraw of an item not in the bank",
  BANK_FULL: "deposit: the bank holds 400 different items",
  INVALID_TAB: "a bank tab that is not a whole number from 0 to 9 (the schema refuses it first: INVALID_PAYLOAD)",
  NOT_A_PLACEHOLDER: "bank:release of an item whose stack still holds some",
  BANK_STACK_FULL: "deposit: the bank's stack is full",
  // Chat and admin commands
  EMPTY_MESSAGE: "chat: nothing to say",
  MESSAGE_TOO_LONG: "chat: over 200 characters",
  INVALID_COMMAND: "chat: a malformed /command",
  UNKNOWN_COMMAND: "chat: an unknown /command",
  FORBIDDEN: "chat: an admin command from a non-admin; /ws: another account's character",
  ADMIN_UNAVAILABLE: "/admin: no admin code is set",
  ADMIN_WRONG_CODE: "/admin: a wrong code",
  ADMIN_LOCKED: "/admin: locked after three wrong codes",
  INVALID_TARGET: "/tp: not whole numbers",
  UNKNOWN_PLAYER: "/give, /kick: nobody of that name online; a private message: no player has that name",
  INVALID_QUANTITY: "/give, trades: a quantity out of range",
  // Staff and moderation (README "Staff and moderation")
  MUTED: "chat (every channel) while the account is muted: the message says until when",
  BANNED: "a join, a login or any Bearer request of a banned account: the message gives the reason and the end (close 4102)",
  TARGET_IS_STAFF: "/mute, /ban, /kick: the target's role is not below the actor's",
  INVALID_DURATION: "/mute, /ban: not 30m, 12h, 7d, 2w or permanent",
  REASON_REQUIRED: "/mute, /ban, reports: no reason given",
  REASON_TOO_LONG: "a reason over 500 characters",
  MISSING_NAME: "a staff command without a player's name",
  NOT_SANCTIONED: "/unmute, /unban: the account is not muted or banned",
  SELF_REPORT: "player:report of oneself (or one's own account)",
  AUDIT_UNAVAILABLE: "a privileged act whose audit row could not be written: the act was refused and nothing changed",
  RESTARTING: "a join in the last 30 s before a scheduled restart",
  NO_CLUSTER: "a drain asked of a server that runs alone (no REDIS_URL): nothing could take its worlds; restart it instead",
  NO_OTHER_PROCESS: "a drain that would leave no process to take the worlds: start the new process first",
  UNKNOWN_PROCESS: "a drain of a process id that no live process of the cluster has",
  REPORT_NOT_FOUND: "claiming or closing a report that does not exist",
  REPORT_CLOSED: "claiming or closing a report already closed",
  // Content reload (README "Content reload")
  CONTENT_CHANGED: "an action on an npc, node, station or recipe a content reload changed ended (actionFailed)",
  CONTENT_INVALID: "a content reload refused: the manifests have problems (each listed); nothing changed",
  CONTENT_NEEDS_RESTART: "a content reload refused: the ground (areas' bounds, walls, buildings) changed, which only a restart applies",
  // Dialogue and quests
  NOT_IN_DIALOGUE: "dialogue:respond: no conversation open, or it has ended",
  INVALID_RESPONSE: "dialogue:respond: an index the node shown does not offer",
  QUEST_IN_PROGRESS: "quest start: already doing it",
  QUEST_COMPLETED: "quest start: done and not replayable",
  QUEST_REQUIREMENTS: "quest start: a quest, skill level or item it needs is missing",
  QUEST_NOT_READY: "quest completion before the last stage",
  QUEST_ITEMS_MISSING: "quest completion without what its last stage asks to be handed over",
  UNKNOWN_QUEST: "a dialogue effect naming a quest the data does not have",
  NO_DIALOGUE: "player:action talk: the npc has nothing to say",
  // Stores
  NO_STORE: "player:action store, openStore: the npc keeps no store",
  STORE_NOT_OPEN: "store:buy, store:sell, store:close without a store open",
  NOT_IN_STOCK: "store:buy: the store does not sell that item",
  OUT_OF_STOCK: "store:buy: fewer on the shelf than asked",
  NOT_ENOUGH_COINS: "store:buy: the coins in the pack (not offered in a trade) are short",
  WORTHLESS_SALE: "store:sell of items the store would pay nothing for, without forNothing: true (nothing changes)",
  STORE_WONT_BUY: "store:sell: the store does not buy that item (or anything), or coins",
  STORE_FULL: "store:sell: the shelf would pass the stack limit",
  STORE_COMPLETING: "item moves while a purchase or sale is being written",
  STORE_UNAVAILABLE: "store:buy, store:sell: the deal could not be written; nothing changed",
  // Production
  UNKNOWN_RECIPE: "production:make: no recipe of that kind makes that item",
  MISSING_MATERIALS: "production:make: inputs (or tanning's coins) short, in slots not offered in a trade",
  NOT_AT_STATION: "production:make without stationId: not beside a station (or tanner) the recipe needs",
  // Ranged, magic and prayer
  NO_RUNES: "a spell without the runes it takes (an elemental staff provides its element's)",
  NO_AMMO: "a bow with no arrows worn",
  WRONG_AMMO: "arrows the bow cannot fire, or no arrows at all",
  UNKNOWN_PRAYER: "a prayer the data does not have",
  NO_PRAYER_POINTS: "a prayer turned on with no prayer points left",
  UNKNOWN_SPELL: "combat:cast, combat:autocast: a spell the data does not have",
  NO_STAFF: "combat:autocast without a staff wielded",
  STYLE_NOT_AVAILABLE: "player:action style: a style the wielded weapon does not offer",
  NOT_BURIABLE: "inventory:use bury: an item without prayer experience",
  // Settings
  UNKNOWN_SETTING: "player:setting: a name that is not one of the player's settings (the message lists them)",
  INVALID_SETTING: "player:setting: a value not of the setting's kind (true or false; a whole number within its bounds)",
  // The feature folders' own (src/protocol/featureMessages.ts)
  ...FEATURE_ERROR_CODES,
  // Duels (§11)
  SELF_DUEL: "duel:challenge to oneself",
  ALREADY_IN_DUEL: "one duel at a time",
  UNKNOWN_DUEL: "a duelId that is not open",
  NOT_YOUR_DUEL: "a duelId of a duel the player is not in",
  NO_ARENA: "duel:challenge in a world without a duel arena",
  INVALID_RULE: "duel:rule: an unknown rule",
  INVALID_RULES: "duel:rule: melee, ranged and magic all forbidden",
  DUEL_RULE: "what the duel's rules forbid (a style, prayer, food, movement, forfeiting), or leaving the arena",
  IN_DUEL: "what a duellist in the arena may not do (fight another, pick up, trade)",
  DUEL_COMPLETING: "item moves while a duel is being settled",
  // Trades (tradeError, §9)
  SELF_TRADE: "tradeRequest to oneself",
  PLAYER_OFFLINE: "tradeRequest: the player is not online (in this world); a private message: the player is in no world now",
  PLAYER_UNAVAILABLE: "tradeRequest: the player cannot trade now",
  OTHER_WORLD: "tradeRequest, duel:challenge: the player is in another world (trades and duels stay inside one world)",
  ALREADY_IN_TRADE: "one trade at a time",
  RATE_LIMITED: "repeated trade requests; /ws: too many frames or guest identities",
  UNKNOWN_TRADE: "a trade that does not exist or has ended",
  NOT_YOUR_TRADE: "another pair's trade",
  INVALID_STATE: "a move the trade's screen does not allow",
  UNTRADEABLE: "an item the data marks untradeable",
  NOT_OFFERED: "tradeRemoveItem of a slot not offered",
  OFFER_LOCKED: "an offer change on the confirm screen",
  ALREADY_ACCEPTED: "a replayed accept",
  SERVER_STOPPING: "tradeRequest, duel:challenge while the server is stopping (a restart, a shutdown: what was half agreed is called off)",
  // The /ws adapter (§8)
  BAD_JSON: "/ws: a frame that is not JSON text",
  NOT_AUTHENTICATED: "/ws: a room event before authentication",
  UNAUTHORIZED: "/ws: a missing, invalid or expired token",
  ADDRESS_BANNED:
    "a new guest identity (POST /api/auth/guest, a /ws guest, the MCP sign-in page) from an address under a ban by address (a login refused by one is BANNED)",
  TOKEN_READ_ONLY: "a spectator token where it may not act: every REST route but the watching ones (HTTP 403), /ws (close 4003), /mcp (HTTP 403)",
  SPECTATOR: "any room message from a spectator's client: it watches an agent and acts on nothing",
  NOT_FOUND: "/ws: an unknown character",
  FLOOD: "/ws: 60 or more dropped frames within one second",
  TOO_MANY_CONNECTIONS: "/ws: the address holds too many open sockets (HTTP 429 on the upgrade)",
  ROOM_ERROR: "/ws: the world refused the connection",
  WORLD_NOT_FOUND: "/ws and matchmaking: a world id that is not one of the server's worlds",
  WORLD_FULL: "/ws and matchmaking: the world asked for (or every world) is full",
  WORLD_UNAVAILABLE: "/ws and matchmaking: the world asked for (or every world) is not running right now",
  RESUME_FAILED: "/ws resume: a resume token that is unknown, already used, or whose session has ended (grace period over, taken over, kicked)",
  // MCP (/mcp, docs/MCP.md)
  SESSION_ENDED: "/mcp: the session's player left the world (taken over by another login, kicked, the server restarting): open a new session",
  WORLD_MOVED:
    "/mcp: a tool call under way when a drain moved the session's world to another server process: the session follows the world; call again, in the same session",
  CLUSTER_MISADDRESSED:
    "/mcp (HTTP 502): a request one process of the cluster passed on for another reached a third: that process's CLUSTER_ADDRESS is not where it is reached",
  TOO_MANY_SESSIONS: "/mcp: the account already holds MCP_MAX_SESSIONS_PER_ACCOUNT open MCP sessions",
  CHARACTER_REQUIRED: "/mcp: the account has several characters and the session named none (?character=<name or id>)",
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** `notice` codes (§4). */
export const NOTICE_CODES = [
  "ATE",
  "FIRE_FAILED",
  "BURNT",
  "RECLAIMED",
  "ADMIN_GRANTED",
  "TELEPORTED",
  "GIVEN",
  "KICKED",
  "BURIED",
  "PRAYED",
  "NO_PRAYER_POINTS",
  "MUTED",
  "UNMUTED",
  "ROLE_CHANGED",
  "SANCTIONED",
  "SANCTION_LIFTED",
  "REPORTED",
  "BROADCAST_SENT",
  "QUEST_ITEMS_MISSING",
  ...FEATURE_NOTICE_CODES,
] as const;
export type NoticeCode = (typeof NOTICE_CODES)[number];

/** The reasons a trade and a duel share for being cancelled. */
export const NEGOTIATION_CANCEL_REASONS = [
  "declined",
  "cancelled",
  "timeout",
  "disconnected",
  "player_died",
  "inventory_full",
  "unavailable",
  "server_shutdown",
] as const;
/** Why a trade or a duel was cancelled, whichever it is. */
export type NegotiationCancelReason = (typeof NEGOTIATION_CANCEL_REASONS)[number];

/** `tradeCancelled.reason` (§9): a negotiation's reasons, and an offer that changed or a commit that failed. */
export const TRADE_CANCEL_REASONS = [...NEGOTIATION_CANCEL_REASONS, "offer_changed", "error"] as const;
export type TradeCancelReason = (typeof TRADE_CANCEL_REASONS)[number];

/** `duel:cancelled.reason` (§11): a negotiation's reasons, and a stake that changed or no arena free. */
export const DUEL_CANCEL_REASONS = [...NEGOTIATION_CANCEL_REASONS, "stake_changed", "no_arena"] as const;
export type DuelCancelReason = (typeof DUEL_CANCEL_REASONS)[number];

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, code);
}
