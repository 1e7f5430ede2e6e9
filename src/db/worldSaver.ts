import type { Logger } from "pino";
import type { CharacterSnapshot, PendingDeath, PlayerEntity } from "../game/world/entities.js";
import { snapshotOf } from "../game/world/players.js";
import { chunkData } from "../game/world/setup.js";
import { chunkKey } from "../game/world/worldCore.js";
import { turnOf } from "../game/turns.js";
import type { World } from "../game/world/World.js";
import { worldSaves } from "../metrics.js";
import { itemsFingerprint, questsFingerprint, statsFingerprint, writeCharacterItems, writeCharacterQuests, writeCharacterStats } from "./characterRepo.js";
import { holdingsChange, holdingsOf, ledgerRows, type Held, type LedgerEvent } from "../game/ledger.js";
import { writeLedger } from "./ledgerRepo.js";
import { isRetryableTxError, TradeCommitError } from "./tradeRepo.js";
import type { SqlRunner, SqlTx } from "./sql.js";
import { addNpcKills, expireDeathLock, recordDeath, resolveDeath, writeChunks, type ChunkRecord } from "./worldRepo.js";

/** One character's state and the ledger entries that must be written with it. */
interface CapturedCharacter {
  snap: CharacterSnapshot;
  /** Its stats or place differ from what its characters row holds. */
  statsChanged: boolean;
  /** Its item rows differ from what the database holds. */
  itemsChanged: boolean;
  /** Its quest rows differ from what the database holds. */
  questsChanged: boolean;
  deaths: PendingDeath[];
  reclaims: string[];
  kills: Map<string, number>;
  /** For the item ledger: what the save this one follows wrote (put back when this one fails; none: no ledger), and the causes told since. */
  heldBefore?: Held;
  events: LedgerEvent[];
  /** Its holdings' change since then, told by causes: the ledger's rows (counted off the tick, before the write). */
  ledger?: LedgerEvent[];
}

export class ReclaimConflictError extends Error {}

/** One slice of a periodic save: the changed characters it takes, and whether the changed chunks go with it. */
export interface SaveSlice {
  takes(characterId: string): boolean;
  chunks: boolean;
}

/** Slice `slice` of a periodic save cut into `slices`: the characters whose id's turn it is; the changed chunks with slice 0. */
export function saveSlice(slice: number, slices: number): SaveSlice {
  return { takes: (id) => turnOf(id, slices) === slice, chunks: slice === 0 };
}

/** A save's writes, as `saveWith` hands them to the work that shares its transaction. */
export interface SaveWrites {
  (): Promise<void>;
  /** Nothing to write: every captured character is as the database holds it, and no chunk changed. */
  readonly empty: boolean;
}

/**
 * Writes the world to the database. A save is captured synchronously (a consistent picture of
 * the characters asked for, the characters whose items went to or came from the ground, and the
 * changed chunks) and written in one transaction. Saves that share a character (or both write
 * chunks) are written one after another, in the order they were captured, so an older picture
 * never overwrites a newer one; saves of different characters (two trades between different
 * pairs) run at the same time, each in its own transaction.
 */
export class WorldSaver {
  /** The last write each key waits behind: a character's id, or CHUNKS. */
  private readonly tails = new Map<string, Promise<void>>();
  /** Characters that left while their save failed: written with the next save (unless back online). */
  private orphans: CapturedCharacter[] = [];
  /** Saves written and failed, for status and tests. */
  readonly stats = { saves: 0, failures: 0, characters: 0 };
  /** Write the item ledger (on; bench:world turns it off to measure what it costs). */
  ledger = true;

  constructor(
    private readonly sql: SqlRunner,
    private readonly worldName: string,
    private readonly logger: Logger,
  ) {}

  /**
   * Every changed character and chunk (the periodic save), with `work` in the same transaction when
   * given; characters in a trade or store commit wait for it. `slice`: one slice of it (the room's
   * periodic save is taken a slice a tick), the changed characters it `takes`, with the changed
   * chunks when it says so (one slice of each round does; the others leave them to it).
   */
  saveDirty(world: World, work?: (tx: SqlTx, writeSave: () => Promise<void>) => Promise<void>, shared: string[] = [], slice?: SaveSlice): Promise<void> {
    const changed: PlayerEntity[] = [];
    for (const p of world.players.values()) {
      if (p.inventoryFrozen || !(p.dirty || p.pendingDeaths.length || p.pendingReclaims.length || p.pendingKills.size)) continue;
      if (!slice || slice.takes(p.id)) changed.push(p);
    }
    return this.saveWith(world, changed, work, shared, !slice || slice.chunks);
  }

  /** These characters (plus what the ground ties to them) now. */
  save(world: World, players: PlayerEntity[]): Promise<void> {
    return this.saveWith(world, players).then(() => undefined);
  }

