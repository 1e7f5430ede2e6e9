import { conservation } from "../../../src/db/ledgerRepo.js";
import assert from "node:assert/strict";
import path from "node:path";
import type { Database } from "../../../src/db/client.js";
import { seededRng } from "../../../src/game/random.js";
import { tileOf } from "../../../src/manifests/shapes.js";
import { silentLogger } from "../../../src/logger.js";
import { arenasOf, inArena, type DuelArena } from "../../../src/features/duel/duelArenas.js";
import { loadGameData } from "../../../src/manifests/index.js";
import { ROOT } from "../../../src/paths.js";
import { crashRun, joinGuest, newGuests, packSlots, type Guest } from "../../helpers/crashRun.js";
import { DATABASE_KINDS } from "../../helpers/database.js";
import { DuelStorm, nothingMoved, type ArenaDuel, type DuelEnding } from "../../helpers/duelStorm.js";
import { addTo, plain, readLedger, type Bag, type Ledger } from "../../helpers/itemLedger.js";
import type { ServerProcess } from "../../helpers/serverProcess.js";
import type { OfferItem, StormPlayer } from "../../helpers/tradeStorm.js";

/**
 * The server process is SIGKILLed in the middle of a storm of staked duels, then restarted on the
 * same database. Stakes stay in their owners' inventories until the settlement, which moves the
 * loser's stake to the winner and writes the `duels` row in one transaction: nothing may be lost or
 * duplicated (every item id's total over all inventories, banks, equipment and the ground is what it
 * was before the storm), the duel history must explain every character's items (starting items +
 * the stakes it won - the stakes it lost), every settlement a client was told about must have its
 * row, and nobody comes back locked, or saved standing in an arena.
 *
 * The kill: once the storm is well under way, fights park before their forfeit until every arena
 * holds one and another duel waits at its last accept. The first parked forfeits; once it is settled
 * the waiting duel takes its arena; once that one is in its countdown the other parked fight
 * forfeits, and the server is killed as soon as it has taken that forfeit: one settlement written
 * and told, another in flight, a fight in its countdown, setups on every screen, and players who
 * left a fight or a setup on their way back. Both database kinds, as test/trade/crash.test.ts.
 *
 * The database is read directly, never while a server runs: before the storm after a first run that
 * made the characters and was stopped with SIGTERM; after the restart that followed the kill, once
 * every player came back and the server was stopped with SIGTERM; and at the end, after a few more
 * duels on a last run stopped with SIGTERM.
 */

const SECRET = "duel-crash-test-secret-".padEnd(48, "k");
const PLAYERS = 12;
/** The storm is well under way once this many duels have settled... */
const SETTLED_BEFORE_KILL = 8;
/** ...and after the restart the world still duels: this many more settle. */
const SETTLED_AFTER_RESTART = 3;
/** DUEL_STORM_SEED=n replays a storm's choices (the timings are the machine's). */
const SEED = Number(process.env.DUEL_STORM_SEED ?? 20_251_106);

type DuelRow = { id: string; winnerId: string | null; loserId: string | null; winnerStake: unknown; loserStake: unknown; outcome: string };

async function readWorld(db: Database) {
  return {
    ledger: await readLedger(db),
    audit: await conservation(db.sql),
    duels: (await db.prisma.duel.findMany()) as DuelRow[],
    positions: await db.prisma.character.findMany({ select: { id: true, positionX: true, positionZ: true } }),
  };
}

/** What the history says each character holds: its starting items, plus the stakes it won, minus the stakes it lost. */
function replayHistory(start: Ledger, rows: DuelRow[]): Map<string, Bag> {
  const expected = new Map([...start.characters].map(([id, bag]) => [id, new Map(bag)]));
  for (const row of rows) {
    const winner = expected.get(row.winnerId ?? "");
    const loser = expected.get(row.loserId ?? "");
    assert.ok(winner && loser, `duel ${row.id} is between characters that did not exist before the storm`);
    for (const o of row.loserStake as OfferItem[]) {
      addTo(loser, o.itemId, -o.quantity);
      addTo(winner, o.itemId, o.quantity);
    }
  }
  return expected;
}

