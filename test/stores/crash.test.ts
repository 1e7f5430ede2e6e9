import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ROOT } from "../../src/paths.js";
import { DATABASE_KINDS } from "../helpers/database.js";
import { addTo, plain, readLedger, type Bag } from "../helpers/itemLedger.js";
import { crashRun, newGuests, type Guest } from "../helpers/crashRun.js";
import type { ServerProcess } from "../helpers/serverProcess.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";

/**
 * Many /ws players buy and sell at the default world's general store at once, some of them
 * dropping their sockets and coming back, and the server is SIGKILLed in the middle of it, then
 * restarted on the same database. Every coin and item must be accounted for: each character holds
 * its starting items plus what it bought minus what it sold over its `store_deals` rows (coins paid
 * and received included); every shelf of finite stock is its listed stock minus what was bought plus
 * what was sold (plus the restocks the time allowed); and every deal a client was told of
 * (`store:bought` / `store:sold`) has its row.
 */

const SECRET = "store-crash-test-secret-".padEnd(48, "s");
const PLAYERS = 10;
/** The rush is well under way once this many deals were told; the kill follows at once. */
const TOLD_BEFORE_KILL = 40;
/** The store, its keeper and the item on a finite shelf the players trade. */
const STORE = "general_store";
const KEEPER = "shopkeeper";
const FINITE = "feathers";
/** One restock or decay step of a shelf, at most, per this many ms of running (STOCK_DECAY_TICKS, and feathers' 60 s restock). */
const SHELF_STEP_MS = 60_000;

/** A shopper: one /ws socket at a time, its store open, sending one request at a time. */
class Shopper {
  ws!: WsPlayer;
  id = "";
  told: Array<{ dealId: string; kind: "buy" | "sell" }> = [];
  private stopped = false;
  done: Promise<void> = Promise.resolve();

  constructor(
    private readonly port: number,
    private readonly guest: Guest,
    private readonly sockets: WsPlayer[],
    private readonly rng: () => number,
  ) {}

  async connect() {
    this.ws = await wsConnect(this.port, `?token=${encodeURIComponent(this.guest.token)}`);
    this.sockets.push(this.ws);
    this.id = (await this.ws.next("authenticated")).data.playerId;
    const keeper = await this.ws.next("world:update", (f) => f.data.npcs.some((n: { npcId: string }) => n.npcId === KEEPER));
    const npcId = keeper.data.npcs.find((n: { npcId: string }) => n.npcId === KEEPER).id;
    const since = this.ws.mark();
    this.ws.send("player:action", { action: "store", targetId: npcId });
    await this.ws.next("store:open", () => true, { since });
  }

  start(dropEvery: number) {
    this.done = this.run(dropEvery);
  }

  stop() {
    this.stopped = true;
    return this.done;
  }

  private async run(dropEvery: number) {
    for (let n = 1; !this.stopped; n++) {
      if (dropEvery > 0 && n % dropEvery === 0) {
        // Drop the socket with a request in flight, and come back.
        this.send();
        this.ws.ws.terminate();
        await this.ws.closed;
        if (this.stopped) return;
        await this.connect().catch(() => (this.stopped = true));
        continue;
      }
      const since = this.ws.mark();
      this.send();
      const answer = await this.ws.next("*", (f) => ["store:bought", "store:sold", "error"].includes(f.type), { since, timeoutMs: 10_000 }).catch(() => null);
      if (!answer) return; // the server is gone
      if (answer.type !== "error") this.told.push({ dealId: answer.data.dealId, kind: answer.type === "store:bought" ? "buy" : "sell" });
    }
  }

  /** Buy a few feathers, or sell some of what the pack holds (feathers or shrimp). */
  private send() {
    const inv: Array<{ slot: number; itemId: string; quantity: number }> =
      [...this.ws.frames].reverse().find((f) => f.type === "player:sync")?.data.inventory ?? [];
    const roll = this.rng();
    const sellable = inv.filter((s) => s.itemId === FINITE || s.itemId === "shrimp");
    if (roll < 0.5 || sellable.length === 0) this.ws.send("store:buy", { itemId: FINITE, quantity: 1 + Math.floor(this.rng() * 3) });
    else {
      const s = sellable[Math.floor(this.rng() * sellable.length)];
      this.ws.send("store:sell", { slot: s.slot, quantity: 1 + Math.floor(this.rng() * 4) });
    }
  }
}