  /** These characters and every chunk of the ground as it is now (a save-all, the last save of a world that stops). */
  saveWhole(world: World, players: PlayerEntity[]): Promise<void> {
    return this.saveWith(world, players, undefined, [], true).then(() => undefined);
  }

  /**
   * A save with more work in the same transaction: `work(tx, writeSave)` runs inside it and calls
   * `writeSave()` where the captured characters and chunks are to be written; the save resolves
   * with what `work` returns (`writeSave.empty`: the save has nothing to write, so `work` may
   * spare the call). A serialization failure or deadlock runs the transaction again.
   * A character whose trade is being committed is captured only when asked for by name (by that
   * commit): the commit changes its rows, so an older picture must not be written after it.
   * `shared` names what else `work` writes that other saves write too (a store's shelves, as
   * `store:<id>`): saves naming the same wait for each other, as saves of the same character do.
   * The changed chunks go with a save that takes a character whose items went to or came from the
   * ground (they must be written together), and with the periodic save (`allChunks`); the others
   * (a trade, a death, a bank deposit of characters the ground has no part in) leave the changes
   * no character shares (nodes felled, items despawned or dropped by npcs) to those.
   */
  saveWith<T = void>(
    world: World,
    players: PlayerEntity[],
    work?: (tx: SqlTx, writeSave: SaveWrites) => Promise<T>,
    shared: string[] = [],
    allChunks = false,
  ): Promise<T> {
    const wanted = new Map(players.map((p) => [p.id, p]));
    let linked = false;
    for (const id of [...world.groundLinked]) {
      const p = world.players.get(id);
      if (p?.inventoryFrozen && !wanted.has(id)) continue;
      world.groundLinked.delete(id);
      linked = true;
      if (p) wanted.set(id, p);
    }
    const orphans = this.orphans.filter((o) => !wanted.has(o.snap.id) && !world.players.has(o.snap.id));
    const captured = [...orphans, ...[...wanted.values()].map((p) => capture(p, this.ledger))];
    this.orphans = [];
    // A full save writes every chunk that holds a ground item, changed or not: its age (and so when
    // it turns public and despawns) moves on every tick, and a restart takes it from the last save.
    if (allChunks) for (const g of world.groundItems.values()) if (!g.deathId) world.dirtyChunks.add(chunkKey(g.tile));
    // (A character whose failed save is written again may have shared its chunks' changes.)
    const chunkKeys = linked || allChunks || orphans.length > 0 ? [...world.dirtyChunks] : [];
    for (const key of chunkKeys) world.dirtyChunks.delete(key);
    const chunks: ChunkRecord[] = chunkKeys.map((key) => {
      const [cx, cz] = key.split(",").map(Number);
      return { chunkX: cx, chunkZ: cz, data: chunkData(world, key) };
    });
    if (captured.length === 0 && chunks.length === 0 && !work) return this.flush() as Promise<T>;
    const keys = [...captured.map((c) => c.snap.id), ...shared];
    if (chunks.length) keys.push(CHUNKS);
    // Work over no character (a store's shelves alone) waits for everything before it.
    if (keys.length === 0) keys.push(...this.tails.keys(), WORLD);

    const writeSave = async (tx: SqlTx) => {
      for (const c of captured) {
        for (const d of c.deaths)
          await recordDeath(tx, { id: d.id, characterId: c.snap.id, at: d.at, items: d.items, killedBy: d.killedBy, world: this.worldName });
        for (const deathId of c.reclaims) {
          if (!(await resolveDeath(tx, deathId, c.snap.id, "reclaimed"))) throw new ReclaimConflictError(`death ${deathId} was already resolved`);
        }
        if (c.kills.size) await addNpcKills(tx, c.snap.id, c.kills);
      }
      // The stats of every character whose stats or place changed in one statement; item rows only where the items changed.
      await writeCharacterStats(
        tx,
        captured.filter((c) => c.statsChanged).map((c) => c.snap),
      );
      await writeCharacterItems(
        tx,
        captured.filter((c) => c.itemsChanged).map((c) => c.snap),
      );
      await writeLedger(
        tx,
        this.worldName,
        captured.flatMap((c) => (c.ledger ?? []).map((e) => ({ ...e, characterId: c.snap.id }))),
      );
      await writeCharacterQuests(
        tx,
        captured.filter((c) => c.questsChanged).map((c) => c.snap),
      );
      await writeChunks(tx, this.worldName, chunks);
    };
    const empty =
      chunks.length === 0 &&
      captured.every(
        (c) =>
          !c.statsChanged &&
          !c.itemsChanged &&
          !c.questsChanged &&
          c.deaths.length === 0 &&
          c.reclaims.length === 0 &&
          c.kills.size === 0 &&
          c.events.length === 0,
      );
    const write = async (): Promise<T> => {
      // The ledger's rows, counted here rather than in the tick that took the picture.
      for (const c of captured) if (c.heldBefore && !c.ledger) c.ledger = ledgerRows(holdingsChange(holdingsOf(c.heldBefore), holdingsOf(c.snap)), c.events);
      const result = await retryTransaction(() =>
        this.sql.transaction(async (tx) => {
          if (!work) {
            await writeSave(tx);
            return undefined as T;
          }
          let written = false;
          const writes = async () => {
            if (!written) await writeSave(tx);
            written = true;
          };
          const out = await work(tx, Object.assign(writes, { empty }));
          if (!written) await writeSave(tx);
          return out;
        }),
      );
      this.stats.saves++;
      worldSaves.inc({ outcome: "written" });
      this.stats.characters += captured.length;
      return result;
    };
    const done = this.after(keys, write).catch((err) => {
      this.stats.failures++;
      worldSaves.inc({ outcome: "failed" });
      if (err instanceof TradeCommitError)
        this.logger.warn({ reason: err.reason, message: err.message }, "a trade commit refused the trade; nothing was written");
      else this.logger.error({ err, characters: captured.length, chunks: chunks.length }, "world save failed; will retry");
      // Put back what was not written so the next save tries again.
      for (const c of captured) {
        const p = world.players.get(c.snap.id);
        if (!p) {
          this.orphans.push(c);
          continue;
        }
        p.dirty = true;
        p.persistedStats = undefined;
        p.persistedItems = undefined;
        // The ledger starts again from what was last written, with the causes told since.
        if (c.heldBefore) p.persistedHeld = c.heldBefore;
        p.ledgerEvents.unshift(...c.events);
        p.persistedQuests = undefined;
        p.pendingDeaths.unshift(...c.deaths);
        p.pendingReclaims.unshift(...c.reclaims);
        for (const [npc, n] of c.kills) p.pendingKills.set(npc, (p.pendingKills.get(npc) ?? 0) + n);
        world.groundLinked.add(p.id);
      }
      for (const key of chunkKeys) world.dirtyChunks.add(key);
      throw err;
    });
    this.settle(keys, done);
    return done;
  }

