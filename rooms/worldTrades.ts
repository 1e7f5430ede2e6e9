import { randomUUID } from "node:crypto";
import { matchMaker, type IRoomCache } from "@colyseus/core";
import type { Logger } from "pino";
import { itemsFingerprint } from "../src/db/characterRepo.js";
import { lockTraders, swapInTransaction, TradeCommitError, type TradeRecord } from "../src/db/tradeRepo.js";
import type { WorldSaver } from "../src/db/worldSaver.js";
import { offerValue, tradeValues, type OfferItem, type TradeLimits } from "../src/game/trade.js";
import { GameError } from "../src/game/types.js";
import { snapshotOf } from "../src/game/world/players.js";
import { TradeBook, TradeError, type TradeEvent, type TradeSession, type TradeSide } from "../src/game/world/trades.js";
import type { World } from "../src/game/world/World.js";
import { tradeCommitDuration, tradesEnded } from "../src/metrics.js";
import { describeZodError, TradeMessages, type SeatReservation, type ServerMessage, type ServerMessageType, type TradeMessageType } from "../src/protocol/index.js";

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
  limits?: TradeLimits;
  /** Send a message to a player in the world (nothing when they are not online). */
  send<K extends ServerMessageType>(playerId: string, type: K, data: ServerMessage<K>): void;
  /** Send a player's private state now. */
  syncPlayer(playerId: string): void;
  /** Does the player `playerId` ignore `fromId`? Their trade requests are not shown to them. */
  ignoring?(playerId: string, fromId: string): boolean;
  /** Test hook: milliseconds since the epoch. */
  now?: () => number;
}

const offerView = (side: TradeSide) => ({ items: side.items.map((o: OfferItem) => ({ inventorySlot: o.inventorySlot, itemId: o.itemId, quantity: o.quantity })), accepted: side.accepted });

/**
 * The world room's trade desk: it runs the trade book on the messages of both rooms, tells the
 * traders what happened, spawns a trade room per opened trade (seats reserved for both traders)
 * and commits the swap through the world's saver, so the commit is ordered with every save.
 */
export class TradeDesk {
  readonly book: TradeBook;
  private readonly rooms = new Map<string, TradeRoomHandle>();
  /** Trades whose room is being made: the room's onCreate claims its trade from here. */
  private readonly expecting = new Set<string>();
  /** Messages for a trade held until both traders have their tradeStarted. */
  private readonly held = new Map<string, Array<() => void>>();
  /** Commits in flight, by trade. */
  private readonly commits = new Map<string, { players: [string, string]; done: Promise<void> }>();
  private readonly now: () => number;

  constructor(private readonly o: TradeDeskOptions) {
    this.book = new TradeBook(o.world, () => `t_${randomUUID()}`, o.limits, (playerId, fromId) => o.ignoring?.(playerId, fromId) ?? false);
    this.now = o.now ?? Date.now;
  }

  /** A trade message from either room: validated, run, answered with tradeError when refused. */
  receive(playerId: string, type: TradeMessageType, payload: unknown) {
    const parsed = TradeMessages[type].safeParse(payload ?? {});
    const tradeId = typeof (payload as { tradeId?: unknown })?.tradeId === "string" ? (payload as { tradeId: string }).tradeId : undefined;
    if (!parsed.success) return this.error(playerId, "INVALID_PAYLOAD", `${type}: ${describeZodError(parsed.error)}`, tradeId);
    const m = parsed.data as Record<string, unknown>;
    const now = this.now();
    try {
      switch (type) {
        case "tradeRequest":
          this.book.request(playerId, m.targetPlayerId, now);
          break;
        case "tradeRequestRespond":
          this.book.respond(playerId, m.tradeId, m.accept, now);
          break;
        case "tradeAddItem":
          this.book.addItem(playerId, m.tradeId, m.inventorySlot, m.quantity, now);
          break;
        case "tradeRemoveItem":
          this.book.removeItem(playerId, m.tradeId, m.inventorySlot, m.quantity, now);
          break;
        case "tradeAccept":
          this.book.accept(playerId, m.tradeId, now);
          break;
        case "tradeCancel":
          this.book.cancelBy(playerId, m.tradeId);
          break;
      }
    } catch (err) {
      if (!(err instanceof GameError)) throw err;
      this.error(playerId, err.code, err.message, err instanceof TradeError ? (err.tradeId ?? tradeId) : tradeId);
    } finally {
      this.flush();
    }
  }

  /** Every tick: unanswered requests and idle trades time out. */
  tick() {
    this.book.expire(this.now());
    this.flush();
  }

  /** A player died: their trade is cancelled (a commit in flight cannot be, and they cannot die during one). */
  playerDied(playerId: string) {
    this.book.playerGone(playerId, "player_died");
    this.flush();
  }

  /**
   * A player is leaving the world: an open trade is cancelled, a commit in flight is waited for
   * (so the leave's save captures the committed inventory).
   */
  async playerLeaving(playerId: string): Promise<void> {
    this.book.playerGone(playerId, "disconnected");
    this.flush();
    for (const c of [...this.commits.values()]) if (c.players.includes(playerId)) await c.done;
  }

  /** The world is shutting down: open trades are cancelled and commits in flight finish. */
  async shutdown(): Promise<void> {
    this.book.cancelAll("server_shutdown", "The server is shutting down");
    this.flush();
    await Promise.all([...this.commits.values()].map((c) => c.done));
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
    tell(trade.a.playerId, trade.a, trade.b);
    tell(trade.b.playerId, trade.b, trade.a);
  }

