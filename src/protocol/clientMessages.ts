import { z } from "zod";
import { FeatureMessages } from "./featureMessages.js";
import { BANK_TABS, CHAT_CHANNELS, COMBAT_STYLES, INVENTORY_SIZE, MAX_STACK, PRODUCTION_KINDS, SKILLS } from "./vocabulary.js";

/**
 * Every client → server message, by its documented event name, with the payload it must have
 * (docs/PROTOCOL.md §3, §8, §9). Payloads are strict objects: anything else is answered with
 * `error` (trades: `tradeError`) INVALID_PAYLOAD and changes nothing.
 */

const coordinate = z.number().finite().min(-1_000_000).max(1_000_000);
/** An inventory slot: a whole number from 0 to INVENTORY_SIZE - 1. */
const slot = z
  .number()
  .int()
  .min(0)
  .max(INVENTORY_SIZE - 1);
/** A quantity: a whole number from 1 to MAX_STACK. */
const quantity = z.number().int().positive().max(MAX_STACK);
const id = z.string().min(1).max(128);
/** A bank tab: 0 (the main tab) to BANK_TABS - 1. */
const bankTab = z
  .number()
  .int()
  .min(0)
  .max(BANK_TABS - 1);

/** The world room's own messages (§3), the features' among them (featureMessages.ts). */
export const ClientMessages = {
  "player:move": z.object({ x: coordinate, z: coordinate, run: z.boolean().optional() }).strict(),
  "player:action": z
    .object({
      action: z.enum(["gather", "attack", "pickup", "talk", "store", "pray", "stop", "style"]),
      targetId: id.optional(),
      style: z.enum(COMBAT_STYLES).optional(),
    })
    .strict(),
  "player:chat": z
    .object({
      message: z.string().max(1000),
      channel: z.enum(CHAT_CHANNELS).optional(),
      /** The private channel's recipient: a player's name (in any world). */
      to: z.string().min(1).max(12).optional(),
    })
    .strict()
    .refine((m) => (m.channel === "private") === (m.to !== undefined), {
      message: 'a private message names its recipient: channel "private" with to, and to only then',
      path: ["to"],
    }),
  "inventory:use": z
    .object({
      slot,
      targetSlot: slot.optional(),
      targetId: id.optional(),
      action: z.enum(["use", "eat", "equip", "unequip", "drop", "cook", "light", "rub", "bury"]).optional(),
      quantity: quantity.optional(),
      /** The skill an experience lamp's xp goes to (`rub`). */
      skill: z.enum(SKILLS).optional(),
    })
    .strict(),
  /** `tab`: the tab a new item goes to (0, the main tab, to 9; an item already in the bank keeps its own). */
  "bank:deposit": z.object({ slot, quantity, tab: bankTab.optional() }).strict(),
  "bank:withdraw": z.object({ itemId: id, quantity }).strict(),
  /** Move an item's stack (or placeholder) to a tab. */
  "bank:tab": z.object({ itemId: id, tab: bankTab }).strict(),
  /** Take an item's placeholder away; without `itemId`, every placeholder. */
  "bank:release": z.object({ itemId: id.optional() }).strict(),
  /** Answer the dialogue node shown last with one of its responses' index. */
  "dialogue:respond": z.object({ index: z.number().int().min(0).max(63) }).strict(),
  "dialogue:close": z.object({}).strict(),
  /** Buy from the store the player has open. */
  "store:buy": z.object({ itemId: id, quantity }).strict(),
  /** Sell the item in a slot to the store the player has open (fewer when the pack holds fewer). */
  "store:sell": z
    .object({
      slot,
      quantity,
      /** Sell even though the store pays nothing for it (else WORTHLESS_SALE, and nothing changes). */
      forNothing: z.boolean().optional(),
    })
    .strict(),
  "store:close": z.object({}).strict(),
  /** One cast of a spell at a target: walks into reach, casts once. */
  "combat:cast": z.object({ spellId: id, targetId: id }).strict(),
  /** The spell a wielded staff casts on every attack; null: swing the staff. */
  "combat:autocast": z.object({ spellId: id.nullable() }).strict(),
  /** Turn a prayer on (those of its kind go off) or off. */
  "prayer:toggle": z.object({ prayerId: id, on: z.boolean() }).strict(),
  /**
   * Make `count` (or "all" the inputs allow) of a recipe's output, one attempt every recipe's ticks.
   * `stationId`: the station (or the tanner, for tanning) to walk to; without it the player must
   * stand beside one already.
   */
  "production:make": z
    .object({
      kind: z.enum(PRODUCTION_KINDS),
      recipeId: id,
      count: z.union([z.number().int().min(1).max(MAX_STACK), z.literal("all")]).optional(),
      stationId: id.optional(),
    })
    .strict(),
  /** Report a player (by name, in any world or offline) to the staff; the server attaches the chat between you it saw. */
  "player:report": z
    .object({
      name: z.string().min(1).max(12),
      reason: z.string().min(1).max(500),
    })
    .strict(),
  /** Set one of the player's settings (`autoRetaliate`, ...): kept with the character, shown in `player:sync`'s `vars`. */
  "player:setting": z.object({ name: id, value: z.union([z.boolean(), z.number().int().min(-1_000_000_000).max(1_000_000_000)]) }).strict(),
  ...FeatureMessages,
} as const;

