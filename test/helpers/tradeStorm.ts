import type { Frame, WsPlayer } from "./wsClient.js";

/**
 * A trade storm over /ws: players trade with each other concurrently and continuously (random offers
 * of coins and single items, some removes, accepts, the occasional decline and cancel), each trade
 * step by step, every step waiting for the server's answer to it. Built for test/trade/crash.test.ts,
 * which kills the server in the middle of it: every wait rejects with ServerGone once a socket closes.
 */

export interface StormPlayer {
  id: string;
  token: string;
  ws: WsPlayer;
}

export interface OfferItem {
  inventorySlot: number;
  itemId: string;
  quantity: number;
}

/** A socket closed while waiting: the server is gone (the test killed it). */
export class ServerGone extends Error {}

/** How long one step may take before the storm calls it an anomaly (the server never answered). */
const STEP_MS = 10_000;
/** The same asker may ask the same player again only after 3 s (TRADE_LIMITS.repeatRequestMs), measured by the server. */
const REPEAT_REQUEST_MS = 3_300;

/** A player, the mark in its frames to look from, and what to look for. */
export type Watch = [StormPlayer, number, (f: Frame) => boolean];

/** The first frame (after each watch's mark) that its predicate matches, on any of the watched players. */
export function waitFirst(what: string, watches: Watch[], timeoutMs = STEP_MS): Promise<{ who: number; frame: Frame }> {
  return new Promise((resolve, reject) => {
    const seen = watches.map(([, since]) => since);
    const cleanups: Array<() => void> = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      for (const c of cleanups) c();
    };
    const scan = (): boolean => {
      for (let w = 0; w < watches.length; w++) {
        const [p, , match] = watches[w];
        for (; seen[w] < p.ws.frames.length; seen[w]++) {
          const frame = p.ws.frames[seen[w]];
          if (match(frame)) {
            finish();
            resolve({ who: w, frame });
            return true;
          }
        }
      }
      return false;
    };
    if (scan()) return;
    const gone = () => {
      if (scan()) return;
      finish();
      reject(new ServerGone(`a socket closed while waiting for ${what}`));
    };
    if (watches.some(([p]) => p.ws.ws.readyState !== p.ws.ws.OPEN)) return gone();
    for (const [p] of watches) {
      const onMessage = () => void scan();
      p.ws.ws.on("message", onMessage);
      p.ws.ws.on("close", gone);
      cleanups.push(() => {
        p.ws.ws.off("message", onMessage);
        p.ws.ws.off("close", gone);
      });
    }
    timer = setTimeout(() => {
      finish();
      reject(new Error(`no ${what} within ${timeoutMs} ms`));
    }, timeoutMs);
  });
}

const sameOffer = (a: OfferItem[], b: OfferItem[]) => {
  const key = (o: OfferItem[]) => JSON.stringify([...o].sort((x, y) => x.inventorySlot - y.inventorySlot).map((i) => [i.inventorySlot, i.itemId, i.quantity]));
  return key(a) === key(b);
};

/** The latest player:sync's inventory: what the player believes it holds. */
function inventoryOf(p: StormPlayer): Array<{ slot: number; itemId: string; quantity: number }> {
  for (let i = p.ws.frames.length - 1; i >= 0; i--) if (p.ws.frames[i].type === "player:sync") return p.ws.frames[i].data.inventory ?? [];
  return [];
}

/** What one trade looked like when both sides had accepted its confirm screen. */
export interface ConfirmedTrade {
  initiatorId: string;
  recipientId: string;
  /** The initiator's confirm screen: its own offer and the recipient's. */
  initiatorOffer: OfferItem[];
  recipientOffer: OfferItem[];
}

export interface StormOptions {
  /** Random numbers in [0, 1): pass a seeded generator to replay a storm. */
  random?: () => number;
  /** Once this many trades have completed, trades park before their last accept (see released). */
  completedBeforeStop: number;
  /** Release the parked trades' last accepts, all at once, when this many are parked. */
  parkedAtRelease: number;
}

