import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { createWorld, restoreWorld } from "../../rooms/worldSetup.js";
import { loadCharacter } from "../../src/db/characterRepo.js";
import type { NpcEntity, PlayerEntity } from "../../src/game/world/entities.js";
import { silentLogger } from "../../src/logger.js";
import { worldSuite, type WorldPlayer } from "../helpers/worldClient.js";
import { besideOf, place, ticks, tileAway, worldRoomOf } from "../helpers/worldRoom.js";

const STORE = "general_store";

const keeperOf = (room: WorldRoom): NpcEntity => [...room.world.npcs.values()].find((n) => n.storeId === STORE)!;
const shelf = (room: WorldRoom, itemId: string) => room.world.stores.get(STORE)!.entries.get(itemId);
const count = (p: Pick<PlayerEntity, "inventory">, itemId: string) => p.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
const slotOf = (p: PlayerEntity, itemId: string) => p.inventory.findIndex((s) => s?.itemId === itemId);
const syncCount = (sync: any, itemId: string) =>
  sync.inventory.filter((s: { itemId: string }) => s.itemId === itemId).reduce((n: number, s: { quantity: number }) => n + s.quantity, 0);

/** Scene: the player holds exactly `coins` coins. */
function setCoins(room: WorldRoom, p: PlayerEntity, coins: number) {
  p.inventory[slotOf(p, "coins")] = { itemId: "coins", quantity: coins };
  room.world.touchPlayer(p);
}

/** Scene: put items in the first free slots. */
function give(room: WorldRoom, p: PlayerEntity, itemId: string, slots: number) {
  for (let i = 0, n = 0; i < p.inventory.length && n < slots; i++) {
    if (!p.inventory[i]) {
      p.inventory[i] = { itemId, quantity: 1 };
      n++;
    }
  }
  room.world.touchPlayer(p);
}

async function refused(a: WorldPlayer, type: string, data: unknown): Promise<string> {
  const since = a.mark();
  a.send(type, data);
  return (await a.next("error", () => true, { since })).code;
}

/** Stand next to the shopkeeper and open the store with `player:action store`. */
async function openStore(a: WorldPlayer, room: WorldRoom) {
  const keeper = keeperOf(room);
  place(room, a.id, besideOf(room, keeper.position));
  const since = a.mark();
  a.send("player:action", { action: "store", targetId: keeper.id });
  return a.next("store:open", () => true, { since });
}

/** Send a deal and resolve with its `store:bought` / `store:sold` and the player:sync that follows it. */
async function deal(a: WorldPlayer, type: "store:buy" | "store:sell", data: unknown) {
  const since = a.mark();
  a.send(type, data);
  const told = await a.next(type === "store:buy" ? "store:bought" : "store:sold", () => true, { since });
  const at = a.received.findIndex((m, i) => i >= since && m.data === told);
  const sync = await a.next("player:sync", () => true, { since: at + 1 });
  return { told, sync };
}