export type ClientMessageType = keyof typeof ClientMessages;
export type ClientMessage<T extends ClientMessageType> = z.infer<(typeof ClientMessages)[T]>;

/**
 * The trade's messages (§9), accepted by the world room and by the trade's own room alike. Slots
 * and quantities are checked by the trade rules (src/game/trade.ts, against the same
 * INVENTORY_SIZE and MAX_STACK), so a bad one is answered INVALID_SLOT or INVALID_QUANTITY rather
 * than a generic INVALID_PAYLOAD.
 */
const tradeId = z.string().min(1).max(128);

export const TradeMessages = {
  tradeRequest: z.object({ targetPlayerId: z.string().min(1).max(128) }).strict(),
  tradeRequestRespond: z.object({ tradeId, accept: z.boolean() }).strict(),
  tradeAddItem: z.object({ tradeId, inventorySlot: z.unknown().optional(), quantity: z.unknown().optional() }).strict(),
  tradeRemoveItem: z.object({ tradeId, inventorySlot: z.unknown().optional(), quantity: z.unknown().optional() }).strict(),
  tradeAccept: z.object({ tradeId }).strict(),
  tradeCancel: z.object({ tradeId }).strict(),
} as const;

export type TradeMessageType = keyof typeof TradeMessages;
export type TradeMessage<T extends TradeMessageType> = z.infer<(typeof TradeMessages)[T]>;

/** What a trader may send to the trade's room (requests belong to the world). */
export const TRADE_ROOM_MESSAGES = ["tradeAddItem", "tradeRemoveItem", "tradeAccept", "tradeCancel"] as const satisfies readonly TradeMessageType[];

/**
 * Staked duels (§11). Slots and quantities of stakes are checked by the trade rules, as a trade's
 * offers are (INVALID_SLOT, INVALID_QUANTITY); rules by the duel rules (INVALID_RULE).
 */
const duelId = z.string().min(1).max(128);

export const DuelMessages = {
  "duel:challenge": z.object({ targetPlayerId: z.string().min(1).max(128) }).strict(),
  "duel:respond": z.object({ duelId, accept: z.boolean() }).strict(),
  "duel:rule": z.object({ duelId, rule: z.unknown().optional(), on: z.unknown().optional() }).strict(),
  "duel:stake": z.object({ duelId, inventorySlot: z.unknown().optional(), quantity: z.unknown().optional() }).strict(),
  "duel:unstake": z.object({ duelId, inventorySlot: z.unknown().optional(), quantity: z.unknown().optional() }).strict(),
  "duel:accept": z.object({ duelId }).strict(),
  "duel:cancel": z.object({ duelId }).strict(),
  "duel:forfeit": z.object({ duelId }).strict(),
} as const;

