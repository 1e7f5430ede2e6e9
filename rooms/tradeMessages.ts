import { z } from "zod";

/**
 * The trade's client → server messages (docs/PROTOCOL.md, "Trading"). Accepted by the world room
 * and by the trade's own room alike. Slots and quantities are checked by the trade rules, so a bad
 * one is answered INVALID_SLOT or INVALID_QUANTITY rather than a generic INVALID_PAYLOAD.
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