/** Characters whose items the history does not explain: "id: history says ..., holds ...". */
function unexplained(start: Ledger, rows: DuelRow[], now: Ledger): string[] {
  const held = (id: string) => JSON.stringify(plain(now.characters.get(id) ?? new Map()));
  return [...replayHistory(start, rows)]
    .filter(([id, bag]) => JSON.stringify(plain(bag)) !== held(id))
    .map(([id, bag]) => `${id}: history says ${JSON.stringify(plain(bag))}, holds ${held(id)}`);
}

const stakeOf = (s: unknown) =>
  (s as OfferItem[]).map((o) => ({ inventorySlot: o.inventorySlot, itemId: o.itemId, quantity: o.quantity })).sort((x, y) => x.inventorySlot - y.inventorySlot);

const items = (s: Array<{ itemId: string; quantity: number }>) => s.map((o) => `${o.itemId}x${o.quantity}`).sort();

/** Characters saved standing inside an arena's square. */
function inArenas(arenas: DuelArena[], positions: Array<{ id: string; positionX: number; positionZ: number }>): string[] {
  return positions
    .filter((p) => arenas.some((a) => inArena(a, tileOf({ x: p.positionX, z: p.positionZ }))))
    .map((p) => `${p.id} at (${p.positionX}, ${p.positionZ})`);
}

