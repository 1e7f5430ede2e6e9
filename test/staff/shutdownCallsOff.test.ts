import assert from "node:assert/strict";
import { tileOf } from "../../src/manifests/shapes.js";
import { arenasOf as arenasIn, inArena, type DuelArena } from "../../src/features/duel/duelArenas.js";
import { restartsOf } from "../../src/staff/restart.js";
import { duelsOf } from "../../src/features/duel/index.js";
import type { Database } from "../../src/db/client.js";
import { crashRun, newGuests } from "../helpers/crashRun.js";
import { DATABASE_KINDS, openTestDb, type TestDb, type TestDbKind } from "../helpers/database.js";
import { duelToFight } from "../helpers/duelSteps.js";
import { addTo, plain, readLedger, type Bag } from "../helpers/itemLedger.js";
import { rest } from "../helpers/rest.js";
import { defaultGameData, startTestServer, type TestServer } from "../helpers/server.js";
import { bothAccept, offer, openTrade, slotOf } from "../helpers/tradeSteps.js";
import { sdkTrader, wsTrader, type Trader } from "../helpers/traders.js";
import { guestToken } from "../helpers/worldClient.js";
import { place, theWorld } from "../helpers/worldRoom.js";

/**
 * A stop moves nothing that was not agreed (docs/PROTOCOL.md §11, "The settlement"; §9): a scheduled
 * restart (POST /api/admin/restart) and SIGTERM of the real server process, each while a staked duel
 * is in its fight and a trade is on its confirm screen. Before any session closes both duellists hear
 * `duel:cancelled` and both traders `tradeCancelled`, reason `server_shutdown`; then every character
 * holds exactly what it held before (no stake changed hands, no `duels` or `trades` row was written),
 * and nobody is saved standing in an arena. An SDK client and a /ws client on each side, on PGlite
 * and PostgreSQL.
 */

/** The four players: a (SDK) duels b (/ws) for a's 7 coins against b's shrimp; c (/ws) trades with d (SDK). */
interface Scene {
  duellists: [Trader, Trader];
  traders: [Trader, Trader];
  duelId: string;
  tradeId: string;
}

/** The duel into its fight and the trade onto its confirm screen, at the same time. */
async function setScene(a: Trader, b: Trader, c: Trader, d: Trader): Promise<Scene> {
  const duelId = await duelToFight(a, b, { a: [slotOf(a.sync(), "coins"), 7], b: [slotOf(b.sync(), "shrimp"), 1] });
  const tradeId = await openTrade(c, d);
  await offer(c, tradeId, slotOf(c.sync(), "coins"), 5);
  await offer(d, tradeId, slotOf(d.sync(), "shrimp"), 1);
  await bothAccept(c, d, tradeId, "tradeConfirmScreen");
  return { duellists: [a, b], traders: [c, d], duelId, tradeId };
}

const lastTypes = (t: Trader) =>
  t
    .events()
    .slice(-6)
    .map((e) => e.type)
    .join(", ");

/** Each player, once its connection is closed: heard the duel or the trade called off (server_shutdown), and nothing settled. */
async function heardCalledOff(scene: Scene, closeCodes: number[]) {
  const everyone = [...scene.duellists, ...scene.traders];
  const codes = await Promise.all(everyone.map((t) => t.closed));
  for (const code of codes) assert.ok(closeCodes.includes(code), `closed with ${code}, expected one of ${closeCodes}`);
  // What a client holds once its socket is closed is all it received before the close.
  for (const t of scene.duellists) {
    const mine = (type: string) => t.all(type).filter((e) => e.duelId === scene.duelId);
    assert.deepEqual(
      mine("duel:cancelled").map((e) => e.reason),
      ["server_shutdown"],
      `the ${t.kind} duellist heard its fight called off before its close; its last events: ${lastTypes(t)}`,
    );
    assert.deepEqual(mine("duel:ended"), [], "the fight was not settled");
  }
  for (const t of scene.traders) {
    const mine = (type: string) => t.all(type).filter((e) => e.tradeId === scene.tradeId);
    assert.deepEqual(
      mine("tradeCancelled").map((e) => e.reason),
      ["server_shutdown"],
      `the ${t.kind} trader heard its trade called off before its close; its last events: ${lastTypes(t)}`,
    );
    assert.deepEqual(mine("tradeCompleted"), [], "the trade was not committed");
  }
}

/** A character's items as player:sync shows them: inventory and equipment (a new character's bank is empty). */
function bagOfSync(sync: any): Bag {
  const bag: Bag = new Map();
  for (const s of sync.inventory) addTo(bag, s.itemId, s.quantity);
  for (const s of Object.values(sync.equipment ?? {}) as Array<{ itemId: string; quantity: number } | null>) if (s) addTo(bag, s.itemId, s.quantity);
  return bag;
}