  /** A death pile expired: resolve its lock (after every save so far, so after the one that recorded it). */
  expireDeath(deathId: string): Promise<void> {
    const keys = [...this.tails.keys()];
    const done = this.after(keys, async () => {
      await expireDeathLock(this.sql, deathId);
    });
    done.catch((err) => this.logger.error({ err, deathId }, "could not expire a death lock"));
    this.settle(keys, done);
    return done;
  }

  /** Wait for every save captured so far. */
  flush(): Promise<void> {
    return Promise.all(this.tails.values()).then(() => undefined);
  }

  /** Run `write` once the writes before it on any of `keys` are done (written or failed). */
  private after<T>(keys: string[], write: () => Promise<T>): Promise<T> {
    const before = keys.map((k) => this.tails.get(k)).filter((t): t is Promise<void> => t !== undefined);
    return (before.length ? Promise.all(before) : Promise.resolve()).then(write);
  }

  /** `done` is now the write the next one on each of `keys` waits behind. */
  private settle(keys: string[], done: Promise<unknown>) {
    const tail = done.then(
      () => {},
      () => {},
    );
    for (const k of keys) this.tails.set(k, tail);
    void tail.then(() => {
      for (const k of keys) if (this.tails.get(k) === tail) this.tails.delete(k);
    });
  }
}

/** The key of the saves that write chunks (the world's ground, as one), and of those over no character. */
const CHUNKS = "\u0000chunks";
const WORLD = "\u0000world";

function capture(p: PlayerEntity, withLedger: boolean): CapturedCharacter {
  const snap = snapshotOf(p);
  const stats = statsFingerprint(snap);
  const items = itemsFingerprint(snap);
  const quests = questsFingerprint(snap);
  const itemsChanged = items !== p.persistedItems;
  // The ledger: what the items changed by since the last save, told by the causes recorded; only
  // the pictures are kept here, the counting is done by the write.
  const events = p.ledgerEvents;
  let heldBefore: Held | undefined;
  if (withLedger && (itemsChanged || events.length) && p.persistedHeld) {
    heldBefore = p.persistedHeld;
    p.persistedHeld = snap;
  }
  p.ledgerEvents = [];
  const c: CapturedCharacter = {
    snap,
    statsChanged: stats !== p.persistedStats,
    itemsChanged,
    questsChanged: quests !== p.persistedQuests,
    deaths: p.pendingDeaths,
    reclaims: p.pendingReclaims,
    kills: p.pendingKills,
    heldBefore,
    events: heldBefore ? events : [],
  };
  p.persistedStats = stats;
  p.persistedItems = items;
  p.persistedQuests = quests;
  p.pendingDeaths = [];
  p.pendingReclaims = [];
  p.pendingKills = new Map();
  p.dirty = false;
  return c;
}

/** Run a transaction again (up to 5 times, after a short pause) when it hit a serialization failure or deadlock. */
async function retryTransaction<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= 5 || !isRetryableTxError(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 10));
    }
  }
}
