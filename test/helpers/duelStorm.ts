import { DUEL_RULES } from "../../src/protocol/vocabulary.js";
import { ServerGone, waitFirst, type OfferItem, type StormPlayer } from "./tradeStorm.js";
import type { Frame, WsPlayer } from "./wsClient.js";

/**
 * A duel storm over /ws: pairs of players duel concurrently and continuously, each duel step by step,
 * every step waiting for the server's answer: a challenge (sometimes declined), maybe a rule, random
 * stakes (coins, shrimp, tools; sometimes nothing), the three screens, then the arena, where the fight
 * ends at once: a forfeit by either side, or a duellist leaving (its socket closed, then a new socket
 * with the same token). A setup is sometimes cancelled, or left, before the arena. Nobody strikes a
 * blow (a fight at level 1 takes too long) and nobody eats. Built for test/features/duel/crash.test.ts, which
 * kills the server in the middle of it: every wait rejects with ServerGone once a socket closes.
 *
 * The world has few arenas: a duel waits at its last accept until the storm's own duels leave one
 * free (an impatient one goes anyway and may be cancelled with `no_arena`, a normal outcome).
 */

/** A duel:ended of a fight whose settlement could not be written: nothing moved. */
export const nothingMoved = (e: { outcome: string; settled: boolean }) => e.outcome !== "draw" && !e.settled;

/** The duel ended before the storm ended it (cancelled, told to both): not a failure. */
class Over extends Error {}

/** A duel whose last accept was sent: both stakes as the confirm screen showed them. */
export interface ArenaDuel {
  challengerId: string;
  opponentId: string;
  stakes: Record<string, OfferItem[]>;
}

/** How the storm ended a fight: who gave it up, and how. */
export interface DuelEnding {
  loserId: string;
  outcome: "forfeit" | "disconnect";
}

/** The moment to kill: the first released fight is settled, the next is being settled, and `followed` is in its countdown. */
export interface KillPoint {
  /** The parked fights, in the order their forfeits went. */
  released: string[];
  /** The duel that took the arena the first released fight left. */
  followed: string;
}

export interface DuelStormOptions {
  /** Random numbers in [0, 1): pass a seeded generator to replay a storm's choices. */
  random: () => number;
  /** A new socket for a player whose socket the storm closed (same token); resolves once it is back in the world. */
  reconnect(p: StormPlayer): Promise<WsPlayer>;
  /** The world's arenas. */
  arenas: number;
  /** Once this many duels have settled, `enough` resolves... */
  settledBeforeStop: number;
  /**
   * ...and with parkForKill the storm sets up the kill: fights park before their forfeit until every
   * arena holds one and another duel waits for an arena. Then the first parked forfeits; the arena it
   * leaves goes to the waiting duel; once that one is in its countdown the others forfeit, and
   * `readyToKill` resolves as soon as the server has taken a forfeit (its settlement has begun).
   */
  parkForKill: boolean;
}

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const stakeKey = (s: Array<{ inventorySlot: number; itemId: string; quantity: number }>) =>
  JSON.stringify([...s].sort((x, y) => x.inventorySlot - y.inventorySlot).map((o) => [o.inventorySlot, o.itemId, o.quantity]));
const itemsKey = (s: Array<{ itemId: string; quantity: number }>) => JSON.stringify(s.map((o) => [o.itemId, o.quantity]).sort());

/** A player's first frame of the duel since a mark that matches (or its cancellation); both players' first. */
type See = (p: StormPlayer, since: number, what: string, match: (f: Frame) => boolean, refusals?: boolean) => Promise<Frame>;
type Both = (since: [number, number], what: string, match: (f: Frame) => boolean) => Promise<Frame[]>;

/** The latest player:sync's inventory: what the player believes it holds. */
function inventoryOf(p: StormPlayer): Array<{ slot: number; itemId: string; quantity: number }> {
  for (let i = p.ws.frames.length - 1; i >= 0; i--) if (p.ws.frames[i]!.type === "player:sync") return p.ws.frames[i]!.data.inventory ?? [];
  return [];
}

