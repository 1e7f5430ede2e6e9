import assert from "node:assert/strict";
import { seededRng } from "../../src/game/random.js";
import type { Rng } from "../../src/game/types.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";
import { bagOf, plain, readLedger } from "../helpers/itemLedger.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { makeTrader, type Trader, type TraderKind } from "../helpers/traders.js";
import { guestToken } from "../helpers/worldClient.js";
import { place, ticks, theWorld } from "../helpers/worldRoom.js";

/**
 * Many players, half over @colyseus/sdk and half over /ws, trade at once with random adds, removes,
 * accepts, cancels and disconnects (some of them bad on purpose). Afterwards every item id is
 * exactly as plentiful as before, over all inventories, banks, equipment and the ground: in the
 * world, and in the database once everyone has left.
 */

const PLAYERS = 12;
/** The storm ends once this many trades completed (or after STORM_MS). */
const WANTED_TRADES = 25;
const STORM_MS = 45_000;

interface StormPlayer {
  kind: TraderKind;
  identity: { token: string; accountId: string };
  trader: Trader;
  /** Events already read. */
  seen: number;
  trade: string | null;
  incoming: string[];
  inventory: Array<{ slot: number; itemId: string; quantity: number }>;
  offered: Set<number>;
}

const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)];

/** Read what happened to the player since last time. */
function absorb(p: StormPlayer, completed: Set<string>) {
  for (const e of p.trader.events(p.seen)) {
    const d = e.data;
    switch (e.type) {
      case "tradeIncoming":
        p.incoming.push(d.tradeId);
        break;
      case "tradeStarted":
        p.trade = d.tradeId;
        p.offered.clear();
        p.incoming = p.incoming.filter((id) => id !== d.tradeId);
        break;
      case "tradeRequestSent":
        p.trade = d.tradeId;
        break;
      case "tradeCompleted":
      case "tradeCancelled":
        if (e.type === "tradeCompleted") completed.add(d.tradeId);
        if (p.trade === d.tradeId) p.trade = null;
        p.incoming = p.incoming.filter((id) => id !== d.tradeId);
        break;
      case "tradeError":
        // A refused request leaves the asker free.
        if (d.code === "ALREADY_IN_TRADE" || d.code === "RATE_LIMITED" || d.code === "TOO_FAR" || d.code === "PLAYER_OFFLINE") {
          if (!d.tradeId && p.trade && !p.trader.all("tradeStarted").some((s) => s.tradeId === p.trade)) p.trade = null;
        }
        if (d.code === "UNKNOWN_TRADE" && d.tradeId === p.trade) p.trade = null;
        break;
      case "player:sync":
        p.inventory = d.inventory;
        break;
    }
  }
  p.seen = p.trader.mark();
}

/** One random move of one player: mostly sensible, sometimes wrong on purpose. */
function move(p: StormPlayer, everyone: StormPlayer[], rng: Rng): "disconnect" | undefined {
  const r = rng();
  if (!p.trade) {
    if (p.incoming.length && r < 0.8) {
      p.trader.send("tradeRequestRespond", { tradeId: p.incoming.shift(), accept: rng() < 0.85 });
      return;
    }
    const other = pick(
      rng,
      everyone.filter((o) => o !== p),
    );
    p.trader.send("tradeRequest", { targetPlayerId: other.trader.id });
    return;
  }
  const tradeId = p.trade;
  const slot = p.inventory.length ? pick(rng, p.inventory) : undefined;
  if (r < 0.3 && slot) {
    // Usually a valid part of a slot; now and then too much, zero, or negative.
    const quantity = rng() < 0.85 ? 1 + Math.floor(rng() * slot.quantity) : pick(rng, [0, -3, slot.quantity + 1, 2.5]);
    p.trader.send("tradeAddItem", { tradeId, inventorySlot: slot.slot, quantity });
    p.offered.add(slot.slot);
  } else if (r < 0.38 && p.offered.size) {
    p.trader.send("tradeRemoveItem", { tradeId, inventorySlot: pick(rng, [...p.offered]) });
  } else if (r < 0.9) {
    p.trader.send("tradeAccept", { tradeId });
    // A replayed accept now and then.
    if (rng() < 0.1) p.trader.send("tradeAccept", { tradeId });
  } else if (r < 0.96) {
    p.trader.send("tradeCancel", { tradeId });
  } else {
    return "disconnect";
  }
  return;
}

