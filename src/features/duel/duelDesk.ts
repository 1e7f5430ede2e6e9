import { itemsFingerprint } from "../../db/characterRepo.js";
import { DuelSettleError, lockDuellists, settleDuelInTransaction, type DuelRecord } from "./duelRepo.js";
import { offerValue } from "../../game/trade.js";
import { receiveAtDesk, type DeskReplies } from "../../../rooms/deskMessages.js";
import type { DuelBook } from "./duelBook.js";
import { DuelError, type DuelEvent, type DuelSession, type DuelSide } from "./duelSession.js";
import { snapshotOf } from "../../game/world/players.js";
import { duelsEnded } from "../../metrics.js";
import { DuelMessages, type DuelMessage, type DuelMessageType, type DuelScreenName, type DuelSideView } from "../../protocol/index.js";
import type { WorldDesk, WorldDeskOptions } from "../../worldDesks.js";
import { duelsOf } from "./duelWorld.js";

/**
 * The world room's duel desk: it runs the world's duel book (duelsOf) on the duel messages,
 * tells both duellists what it did, and settles a finished duel through the world's saver (so the
 * settlement is ordered with every save of both characters): one transaction writes what the world
 * holds for both, re-reads, moves the loser's stake and writes the `duels` row. The rules (screens,
 * arena, the fight, what ends it) are the book's.
 */
export class DuelDesk implements WorldDesk {
  readonly book: DuelBook;
  private readonly settling = new Map<string, { players: [string, string]; done: Promise<void> }>();
  private readonly now: () => number;

  constructor(private readonly o: WorldDeskOptions) {
    this.book = duelsOf(o.world);
    this.now = o.now ?? Date.now;
  }

  /** A duel message: validated, run, answered with duel:error when refused. */
  receive(playerId: string, type: string, payload: unknown): void {
    this.run(playerId, type as DuelMessageType, payload);
  }

  private run<K extends DuelMessageType>(playerId: string, type: K, payload: unknown) {
    const handler = this.handlers[type] as (playerId: string, m: DuelMessage<K>, now: number) => void;
    receiveAtDesk(type, payload, DuelMessages[type], this.replies(playerId), (m) => handler(playerId, m as DuelMessage<K>, this.now()));
  }

  /** How a player's duel messages are answered: duel:error naming the duel. */
  private replies(playerId: string): DeskReplies {
    return {
      idKey: "duelId",
      idOf: (err) => (err instanceof DuelError ? err.duelId : undefined),
      refuse: (code, message, id) => this.error(playerId, code, message, id),
      flush: () => this.flush(),
    };
  }

  private readonly handlers: { [K in DuelMessageType]: (playerId: string, m: DuelMessage<K>, now: number) => void } = {
    "duel:challenge": (id, m, now) => this.book.challenge(id, m.targetPlayerId, now),
    "duel:respond": (id, m, now) => this.book.respond(id, m.duelId, m.accept, now),
    "duel:rule": (id, m, now) => this.book.setRule(id, m.duelId, m.rule, m.on, now),
    "duel:stake": (id, m, now) => this.book.stake(id, m.duelId, m.inventorySlot, m.quantity, true, now),
    "duel:unstake": (id, m, now) => this.book.stake(id, m.duelId, m.inventorySlot, m.quantity, false, now),
    "duel:accept": (id, m, now) => this.book.accept(id, m.duelId, now),
    "duel:cancel": (id, m) => this.book.cancelBy(id, m.duelId),
    "duel:forfeit": (id, m) => this.book.forfeit(id, m.duelId),
  };

  /** Every tick: timeouts, countdowns, draws; what the tick's rules did (a defeat, a death) is told. */
  tick() {
    this.book.tick(this.now(), this.o.world.tick);
    this.flush();
  }

  /** A player is leaving the world: a fight of theirs is lost and settled before the leave's save. */
  async leaving(playerId: string): Promise<void> {
    this.book.playerGone(playerId, "disconnected");
    this.flush();
    for (const s of [...this.settling.values()]) if (s.players.includes(playerId)) await s.done;
  }

  /** Tell what the book did outside a message. */
  flush() {
    for (const e of this.book.drain()) this.handle(e);
  }

  /** The world is stopping (World.callOff called its setups and fights off): both duellists are told, and settlements in flight finish. */
  async stopped(): Promise<void> {
    this.flush();
    await Promise.all([...this.settling.values()].map((s) => s.done));
  }

  private error(playerId: string, code: string, message: string, duelId?: string) {
    this.o.send(playerId, "duel:error", duelId === undefined ? { code, message } : { code, message, duelId });
  }

  private sideView(side: DuelSide): DuelSideView {
    return {
      playerId: side.playerId,
      name: side.name,
      stake: side.stake.map((o) => ({ inventorySlot: o.inventorySlot, itemId: o.itemId, quantity: o.quantity })),
      stakeValue: offerValue(side.stake, this.o.world.data.items),
      accepted: side.accepted,
    };
  }

