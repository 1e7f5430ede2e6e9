import { schema, t, type SchemaType } from "@colyseus/schema";

/**
 * A trade's room state, synchronised to both traders: both offers, both acceptance flags and the
 * screen ("offer", "confirm", "committing", then "closed" as the room lets the traders go).
 */

export const TradeItemState = schema(
  {
    inventorySlot: t.uint8(),
    itemId: t.string(),
    quantity: t.uint32(),
  },
  "TradeItemState",
);
export type TradeItemState = SchemaType<typeof TradeItemState>;

export const TradeOfferState = schema(
  {
    playerId: t.string(),
    name: t.string(),
    accepted: t.boolean(),
    items: t.array(TradeItemState),
  },
  "TradeOfferState",
);
export type TradeOfferState = SchemaType<typeof TradeOfferState>;

export const TradeState = schema(
  {
    tradeId: t.string(),
    screen: t.string(),
    /** The player who asked. */
    initiator: t.ref(TradeOfferState),
    /** The player asked. */
    recipient: t.ref(TradeOfferState),
  },
  "TradeState",
);
export type TradeState = SchemaType<typeof TradeState>;
