import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { consumeInMemory, inMemoryAuth } from "../../rooms/inMemoryClient.js";
import { CLOSE_CODES } from "../protocol/index.js";
import { WsTradeClient, type WsRoomClient } from "./roomClients.js";

/** What the adapter asks of the world room beyond messages (rooms/WorldRoom.ts). */
export interface ResumableRoom {
  /**
   * Send the session of this room client its private state, a full view and where its trades
   * stand, as at a join; false when that session is over.
   */
  resendState(sessionId: string): boolean;
}

/** The connection a seat is played from (src/ws/connection.ts). */
export interface SeatHolder {
  /** Another socket resumed the seat: this one loses it and is closed. */
  seatTaken(): void;
}

/**
 * A /ws player's place in the world, apart from its socket: its world room client, its seat in the
 * trade it is in, and its resume token. A socket that drops leaves the seat parked (the player
 * stays in the world) for RECONNECT_GRACE_S; a `resume` with the token puts it on a new socket.
 */
export class WsSeat {
  /** The trade room this player sits in, with the trade's id. */
  trade: { tradeId: string; client: WsTradeClient } | undefined;
  /** The token that takes this seat back; "" when none works. */
  resumeToken = "";
  /** The connection playing from this seat; none while parked. */
  holder: SeatHolder | undefined;
  /** While parked: the end of the grace period. */
  graceTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly client: WsRoomClient,
    readonly room: ResumableRoom,
    /** The token the player joined with (it also claims trade seats). */
    readonly token: string,
    readonly accountId: string,
    readonly playerId: string,
    private readonly logger: Logger,
  ) {
    client.onTradeStarted = (started) => void this.joinTrade(started.tradeId, started.reservation);
  }

  get gone(): boolean {
    return this.client.closed;
  }

  /** Take the player's seat in a trade's room, as an SDK client would with the reservation. */
  private async joinTrade(tradeId: string, reservation: { roomId: string; sessionId: string }) {
    try {
      const { client } = await consumeInMemory((sessionId) => new WsTradeClient(sessionId), reservation, inMemoryAuth(this.token, "ws"));
      if (this.gone) return client.leave(CLOSE_CODES.NORMAL);
      this.leaveTrade();
      this.trade = { tradeId, client };
    } catch (err) {
      // The trade goes on through the world room; its room only mirrors it.
      this.logger.debug({ err, tradeId }, "/ws player could not take its trade seat");
    }
  }

  leaveTrade() {
    this.trade?.client.leave(CLOSE_CODES.NORMAL);
    this.trade = undefined;
  }

  /** Leave the world now (the room saves the character). */
  leave() {
    this.leaveTrade();
    this.client.leave(CLOSE_CODES.NORMAL);
  }

  /** Leave the world but keep the socket (the connection switches identity). */
  detach() {
    this.leaveTrade();
    this.client.detach();
  }
}

/**
 * The seats of one /ws endpoint, by resume token. A token is 256 random bits, works once, and
 * only while its seat is in the world: a resume, a leave, a take-over, a kick or the end of the
 * grace period withdraws it. Held in this process only: a resume must reach the server that
 * issued the token.
 */
export class WsSeats {
  private readonly byToken = new Map<string, WsSeat>();
  private closed = false;

  constructor(private readonly graceMs: number) {}

  /** A new seat, played from `holder`: forgotten once its player is out of the world. */
  add(seat: WsSeat, holder: SeatHolder) {
    seat.holder = holder;
    seat.client.onGone = () => {
      this.forget(seat);
      seat.leaveTrade();
    };
  }

  /** A fresh resume token for the seat; the previous one stops working. */
  issue(seat: WsSeat): string {
    this.withdraw(seat);
    if (seat.gone) return "";
    const token = randomBytes(32).toString("base64url");
    this.byToken.set(token, seat);
    seat.resumeToken = token;
    return token;
  }

  /**
   * The seat of a resume token, taken out of the grace period and away from any socket still
   * playing it, for `holder`; the token is used up. Undefined when it works for no seat.
   */
  take(token: string, holder: SeatHolder): WsSeat | undefined {
    const seat = this.byToken.get(token);
    if (!seat) return undefined;
    this.withdraw(seat);
    if (seat.gone) return undefined;
    clearTimeout(seat.graceTimer);
    seat.graceTimer = undefined;
    const previous = seat.holder;
    seat.holder = holder;
    if (previous && previous !== holder) previous.seatTaken();
    return seat;
  }

  /**
   * The seat's socket dropped: the player stays in the world for the grace period, its token
   * still good; past it the player leaves (and is saved) as on any leave.
   */
  park(seat: WsSeat) {
    seat.holder = undefined;
    seat.client.unplug();
    if (seat.gone) return;
    if (this.graceMs <= 0 || this.closed) return seat.leave();
    clearTimeout(seat.graceTimer);
    seat.graceTimer = setTimeout(() => seat.leave(), this.graceMs);
    // A shutdown or a take-over ends the seat sooner; the timer never holds the process.
    seat.graceTimer.unref();
  }

  /** The seat's player is out of the world: its token and its grace period go. */
  forget(seat: WsSeat) {
    this.withdraw(seat);
    clearTimeout(seat.graceTimer);
    seat.graceTimer = undefined;
    seat.holder = undefined;
  }

  /** The endpoint is closing: every parked player leaves now, and a socket closing from now on is a leave. */
  close() {
    this.closed = true;
    for (const seat of new Set(this.byToken.values())) if (!seat.holder) seat.leave();
  }

  private withdraw(seat: WsSeat) {
    if (seat.resumeToken) this.byToken.delete(seat.resumeToken);
    seat.resumeToken = "";
  }
}
