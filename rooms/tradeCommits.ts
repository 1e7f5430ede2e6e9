import type { Logger } from "pino";
import { itemsFingerprint } from "../src/db/characterRepo.js";
import { commitTrades, TradeCommitError, type TradeRecord } from "../src/db/tradeRepo.js";
import type { WorldSaver } from "../src/db/worldSaver.js";
import { offerValue, type Swap } from "../src/game/trade.js";
import type { PlayerEntity } from "../src/game/world/entities.js";
import { snapshotOf } from "../src/game/world/players.js";
import type { TradeBook, TradeSession } from "../src/game/world/tradeBook.js";
import type { World } from "../src/game/world/World.js";
import { tradeCommitDuration } from "../src/metrics.js";

export interface TradeCommitsOptions {
  world: World;
  saver: WorldSaver;
  book: TradeBook;
  logger: Logger;
  /** A commit's outcome is in the book: tell the traders. */
  settled(): void;
}

interface Commit {
  record: TradeRecord;
  players: [PlayerEntity, PlayerEntity];
  resolve(): void;
  done: Promise<void>;
}

/**
 * The trade commits of a world, grouped: every trade whose both sides accepted during one turn of
 * the event loop is committed in one transaction (commitTrades), ordered by the world's saver with
 * every save of its traders. Under load many trades share a transaction's round trips; a lone
 * trade's refusal rolls back its transaction. A group that fails as a whole (the
 * database refused it, not a trade's own refusal) is committed again trade by trade, so one bad
 * trade never takes the others down with it.
 */
export class TradeCommits {
  private queued: Commit[] = [];
  /** Commits queued or in flight, by trade. */
  private readonly open = new Map<string, Commit>();

  constructor(private readonly o: TradeCommitsOptions) {}

  /** Commit this trade (both accepted the confirm screen); its outcome goes to the book. */
  commit(trade: TradeSession) {
    const world = this.o.world;
    const initiator = world.players.get(trade.initiator.playerId)!;
    const recipient = world.players.get(trade.recipient.playerId)!;
    const items = world.data.items;
    const party = (p: PlayerEntity, side: TradeSession["initiator"]) => ({
      characterId: p.id,
      name: p.name,
      offer: side.items.map((o) => ({ ...o })),
      value: offerValue(side.items, items),
    });
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    const c: Commit = {
      record: { id: trade.id, initiator: party(initiator, trade.initiator), recipient: party(recipient, trade.recipient) },
      players: [initiator, recipient],
      resolve,
      done,
    };
    this.open.set(trade.id, c);
    this.queued.push(c);
    if (this.queued.length === 1) setImmediate(() => this.run());
  }

  /** Every commit (of one player, when named) queued or in flight is settled. */
  async settledFor(playerId?: string): Promise<void> {
    const mine = [...this.open.values()].filter((c) => playerId === undefined || c.players.some((p) => p.id === playerId));
    await Promise.all(mine.map((c) => c.done));
  }

  private run() {
    const group = this.queued;
    this.queued = [];
    if (group.length === 1) this.commitOne(group[0]);
    else this.commitGroup(group);
  }

  private commitOne(c: Commit) {
    const items = this.o.world.data.items;
    const started = performance.now();
    const written = this.o.saver.saveWith(this.o.world, c.players, async (tx, writeSave) => {
      const [outcome] = await commitTrades(tx, [c.record], items, writeSave.empty ? undefined : writeSave);
      if (outcome instanceof TradeCommitError) throw outcome;
      return outcome;
    });
    void written.then(
      (swap) => this.settle(c, swap, started),
      (err) => this.settle(c, err instanceof TradeCommitError ? err : new TradeCommitError("error", "The trade could not be saved; nothing changed"), started),
    );
  }

  private commitGroup(group: Commit[]) {
    const items = this.o.world.data.items;
    const started = performance.now();
    const records = group.map((c) => c.record);
    const written = this.o.saver.saveWith(
      this.o.world,
      group.flatMap((c) => c.players),
      (tx, writeSave) => commitTrades(tx, records, items, writeSave.empty ? undefined : writeSave),
    );
    void written.then(
      (outcomes) => group.forEach((c, i) => this.settle(c, outcomes[i], started)),
      (err) => {
        this.o.logger.warn({ err, trades: group.length }, "a group of trade commits failed as a whole; committing them one by one");
        for (const c of group) this.commitOne(c);
      },
    );
  }

  private settle(c: Commit, outcome: Swap | TradeCommitError, started: number) {
    if (outcome instanceof TradeCommitError) this.o.book.failed(c.record.id, outcome.reason, outcome.message);
    else {
      tradeCommitDuration.observe((performance.now() - started) / 1000);
      this.o.book.completed(c.record.id, outcome);
      // The database now holds exactly these items for both.
      for (const p of c.players) {
        const snap = snapshotOf(p);
        p.persistedItems = itemsFingerprint(snap);
        // The commit wrote the trade's ledger rows: the next save starts from what it left.
        p.persistedHeld = snap;
      }
    }
    this.open.delete(c.record.id);
    c.resolve();
    this.o.settled();
  }
}