export type DuelMessageType = keyof typeof DuelMessages;
export type DuelMessage<T extends DuelMessageType> = z.infer<(typeof DuelMessages)[T]>;

/** Every message a client may send to the world room: its own, the trades' and the duels'. */
export const RoomMessages = { ...ClientMessages, ...TradeMessages, ...DuelMessages } as const;
export type RoomMessageType = keyof typeof RoomMessages;
export type RoomMessage<T extends RoomMessageType> = z.infer<(typeof RoomMessages)[T]>;
/** A room message with its type, as one value (e.g. an order an agent decides on). */
export type RoomEnvelope = { [K in RoomMessageType]: { type: K; data: RoomMessage<K> } }[RoomMessageType];

/** Join options a client may pass to the world room. */
export const JoinOptions = z
  .object({
    characterId: z.string().min(1).max(128).optional(),
    name: z.string().optional(),
    /**
     * Receive `world:update` JSON each tick (the /ws adapter asks for them): `true` lists every
     * entity whole, `"changes"` lists entities already in view as their id and changed fields (§4).
     */
    worldUpdates: z.union([z.boolean(), z.literal("changes")]).optional(),
    /**
     * "ws" (the /ws adapter's), "runtime" (the built-in agent runtime's) and "mcp" (an MCP session's,
     * shown to others as an agent) take no schema patches.
     */
    clientType: z.enum(["colyseus", "ws", "agent", "runtime", "mcp"]).optional(),
  })
  .passthrough();
export type JoinOptions = z.infer<typeof JoinOptions>;

/**
 * The plain JSON WebSocket protocol at /ws (§8): one JSON object per text frame,
 * `{"type": "<event>", "data": {...}, "id"?: "..."}` both ways; replies and errors caused by a
 * frame echo its id.
 */
export const Envelope = z
  .object({
    type: z.string().min(1).max(64),
    /**
     * The event's payload, checked by the event's own schema (absent counts as `{}`; `null`, an
     * array or any other non-object is INVALID_PAYLOAD there, through the event's error channel).
     */
    data: z.unknown().optional(),
    id: z.string().max(128).optional(),
  })
  .strict();
export type Envelope = z.infer<typeof Envelope>;

/** The form of `world:update` a /ws client takes (§4): every entity whole, or held ones as their changes. */
export const UpdatesForm = z.enum(["whole", "changes"]);
export type UpdatesForm = z.infer<typeof UpdatesForm>;

/** A world's id (WORLDS): a whole number from 1 to 9999. */
export const WorldId = z.number().int().min(1).max(9999);

/** /ws `authenticate`: log this socket in with a server token (§8). */
export const AuthenticateData = z
  .object({
    token: z.string().min(1).max(8192),
    characterId: z.string().min(1).max(128).optional(),
    /** The form of world:update from this identity on (default: the socket's, "whole" unless `?updates=` said otherwise). */
    updates: UpdatesForm.optional(),
    /** The world to join (its id; default: the socket's `?world=`, else the least full world). */
    world: WorldId.optional(),
  })
  .strict();
export type AuthenticateData = z.infer<typeof AuthenticateData>;

/**
 * /ws `resume`: take back a session whose socket dropped, within RECONNECT_GRACE_S, with the
 * `resumeToken` of its latest `authenticated` (§8). A token works once.
 */
export const ResumeData = z
  .object({
    resumeToken: z.string().min(1).max(8192),
  })
  .strict();
export type ResumeData = z.infer<typeof ResumeData>;

/** The /ws adapter's own client events, beyond the room messages: `authenticate`, `resume`, and `ping` (its data is ignored). */
export const WS_CLIENT_EVENTS = ["authenticate", "resume", "ping"] as const;

/** A short, readable reason from a zod error: the first issue's path and message. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.length ? issue.path.join(".") : "payload";
  return `${where}: ${issue.message}`;
}