export class DuelStorm {
  readonly stats = { started: 0, refused: 0, settled: 0, nothingMoved: 0, cancelled: 0, forfeits: 0, leftFight: 0, leftSetup: 0, inProgressAtKill: 0 };
  /** Cancellations by reason, refusals by step and code. */
  readonly reasons = { cancelled: {} as Record<string, number>, refused: {} as Record<string, number> };
  /** Every duel whose last accept was sent. */
  readonly arenaDuels = new Map<string, ArenaDuel>();
  /** Every fight the storm ended (the forfeit or the close was sent). */
  readonly endings = new Map<string, DuelEnding>();
  /** Failures of the storm itself before the server was killed (a step the server never answered...). */
  readonly anomalies: string[] = [];
  readonly enough: Promise<void>;
  readonly readyToKill: Promise<KillPoint>;
  killed = false;

  private readonly random: () => number;
  private readonly idle: StormPlayer[];
  private readonly running = new Set<Promise<void>>();
  private reach!: () => void;
  private readyWith!: (k: KillPoint) => void;
  private stopping = false;
  private finishing = false;
  /** Arena places the storm's duels hold (they go in at the last accept), and the duels waiting for one. */
  private inArena = 0;
  private readonly arenaQueue: Array<{ duelId: string; go: () => void }> = [];
  private readonly fightParked: Array<{ duelId: string; go: () => void }> = [];
  private released: string[] = [];
  private followed: string | undefined;
  /** The parked fights that forfeit once the followed duel is in its arena. */
  private readonly lastBatch = new Map<string, () => void>();

  constructor(
    players: StormPlayer[],
    private readonly o: DuelStormOptions,
  ) {
    this.idle = [...players];
    this.random = o.random;
    this.enough = new Promise((resolve) => (this.reach = resolve));
    this.readyToKill = new Promise((resolve) => (this.readyWith = resolve));
  }

  start() {
    this.schedule();
  }

