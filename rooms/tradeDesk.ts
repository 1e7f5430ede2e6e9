import { matchMaker, type IRoomCache } from "@colyseus/core";
import { reserveSeats } from "./colyseusSeats.js";
import { TradeCommits } from "./tradeCommits.js";
import type { Logger } from "pino";
import type { WorldSaver } from "../src/db/worldSaver.js";
import { tradeValues, type OfferItem } from "../src/game/trade.js";
import { receiveAtDesk, type DeskReplies } from "./deskMessages.js";
import { TradeError, type TradeBook, type TradeEvent, type TradeSession, type TradeSide } from "../src/game/world/tradeBook.js";
import type { World } from "../src/game/world/World.js";
import { tradesEnded } from "../src/metrics.js";
import {
  TradeMessages,
  type SeatReservation,
  type ServerMessage,
  type ServerMessageType,
  type TradeMessage,
  type TradeMessageType,
} from "../src/protocol/index.js";

/** What the trade desk needs from its trade's room (rooms/TradeRoom.ts). */
export interface TradeRoomHandle {
  /** Show the session's current offers, acceptances and screen in the room's state. */
  mirror(trade: TradeSession): void;
  /** The trade ended: let the traders go and dispose of the room. */
  close(): void;
}

/** The seat a trader receives in tradeStarted: the room checks it against the trader's token. */
export interface TradeSeat {
  tradeId: string;
  playerId: string;
  accountId: string;
}

export interface TradeDeskOptions {
  world: World;
  saver: WorldSaver;
  logger: Logger;
  /** The world room's id: the trade rooms find their desk through it. */
  worldRoomId: string;
  /** Send a message to a player in the world (nothing when they are not online). */
  send<K extends ServerMessageType>(playerId: string, type: K, data: ServerMessage<K>): void;
  /** Send a player's private state now. */
  syncPlayer(playerId: string): void;
  /** Does this player's client take its trades in a trade room (a Colyseus client over a socket)? The /ws adapter's and the agents' trade through the world room. */
  usesTradeRoom(playerId: string): boolean;
  /** Test hook: milliseconds since the epoch. */
  now?: () => number;
}

const offerView = (side: TradeSide) => ({
  items: side.items.map((o: OfferItem) => ({ inventorySlot: o.inventorySlot, itemId: o.itemId, quantity: o.quantity })),
  accepted: side.accepted,
});

/**
 * The world room's trade desk: it runs the world's trade book (`world.trades`) on the messages of
 * both rooms, tells the traders what the book did, spawns a trade room per opened trade (seats
 * reserved for both traders, when one of them is an SDK client) and commits the swaps (TradeCommits: grouped, through the world's
 * saver, so a commit is ordered with every save of its traders). The rules (deaths and leaves ending trades, locks) are the book's.
 */
export class TradeDesk {
  readonly book: TradeBook;
  private readonly rooms = new Map<string, TradeRoomHandle>();
  /** Trades whose room is being made: the room's onCreate claims its trade from here. */
  private readonly expecting = new Set<string>();
  /** Messages for a trade held until both traders have their tradeStarted. */
  private readonly held = new Map<string, Array<() => void>>();
  private readonly commits: TradeCommits;
  private readonly now: () => number;

  constructor(private readonly o: TradeDeskOptions) {
    this.book = o.world.trades;
    this.now = o.now ?? Date.now;
    this.commits = new TradeCommits({ world: o.world, saver: o.saver, book: this.book, logger: o.logger, settled: () => this.flush() });
  }

  /** A trade message from either room: validated, run, answered with tradeError when refused. */
  receive<K extends TradeMessageType>(playerId: string, type: K, payload: unknown) {
    const handler = this.handlers[type] as (playerId: string, m: TradeMessage<K>, now: number) => void;
    receiveAtDesk(type, payload, TradeMessages[type], this.replies(playerId), (m) => handler(playerId, m as TradeMessage<K>, this.now()));
  }

  /** How a player's trade messages are answered: tradeError naming the trade. */
  private replies(playerId: string): DeskReplies {
    return {
      idKey: "tradeId",
      idOf: (err) => (err instanceof TradeError ? err.tradeId : undefined),
      refuse: (code, message, id) => this.error(playerId, code, message, id),
      flush: () => this.flush(),
    };
  }