for (const kind of DATABASE_KINDS) {
  describe(`staked duels survive a SIGKILL of the server (${kind})`, function () {
    this.timeout(180_000);
    const storms: DuelStorm[] = [];
    const run = crashRun(kind, { secret: SECRET, dirPrefix: "arena-duel-crash-" });
    const sockets = run.sockets;
    run.onCleanup(() => Promise.all(storms.map((s) => s.stop())));
    const readDatabase = () => run.read(readWorld);
    const stopGracefully = run.stopGracefully;
    let arenas: DuelArena[] = [];

    before(async () => {
      arenas = arenasOf(await loadGameData(path.join(ROOT, "world", "manifests"), silentLogger)).arenas;
      assert.ok(arenas.length > 0, "the world has duel arenas");
    });

    it("loses and duplicates no item, keeps every settled duel in the history, and frees every duellist", async () => {
      // 1. The characters, made by a first run stopped with SIGTERM; their starting items read from the database.
      let server: ServerProcess = await run.start();
      const guests: Guest[] = await newGuests(server, PLAYERS);
      const made = await Promise.all(guests.map((g) => joinGuest(server.port, g, sockets)));
      await stopGracefully(server);
      const start = (await readDatabase()).ledger;
      assert.deepEqual([...start.characters.keys()].sort(), made.map((p) => p.id).sort());
      assert.ok(start.total.get("coins")! > 0, "the characters start with coins");
      const tokens = new Map(guests.map((g, i) => [made[i]!.id, g]));
      const stormOf = (players: StormPlayer[], seed: number, settledBeforeStop: number, parkForKill: boolean) => {
        const storm = new DuelStorm(players, {
          random: seededRng(seed),
          reconnect: async (p) => {
            const back = await joinGuest(server.port, tokens.get(p.id)!, sockets);
            assert.equal(back.id, p.id, "a reconnect brings the same character back");
            return back.ws;
          },
          arenas: arenas.length,
          settledBeforeStop,
          parkForKill,
        });
        storms.push(storm);
        return storm;
      };

      // 2. The storm, on a second run; SIGKILL once it is well under way, with a settlement in flight.
      server = await run.start();
      const players = await Promise.all(guests.map((g) => joinGuest(server.port, g, sockets)));
      assert.deepEqual(
        players.map((p) => p.id),
        made.map((p) => p.id),
        "the same characters come back",
      );
      for (const p of players)
        assert.deepEqual(packSlots(p.sync.inventory), packSlots(start.inventories.get(p.id)!), `${p.id} starts with what the database holds`);
      const storm = stormOf(players, SEED, SETTLED_BEFORE_KILL, true);
      storm.start();
      let stalled: NodeJS.Timeout | undefined;
      const killPoint = await Promise.race([
        storm.readyToKill,
        new Promise<never>((_, reject) => {
          stalled = setTimeout(
            () => reject(new Error(`the storm did not reach the kill: ${JSON.stringify(storm.stats)} ${storm.anomalies.join("; ")}`)),
            90_000,
          );
        }),
      ]).finally(() => clearTimeout(stalled));
      const stopped = storm.stop(); // nothing new starts from here on
      server.child.kill("SIGKILL");
      assert.equal((await server.exited).signal, "SIGKILL");
      await stopped;
      assert.deepEqual(storm.anomalies, [], "the storm ran without a step left unanswered");
      assert.ok(storm.stats.settled >= SETTLED_BEFORE_KILL, `${storm.stats.settled} duels settled before the kill`);

      // 3. Restart on the same database: every player comes back with what the database holds, nothing locked, outside the arenas.
      server = await run.start();
      const back = await Promise.all(guests.map((g) => joinGuest(server.port, g, sockets)));
      await stopGracefully(server);
      const crashed = await readDatabase();
      for (const p of back) {
        assert.deepEqual(packSlots(p.sync.inventory), packSlots(crashed.ledger.inventories.get(p.id)!), `${p.id} after the restart`);
        assert.deepEqual(
          p.sync.inventory.filter((s: { locked: boolean }) => s.locked),
          [],
          `${p.id} has no stake locked after the restart`,
        );
        const tile = tileOf(p.sync.position);
        assert.ok(!arenas.some((a) => inArena(a, tile)), `${p.id} came back in an arena, at (${tile.x}, ${tile.z})`);
      }
      assert.deepEqual(plain(crashed.ledger.total), plain(start.total), "item totals before the storm and after the crash and restart");
      assert.deepEqual(plain(crashed.ledger.ground), {}, "nothing went to the ground");
      assert.deepEqual(unexplained(start, crashed.duels, crashed.ledger), [], "characters whose items the history does not explain after the crash");
      assert.deepEqual(inArenas(arenas, crashed.positions), [], "characters saved standing in an arena after the crash");

      // 4. The world still duels: a last run, a few more duels, then SIGTERM.
      server = await run.start();
      const again = await Promise.all(guests.map((g) => joinGuest(server.port, g, sockets)));
      const after = stormOf(again, SEED + 1, SETTLED_AFTER_RESTART, false);
      after.start();
      await Promise.race([
        after.enough,
        new Promise<never>((_, reject) => {
          stalled = setTimeout(
            () => reject(new Error(`no duel settled after the restart: ${JSON.stringify(after.stats)} ${after.anomalies.join("; ")}`)),
            60_000,
          );
        }),
      ]).finally(() => clearTimeout(stalled));
      await after.finish();
      assert.deepEqual(after.anomalies, [], "the duels after the restart ran without a step left unanswered");
      await stopGracefully(server);
      const end = await readDatabase();
      // The item ledger's audit (npm run audit) finds nothing: every holding is its ledger's sum, every duel's stakes match.
      assert.deepEqual({ holdings: end.audit.holdings, transfers: end.audit.transfers }, { holdings: [], transfers: [] });
      const rows = end.duels;
      const rowById = new Map(rows.map((r) => [r.id, r]));

      // What the clients were told: each duel:ended with a winner, and the winner's own copy (the one
      // with what it received) when the winner was told at all: a kill can fall between the two sends.
      type Told = { outcome: string; winnerId: string; received: Array<{ itemId: string; quantity: number }>; settled: boolean; message: string };
      const told = new Map<string, Told>();
      const toldWinner = new Map<string, Told>();
      for (const s of sockets) {
        const playerId = s.frames.find((f) => f.type === "authenticated")?.data.playerId;
        for (const f of s.frames) {
          if (f.type !== "duel:ended" || f.data.winnerId === null || f.data.outcome === "draw") continue;
          if (!told.has(f.data.duelId)) told.set(f.data.duelId, f.data);
          if (f.data.winnerId === playerId) toldWinner.set(f.data.duelId, f.data);
          else assert.deepEqual(f.data.received, [], `duel ${f.data.duelId}: the loser's copy names nothing received`);
        }
      }
      const arenaDuels = new Map<string, ArenaDuel>(storms.flatMap((s) => [...s.arenaDuels]));
      const endings = new Map<string, DuelEnding>(storms.flatMap((s) => [...s.endings]));
      for (const id of told.keys()) assert.ok(arenaDuels.has(id), `clients were told of the end of ${id}, a duel the storm never took to an arena`);
      const loserOf = (id: string) => {
        const d = arenaDuels.get(id)!;
        return told.get(id)!.winnerId === d.challengerId ? d.opponentId : d.challengerId;
      };
      // Settled: the server says the settlement was written.
      const settledTold = [...told].filter(([, e]) => e.settled);

      if (process.env.DUEL_CRASH_REPORT) {
        const stats = (s: DuelStorm) => JSON.stringify({ ...s.stats, cancelReasons: s.reasons.cancelled, refusals: s.reasons.refused });
        process.stdout.write(
          `      [${kind}] before the kill ${stats(storm)}; released ${killPoint.released.map((id) => `${id}: ${rowById.has(id) ? "written" : "not written"}, ${told.has(id) ? "told" : "not told"}`).join("; ")}; ` +
            `${killPoint.followed} in its countdown; after the restart ${stats(after)}; rows ${rows.length}, settled told ${settledTold.length}\n`,
        );
      }

      // Conservation: every item id's total over all owners is what it was before the storm.
      assert.deepEqual(plain(end.ledger.total), plain(start.total), "item totals before the storm and at the end");
      assert.deepEqual(plain(end.ledger.ground), {}, "nothing went to the ground");

      // Durability: every settlement a client was told about has its row, as told.
      const missing = settledTold.filter(([id]) => !rowById.has(id)).map(([id]) => id);
      assert.deepEqual(missing, [], `settled duels missing from the history (${missing.length} of ${settledTold.length})`);
      for (const [id, e] of settledTold) {
        const row = rowById.get(id)!;
        assert.deepEqual([row.winnerId, row.loserId, row.outcome], [e.winnerId, loserOf(id), e.outcome], `duel ${id} as written and as told`);
        const winnerCopy = toldWinner.get(id);
        if (winnerCopy)
          assert.deepEqual(items(row.loserStake as OfferItem[]), items(winnerCopy.received), `duel ${id}: the stake written and the stake received`);
      }
      // A duel told that nothing moved has no row.
      const contradicted = [...told].filter(([id, e]) => nothingMoved(e) && rowById.has(id)).map(([id]) => id);
      assert.deepEqual(contradicted, [], "duels told 'nothing moved' that the history says were settled");

      // Every row is a fight the storm ended, with the stakes both confirmed, won by the other side.
      for (const row of rows) {
        const duel = arenaDuels.get(row.id);
        const ending = endings.get(row.id);
        assert.ok(duel && ending, `duel ${row.id} is in the history but the storm never ended its fight`);
        const winnerId = ending.loserId === duel.challengerId ? duel.opponentId : duel.challengerId;
        assert.deepEqual(
          { winnerId: row.winnerId, loserId: row.loserId, outcome: row.outcome, winnerStake: stakeOf(row.winnerStake), loserStake: stakeOf(row.loserStake) },
          {
            winnerId,
            loserId: ending.loserId,
            outcome: ending.outcome,
            winnerStake: stakeOf(duel.stakes[winnerId]),
            loserStake: stakeOf(duel.stakes[ending.loserId]),
          },
          `duel ${row.id} as written and as the storm fought it`,
        );
      }

      // History: starting items + stakes won - stakes lost over each character's rows = what it holds now.
      assert.deepEqual(unexplained(start, rows, end.ledger), [], "characters whose items the duel history does not explain");

      // Nobody was saved standing in an arena (a duellist is saved at the tile they left from).
      assert.deepEqual(inArenas(arenas, end.positions), [], "characters saved standing in an arena at the end");
    });
  });
}