for (const kind of DATABASE_KINDS) {
  describe(`trade conservation on ${kind}`, function () {
    this.timeout(180_000);
    let t: TestDb;
    let server: TestServer;
    const players: StormPlayer[] = [];

    before(async () => {
      t = await openTestDb(kind);
      // The repeat limit is lifted so a small crowd keeps trading; timeouts are short so no trade hangs.
      server = await startTestServer({ db: t.db, tradeLimits: { repeatRequestMs: 0, requestTimeoutMs: 2_000, idleTimeoutMs: 4_000 } });
    });
    after(async () => {
      await Promise.all(players.map((p) => p.trader.close().catch(() => {})));
      await server?.close();
      await t?.cleanup();
    });

    it("a storm of concurrent trades neither creates nor destroys a single item", async () => {
      const rng = seededRng(kind === "pglite" ? 11 : 23);
      const room = await theWorld();
      for (let i = 0; i < PLAYERS; i++) {
        const kindOf: TraderKind = i % 2 === 0 ? "sdk" : "ws";
        const identity = await guestToken(server);
        const trader = await makeTrader(kindOf, server, identity);
        place(room, trader.id, room.world.spawnTile);
        players.push({ kind: kindOf, identity, trader, seen: 0, trade: null, incoming: [], inventory: trader.sync().inventory, offered: new Set() });
      }
      // Extra stackables spread unevenly, so merges and large quantities happen.
      for (const [i, p] of players.entries()) {
        const e = room.world.players.get(p.trader.id)!;
        e.inventory[20] = { itemId: "feathers", quantity: 10 + i * 7 };
        e.inventory[21] = { itemId: "logs", quantity: 1 };
        room.world.touchPlayer(e);
      }
      await room.saver.saveDirty(room.world);
      const before = plain((await readLedger(t.db)).total);
      const worldTotal = () =>
        plain(
          bagOf([
            ...[...room.world.players.values()].flatMap((p) =>
              [...p.inventory, ...Object.values(p.equipment), ...p.bank].filter((s) => s !== null && s !== undefined),
            ),
            ...room.world.groundItems.values(),
          ]),
        );
      assert.deepEqual(worldTotal(), before, "the world and the database agree before the storm");

      const completed = new Set<string>();
      let disconnects = 0;
      const started = Date.now();
      const moves = players.map(() => 0);
      const storm = players.map(async (p, i) => {
        const own = seededRng(1000 + i + (kind === "pglite" ? 0 : 500));
        while (completed.size < WANTED_TRADES && Date.now() - started < STORM_MS) {
          absorb(p, completed);
          if (move(p, players, own) === "disconnect") {
            disconnects++;
            await p.trader.close();
            // The same account comes back as the same character, as any player would.
            p.trader = await makeTrader(p.kind, server, p.identity);
            place(room, p.trader.id, room.world.spawnTile);
            Object.assign(p, { seen: 0, trade: null, incoming: [], offered: new Set(), inventory: p.trader.sync().inventory });
            continue;
          }
          // Wait for the server's answer (any event), not for time; at most 20 moves per player per tick,
          // which keeps each player well inside the rooms' flood limit (120 messages a second).
          await p.trader.next("*", () => true, { since: p.seen, timeoutMs: 2_000 }).catch(() => {});
          if (++moves[i] % 20 === 0) await ticks(room, 1);
        }
      });
      await Promise.all(storm);
      assert.ok(completed.size >= WANTED_TRADES, `only ${completed.size} trades completed in ${STORM_MS} ms`);

      // Let every trade in flight finish, then compare the world with the start.
      await Promise.all(players.map((p) => p.trader.close()));
      while (room.sessions.size > 0 || room.world.players.size > 0) await new Promise((r) => setTimeout(r, 20));
      await room.settled();
      const after = await readLedger(t.db);
      assert.deepEqual(plain(after.total), before, "every item id totals the same in the database");
      const rows = await t.db.prisma.trade.findMany({ where: { id: { in: [...completed] } } });
      assert.equal(rows.length, completed.size, "every trade a player was told completed has its history row");
      // Commits still in flight when the storm stopped completed after their players had left.
      assert.ok((await t.db.prisma.trade.count()) >= completed.size);
      console.log(`      ${kind}: ${completed.size} trades completed, ${disconnects} disconnects, ${Object.keys(before).length} item kinds conserved`);
    });
  });
}