  private toBoth(duel: DuelSession, tell: (playerId: string, me: DuelSide, them: DuelSide) => void) {
    tell(duel.challenger.playerId, duel.challenger, duel.opponent);
    tell(duel.opponent.playerId, duel.opponent, duel.challenger);
  }

  private handle(e: DuelEvent) {
    const { duel } = e;
    const send = this.o.send;
    switch (e.kind) {
      case "requested":
        send(duel.challenger.playerId, "duel:requestSent", { duelId: duel.id, targetPlayerId: duel.opponent.playerId, targetName: duel.opponent.name });
        if (!duel.hiddenFromTarget)
          send(duel.opponent.playerId, "duel:incoming", { duelId: duel.id, fromPlayerId: duel.challenger.playerId, fromPlayerName: duel.challenger.name });
        return;
      case "screen":
        this.toBoth(duel, (id, me, them) =>
          send(id, "duel:screen", {
            duelId: duel.id,
            screen: duel.screen as DuelScreenName,
            rules: { ...duel.rules },
            me: this.sideView(me),
            them: this.sideView(them),
          }),
        );
        return;
      case "countdown":
        this.toBoth(duel, (id, _me, them) =>
          send(id, "duel:countdown", {
            duelId: duel.id,
            arenaId: duel.arena!.id,
            ticks: this.book.limits.countdownTicks,
            opponentId: them.playerId,
            rules: { ...duel.rules },
          }),
        );
        return;
      case "fight":
        this.toBoth(duel, (id, _me, them) => send(id, "duel:fight", { duelId: duel.id, opponentId: them.playerId }));
        return;
      case "settle":
        this.settle(duel);
        return;
      case "ended":
        duelsEnded.inc({ outcome: e.settled || e.outcome === "draw" ? e.outcome : "unsettled" });
        this.toBoth(duel, (id) => {
          const received = id === e.winnerId ? e.received.map((o) => ({ itemId: o.itemId, quantity: o.quantity })) : [];
          send(id, "duel:ended", { duelId: duel.id, outcome: e.outcome, winnerId: e.winnerId, received, settled: e.settled, message: e.message });
          this.o.syncPlayer(id);
        });
        return;
      case "cancelled":
        duelsEnded.inc({ outcome: e.reason });
        // A challenge hidden from an ignoring player ends for the challenger alone.
        if (duel.hiddenFromTarget && duel.screen === "requested")
          send(duel.challenger.playerId, "duel:cancelled", { duelId: duel.id, reason: e.reason, message: e.message });
        else this.toBoth(duel, (id) => send(id, "duel:cancelled", { duelId: duel.id, reason: e.reason, message: e.message }));
        return;
    }
  }

  /**
   * The fight is over: one transaction locks both characters, writes what the world holds for them,
   * re-reads and re-validates both stakes, moves the loser's to the winner and writes the history
   * row. The world takes both inventories only once it is written; if it cannot be, nothing moved.
   */
  private settle(duel: DuelSession) {
    const world = this.o.world;
    const items = world.data.items;
    const { winnerId, loserId, outcome } = duel.result!;
    const side = (id: string) => (duel.challenger.playerId === id ? duel.challenger : duel.opponent);
    const party = (id: string) => ({
      characterId: id,
      name: side(id).name,
      stake: side(id).stake.map((o) => ({ ...o })),
      value: offerValue(side(id).stake, items),
    });
    const record: DuelRecord = { id: duel.id, winner: party(winnerId), loser: party(loserId), rules: { ...duel.rules }, arenaId: duel.arena!.id, outcome };
    const players = [winnerId, loserId].flatMap((id) => world.players.get(id) ?? []);
    const done = this.o.saver
      .saveWith(world, players, async (tx, writeSave) => {
        await lockDuellists(tx, record);
        await writeSave();
        return settleDuelInTransaction(tx, record, items);
      })
      .then(
        (settlement) => {
          this.book.settled(duel.id, settlement);
          for (const p of players) {
            const snap = snapshotOf(p);
            p.persistedItems = itemsFingerprint(snap);
            // The settlement wrote the stakes' ledger rows: the next save starts from what it left.
            p.persistedHeld = snap;
          }
        },
        (err) => {
          if (!(err instanceof DuelSettleError)) this.o.logger.error({ err, duelId: duel.id }, "a duel's settlement failed; nothing moved");
          this.book.settleFailed(
            duel.id,
            err instanceof DuelSettleError
              ? `The stakes could not be settled: ${err.message}; both keep their own`
              : "The duel could not be settled; both keep their own stakes",
          );
        },
      )
      .finally(() => {
        this.settling.delete(duel.id);
        this.flush();
      });
    this.settling.set(duel.id, { players: [winnerId, loserId], done });
  }
}