/** The database after the stop: every character holds what it held before, no duel or trade of theirs was written, nobody stands in an arena. */
async function nothingMoved(db: Database, before: Map<string, Bag>, arenas: DuelArena[]) {
  const ids = [...before.keys()];
  const ledger = await readLedger(db);
  for (const [id, bag] of before) assert.deepEqual(plain(ledger.characters.get(id) ?? new Map()), plain(bag), `${id} holds what it held before the stop`);
  const total = (bags: Iterable<Bag>) => plain([...bags].reduce((sum, b) => ([...b].forEach(([item, n]) => addTo(sum, item, n)), sum), new Map() as Bag));
  assert.deepEqual(total(ids.map((id) => ledger.characters.get(id)!)), total(before.values()), "every item id's sum over the four is what it was");
  const duels = await db.prisma.duel.findMany({ where: { OR: [{ winnerId: { in: ids } }, { loserId: { in: ids } }] } });
  assert.deepEqual(duels, [], "no duel was settled: a called-off fight writes no row");
  const trades = await db.prisma.trade.findMany({ where: { OR: [{ initiatorId: { in: ids } }, { recipientId: { in: ids } }] } });
  assert.deepEqual(trades, [], "no trade was committed");
  const positions = await db.prisma.character.findMany({ where: { id: { in: ids } }, select: { id: true, positionX: true, positionZ: true } });
  const inside = positions.filter((p) => arenas.some((a) => inArena(a, tileOf({ x: p.positionX, z: p.positionZ }))));
  assert.deepEqual(inside, [], "the fighters walked out before they were saved");
}

/** The default world's duel arenas (its game data, loaded once per test run). */
const arenasOf = () => defaultGameData().then((data) => arenasIn(data).arenas);

for (const kind of DATABASE_KINDS) {
  describe(`a scheduled restart calls off the fights and trades under way, and moves nothing (${kind})`, function () {
    this.timeout(90_000);
    let t: TestDb;
    let server: TestServer;
    const open: Trader[] = [];

    before(async () => {
      t = await openTestDb(kind);
      server = await startTestServer({ db: t.db });
    });
    after(async () => {
      await Promise.all(open.map((p) => p.close().catch(() => {})));
      await server?.close();
      await t?.cleanup();
    });

    it("POST /api/admin/restart: duel:cancelled and tradeCancelled (server_shutdown) reach SDK and /ws players before the 1012 close; every stake and offer stays", async () => {
      const admin = await guestToken(server);
      const made = await rest(server, "POST", "/api/character", admin.token, { name: `Restarter${kind.slice(0, 2)}` });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      await server.ctx.db.prisma.user.update({ where: { id: admin.accountId }, data: { roles: ["admin"] } });
      const [a, b, c, d] = await Promise.all([sdkTrader(server), wsTrader(server), wsTrader(server), sdkTrader(server)]);
      open.push(a, b, c, d);
      const room = await theWorld();
      for (const p of [a, b, c, d]) place(room, p.id, room.world.spawnTile);
      const scene = await setScene(a, b, c, d);
      assert.equal(duelsOf(room.world).sessions.get(scene.duelId)?.screen, "fighting");
      // The world's own account of what each holds, before the restart.
      const before = new Map(
        [a, b, c, d].map((p) => {
          const e = room.world.players.get(p.id)!;
          const bag: Bag = new Map();
          for (const s of [...e.inventory, ...Object.values(e.equipment), ...e.bank]) if (s) addTo(bag, s.itemId, s.quantity);
          return [p.id, bag] as const;
        }),
      );

      const exited = new Promise<void>((resolve) => (restartsOf(server.ctx).exit = resolve));
      const plan = await rest(server, "POST", "/api/admin/restart", admin.token, { inSeconds: 10, reason: "calling off" });
      assert.equal(plan.status, 202, JSON.stringify(plan.body));
      await heardCalledOff(scene, [1012]);
      await exited;
      await nothingMoved(server.ctx.db, before, await arenasOf());
    });
  });

  // SIGINT takes the same stop as SIGTERM (src/index.ts): it runs once, on the database that starts faster.
  const signals: NodeJS.Signals[] = kind === "postgres" ? ["SIGTERM", "SIGINT"] : ["SIGTERM"];
  describe(`${signals.join(" and ")} call off the fights and trades under way, and move nothing (${kind}, the server process)`, function () {
    this.timeout(120_000);
    const run = crashRun(kind as TestDbKind, { secret: "shutdown-calls-off-secret-".padEnd(48, "s"), dirPrefix: "arena-calloff-" });
    const open: Trader[] = [];
    run.onCleanup(() => Promise.all(open.map((p) => p.close().catch(() => {}))));

    for (const signal of signals) {
      it(`${signal}: duel:cancelled and tradeCancelled (server_shutdown) reach SDK and /ws players before their close; the process exits 0 and every stake and offer stays`, async () => {
        const server = await run.start();
        const guests = await newGuests(server, 4);
        const [a, b, c, d] = await Promise.all([
          sdkTrader(server, guests[0]),
          wsTrader(server, guests[1]),
          wsTrader(server, guests[2]),
          sdkTrader(server, guests[3]),
        ]);
        open.push(a, b, c, d);
        const scene = await setScene(a, b, c, d);
        const before = new Map([a, b, c, d].map((p) => [p.id, bagOfSync(p.sync())] as const));

        server.child.kill(signal);
        assert.deepEqual(await server.exited, { code: 0, signal: null }, `the server did not stop cleanly:\n${server.output()}`);
        // SDK clients are closed by the room (4001, Colyseus's shutdown), /ws sockets by the adapter (1001).
        await heardCalledOff(scene, [4001, 1001]);
        const arenaList = await arenasOf();
        await run.read((db) => nothingMoved(db, before, arenaList));
      });
    }
  });
}