/** A failure while the server runs comes with what the server printed. */
async function withOutput<T>(server: ServerProcess, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- server output ---\n${server.output().slice(-4000)}`);
  }
}

function seeded(seed: number) {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

for (const kind of DATABASE_KINDS) {
  describe(`store deals survive a SIGKILL of the server (${kind})`, function () {
    this.timeout(150_000);
    const run = crashRun(kind, { secret: SECRET, dirPrefix: "arena-store-crash-" });
    const sockets = run.sockets;
    const readDatabase = () =>
      run.read(async (db) => ({ ledger: await readLedger(db), deals: await db.prisma.storeDeal.findMany(), stock: await db.prisma.storeStock.findMany() }));
    const stopGracefully = run.stopGracefully;

    it("accounts for every coin and item as paid, received or held, keeps the shelves consistent, and every told deal", async () => {
      // 1. The characters, made by a first run stopped with SIGTERM; what they start with, read from the database.
      let server = await run.start();
      const guests: Guest[] = await newGuests(server, PLAYERS);
      const first = guests.map((g, i) => new Shopper(server.port, g, sockets, seeded(i + 1)));
      await withOutput(server, Promise.all(first.map((s) => s.connect())));
      await stopGracefully(server);
      const start = await readDatabase();
      assert.equal(start.deals.length, 0);

      // 2. The rush, on a second run; SIGKILL once it is well under way, with deals in flight.
      server = await run.start();
      const began = Date.now();
      const shoppers = guests.map((g, i) => new Shopper(server.port, g, sockets, seeded(100 + i)));
      await withOutput(server, Promise.all(shoppers.map((s) => s.connect())));
      shoppers.forEach((s, i) => s.start(i % 3 === 0 ? 7 : 0));
      const told = () => shoppers.reduce((n, s) => n + s.told.length, 0);
      await new Promise<void>((resolve, reject) => {
        const deadline = Date.now() + 60_000;
        const check = () => {
          if (told() >= TOLD_BEFORE_KILL) return resolve();
          if (Date.now() > deadline) return reject(new Error(`only ${told()} deals were told`));
          setTimeout(check, 25);
        };
        check();
      });
      server.child.kill("SIGKILL");
      assert.equal((await server.exited).signal, "SIGKILL");
      const ranMs = Date.now() - began;
      await Promise.all(shoppers.map((s) => s.stop()));
      const toldIds = shoppers.flatMap((s) => s.told.map((t) => t.dealId));
      assert.ok(toldIds.length >= TOLD_BEFORE_KILL);

      // 3. Restart on the same database, everyone joins back, stop gracefully; read what it holds.
      server = await run.start();
      const back = guests.map((g, i) => new Shopper(server.port, g, sockets, seeded(200 + i)));
      await withOutput(server, Promise.all(back.map((s) => s.connect())));
      await stopGracefully(server);
      const end = await readDatabase();

      // Durability: every deal a client was told of has its row.
      const rowIds = new Set(end.deals.map((d) => d.id));
      assert.deepEqual(
        toldIds.filter((id) => !rowIds.has(id)),
        [],
        "told deals missing from the ledger",
      );
      assert.ok(end.deals.every((d) => d.storeId === STORE));

      // Every coin and item: start + bought - sold (coins: - paid + received) = held now.
      const expected = new Map([...start.ledger.characters].map(([id, bag]) => [id, new Map(bag)]));
      for (const d of end.deals) {
        const bag = expected.get(d.characterId ?? "") as Bag;
        assert.ok(bag, `deal ${d.id} of an unknown character`);
        const sign = d.kind === "buy" ? 1 : -1;
        addTo(bag, d.itemId, sign * d.quantity);
        addTo(bag, "coins", -sign * d.coins);
      }
      const wrong = [...expected]
        .filter(([id, bag]) => JSON.stringify(plain(bag)) !== JSON.stringify(plain(end.ledger.characters.get(id) ?? new Map())))
        .map(([id, bag]) => `${id}: deals say ${JSON.stringify(plain(bag))}, holds ${JSON.stringify(plain(end.ledger.characters.get(id) ?? new Map()))}`);
      assert.deepEqual(wrong, [], "characters whose coins and items the store ledger does not explain");
      assert.deepEqual(plain(end.ledger.ground), {}, "nothing went to the ground");

      // The shelves: listed stock (0 for an item the store does not list) - bought + sold, give or take
      // the restock and decay steps the time allowed; unlimited shelves have no row.
      const steps = Math.ceil(ranMs / SHELF_STEP_MS);
      const stores = JSON.parse(await readFile(path.join(ROOT, "world", "manifests", "stores.json"), "utf8")) as Array<{
        id: string;
        items: Array<{ itemId: string; stockQuantity: number }>;
      }>;
      const listed = new Map(stores.find((s) => s.id === STORE)!.items.map((i) => [i.itemId, i.stockQuantity]));
      assert.ok((listed.get(FINITE) ?? -1) > 0, "the feathers' shelf is finite");
      const moved = new Map<string, number>();
      for (const d of end.deals) moved.set(d.itemId, (moved.get(d.itemId) ?? 0) + (d.kind === "buy" ? -d.quantity : d.quantity));
      assert.ok(moved.has(FINITE) && moved.has("shrimp"), "feathers and shrimp changed hands");
      for (const [itemId, change] of moved) {
        const row = end.stock.find((r) => r.storeId === STORE && r.itemId === itemId);
        if (listed.get(itemId) === -1) {
          assert.equal(row, undefined, `${itemId}: unlimited, no row`);
          continue;
        }
        const byDeals = (listed.get(itemId) ?? 0) + change;
        const onShelf = row?.quantity ?? 0;
        assert.ok(
          Math.abs(onShelf - byDeals) <= steps,
          `${itemId}: ${onShelf} on the shelf, ${byDeals} by the deals (${steps} restock or decay steps allowed)`,
        );
      }
    });
  });
}