  /** The server is about to be killed: start nothing more; resolves once every duel in progress has given up. */
  async stop(): Promise<void> {
    if (!this.killed) this.stats.inProgressAtKill = this.running.size;
    this.killed = true;
    // Duels still parked or waiting for an arena run into the dead server.
    for (const p of [...this.fightParked.splice(0), ...this.arenaQueue.splice(0)]) p.go();
    for (const go of this.lastBatch.values()) go();
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  /** Start no new duel; resolves once every duel in progress has ended. */
  async finish(): Promise<void> {
    this.finishing = true;
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  private count(bucket: Record<string, number>, key: string) {
    bucket[key] = (bucket[key] ?? 0) + 1;
  }

  /** Pair idle players at random and start their duels. */
  private schedule() {
    while (!this.killed && !this.finishing && this.idle.length >= 2) {
      const a = this.idle.splice(Math.floor(this.random() * this.idle.length), 1)[0]!;
      const b = this.idle.splice(Math.floor(this.random() * this.idle.length), 1)[0]!;
      const run: Promise<void> = this.oneDuel(a, b)
        .then(
          () => true,
          (err) => {
            if (err instanceof Over || this.killed) return true;
            this.anomalies.push(`${a.id} with ${b.id}: ${(err as Error).message}`);
            return false; // not reused: their state on the server is unknown
          },
        )
        .then((reuse) => {
          this.running.delete(run);
          if (reuse) this.idle.push(a, b);
          this.schedule();
        });
      this.running.add(run);
    }
  }

  /** Go into the arena at the last accept: at once when one is free (or when impatient), else in turn. */
  private async takeArena(duelId: string, impatient: boolean) {
    if (this.inArena < this.o.arenas || impatient) return void this.inArena++;
    await new Promise<void>((go) => {
      this.arenaQueue.push({ duelId, go });
      this.maybeRelease();
    });
  }

  /** A duel left its arena (or never got one): the next in turn takes its place. */
  private freeArena() {
    const next = this.inArena <= this.o.arenas ? this.arenaQueue.shift() : undefined;
    if (!next) return void this.inArena--;
    if (this.released.length && !this.followed) this.followed = next.duelId;
    next.go();
  }

  /** Every arena holds a parked fight and a duel waits for an arena: the first forfeits now, the others once the waiting duel is in. */
  private maybeRelease() {
    if (this.released.length || this.fightParked.length < this.o.arenas || this.arenaQueue.length === 0) return;
    const [first, ...rest] = this.fightParked.splice(0);
    this.released = [first!, ...rest].map((p) => p.duelId);
    for (const p of rest) this.lastBatch.set(p.duelId, p.go);
    first!.go();
  }

  private async rejoin(p: StormPlayer) {
    await p.ws.closed;
    p.ws = await this.o.reconnect(p);
  }

  /** One duel from the challenge to its end; throws Over when it was cancelled. */
  private async oneDuel(a: StormPlayer, b: StormPlayer): Promise<void> {
    const marks = (): [number, number] => [a.ws.mark(), b.ws.mark()];
    const [ma, mb] = marks();
    a.ws.send("duel:challenge", { targetPlayerId: b.id });
    const asked = await waitFirst("duel:requestSent", [
      [a, ma, (f) => (f.type === "duel:requestSent" && f.data.targetPlayerId === b.id) || f.type === "duel:error"],
    ]);
    if (asked.frame.type === "duel:error") {
      this.stats.refused++;
      return this.count(this.reasons.refused, `challenge:${asked.frame.data.code}`);
    }
    const duelId: string = asked.frame.data.duelId;
    this.stats.started++;
    let over = false;
    /** p's first frame of this duel since `since` that `match`es, or its cancellation (Over) or a refusal. */
    const see = async (p: StormPlayer, since: number, what: string, match: (f: Frame) => boolean, refusals = false) => {
      const ours = (f: Frame) => f.data?.duelId === duelId && (f.type === "duel:cancelled" || f.type === "duel:error" || match(f));
      const { frame } = await waitFirst(what, [[p, since, ours]]);
      if (frame.type === "duel:cancelled") {
        if (!over) (this.stats.cancelled++, this.count(this.reasons.cancelled, frame.data.reason));
        over = true;
        throw new Over();
      }
      if (frame.type === "duel:error" && !refusals) throw new Error(`${what} refused: ${JSON.stringify(frame.data)}`);
      return frame;
    };
    const both = (since: [number, number], what: string, match: (f: Frame) => boolean) =>
      Promise.all([see(a, since[0], `${what} (challenger)`, match), see(b, since[1], `${what} (challenged)`, match)]);
    const screen = (name: string) => (f: Frame) => f.type === "duel:screen" && f.data.screen === name;
    const accepted = (f: Frame) => f.type === "duel:screen" && f.data.me.accepted === true;
    /** Sometimes the setup ends here: a cancel by either side, or one of them leaves the world. */
    const interrupt = async () => {
      const r = this.random();
      if (r >= 0.08) return;
      const who = pick(this.random, [a, b]);
      if (r < 0.04) {
        const m = marks();
        who.ws.send("duel:cancel", { duelId });
        return both(m, "duel:cancelled", () => false); // rejects with Over once both are told
      }
      const other = who === a ? b : a;
      const m = other.ws.mark();
      who.ws.close();
      this.stats.leftSetup++;
      try {
        await see(other, m, "duel:cancelled (the one who stayed)", () => false);
      } finally {
        await this.rejoin(who);
      }
    };

    await see(b, mb, "duel:incoming", (f) => f.type === "duel:incoming");
    let m = marks();
    if (this.random() < 0.04) {
      b.ws.send("duel:respond", { duelId, accept: false });
      await both(m, "duel:cancelled", () => false); // rejects with Over once both are told
    }
    b.ws.send("duel:respond", { duelId, accept: true });
    await both(m, "the rules screen", screen("rules"));
    if (this.random() < 0.3) {
      const who = pick(this.random, [a, b]);
      const rule = pick(this.random, DUEL_RULES);
      const since = who.ws.mark();
      who.ws.send("duel:rule", { duelId, rule, on: true });
      const r = await see(who, since, "duel:rule", (f) => f.type === "duel:screen" && f.data.rules[rule] === true, true);
      if (r.type === "duel:error") this.count(this.reasons.refused, `rule:${r.data.code}`);
    }
    await interrupt();
    /** Both accept the screen; resolves with both frames of the next screen. */
    const acceptScreen = async (next: string) => {
      const since = marks();
      a.ws.send("duel:accept", { duelId });
      await see(a, since[0], "duel:accept (challenger)", accepted);
      b.ws.send("duel:accept", { duelId });
      return both(since, `the ${next} screen`, screen(next));
    };
    await acceptScreen("stakes");

    // Stakes: each side stakes up to two random stacks, one at a time, each answered before the next.
    const stakes = new Map([a, b].map((p) => [p, [] as OfferItem[]]));
    for (const side of this.random() < 0.5 ? [a, b] : [b, a]) {
      const moves = Math.floor(this.random() * 3);
      for (let k = 0; k < moves; k++) {
        const move = this.chooseStake(side, stakes.get(side)!);
        if (!move) break;
        const since = side.ws.mark();
        side.ws.send("duel:stake", { duelId, inventorySlot: move.slot, quantity: move.quantity });
        const r = await see(side, since, "duel:stake", (f) => f.type === "duel:screen" && stakeKey(f.data.me.stake) === stakeKey(move.expected), true);
        if (r.type === "duel:error") this.count(this.reasons.refused, `stake:${r.data.code}`);
        else stakes.set(side, move.expected);
      }
    }
    await interrupt();
    const [confirmA] = await acceptScreen("confirm");
    if (stakeKey(confirmA.data.me.stake) !== stakeKey(stakes.get(a)!) || stakeKey(confirmA.data.them.stake) !== stakeKey(stakes.get(b)!)) {
      this.anomalies.push(`${duelId}: the confirm screen ${JSON.stringify(confirmA.data)} is not the stakes ${JSON.stringify([...stakes.values()])}`);
    }
    await interrupt();

    // The confirm screen: the challenger accepts; the challenged one's accept takes both into an arena.
    m = marks();
    a.ws.send("duel:accept", { duelId });
    await see(a, m[0], "duel:accept (challenger)", accepted);
    await this.takeArena(duelId, !this.stopping && this.random() < 0.15);
    try {
      if (this.killed) throw new ServerGone("the server was killed while this duel waited for an arena");
      const stakesSeen = { [a.id]: confirmA.data.me.stake, [b.id]: confirmA.data.them.stake };
      this.arenaDuels.set(duelId, { challengerId: a.id, opponentId: b.id, stakes: stakesSeen });
      m = marks();
      b.ws.send("duel:accept", { duelId });
      let countdown: Frame;
      try {
        [countdown] = await both(m, "duel:countdown", (f) => f.type === "duel:countdown");
      } finally {
        if (duelId === this.followed) for (const go of this.lastBatch.values()) go();
      }
      await this.endFight(duelId, [a, b], countdown.data.rules, stakes, see, both);
    } finally {
      this.freeArena();
    }
  }

  /** In the arena: the fight ends at once, by a forfeit (most) or by one duellist leaving. */
  private async endFight(
    duelId: string,
    [a, b]: [StormPlayer, StormPlayer],
    rules: Record<string, boolean>,
    stakes: Map<StormPlayer, OfferItem[]>,
    see: See,
    both: Both,
  ) {
    const loser = pick(this.random, [a, b]);
    const winner = loser === a ? b : a;
    const leave = rules.noForfeit === true || this.random() < 0.2;
    // The duel that took the first arena freed for the kill waits for the fight: the kill finds it in its countdown.
    if (this.random() < 0.6 || duelId === this.followed) await both([a.ws.mark(), b.ws.mark()], "duel:fight", (f) => f.type === "duel:fight");
    if (!leave && this.o.parkForKill && this.stopping && !this.released.length) {
      await new Promise<void>((go) => {
        this.fightParked.push({ duelId, go });
        this.maybeRelease();
      });
      if (this.killed) throw new ServerGone("the server was killed while this fight was parked");
    }
    this.endings.set(duelId, { loserId: loser.id, outcome: leave ? "disconnect" : "forfeit" });
    let ended: Frame;
    if (leave) {
      const m = winner.ws.mark();
      loser.ws.close();
      this.stats.leftFight++;
      try {
        ended = await see(winner, m, "duel:ended (the one who stayed)", (f) => f.type === "duel:ended");
      } finally {
        await this.rejoin(loser);
      }
    } else {
      const since: [number, number] = [a.ws.mark(), b.ws.mark()];
      loser.ws.send("duel:forfeit", { duelId });
      if (this.lastBatch.has(duelId)) {
        // Proof the server took the forfeit (and began the settlement, written only after more round
        // trips to the database): an accept sent after it is refused at once, the fight being over.
        loser.ws.send("duel:accept", { duelId });
        await see(loser, since[loser === a ? 0 : 1], "the forfeit's proof", (f) => f.type === "duel:error" || f.type === "duel:ended", true);
        this.readyWith({ released: this.released, followed: this.followed! });
      }
      const frames = await both(since, "duel:ended", (f) => f.type === "duel:ended");
      ended = frames[winner === a ? 0 : 1]!;
      this.stats.forfeits++;
    }
    const e = ended.data;
    if (e.winnerId !== winner.id || e.outcome !== (leave ? "disconnect" : "forfeit")) {
      this.anomalies.push(`${duelId}: ${loser.id} ${leave ? "left" : "forfeited"}, and the winner was told ${JSON.stringify(e)}`);
    }
    const loserStake = stakes.get(loser)!;
    if (e.settled) {
      this.stats.settled++;
      if (itemsKey(e.received) !== itemsKey(loserStake))
        this.anomalies.push(`${duelId}: received ${JSON.stringify(e.received)}, staked ${JSON.stringify(loserStake)}`);
    } else if (nothingMoved(e)) this.stats.nothingMoved++;
    else this.anomalies.push(`${duelId}: the winner received nothing of ${JSON.stringify(loserStake)}: ${e.message}`);
    if (this.stats.settled >= this.o.settledBeforeStop) {
      this.stopping = true;
      this.reach();
    }
  }

  /** A random stake that the player's own view of its inventory allows (the server has the last word). */
  private chooseStake(p: StormPlayer, stake: OfferItem[]): { slot: number; quantity: number; expected: OfferItem[] } | undefined {
    const slots = inventoryOf(p)
      .map((s) => ({ ...s, left: s.quantity - (stake.find((o) => o.inventorySlot === s.slot)?.quantity ?? 0) }))
      .filter((s) => s.left > 0);
    if (!slots.length) return undefined;
    // Coins half the time when there are any, else any stack.
    const coins = slots.find((s) => s.itemId === "coins");
    const s = coins && this.random() < 0.5 ? coins : pick(this.random, slots);
    const quantity = s.left > 1 ? 1 + Math.floor(this.random() * Math.min(s.left, 12)) : 1;
    const existing = stake.find((o) => o.inventorySlot === s.slot);
    const expected = existing
      ? stake.map((o) => (o === existing ? { ...o, quantity: o.quantity + quantity } : o))
      : [...stake, { inventorySlot: s.slot, itemId: s.itemId, quantity }];
    return { slot: s.slot, quantity, expected };
  }
}