describe("world room: stores", function () {
  this.timeout(20_000);
  const suite = worldSuite();
  const prisma = () => suite.server.ctx.db.prisma;

  it("opens through the shopkeeper's dialogue (openStore effect) with the shelves as they stand", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const keeper = keeperOf(room);
    const def = room.world.data.stores.get(STORE)!;
    place(room, a.id, besideOf(room, keeper.position));
    let since = a.mark();
    a.send("player:action", { action: "talk", targetId: keeper.id });
    const greeting = await a.next("dialogue:node", () => true, { since });
    assert.equal(greeting.npcName, room.world.data.npcs.get(keeper.defId)!.name);
    since = a.mark();
    a.send("dialogue:respond", { index: 0 });
    const view = await a.next("store:open", () => true, { since });
    assert.deepEqual([view.storeId, view.name, view.npcId, view.buys, view.buybackRate], [STORE, def.name, keeper.id, "all", def.buybackRate]);
    const stock = room.world.stores.get(STORE)!;
    assert.deepEqual(
      view.items.map((i: any) => [i.itemId, i.price, i.quantity]),
      [...stock.entries.values()].map((e) => [e.itemId, e.price, e.quantity]),
    );
    const hatchet = view.items.find((i: any) => i.itemId === "bronze_hatchet");
    assert.deepEqual(hatchet, {
      itemId: "bronze_hatchet",
      name: room.world.data.items.get("bronze_hatchet")!.name,
      price: def.items.find((i) => i.itemId === "bronze_hatchet")!.price,
      quantity: -1,
      sellPrice: Math.floor(hatchet.price * def.buybackRate),
    });
    assert.equal((await a.next("dialogue:end", () => true, { since })).reason, "finished");
    assert.deepEqual(room.world.players.get(a.id)!.store, { storeId: STORE, npcInstanceId: keeper.id });
  });

  it("opens with player:action store (no conversation); a keeper of no store is refused NO_STORE", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const since = a.mark();
    const view = await openStore(a, room);
    assert.equal(view.storeId, STORE);
    assert.equal(a.received.slice(since).filter((m) => m.type.startsWith("dialogue:")).length, 0);
    const clerk = [...room.world.npcs.values()].find((n) => n.defId === "bank_clerk")!;
    assert.equal(await refused(a, "player:action", { action: "store", targetId: clerk.id }), "NO_STORE");
    assert.equal(await refused(a, "player:action", { action: "store", targetId: "npc:nowhere" }), "UNKNOWN_TARGET");
  });

  it("buys a bronze hatchet: coins down by its price, the hatchet in the pack, store:bought then player:sync, written", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    setCoins(room, p, 200);
    await openStore(a, room);
    const price = shelf(room, "bronze_hatchet")!.price;
    const hatchets = count(p, "bronze_hatchet");
    const { told, sync } = await deal(a, "store:buy", { itemId: "bronze_hatchet", quantity: 1 });
    assert.deepEqual({ ...told, dealId: undefined }, { dealId: undefined, storeId: STORE, itemId: "bronze_hatchet", quantity: 1, coins: price });
    assert.equal(syncCount(sync, "coins"), 200 - price);
    assert.equal(syncCount(sync, "bronze_hatchet"), hatchets + 1);
    assert.equal(p.inventoryFrozen, false);
    // The database has the pack and the ledger row.
    const saved = (await loadCharacter(suite.server.ctx.db.sql, a.id))!;
    assert.equal(count(saved, "coins"), 200 - price);
    assert.equal(count(saved, "bronze_hatchet"), hatchets + 1);
    const rows = await prisma().storeDeal.findMany({ where: { characterId: a.id } });
    assert.deepEqual(
      rows.map((r) => [r.id, r.kind, r.storeId, r.itemId, r.quantity, r.coins]),
      [[told.dealId, "buy", STORE, "bronze_hatchet", 1, price]],
    );
    // Unlimited stock has no shelf row and stays unlimited.
    assert.equal(shelf(room, "bronze_hatchet")!.quantity, -1);
    assert.equal(await prisma().storeStock.count({ where: { storeId: STORE, itemId: "bronze_hatchet" } }), 0);
  });

  it("sells logs for floor(value × buyback) each; more than held sells what is held", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    give(room, p, "logs", 3);
    const coins = count(p, "coins");
    const view = await openStore(a, room);
    const each = Math.floor(room.world.data.items.get("logs")!.value * view.buybackRate);
    assert.ok(each > 0);
    const shelved = shelf(room, "logs")?.quantity ?? 0;
    const since = a.mark();
    const { told, sync } = await deal(a, "store:sell", { slot: slotOf(p, "logs"), quantity: 10 });
    assert.deepEqual([told.itemId, told.quantity, told.coins], ["logs", 3, 3 * each]);
    assert.equal(syncCount(sync, "logs"), 0);
    assert.equal(syncCount(sync, "coins"), coins + 3 * each);
    // The store now shelves what it bought, and says so.
    const update = await a.next("store:update", (u) => u.items.some((i: any) => i.itemId === "logs"), { since });
    assert.equal(update.items.find((i: any) => i.itemId === "logs").quantity, shelved + 3);
    const row = await prisma().storeDeal.findUniqueOrThrow({ where: { id: told.dealId } });
    assert.deepEqual([row.kind, row.itemId, row.quantity, row.coins, row.characterId], ["sell", "logs", 3, 3 * each, a.id]);
    assert.equal(count((await loadCharacter(suite.server.ctx.db.sql, a.id))!, "coins"), coins + 3 * each);
  });

  it("while a deal is being written the pack is frozen: STORE_COMPLETING", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    setCoins(room, p, 1_000);
    await openStore(a, room);
    const pack = JSON.stringify(p.inventory);
    // Scene: a deal of this player under way.
    p.inventoryFrozen = "store";
    try {
      assert.equal(await refused(a, "store:buy", { itemId: "tinderbox", quantity: 1 }), "STORE_COMPLETING");
      assert.equal(await refused(a, "store:sell", { slot: slotOf(p, "shrimp"), quantity: 1 }), "STORE_COMPLETING");
      assert.equal(await refused(a, "inventory:use", { slot: slotOf(p, "shrimp"), action: "drop" }), "STORE_COMPLETING");
    } finally {
      p.inventoryFrozen = false;
    }
    assert.equal(JSON.stringify(p.inventory), pack);
    await deal(a, "store:buy", { itemId: "tinderbox", quantity: 1 });
  });

  it("a bought-in shelf bought empty is taken away, and stays away after a restart", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    setCoins(room, p, 1_000);
    // An item the store does not list, and no one sold it yet.
    const itemId = "bronze_full_helm";
    assert.equal(shelf(room, itemId), undefined);
    give(room, p, itemId, 1);
    await openStore(a, room);
    await deal(a, "store:sell", { slot: slotOf(p, itemId), quantity: 1 });
    const resold = shelf(room, itemId)!;
    assert.deepEqual([resold.quantity, resold.listed, resold.price], [1, false, Math.max(1, room.world.data.items.get(itemId)!.value)]);
    const since = a.mark();
    const { told } = await deal(a, "store:buy", { itemId, quantity: 1 });
    assert.equal(told.coins, resold.price);
    const update = await a.next("store:update", (u) => u.removed.includes(itemId), { since });
    assert.deepEqual(update.items, []);
    assert.equal(shelf(room, itemId), undefined);
    const restored = createWorld(room.world.data);
    await restoreWorld(restored, "1", prisma(), silentLogger);
    assert.equal(restored.stores.get(STORE)!.entries.get(itemId), undefined, "no empty shelf comes back");
  });

  it("a sale the store pays nothing for is refused WORTHLESS_SALE and changes nothing; forNothing gives it away", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    give(room, p, "arrow_shaft", 3);
    await openStore(a, room);
    const since = a.mark();
    a.send("store:sell", { slot: slotOf(p, "arrow_shaft"), quantity: 3 });
    const refused = await a.next("error", () => true, { since });
    assert.equal(refused.code, "WORTHLESS_SALE");
    assert.match(refused.message, /would pay nothing for 3 arrow shaft/i);
    const bones = () => p.inventory.reduce((n, st) => n + (st?.itemId === "arrow_shaft" ? st.quantity : 0), 0);
    assert.equal(bones(), 3, "still in the pack");
    assert.equal(shelf(room, "arrow_shaft"), undefined, "nothing on the shelf");
    const sold = await deal(a, "store:sell", { slot: slotOf(p, "arrow_shaft"), quantity: 3, forNothing: true });
    assert.deepEqual([sold.told.itemId, sold.told.quantity, sold.told.coins], ["arrow_shaft", 3, 0]);
    assert.equal(bones(), 0);
  });

  it("a bought-in shelf decays away a step at a time; the periodic save writes it", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    const itemId = "bones";
    assert.equal(shelf(room, itemId), undefined);
    give(room, p, itemId, 2);
    await openStore(a, room);
    await deal(a, "store:sell", { slot: slotOf(p, itemId), quantity: 2, forNothing: true });
    const entry = shelf(room, itemId)!;
    assert.deepEqual([entry.quantity, entry.base], [2, 0]);
    assert.ok(entry.nextChangeTick !== null, "stock above its base decays");
    let since = a.mark();
    entry.nextChangeTick = room.world.tick + 1;
    const down = await a.next("store:update", (u) => u.items.some((i: any) => i.itemId === itemId), { since });
    assert.equal(down.items[0].quantity, 1);
    since = a.mark();
    entry.nextChangeTick = room.world.tick + 1;
    assert.deepEqual((await a.next("store:update", (u) => u.removed.includes(itemId), { since })).items, []);
    assert.equal(shelf(room, itemId), undefined);
    await room.stores.saveDirty();
    const row = await prisma().storeStock.findUnique({ where: { world_storeId_itemId: { world: "1", storeId: STORE, itemId } } });
    assert.equal(row?.quantity ?? 0, 0);
    const restored = createWorld(room.world.data);
    await restoreWorld(restored, "1", prisma(), silentLogger);
    assert.equal(restored.stores.get(STORE)!.entries.get(itemId), undefined);
  });

  it("finite stock falls and everyone with the store open gets store:update; more than the stock is OUT_OF_STOCK", async () => {
    const a = await suite.join();
    const b = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    setCoins(room, p, 10_000);
    await openStore(a, room);
    await openStore(b, room);
    const before = shelf(room, "iron_hatchet")!.quantity;
    assert.ok(before > 0, `iron hatchets left: ${before}`);
    const sinceB = b.mark();
    const { told } = await deal(a, "store:buy", { itemId: "iron_hatchet", quantity: 1 });
    assert.equal(told.coins, shelf(room, "iron_hatchet")!.price);
    const update = await b.next("store:update", () => true, { since: sinceB });
    assert.deepEqual(update, { storeId: STORE, items: [{ ...update.items[0], itemId: "iron_hatchet", quantity: before - 1 }], removed: [] });
    assert.equal(shelf(room, "iron_hatchet")!.quantity, before - 1);
    // More than the shelf holds: nothing changes.
    const pack = JSON.stringify(p.inventory);
    assert.equal(await refused(a, "store:buy", { itemId: "iron_hatchet", quantity: before }), "OUT_OF_STOCK");
    assert.equal(JSON.stringify(p.inventory), pack);
    assert.equal(shelf(room, "iron_hatchet")!.quantity, before - 1);
  });

  it("not enough coins and a full pack are refused; nothing changes", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    await openStore(a, room);
    const iron = shelf(room, "iron_hatchet")!;
    setCoins(room, p, iron.price - 1);
    let pack = JSON.stringify(p.inventory);
    const stock = iron.quantity;
    assert.equal(await refused(a, "store:buy", { itemId: "iron_hatchet", quantity: 1 }), "NOT_ENOUGH_COINS");
    assert.equal(await refused(a, "store:buy", { itemId: "bronze_hatchet", quantity: 1_000 }), "NOT_ENOUGH_COINS");
    assert.equal(JSON.stringify(p.inventory), pack);
    assert.equal(iron.quantity, stock);
    // Plenty of coins (they stay a stack after paying), but no free slot.
    setCoins(room, p, 10_000);
    give(room, p, "logs", 28);
    pack = JSON.stringify(p.inventory);
    assert.equal(await refused(a, "store:buy", { itemId: "bronze_hatchet", quantity: 1 }), "INVENTORY_FULL");
    assert.equal(JSON.stringify(p.inventory), pack);
    assert.equal(p.inventoryFrozen, false);
    assert.equal(await prisma().storeDeal.count({ where: { characterId: a.id } }), 0);
  });

  it("sale refusals: UNTRADEABLE, STORE_WONT_BUY (coins), ITEM_LOCKED (offered in a trade), EMPTY_SLOT", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    give(room, p, "sealed_letter", 1);
    give(room, p, "logs", 1);
    await openStore(a, room);
    const pack = JSON.stringify(p.inventory);
    assert.equal(await refused(a, "store:sell", { slot: slotOf(p, "sealed_letter"), quantity: 1 }), "UNTRADEABLE");
    assert.equal(await refused(a, "store:sell", { slot: slotOf(p, "coins"), quantity: 1 }), "STORE_WONT_BUY");
    p.lockedSlots.add(slotOf(p, "logs"));
    assert.equal(await refused(a, "store:sell", { slot: slotOf(p, "logs"), quantity: 1 }), "ITEM_LOCKED");
    p.lockedSlots.clear();
    assert.equal(await refused(a, "store:sell", { slot: p.inventory.findIndex((s) => !s), quantity: 1 }), "EMPTY_SLOT");
    assert.equal(JSON.stringify(p.inventory), pack);
    assert.equal(await prisma().storeDeal.count({ where: { characterId: a.id } }), 0);
  });

  it("no store open: STORE_NOT_OPEN; store:close closes it; walking away closes it (walked_away) and buying then fails", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    assert.equal(await refused(a, "store:buy", { itemId: "tinderbox", quantity: 1 }), "STORE_NOT_OPEN");
    assert.equal(await refused(a, "store:sell", { slot: slotOf(p, "shrimp"), quantity: 1 }), "STORE_NOT_OPEN");
    assert.equal(await refused(a, "store:close", {}), "STORE_NOT_OPEN");
    await openStore(a, room);
    let since = a.mark();
    a.send("store:close", {});
    assert.deepEqual(await a.next("store:close", () => true, { since }), { storeId: STORE, reason: "closed" });
    assert.equal(p.store, null);
    assert.equal(await refused(a, "store:buy", { itemId: "tinderbox", quantity: 1 }), "STORE_NOT_OPEN");

    await openStore(a, room);
    since = a.mark();
    // Between ticks the store is still open but its keeper out of reach: TOO_FAR. (The loop is held
    // so that no tick closes the store before the requests are handled.)
    room.loop.stop();
    try {
      place(room, a.id, tileAway(room, keeperOf(room).position, 5));
      assert.equal(await refused(a, "store:buy", { itemId: "tinderbox", quantity: 1 }), "TOO_FAR");
      assert.equal(await refused(a, "store:sell", { slot: slotOf(p, "shrimp"), quantity: 1 }), "TOO_FAR");
    } finally {
      room.loop.begin();
    }
    assert.deepEqual(await a.next("store:close", () => true, { since }), { storeId: STORE, reason: "walked_away" });
    const pack = JSON.stringify(p.inventory);
    assert.equal(await refused(a, "store:buy", { itemId: "tinderbox", quantity: 1 }), "STORE_NOT_OPEN");
    assert.equal(await refused(a, "store:sell", { slot: slotOf(p, "shrimp"), quantity: 1 }), "STORE_NOT_OPEN");
    assert.equal(JSON.stringify(p.inventory), pack);
  });

  it("bad quantities and items are refused: INVALID_PAYLOAD, UNKNOWN_ITEM, NOT_IN_STOCK; nothing changes", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    setCoins(room, p, 1_000);
    await openStore(a, room);
    const pack = JSON.stringify(p.inventory);
    const shrimp = slotOf(p, "shrimp");
    for (const quantity of [0, -1, 1.5, 2 ** 31, "5", null]) {
      assert.equal(await refused(a, "store:buy", { itemId: "tinderbox", quantity }), "INVALID_PAYLOAD", `buy ${JSON.stringify(quantity)}`);
      assert.equal(await refused(a, "store:sell", { slot: shrimp, quantity }), "INVALID_PAYLOAD", `sell ${JSON.stringify(quantity)}`);
    }
    for (const slot of [-1, 28, 1.5, "0"]) assert.equal(await refused(a, "store:sell", { slot, quantity: 1 }), "INVALID_PAYLOAD");
    assert.equal(await refused(a, "store:buy", { itemId: "", quantity: 1 }), "INVALID_PAYLOAD");
    assert.equal(await refused(a, "store:buy", { itemId: "tinderbox", quantity: 1, price: 0 }), "INVALID_PAYLOAD");
    assert.equal(await refused(a, "store:buy", { itemId: "no_such_item", quantity: 1 }), "UNKNOWN_ITEM");
    assert.ok(room.world.data.items.has("leather_gloves") && !shelf(room, "leather_gloves"));
    assert.equal(await refused(a, "store:buy", { itemId: "leather_gloves", quantity: 1 }), "NOT_IN_STOCK");
    assert.equal(JSON.stringify(p.inventory), pack);
    assert.equal(await prisma().storeDeal.count({ where: { characterId: a.id } }), 0);
  });

  it("stock survives a restart: a world restored from the database has the lowered shelf", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    setCoins(room, room.world.players.get(a.id)!, 1_000);
    await openStore(a, room);
    const before = shelf(room, "iron_hatchet")!.quantity;
    assert.ok(before > 0);
    await deal(a, "store:buy", { itemId: "iron_hatchet", quantity: 1 });
    const restored = createWorld(room.world.data);
    assert.equal(restored.stores.get(STORE)!.entries.get("iron_hatchet")!.quantity, shelf(room, "iron_hatchet")!.base, "a new world starts full");
    await restoreWorld(restored, "1", prisma(), silentLogger);
    const again = restored.stores.get(STORE)!.entries;
    assert.equal(again.get("iron_hatchet")!.quantity, before - 1);
    assert.equal(again.get("iron_hatchet")!.quantity, shelf(room, "iron_hatchet")!.quantity);
    assert.equal(again.get("bronze_hatchet")!.quantity, -1);
  });

  it("restock: a shelf below its listed stock rises when its time comes, and viewers get store:update", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    setCoins(room, room.world.players.get(a.id)!, 1_000);
    await openStore(a, room);
    const iron = shelf(room, "iron_hatchet")!;
    if (iron.quantity >= iron.base) await deal(a, "store:buy", { itemId: "iron_hatchet", quantity: 1 });
    const before = iron.quantity;
    assert.ok(before < iron.base && iron.nextChangeTick !== null);
    // Its time comes at the next tick rather than in 300 s.
    const since = a.mark();
    iron.nextChangeTick = room.world.tick + 1;
    const update = await a.next("store:update", (u) => u.items.some((i: any) => i.itemId === "iron_hatchet"), { since });
    assert.equal(update.items.find((i: any) => i.itemId === "iron_hatchet").quantity, before + 1);
    assert.equal(iron.quantity, before + 1);
    // Nothing more for a while: the next restock is restockTicks away.
    await ticks(room, 2);
    assert.equal(iron.quantity, before + 1);
    // The periodic save writes the restock: a restart finds it.
    await room.stores.saveDirty();
    const restored = createWorld(room.world.data);
    await restoreWorld(restored, "1", prisma(), silentLogger);
    assert.equal(restored.stores.get(STORE)!.entries.get("iron_hatchet")!.quantity, before + 1);
  });
});
