import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { chance, randomInt } from "../../src/game/random.js";
import type { Rng } from "../../src/game/types.js";
import type { TradeSession } from "../../src/game/world/tradeBook.js";
import { until } from "./tradeSuite.js";
import type { Frame } from "./wsClient.js";
import type { ResumingPlayer } from "./wsResume.js";

/**
 * One trade between two /ws players driven to its end while their sockets drop at random moments
 * (seeded): before a move, or right after it was sent (the move in flight, perhaps lost), one or
 * both players; each comes back with `resume`, at once or once the server has seen the drop. The
 * next move is always read from the world's own trade (what a lost move did or did not do), so the
 * trade ends either completed once or cancelled (a player may cancel or decline, at random).
 */

/** What the initiator and the recipient offer. */
export const OFFERS = { a: { itemId: "coins", quantity: 10 }, b: { itemId: "logs", quantity: 2 } };

interface Move {
  by: ResumingPlayer;
  type: string;
  data: Record<string, unknown>;
  /** The mover's frame that shows the move was done. */
  done: (f: Frame) => boolean;
}

const ofTrade =
  (tradeId: string, ...types: string[]) =>
  (f: Frame) =>
    types.includes(f.type) && f.data.tradeId === tradeId;
const accepted =
  (tradeId: string, ...ends: string[]) =>
  (f: Frame) =>
    ofTrade(tradeId, ...ends)(f) || (ofTrade(tradeId, "tradeUpdated")(f) && f.data.myOffer.accepted);

export class TradeThroughDrops {
  tradeId: string | undefined;
  drops = 0;
  /** A player sent tradeCancel, or declined (perhaps lost with its socket): only then may the trade end cancelled. */
  cancelSent = false;
  readonly log: string[] = [];

  constructor(
    private readonly room: WorldRoom,
    private readonly a: ResumingPlayer,
    private readonly b: ResumingPlayer,
    private readonly rng: Rng,
    private readonly maxDrops = 4,
  ) {}

  private trade(): TradeSession | undefined {
    const book = this.room.world.trades;
    const t = this.tradeId ? book.sessions.get(this.tradeId) : book.tradeOf(this.a.id);
    if (t) this.tradeId = t.id;
    return t;
  }

  /** The next move the world's trade asks for; undefined once the trade is over. */
  private nextMove(t: TradeSession | undefined): Move | "committing" | undefined {
    const { a, b } = this;
    if (!t) return this.tradeId ? undefined : { by: a, type: "tradeRequest", data: { targetPlayerId: b.id }, done: (f) => f.type === "tradeRequestSent" };
    const id = t.id;
    const cancel = (by: ResumingPlayer): Move => ({ by, type: "tradeCancel", data: { tradeId: id }, done: ofTrade(id, "tradeCancelled") });
    if (t.screen === "committing") return "committing";
    if (t.screen === "requested") {
      const accept = !chance(this.rng, 0.08);
      return { by: b, type: "tradeRequestRespond", data: { tradeId: id, accept }, done: ofTrade(id, accept ? "tradeStarted" : "tradeCancelled") };
    }
    const [mine, theirs] = [t.initiator, t.recipient];
    if (chance(this.rng, 0.06)) return cancel(chance(this.rng, 0.5) ? a : b);
    if (t.screen === "offer" && mine.items.length === 0) return this.offer(a, id, OFFERS.a.quantity);
    if (t.screen === "offer" && theirs.items.length === 0) return this.offer(b, id, OFFERS.b.quantity);
    const ends = t.screen === "offer" ? ["tradeConfirmScreen"] : ["tradeCompleted", "tradeCancelled"];
    const by = mine.accepted ? b : a;
    return { by, type: "tradeAccept", data: { tradeId: id }, done: accepted(id, ...ends) };
  }

  private offer(by: ResumingPlayer, tradeId: string, quantity: number): Move {
    return {
      by,
      type: "tradeAddItem",
      data: { tradeId, inventorySlot: 0, quantity },
      done: (f) => ofTrade(tradeId, "tradeUpdated")(f) && f.data.myOffer.items.length > 0,
    };
  }

  /** Drop these players' sockets and resume each, at once or once the server has seen the drop. */
  private async dropAndResume(players: ResumingPlayer[]) {
    this.drops++;
    for (const p of players) p.drop();
    for (const p of players) {
      const wait = chance(this.rng, 0.5);
      this.log.push(`  ${p === this.a ? "a" : "b"} resumes ${wait ? "once parked" : "at once"}`);
      if (wait) await p.parkedIn(this.room);
      const { frames } = await p.resume();
      this.checkRetold(frames);
    }
  }

  /** A resumed socket told of an open trade is told its screen right after tradeStarted. */
  private checkRetold(frames: Frame[]) {
    const i = frames.findIndex(ofTrade(this.tradeId ?? "", "tradeStarted"));
    if (i < 0 || frames[i].data.partnerId === undefined) return;
    const screen = frames.slice(i + 1).find((f) => f.data?.tradeId === this.tradeId);
    assert.ok(
      screen && ["tradeUpdated", "tradeConfirmScreen", "tradeCompleted", "tradeCancelled"].includes(screen.type),
      `retold ${JSON.stringify(frames.map((f) => f.type))}`,
    );
  }

  /** Drive the trade to its end. */
  async run(): Promise<void> {
    for (let step = 0; step < 60; step++) {
      const move = this.nextMove(this.trade());
      if (move === undefined) return;
      if (move !== "committing" && (move.type === "tradeCancel" || move.data.accept === false)) this.cancelSent = true;
      if (move === "committing") {
        this.log.push("committing");
        await until(() => !this.room.world.trades.sessions.has(this.tradeId!), 15_000);
        continue;
      }
      const mover = move.by === this.a ? "a" : "b";
      const drop = this.drops < this.maxDrops && chance(this.rng, 0.45);
      const who = [[this.a], [this.b], [this.a, this.b]][randomInt(this.rng, 0, 2)];
      const inFlight = chance(this.rng, 0.5);
      const names = who.map((p) => (p === this.a ? "a" : "b")).join("+");
      if (drop && !inFlight) {
        this.log.push(`drop ${names} before ${mover} ${move.type}`);
        await this.dropAndResume(who);
        continue;
      }
      this.log.push(`${mover} ${move.type} ${JSON.stringify(move.data)}${drop ? ` then drop ${names} (in flight)` : ""}`);
      const since = move.by.ws.mark();
      move.by.ws.send(move.type, move.data);
      if (drop && who.includes(move.by)) {
        // The move may be lost with the socket: the next move is read from the world again.
        await this.dropAndResume(who);
        continue;
      }
      if (drop) for (const p of who) p.drop();
      const done = await move.by.ws.next("*", (f) => move.done(f) || f.type === "tradeError", { since });
      assert.notEqual(done.type, "tradeError", `${move.type} refused: ${JSON.stringify(done.data)}`);
      if (drop) await this.dropAndResume(who);
    }
    assert.fail("the trade did not end within 60 moves");
  }
}
