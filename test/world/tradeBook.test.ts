import assert from "node:assert/strict";
import { createWorld } from "../../rooms/worldSetup.js";
import { bankDeposit, dropItem, giveItem } from "../../src/game/world/commands.js";
import { useItem } from "../../src/game/world/itemUse.js";
import { killPlayer } from "../../src/game/world/npcSystem.js";
import { removePlayer } from "../../src/game/world/players.js";
import { tickWorld } from "../../src/game/world/tick.js";
import type { TradeBook, TradeEvent } from "../../src/game/world/tradeBook.js";
import type { World } from "../../src/game/world/World.js";
import { code } from "../game/fixtures.js";
import { addStarter } from "../helpers/handPlaced.js";
import { defaultGameData } from "../helpers/server.js";

/** The trade book over a real world (the default manifests), with players placed by hand. */
describe("trade book: the trade state machine over the world", () => {
  let world: World;
  let book: TradeBook;
  let ids = 0;
  const add = (name: string, tile = world.spawnTile) => addStarter(world, name, tile);
  const kinds = (events: TradeEvent[]) => events.map((e) => (e.kind === "cancelled" ? `cancelled:${e.reason}` : e.kind));
  const coinsSlot = (id: string) => world.players.get(id)!.inventory.findIndex((s) => s?.itemId === "coins");

  beforeEach(async () => {
    world = createWorld(await defaultGameData(), { newId: () => `${++ids}` });
    book = world.trades;
  });

  /** a asks b, b accepts: the offer screen. */
  function open(a: string, b: string, now = 0) {
    const t = book.request(a, b, now);
    book.respond(b, t.id, true, now);
    book.drain();
    return t;
  }

  it("two requests to each other open the trade", () => {
    add("ann");
    add("bob");
    const t = book.request("c_ann", "c_bob", 0);
    const back = book.request("c_bob", "c_ann", 10);
    assert.equal(back.id, t.id);
    assert.equal(t.screen, "offer");
    assert.deepEqual(kinds(book.drain()), ["requested", "started"]);
  });

  it("answering one request withdraws the other requests waiting on either player", () => {
    add("ann");
    add("bob");
    add("cat");
    add("dan");
    const fromCat = book.request("c_cat", "c_bob", 0);
    const fromAnn = book.request("c_ann", "c_bob", 0);
    const annFromDan = book.request("c_dan", "c_ann", 0);
    book.drain();
    book.respond("c_bob", fromAnn.id, true, 1);
    const events = book.drain();
    assert.deepEqual(kinds(events), ["started", "cancelled:unavailable", "cancelled:unavailable"]);
    assert.deepEqual(events.slice(1).map((e) => e.trade.id).sort(), [fromCat.id, annFromDan.id].sort());
    assert.equal(book.sessions.size, 1);
    // Cat is free to ask someone else again.
    book.request("c_cat", "c_dan", 2);
  });

  it("both confirm-screen accepts freeze both inventories until the commit is reported", () => {
    const ann = add("ann");
    const bob = add("bob");
    const t = open("c_ann", "c_bob");
    book.addItem("c_ann", t.id, coinsSlot("c_ann"), 10, 1);
    for (const id of ["c_ann", "c_bob"]) book.accept(id, t.id, 2);
    for (const id of ["c_ann", "c_bob"]) book.accept(id, t.id, 3);
    const events = book.drain();
    assert.deepEqual(kinds(events), ["updated", "updated", "confirm", "updated", "commit"]);
    assert.equal(t.screen, "committing");
    assert.ok(ann.inventoryFrozen && bob.inventoryFrozen);

    // Nothing else may change their items meanwhile, and the trade can no longer be cancelled.
    assert.throws(() => dropItem(world, ann.id, 5), code("TRADE_COMPLETING"));
    assert.throws(() => useItem(world, ann.id, { slot: 4, action: "eat" }), code("TRADE_COMPLETING"));
    assert.throws(() => giveItem(world, bob.id, "logs", 1), code("TRADE_COMPLETING"));
    assert.throws(() => bankDeposit(world, bob.id, 0, 1), code("TRADE_COMPLETING"));
    assert.throws(() => book.cancelBy("c_bob", t.id), code("TRADE_COMPLETING"));
    assert.throws(() => book.accept("c_bob", t.id, 4), code("TRADE_COMPLETING"));
    book.playerGone("c_bob", "disconnected");
    book.expire(10 * 60_000);
    assert.equal(book.drain().length, 0, "a trade being committed is not cancelled by a leave or a timeout");

    // The tick leaves a frozen player's action waiting.
    const before = JSON.stringify(ann.inventory);
    ann.action = { type: "pickup", targetId: "nothing-there" };
    tickWorld(world);
    assert.deepEqual(ann.action, { type: "pickup", targetId: "nothing-there" });
    assert.equal(JSON.stringify(ann.inventory), before);

    const swap = (events.at(-1) as Extract<TradeEvent, { kind: "commit" }>).swap;
    book.completed(t.id, swap);
    assert.deepEqual(kinds(book.drain()), ["completed"]);
    assert.ok(!ann.inventoryFrozen && !bob.inventoryFrozen);
    assert.equal(ann.lockedSlots.size, 0);
    assert.equal(bob.inventory.find((s) => s?.itemId === "coins")!.quantity, 35);
    assert.equal(book.tradeOf("c_ann"), undefined);
  });

  it("a failed commit changes nothing and cancels with its reason", () => {
    const ann = add("ann");
    add("bob");
    const t = open("c_ann", "c_bob");
    book.addItem("c_ann", t.id, coinsSlot("c_ann"), 10, 1);
    const before = JSON.stringify(ann.inventory);
    for (const round of [2, 3]) for (const id of ["c_ann", "c_bob"]) book.accept(id, t.id, round);
    book.drain();
    book.failed(t.id, "error", "The trade could not be saved; nothing changed");
    const [e] = book.drain();
    assert.equal(e.kind === "cancelled" && e.reason, "error");
    assert.equal(JSON.stringify(ann.inventory), before);
    assert.ok(!ann.inventoryFrozen);
    assert.equal(ann.lockedSlots.size, 0);
  });

  it("requests time out after 30 s, open trades after 5 minutes without activity", () => {
    add("ann");
    add("bob");
    add("cat");
    const req = book.request("c_ann", "c_bob", 0);
    book.expire(29_999);
    assert.ok(book.sessions.has(req.id));
    book.expire(30_000);
    assert.deepEqual(kinds(book.drain()), ["requested", "cancelled:timeout"]);
    const t = open("c_cat", "c_bob", 40_000);
    book.addItem("c_cat", t.id, coinsSlot("c_cat"), 1, 100_000);
    book.expire(100_000 + 5 * 60_000 - 1);
    assert.ok(book.sessions.has(t.id), "activity keeps the trade open");
    book.expire(100_000 + 5 * 60_000);
    assert.deepEqual(kinds(book.drain()), ["updated", "cancelled:timeout"]);
  });

  it("the same player may be asked again only after 3 s", () => {
    add("ann");
    add("bob");
    const t = book.request("c_ann", "c_bob", 0);
    book.respond("c_bob", t.id, false, 100);
    assert.throws(() => book.request("c_ann", "c_bob", 2_999), code("RATE_LIMITED"));
    book.request("c_ann", "c_bob", 3_000);
  });

  it("a player too far away or dead cannot be asked", () => {
    add("ann");
    const bob = add("bob", { x: world.spawnTile.x + 3, z: world.spawnTile.z });
    assert.throws(() => book.request("c_ann", "c_bob", 0), code("TOO_FAR"));
    bob.tile = { x: world.spawnTile.x + 2, z: world.spawnTile.z + 2 };
    bob.health = 0;
    assert.throws(() => book.request("c_ann", "c_bob", 0), code("PLAYER_UNAVAILABLE"));
  });

  it("a death ends the trade inside the rules: both told, the offered slots unlocked", () => {
    const ann = add("ann");
    const bob = add("bob");
    const t = open("c_ann", "c_bob");
    book.addItem("c_ann", t.id, coinsSlot("c_ann"), 10, 1);
    book.drain();
    assert.equal(ann.lockedSlots.size, 1);
    killPlayer(world, ann, null);
    const events = book.drain();
    assert.deepEqual(kinds(events), ["cancelled:player_died"]);
    assert.equal(ann.lockedSlots.size, 0);
    assert.equal(bob.lockedSlots.size, 0);
    assert.equal(book.tradeOf("c_ann"), undefined);
    assert.equal(book.tradeOf("c_bob"), undefined);
  });

  it("leaving the world ends the trade inside the rules; the partner is free to trade again", () => {
    add("ann");
    const bob = add("bob");
    const t = open("c_ann", "c_bob");
    book.addItem("c_bob", t.id, coinsSlot("c_bob"), 5, 1);
    book.drain();
    removePlayer(world, "c_ann");
    assert.deepEqual(kinds(book.drain()), ["cancelled:disconnected"]);
    assert.equal(bob.lockedSlots.size, 0);
    add("cat");
    book.request("c_bob", "c_cat", 5_000);
    assert.deepEqual(kinds(book.drain()), ["requested"]);
  });
});
