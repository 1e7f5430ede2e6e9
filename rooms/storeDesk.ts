import type { Logger } from "pino";
import type { SqlTx } from "../src/db/sql.js";
import { changeStock, recordStoreDeal } from "../src/db/storeRepo.js";
import type { SaveSlice, WorldSaver } from "../src/db/worldSaver.js";
import { buyFromStore, sellToStore, settleDeal, type StoreDeal } from "../src/game/world/stores.js";
import type { World } from "../src/game/world/World.js";
import { storeDeals } from "../src/metrics.js";
import type { ServerMessage, ServerMessageType } from "../src/protocol/index.js";

export interface StoreDeskOptions {
  world: World;
  saver: WorldSaver;
  logger: Logger;
  /** The world name the shelves are kept under. */
  worldName: string;
  send<K extends ServerMessageType>(playerId: string, type: K, data: ServerMessage<K>): void;
  syncPlayer(playerId: string): void;
}

/**
 * The world room's store counter: a purchase or sale the world applied is committed through the
 * world's saver, in one transaction with the player's save, the shelf's change and the ledger row,
 * and only then told to the player (`store:bought` / `store:sold`). A commit that fails puts the
 * pack and the shelf back and answers STORE_UNAVAILABLE.
 */
export class StoreDesk {
  /** Deals being written, with the player each is for. */
  private readonly pending = new Map<Promise<void>, string>();

  constructor(private readonly o: StoreDeskOptions) {}

  buy(playerId: string, itemId: string, quantity: number) {
    this.commit(buyFromStore(this.o.world, playerId, itemId, quantity));
  }

  sell(playerId: string, slot: number, quantity: number, forNothing = false) {
    this.commit(sellToStore(this.o.world, playerId, slot, quantity, forNothing));
  }

  private commit(deal: StoreDeal) {
    const { world, saver, worldName } = this.o;
    const p = world.players.get(deal.playerId)!;
    const done = saver
      .saveWith(
        world,
        [p],
        async (tx, writeSave) => {
          await writeSave();
          await changeStock(tx, worldName, deal.storeId, deal.itemId, deal.shelf.base, deal.shelf.delta);
          await recordStoreDeal(tx, worldName, deal);
        },
        [storeKey(deal.storeId)],
      )
      .then(
        () => {
          settleDeal(world, deal, true);
          storeDeals.inc({ kind: deal.kind, outcome: "written" });
          const told = { dealId: deal.id, storeId: deal.storeId, itemId: deal.itemId, quantity: deal.quantity, coins: deal.coins };
          this.o.send(deal.playerId, deal.kind === "buy" ? "store:bought" : "store:sold", told);
          this.o.syncPlayer(deal.playerId);
        },
        (err) => {
          settleDeal(world, deal, false);
          storeDeals.inc({ kind: deal.kind, outcome: "failed" });
          this.o.logger.error({ err, deal: { ...deal, before: undefined } }, "store deal could not be written; undone");
          this.o.send(deal.playerId, "error", { code: "STORE_UNAVAILABLE", message: "The store could not complete that; nothing changed" });
          this.o.syncPlayer(deal.playerId);
        },
      );
    this.pending.set(done, deal.playerId);
    void done.finally(() => this.pending.delete(done));
  }

  /**
   * The periodic save (every changed character and chunk, or one slice of it), with the shelves
   * that restocked or decayed since the last one; when it fails, those changes wait for the next.
   */
  saveDirty(slice?: SaveSlice): Promise<void> {
    const { world, saver, worldName } = this.o;
    const drift = [...world.stockDrift].flatMap(([storeId, items]) => [...items].map(([itemId, delta]) => ({ storeId, itemId, delta })));
    world.stockDrift.clear();
    const work = drift.length
      ? async (tx: SqlTx, writeSave: () => Promise<void>) => {
          await writeSave();
          for (const d of drift) {
            const base = world.stores.get(d.storeId)?.entries.get(d.itemId)?.base ?? 0;
            await changeStock(tx, worldName, d.storeId, d.itemId, base, d.delta);
          }
        }
      : undefined;
    return saver.saveDirty(world, work, [...new Set(drift.map((d) => storeKey(d.storeId)))], slice).catch((err) => {
      for (const d of drift) {
        let items = world.stockDrift.get(d.storeId);
        if (!items) world.stockDrift.set(d.storeId, (items = new Map()));
        items.set(d.itemId, (items.get(d.itemId) ?? 0) + d.delta);
      }
      throw err;
    });
  }

  /** Every deal under way (of one player, when named) is written or undone. */
  async settled(playerId?: string) {
    await Promise.allSettled([...this.pending].filter(([, id]) => playerId === undefined || id === playerId).map(([done]) => done));
  }
}

/** The key under which writes to a store's shelves wait for each other (WorldSaver.saveWith's `shared`). */
const storeKey = (storeId: string) => `store:${storeId}`;