  /** Each trade message, typed by its schema, to the book's rule. */
  private readonly handlers: { [K in TradeMessageType]: (playerId: string, m: TradeMessage<K>, now: number) => void } = {
    tradeRequest: (id, m, now) => this.book.request(id, m.targetPlayerId, now),
    tradeRequestRespond: (id, m, now) => this.book.respond(id, m.tradeId, m.accept, now),
    tradeAddItem: (id, m, now) => this.book.addItem(id, m.tradeId, m.inventorySlot, m.quantity, now),
    tradeRemoveItem: (id, m, now) => this.book.removeItem(id, m.tradeId, m.inventorySlot, m.quantity, now),
    tradeAccept: (id, m, now) => this.book.accept(id, m.tradeId, now),
    tradeCancel: (id, m) => this.book.cancelBy(id, m.tradeId),
  };

  /** Every tick: unanswered requests and idle trades time out; what the tick's rules did to trades (deaths) is told. */
  tick() {
    this.book.expire(this.now());
    this.flush();
  }

  /**
   * A player is about to leave the world: a commit in flight is waited for, so the leave's save
   * captures the committed inventory. (Leaving the world ends an open trade: removePlayer.)
   */
  async commitsSettled(playerId: string): Promise<void> {
    await this.commits.settledFor(playerId);
  }

  /** Tell what the book did outside a message (a player left the world). */
  flush() {
    for (const e of this.book.drain()) this.handle(e);
  }

  /** The world is stopping (World.callOff ended its open trades): both traders are told, and commits in flight finish. */
  async stopped(): Promise<void> {
    this.flush();
    await this.commits.settledFor();
  }

  /**
   * A player who missed what was sent (a /ws socket resumed after a drop) is told where its trades
   * stand: its request or one to it waiting for an answer, or its open trade's partner and screen.
   */
  retell(playerId: string) {
    for (const trade of this.book.sessions.values()) {
      const mine = trade.initiator.playerId === playerId;
      if (!mine && trade.recipient.playerId !== playerId) continue;
      const [me, them] = mine ? [trade.initiator, trade.recipient] : [trade.recipient, trade.initiator];
      if (trade.screen === "requested") {
        if (mine) this.o.send(playerId, "tradeRequestSent", { tradeId: trade.id, targetPlayerId: them.playerId, targetName: them.name });
        else if (!trade.hiddenFromTarget) this.o.send(playerId, "tradeIncoming", { tradeId: trade.id, fromPlayerId: them.playerId, fromPlayerName: them.name });
        continue;
      }
      // Its room is still being made: tradeStarted, and what is held after it, are still to come.
      if (this.held.has(trade.id)) continue;
      this.o.send(playerId, "tradeStarted", { tradeId: trade.id, partnerId: them.playerId, partnerName: them.name });
      if (trade.screen === "offer") this.o.send(playerId, "tradeUpdated", { tradeId: trade.id, myOffer: offerView(me), theirOffer: offerView(them) });
      else {
        const values = tradeValues(me.items, them.items, this.o.world.data.items);
        this.o.send(playerId, "tradeConfirmScreen", { tradeId: trade.id, myOffer: offerView(me), theirOffer: offerView(them), values });
      }
    }
  }

  /** Called by a trade room's onCreate: the room of a trade this desk is opening, or null. */
  claimRoom(tradeId: string, room: TradeRoomHandle): TradeSession | null {
    if (!this.expecting.delete(tradeId)) return null;
    const trade = this.book.sessions.get(tradeId);
    if (!trade) return null;
    this.rooms.set(tradeId, room);
    return trade;
  }

  private error(playerId: string, code: string, message: string, tradeId?: string) {
    this.o.send(playerId, "tradeError", tradeId === undefined ? { code, message } : { code, message, tradeId });
  }

  private to<K extends ServerMessageType>(trade: TradeSession, playerId: string, type: K, data: ServerMessage<K>) {
    const held = this.held.get(trade.id);
    if (held) held.push(() => this.o.send(playerId, type, data));
    else this.o.send(playerId, type, data);
  }

  /** Tell both sides, each from its own point of view. */
  private toBoth(trade: TradeSession, tell: (playerId: string, me: TradeSide, them: TradeSide) => void) {
    tell(trade.initiator.playerId, trade.initiator, trade.recipient);
    tell(trade.recipient.playerId, trade.recipient, trade.initiator);
  }