  private flush() {
    for (const e of this.book.drain()) this.handle(e);
  }

  private handle(e: TradeEvent) {
    const { trade } = e;
    switch (e.kind) {
      case "requested":
        this.to(trade, trade.a.playerId, "tradeRequestSent", { tradeId: trade.id, targetPlayerId: trade.b.playerId, targetName: trade.b.name });
        if (!trade.hiddenFromTarget) this.to(trade, trade.b.playerId, "tradeIncoming", { tradeId: trade.id, fromPlayerId: trade.a.playerId, fromPlayerName: trade.a.name });
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
        this.toBoth(trade, (id, me, them) => this.to(trade, id, "tradeConfirmScreen", {
          tradeId: trade.id,
          myOffer: offerView(me),
          theirOffer: offerView(them),
          values: tradeValues(me.items, them.items, this.o.world.data.items),
        }));
        return;
      case "commit":
        this.rooms.get(trade.id)?.mirror(trade);
        this.commit(trade);
        return;
      case "completed":
        tradesEnded.inc({ outcome: "completed" });
        this.rooms.get(trade.id)?.mirror(trade);
        this.to(trade, trade.a.playerId, "tradeCompleted", { tradeId: trade.id, receivedItems: e.swap.toA });
        this.to(trade, trade.b.playerId, "tradeCompleted", { tradeId: trade.id, receivedItems: e.swap.toB });
        this.o.syncPlayer(trade.a.playerId);
        this.o.syncPlayer(trade.b.playerId);
        this.closeRoom(trade.id);
        return;
      case "cancelled":
        tradesEnded.inc({ outcome: e.reason });
        // A request hidden from an ignoring player ends for the asker alone.
        if (trade.hiddenFromTarget && trade.screen === "requested") this.to(trade, trade.a.playerId, "tradeCancelled", { tradeId: trade.id, reason: e.reason, message: e.message });
        else this.toBoth(trade, (id) => this.to(trade, id, "tradeCancelled", { tradeId: trade.id, reason: e.reason, message: e.message }));
        this.closeRoom(trade.id);
        return;
    }
  }

  /** The offer screen opened: make the trade's room, reserve both seats, then send tradeStarted. */
  private open(trade: TradeSession) {
    this.held.set(trade.id, []);
    const seats = new Map<string, SeatReservation>();
    const sides = [trade.a, trade.b];
    const made = (async () => {
      this.expecting.add(trade.id);
      const listing: IRoomCache = await matchMaker.handleCreateRoom("trade", { tradeId: trade.id, worldRoomId: this.o.worldRoomId });
      for (const side of sides) {
        const p = this.o.world.players.get(side.playerId);
        if (!p) continue;
        const seat: TradeSeat = { tradeId: trade.id, playerId: p.id, accountId: p.accountId };
        seats.set(side.playerId, await matchMaker.reserveSeatFor(listing, {}, seat));
      }
    })();
    made
      .catch((err) => this.o.logger.error({ err, tradeId: trade.id }, "could not open the trade's room; the trade goes on through the world room"))
      .finally(() => {
        this.expecting.delete(trade.id);
        const held = this.held.get(trade.id) ?? [];
        this.held.delete(trade.id);
        for (const [me, them] of [[trade.a, trade.b], [trade.b, trade.a]]) {
          const reservation = seats.get(me.playerId);
          this.o.send(me.playerId, "tradeStarted", { tradeId: trade.id, partnerId: them.playerId, partnerName: them.name, ...(reservation ? { reservation } : {}) });
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

  /**
   * Both accepted the confirm screen: one transaction locks both characters, writes what the
   * world holds for them, re-reads and re-validates both inventories, swaps, and writes the
   * history row. The world takes the committed inventories only once it is written.
   */
  private commit(trade: TradeSession) {
    const world = this.o.world;
    const a = world.players.get(trade.a.playerId)!;
    const b = world.players.get(trade.b.playerId)!;
    const items = world.data.items;
    const record: TradeRecord = {
      id: trade.id,
      initiator: { characterId: a.id, name: a.name, offer: trade.a.items.map((o) => ({ ...o })), value: offerValue(trade.a.items, items) },
      recipient: { characterId: b.id, name: b.name, offer: trade.b.items.map((o) => ({ ...o })), value: offerValue(trade.b.items, items) },
    };
    const started = performance.now();
    const done = this.o.saver
      .saveWith(world, [a, b], async (tx, writeSave) => {
        await lockTraders(tx, record);
        await writeSave();
        return swapInTransaction(tx, record, items);
      })
      .then(
        (committed) => {
          tradeCommitDuration.observe((performance.now() - started) / 1000);
          this.book.completed(trade.id, { a: committed.initiator, b: committed.recipient }, committed.swap);
          // The database now holds exactly these items for both.
          for (const p of [a, b]) p.persistedItems = itemsFingerprint(snapshotOf(p));
        },
        (err) => {
          const reason = err instanceof TradeCommitError ? err.reason : "error";
          const message = err instanceof TradeCommitError ? err.message : "The trade could not be saved; nothing changed";
          this.book.failed(trade.id, reason, message);
        },
      )
      .finally(() => {
        this.commits.delete(trade.id);
        this.flush();
      });
    this.commits.set(trade.id, { players: [a.id, b.id], done });
  }
}