export class TradeStorm {
  readonly stats = {
    started: 0,
    completed: 0,
    cancelled: 0,
    refused: 0,
    offerMoves: 0,
    inProgressAtKill: 0,
    errors: {} as Record<string, number>,
    cancelReasons: {} as Record<string, number>,
  };
  /** Every trade whose last accept was sent, with the offers both sides confirmed. */
  readonly confirmed = new Map<string, ConfirmedTrade>();
  /** Failures of the storm itself before the server was killed (a step the server never answered...). */
  readonly anomalies: string[] = [];
  /** Resolves with the ids of the trades whose last accepts were released together. */
  readonly released: Promise<Set<string>>;
  killed = false;

  private readonly random: () => number;
  private readonly idle: StormPlayer[];
  private readonly lastAsked = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private readonly parked: Array<{ tradeId: string; go: () => void }> = [];
  private releaseWith!: (ids: Set<string>) => void;
  private isReleased = false;
  private stopping = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    players: StormPlayer[],
    private readonly o: StormOptions,
  ) {
    this.idle = [...players];
    this.random = o.random ?? Math.random;
    this.released = new Promise((resolve) => (this.releaseWith = resolve));
  }

  start() {
    this.schedule();
  }

  /** The server is about to be killed: start nothing more; resolves once every trade in progress has given up. */
  async stop(): Promise<void> {
    if (!this.killed) this.stats.inProgressAtKill = this.running.size;
    this.killed = true;
    clearTimeout(this.retry);
    // Trades still parked were never released: let them run into the dead server.
    for (const p of this.parked.splice(0)) p.go();
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)];
  }

  /** Pair idle players (an asker may not ask the same player twice within 3 s) and start their trades. */
  private schedule() {
    if (this.killed) return;
    clearTimeout(this.retry);
    let soonest = Infinity;
    for (;;) {
      const now = Date.now();
      const pairs: Array<[StormPlayer, StormPlayer]> = [];
      for (const a of this.idle) {
        for (const b of this.idle) {
          if (a === b) continue;
          const free = (this.lastAsked.get(`${a.id}>${b.id}`) ?? -Infinity) + REPEAT_REQUEST_MS;
          if (free <= now) pairs.push([a, b]);
          else soonest = Math.min(soonest, free);
        }
      }
      if (pairs.length === 0) break;
      const [a, b] = this.pick(pairs);
      this.idle.splice(this.idle.indexOf(a), 1);
      this.idle.splice(this.idle.indexOf(b), 1);
      this.lastAsked.set(`${a.id}>${b.id}`, now);
      const run: Promise<void> = this.trade(a, b)
        .catch((err) => {
          if (err instanceof ServerGone || this.killed) return;
          this.anomalies.push(`${a.id} with ${b.id}: ${(err as Error).message}`);
          // Not reused: their state on the server is unknown.
          return "lost" as const;
        })
        .then((lost) => {
          this.running.delete(run);
          if (lost !== "lost") this.idle.push(a, b);
          this.schedule();
        });
      this.running.add(run);
    }
    // Only pairs that asked each other too recently are idle: try again when the first may ask again.
    if (this.idle.length >= 2 && soonest < Infinity) this.retry = setTimeout(() => this.schedule(), soonest - Date.now() + 10);
  }

  private count(bucket: Record<string, number>, key: string) {
    bucket[key] = (bucket[key] ?? 0) + 1;
  }

  /** Park before the last accept until enough trades are parked; then all of them go at once. */
  private park(tradeId: string): Promise<void> {
    return new Promise((go) => {
      this.parked.push({ tradeId, go });
      if (this.isReleased || this.parked.length < this.o.parkedAtRelease) return;
      this.isReleased = true;
      const batch = this.parked.splice(0);
      this.releaseWith(new Set(batch.map((p) => p.tradeId)));
      for (const p of batch) p.go();
    });
  }

  /** One trade from request to its end; resolves when it completed or was cancelled or refused. */
  private async trade(a: StormPlayer, b: StormPlayer): Promise<void> {
    const ma = a.ws.mark();
    const mb = b.ws.mark();
    a.ws.send("tradeRequest", { targetPlayerId: b.id });
    const asked = await waitFirst("tradeRequestSent", [
      [a, ma, (f) => (f.type === "tradeRequestSent" && f.data.targetPlayerId === b.id) || f.type === "tradeError"],
    ]);
    if (asked.frame.type === "tradeError") {
      this.stats.refused++;
      this.count(this.stats.errors, `request:${asked.frame.data.code}`);
      return;
    }
    const tradeId: string = asked.frame.data.tradeId;
    this.stats.started++;
    const ended = (f: Frame) => f.type === "tradeCancelled" && f.data.tradeId === tradeId;
    const mine =
      (type: string, extra: (f: Frame) => boolean = () => true) =>
      (f: Frame) =>
        (f.type === type && f.data.tradeId === tradeId && extra(f)) || ended(f);
    /** Both players' first frame of `type` for this trade (or its cancellation); null when it was cancelled. */
    const both = async (type: string, since: [number, number]) => {
      const [fa, fb] = await Promise.all([
        waitFirst(`${type} (asker)`, [[a, since[0], mine(type)]]),
        waitFirst(`${type} (asked)`, [[b, since[1], mine(type)]]),
      ]);
      if (ended(fa.frame) || ended(fb.frame)) {
        const reason = (ended(fa.frame) ? fa : fb).frame.data.reason;
        this.stats.cancelled++;
        this.count(this.stats.cancelReasons, reason);
        return null;
      }
      return [fa.frame, fb.frame] as const;
    };
    const cancelBy = async (who: StormPlayer) => {
      const since: [number, number] = [a.ws.mark(), b.ws.mark()];
      who.ws.send("tradeCancel", { tradeId });
      await both("tradeCancelled", since);
    };

    await waitFirst("tradeIncoming", [[b, mb, (f) => f.type === "tradeIncoming" && f.data.tradeId === tradeId]]);
    if (this.random() < 0.04) {
      const since: [number, number] = [a.ws.mark(), b.ws.mark()];
      b.ws.send("tradeRequestRespond", { tradeId, accept: false });
      await both("tradeCancelled", since);
      return;
    }
    b.ws.send("tradeRequestRespond", { tradeId, accept: true });
    if (!(await both("tradeStarted", [ma, mb]))) return;

    // Offers: each side adds and sometimes takes back, one move at a time, each answered before the next.
    const offers = new Map<StormPlayer, OfferItem[]>([
      [a, []],
      [b, []],
    ]);
    for (const side of this.random() < 0.5 ? [a, b] : [b, a]) {
      const moves = Math.floor(this.random() * 3);
      for (let k = 0; k < moves; k++) {
        const offer = offers.get(side)!;
        const move = this.chooseMove(side, offer);
        if (!move) break;
        const m = side.ws.mark();
        side.ws.send(move.type, { tradeId, ...move.data });
        const answer = await waitFirst(move.type, [
          [
            side,
            m,
            (f) =>
              ended(f) ||
              (f.type === "tradeError" && f.data.tradeId === tradeId) ||
              (f.type === "tradeUpdated" && f.data.tradeId === tradeId && sameOffer(f.data.myOffer.items, move.expected)),
          ],
        ]);
        if (ended(answer.frame)) {
          this.stats.cancelled++;
          this.count(this.stats.cancelReasons, answer.frame.data.reason);
          return;
        }
        if (answer.frame.type === "tradeError") this.count(this.stats.errors, `${move.type}:${answer.frame.data.code}`);
        else {
          this.stats.offerMoves++;
          offers.set(side, move.expected);
        }
      }
    }
    if (this.random() < 0.05) return cancelBy(this.random() < 0.5 ? a : b);

    // The offer screen: the asker accepts, then the asked; both see the confirm screen.
    const accept = async (who: StormPlayer) => {
      const m = who.ws.mark();
      who.ws.send("tradeAccept", { tradeId });
      const answer = await waitFirst("tradeAccept", [
        [
          who,
          m,
          (f) =>
            ended(f) ||
            (f.type === "tradeError" && f.data.tradeId === tradeId) ||
            (f.type === "tradeUpdated" && f.data.tradeId === tradeId && f.data.myOffer.accepted === true),
        ],
      ]);
      if (answer.frame.type === "tradeError") throw new Error(`tradeAccept refused: ${JSON.stringify(answer.frame.data)}`);
      if (ended(answer.frame)) {
        this.stats.cancelled++;
        this.count(this.stats.cancelReasons, answer.frame.data.reason);
        return false;
      }
      return true;
    };
    if (!(await accept(a))) return;
    let since: [number, number] = [a.ws.mark(), b.ws.mark()];
    b.ws.send("tradeAccept", { tradeId });
    const screens = await both("tradeConfirmScreen", since);
    if (!screens) return;
    const [screenA] = screens;
    if (!sameOffer(screenA.data.myOffer.items, offers.get(a)!) || !sameOffer(screenA.data.theirOffer.items, offers.get(b)!)) {
      this.anomalies.push(`${tradeId}: the confirm screen ${JSON.stringify(screenA.data)} is not the offers ${JSON.stringify([offers.get(a), offers.get(b)])}`);
    }
    if (this.random() < 0.04) return cancelBy(this.random() < 0.5 ? a : b);

    // The confirm screen: the asker accepts; the asked one's accept commits the trade.
    if (!(await accept(a))) return;
    if (this.stopping && !this.killed) await this.park(tradeId);
    if (this.killed) throw new ServerGone("the server was killed while this trade was parked");
    since = [a.ws.mark(), b.ws.mark()];
    this.confirmed.set(tradeId, {
      initiatorId: a.id,
      recipientId: b.id,
      initiatorOffer: screenA.data.myOffer.items,
      recipientOffer: screenA.data.theirOffer.items,
    });
    b.ws.send("tradeAccept", { tradeId });
    if (!(await both("tradeCompleted", since))) return;
    this.stats.completed++;
    if (this.stats.completed >= this.o.completedBeforeStop) this.stopping = true;
  }

  /** A random offer move that the player's own view of its inventory allows (the server has the last word). */
  private chooseMove(p: StormPlayer, offer: OfferItem[]): { type: string; data: Record<string, unknown>; expected: OfferItem[] } | undefined {
    if (offer.length && this.random() < 0.25) {
      const o = this.pick(offer);
      if (o.quantity > 1 && this.random() < 0.5) {
        const quantity = 1 + Math.floor(this.random() * (o.quantity - 1));
        return {
          type: "tradeRemoveItem",
          data: { inventorySlot: o.inventorySlot, quantity },
          expected: offer.map((x) => (x === o ? { ...x, quantity: x.quantity - quantity } : x)),
        };
      }
      return { type: "tradeRemoveItem", data: { inventorySlot: o.inventorySlot }, expected: offer.filter((x) => x !== o) };
    }
    const slots = inventoryOf(p)
      .map((s) => ({ ...s, left: s.quantity - (offer.find((o) => o.inventorySlot === s.slot)?.quantity ?? 0) }))
      .filter((s) => s.left > 0);
    if (!slots.length) return undefined;
    // Coins half the time when there are any, else any stack.
    const coins = slots.find((s) => s.itemId === "coins");
    const s = coins && this.random() < 0.5 ? coins : this.pick(slots);
    const quantity = s.left > 1 ? 1 + Math.floor(this.random() * Math.min(s.left, 12)) : 1;
    const existing = offer.find((o) => o.inventorySlot === s.slot);
    const expected = existing
      ? offer.map((o) => (o === existing ? { ...o, quantity: o.quantity + quantity } : o))
      : [...offer, { inventorySlot: s.slot, itemId: s.itemId, quantity }];
    return { type: "tradeAddItem", data: { inventorySlot: s.slot, quantity }, expected };
  }
}