  private handle(e: TradeEvent) {
    const { trade } = e;
    switch (e.kind) {
      case "requested":
        this.to(trade, trade.initiator.playerId, "tradeRequestSent", {
          tradeId: trade.id,
          targetPlayerId: trade.recipient.playerId,
          targetName: trade.recipient.name,
        });
        if (!trade.hiddenFromTarget)
          this.to(trade, trade.recipient.playerId, "tradeIncoming", {
            tradeId: trade.id,
            fromPlayerId: trade.initiator.playerId,
            fromPlayerName: trade.initiator.name,
          });
        return;
      case "started":
        this.open(trade);
        return;
      case "updated":
        this.rooms.get(trade.id)?.mirror(trade);
        this.toBoth(trade, (id, me, them) => this.to(trade, id, "tradeUpdated", { tradeId: trade.id, myOffer: offerView(me), theirOffer: offerView(them) }));
        return;
      case "confirm":
        this.rooms.get(trade.id)?.mirror(trade);
        this.toBoth(trade, (id, me, them) =>
          this.to(trade, id, "tradeConfirmScreen", {
            tradeId: trade.id,
            myOffer: offerView(me),
            theirOffer: offerView(them),
            values: tradeValues(me.items, them.items, this.o.world.data.items),
          }),
        );
        return;
      case "commit":
        this.rooms.get(trade.id)?.mirror(trade);
        this.commits.commit(trade);
        return;
      case "completed":
        tradesEnded.inc({ outcome: "completed" });
        this.rooms.get(trade.id)?.mirror(trade);
        this.to(trade, trade.initiator.playerId, "tradeCompleted", { tradeId: trade.id, receivedItems: e.swap.toInitiator });
        this.to(trade, trade.recipient.playerId, "tradeCompleted", { tradeId: trade.id, receivedItems: e.swap.toRecipient });
        this.o.syncPlayer(trade.initiator.playerId);
        this.o.syncPlayer(trade.recipient.playerId);
        this.closeRoom(trade.id);
        return;
      case "cancelled":
        tradesEnded.inc({ outcome: e.reason });
        // A request hidden from an ignoring player ends for the asker alone.
        if (trade.hiddenFromTarget && trade.screen === "requested")
          this.to(trade, trade.initiator.playerId, "tradeCancelled", { tradeId: trade.id, reason: e.reason, message: e.message });
        else this.toBoth(trade, (id) => this.to(trade, id, "tradeCancelled", { tradeId: trade.id, reason: e.reason, message: e.message }));
        this.closeRoom(trade.id);
        return;
    }
  }

  /**
   * The offer screen opened: make the trade's room, reserve both seats, then send tradeStarted.
   * Between two traders who trade through the world room alone (/ws players, agents), no room is
   * made: it would mirror the trade to nobody, and making one costs more than the trade's commit.
   */
  private open(trade: TradeSession) {
    if (![trade.initiator, trade.recipient].some((side) => this.o.usesTradeRoom(side.playerId))) {
      this.toBoth(trade, (id, _me, them) => this.o.send(id, "tradeStarted", { tradeId: trade.id, partnerId: them.playerId, partnerName: them.name }));
      return;
    }
    this.held.set(trade.id, []);
    let seats = new Map<string, SeatReservation>();
    const made = (async () => {
      this.expecting.add(trade.id);
      const listing: IRoomCache = await matchMaker.handleCreateRoom("trade", { tradeId: trade.id, worldRoomId: this.o.worldRoomId });
      const traders = [trade.initiator, trade.recipient].flatMap((side) => this.o.world.players.get(side.playerId) ?? []);
      seats = await reserveTradeSeats(
        listing,
        traders.map((p): TradeSeat => ({ tradeId: trade.id, playerId: p.id, accountId: p.accountId })),
      );
    })();
    made
      .catch((err) => this.o.logger.error({ err, tradeId: trade.id }, "could not open the trade's room; the trade goes on through the world room"))
      .finally(() => {
        this.expecting.delete(trade.id);
        const held = this.held.get(trade.id) ?? [];
        this.held.delete(trade.id);
        for (const [me, them] of [
          [trade.initiator, trade.recipient],
          [trade.recipient, trade.initiator],
        ]) {
          const reservation = seats.get(me.playerId);
          this.o.send(me.playerId, "tradeStarted", {
            tradeId: trade.id,
            partnerId: them.playerId,
            partnerName: them.name,
            ...(reservation ? { reservation } : {}),
          });
        }
        for (const send of held) send();
        // Ended while its room was being made.
        if (!this.book.sessions.has(trade.id)) this.closeRoom(trade.id);
        else this.rooms.get(trade.id)?.mirror(trade);
      });
  }

  private closeRoom(tradeId: string) {
    if (this.held.has(tradeId)) return; // closed once tradeStarted has gone out
    const room = this.rooms.get(tradeId);
    this.rooms.delete(tradeId);
    room?.close();
  }
}

/**
 * Reserve the traders' seats in a trade's room, both in one call to the room: the reservation of
 * each trader by player id, for its tradeStarted. Throws when the room refuses a seat.
 */
export async function reserveTradeSeats(listing: IRoomCache, seats: readonly TradeSeat[]): Promise<Map<string, SeatReservation>> {
  const reservations = await reserveSeats(listing, seats);
  return new Map(seats.map((seat, i) => [seat.playerId, reservations[i]]));
}
