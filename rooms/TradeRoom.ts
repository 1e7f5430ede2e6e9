import { matchMaker, Room, ServerError, type AuthContext } from "@colyseus/core";
import { TokenError, tokenErrorStatus, verifyToken } from "../src/auth/tokens.js";
import type { ServerContext } from "../src/context.js";
import type { TradeSession, TradeSide } from "../src/game/world/tradeBook.js";
import { TradeItemState, TradeState, type TradeOfferState } from "../schema/TradeState.js";
import { TRADE_ROOM_MESSAGES } from "../src/protocol/index.js";
import { withdrawUntakenSeats } from "./colyseusSeats.js";
import type { ProtocolClient } from "./protocolClient.js";
import type { TradeDesk, TradeRoomHandle, TradeSeat } from "./tradeDesk.js";

type TradeClient = ProtocolClient<unknown, TradeSeat>;

/**
 * One trade session, spawned by the world's trade desk when a request is accepted. Both traders
 * hold a seat reserved for them (sent in tradeStarted); the state mirrors both offers, both
 * acceptances and the screen. Thin: its messages go to the desk, which owns the trade.
 */
export class TradeRoom extends Room<{ state: TradeState; client: TradeClient }> implements TradeRoomHandle {
  /** Set by arena.config.ts on the class it registers (see bindContext). */
  protected ctx!: ServerContext;

  state = new TradeState();
  maxClients = 2;
  /** The world room's flood limit. */
  maxMessagesPerSecond = 120;
  private desk!: TradeDesk;
  private tradeId = "";
  /** The trade is over: no more seats are taken. */
  private ended = false;

  onCreate(options: { tradeId?: unknown; worldRoomId?: unknown }) {
    this.autoDispose = false;
    const world =
      typeof options?.worldRoomId === "string"
        ? (matchMaker.getLocalRoomById(options.worldRoomId) as unknown as { trades?: TradeDesk } | undefined)
        : undefined;
    const desk = world?.trades;
    const trade = desk && typeof options.tradeId === "string" ? desk.claimRoom(options.tradeId, this) : null;
    // Only the world's trade desk makes trade rooms, one per trade it is opening.
    if (!desk || !trade) throw new ServerError(404, "No such trade");
    this.desk = desk;
    this.tradeId = trade.id;
    this.mirror(trade);
    for (const type of TRADE_ROOM_MESSAGES) {
      this.onMessage(type, (client: TradeClient, payload: unknown) => this.desk.receive(client.auth!.playerId, type, payload));
    }
    this.onMessage("*", (client: TradeClient, type: string | number) => {
      client.send("tradeError", { code: "UNKNOWN_EVENT", message: `Unknown event ${String(type)}`, tradeId: this.tradeId });
    });
  }

  /** Only a reserved seat of this trade, claimed with its trader's own token. */
  onAuth(client: TradeClient, _options: unknown, context: AuthContext): TradeSeat {
    const seat = client.auth;
    if (!seat || seat.tradeId !== this.tradeId) throw new ServerError(403, "This seat is not for this trade");
    if (this.ended) throw new ServerError(410, "The trade is over");
    try {
      if (verifyToken(context.token, this.ctx.config.jwtSecret).sub !== seat.accountId) throw new ServerError(403, "This seat belongs to another player");
    } catch (err) {
      if (err instanceof TokenError) throw new ServerError(tokenErrorStatus(err), err.message);
      throw err;
    }
    return seat;
  }

  mirror(trade: TradeSession) {
    this.state.tradeId = trade.id;
    this.state.screen = trade.screen;
    mirrorSide(this.state.initiator, trade.initiator);
    mirrorSide(this.state.recipient, trade.recipient);
  }

  close() {
    this.ended = true;
    this.state.screen = "closed";
    // Seats not taken yet are withdrawn: a seat taken into a closing room would keep it open.
    withdrawUntakenSeats(this);
    this.disconnect().catch((err) => this.ctx.logger.warn({ err, tradeId: this.tradeId }, "trade room did not close cleanly"));
  }
}

function mirrorSide(state: TradeOfferState, side: TradeSide) {
  state.playerId = side.playerId;
  state.name = side.name;
  state.accepted = side.accepted;
  state.items.splice(0, state.items.length);
  for (const o of side.items) state.items.push(new TradeItemState({ inventorySlot: o.inventorySlot, itemId: o.itemId, quantity: o.quantity }));
}
