import assert from "node:assert/strict";
import { createWorld } from "../../../rooms/worldSetup.js";
import { movePlayer, startPickup } from "../../../src/game/world/commands.js";
import { SETTLING, type DuelBook } from "../../../src/features/duel/duelBook.js";
import { duel, duelsOf } from "../../../src/features/duel/index.js";
import type { DuelEvent } from "../../../src/features/duel/duelSession.js";
import { useItem } from "../../../src/game/world/itemUse.js";
import { removePlayer, snapshotOf } from "../../../src/game/world/players.js";
import { tickWorld } from "../../../src/game/world/tick.js";
import type { World } from "../../../src/game/world/World.js";
import { code } from "../../game/fixtures.js";
import { addStarter } from "../../helpers/handPlaced.js";
import { defaultGameData } from "../../helpers/server.js";

/** The duel book over a real world (the default manifests), with players placed by hand. */
describe("duel book: the duel state machine over the world", () => {
  let world: World;
  let book: DuelBook;
  let ids = 0;
  let ignores = new Set<string>();
  const add = (name: string, tile = world.spawnTile) => addStarter(world, name, tile);
  const kinds = (events: DuelEvent[]) => events.map((e) => (e.kind === "cancelled" ? `cancelled:${e.reason}` : e.kind));
  const slotOf = (id: string, itemId: string) => world.players.get(id)!.inventory.findIndex((s) => s?.itemId === itemId);

  beforeEach(async () => {
    ignores = new Set();
    world = createWorld(await defaultGameData(), {
      newId: () => `${++ids}`,
      ignoring: (playerId, fromId) => ignores.has(`${playerId}>${fromId}`),
      features: [duel],
    });
    book = duelsOf(world);
  });

  /** Through every screen into the arena (ann challenges bob); `stakes` as [who, quantity, item (coins)]. */
  function toArena(rules: Record<string, boolean> = {}, stakes: Array<[string, number, string?]> = []) {
    const d = book.challenge("c_ann", "c_bob", 0);
    book.respond("c_bob", d.id, true, 0);
    for (const [rule, on] of Object.entries(rules)) book.setRule("c_ann", d.id, rule, on, 0);
    for (const who of ["c_ann", "c_bob"]) book.accept(who, d.id, 0);
    for (const [who, q, itemId] of stakes) book.stake(who, d.id, slotOf(who, itemId ?? "coins"), q, true, 0);
    // The stakes screen, then the confirm screen: both accept each.
    for (let screen = 0; screen < 2; screen++) for (const who of ["c_ann", "c_bob"]) book.accept(who, d.id, 0);
    book.drain();
    return d;
  }

  it("a challenge from a player the target ignores is hidden from it and times out for the challenger alone", () => {
    add("ann");
    add("bob");
    ignores.add("c_bob>c_ann");
    const d = book.challenge("c_ann", "c_bob", 0);
    assert.equal(d.hiddenFromTarget, true);
    book.tick(book.limits.requestTimeoutMs, world.tick);
    assert.deepEqual(kinds(book.drain()), ["requested", "cancelled:timeout"]);
  });

  it("in the arena: the countdown, then the fight; moves stay inside, pickups wait, npcs leave duellists be", () => {
    const ann = add("ann");
    const bob = add("bob");
    const d = toArena({}, [["c_bob", 1, "bronze_hatchet"]]);
    assert.equal(d.screen, "countdown");
    assert.deepEqual(ann.tile, d.arena!.spawnPoints[0]);
    assert.deepEqual(ann.returnTile, world.spawnTile);
    assert.deepEqual(snapshotOf(ann).tile, world.spawnTile, "a save records the tile left from");
    assert.equal(book.opponentOf("c_ann"), undefined, "no blows in the countdown");
    for (let i = 0; i < book.limits.countdownTicks; i++) tickWorld(world);
    book.tick(0, world.tick);
    assert.equal(d.screen, "fighting");
    assert.equal(book.opponentOf("c_ann"), "c_bob");
    const half = d.arena!.size / 2;
    assert.throws(() => movePlayer(world, "c_ann", { x: d.arena!.center.x + half + 2, z: d.arena!.center.z }), code("DUEL_RULE"));
    world.addGroundItem({ id: "g1", itemId: "logs", quantity: 1, tile: { ...ann.tile }, ownerId: null, createdTick: world.tick });
    assert.throws(() => startPickup(world, "c_ann", "g1"), code("IN_DUEL"));
    // An aggressive troll beside a duellist leaves it be.
    const troll = [...world.npcs.values()].find((n) => n.defId === "bog_troll")!;
    troll.position = { x: ann.tile.x + 1, z: ann.tile.z };
    troll.spawn = { ...troll.position };
    world.place("npc", troll.id, troll.position);
    for (let i = 0; i < 3; i++) tickWorld(world);
    assert.equal(troll.target, null);
    // Winning must stay possible to hold: ann's pack may not fill up by taking off what she wears.
    ann.equipment.weapon = { itemId: "bronze_dagger", quantity: 1 };
    for (let i = 0; i < ann.inventory.length; i++) if (!ann.inventory[i]) ann.inventory[i] = { itemId: "logs", quantity: 1 };
    ann.inventory[27] = null;
    assert.throws(() => useItem(world, "c_ann", { slot: 0, action: "unequip", targetId: "weapon" }), code("INVENTORY_FULL"));
    assert.equal(ann.equipment.weapon?.itemId, "bronze_dagger");
    assert.ok(bob.lockedSlots.has(slotOf("c_bob", "bronze_hatchet")));
  });

  it("a fight that runs too long is a draw: both walk out with their stakes, nothing to settle", () => {
    const ann = add("ann");
    const bob = add("bob");
    const d = toArena({}, [["c_ann", 3]]);
    bob.health = 20;
    book.tick(0, d.fightFromTick!);
    book.tick(0, d.drawAtTick!);
    const events = book.drain();
    assert.deepEqual(kinds(events), ["fight", "ended"]);
    assert.deepEqual([events[1]!.kind === "ended" && events[1].outcome], ["draw"]);
    assert.deepEqual([ann.tile, bob.tile], [world.spawnTile, world.spawnTile]);
    assert.deepEqual([bob.health, ann.lockedSlots.size, book.duelOf("c_ann")], [100, 0, undefined]);
  });

  it("a leave during the fight loses it and asks for a settlement; a leave during the setup cancels it", () => {
    add("ann");
    add("bob");
    const d = toArena({ noForfeit: true }, [["c_bob", 2]]);
    world.tick = d.fightFromTick!;
    book.tick(0, world.tick);
    assert.throws(() => book.forfeit("c_bob", d.id), code("DUEL_RULE"));
    book.playerGone("c_bob", "disconnected");
    assert.deepEqual(kinds(book.drain()), ["fight", "settle"]);
    assert.deepEqual(d.result, { winnerId: "c_ann", loserId: "c_bob", outcome: "disconnect" });
    assert.equal(world.players.get("c_bob")!.inventoryFrozen, SETTLING);
    book.settleFailed(d.id, "nothing moved");
    assert.deepEqual(kinds(book.drain()), ["ended"]);
    add("cat");
    const setup = book.challenge("c_ann", "c_cat", 0);
    book.respond("c_cat", setup.id, true, 0);
    book.drain();
    removePlayer(world, "c_cat");
    assert.deepEqual(kinds(book.drain()), ["cancelled:disconnected"]);
  });

  it("a world stopping calls off every fight, setup and trade: fighters walk out, stakes and offers stay, nothing opens again", () => {
    const ann = add("ann");
    const bob = add("bob");
    const others = ["cat", "dan", "eve", "fay", "gus", "hal"].map((name) => add(name));
    const gus = others[4]!;
    const packs = () => [ann, bob, gus].map((p) => JSON.stringify(p.inventory));
    const before = packs();
    const fight = toArena({}, [
      ["c_ann", 7],
      ["c_bob", 1, "shrimp"],
    ]);
    book.tick(0, fight.fightFromTick!);
    assert.equal(fight.screen, "fighting");
    const setup = book.challenge("c_cat", "c_dan", 0);
    book.respond("c_dan", setup.id, true, 0);
    const challenge = book.challenge("c_eve", "c_fay", 0);
    book.drain();
    const trade = world.trades.request("c_gus", "c_hal", 0);
    world.trades.respond("c_hal", trade.id, true, 0);
    world.trades.addItem("c_gus", trade.id, slotOf("c_gus", "coins"), 5, 0);
    assert.equal(gus.lockedSlots.size, 1);
    world.trades.drain();

    world.callOff("stopping");
    const cancelled = book.drain();
    assert.deepEqual(
      cancelled.map((e) => [e.duel.id, e.kind === "cancelled" && e.reason]),
      [fight, setup, challenge].map((d) => [d.id, "server_shutdown"]),
    );
    assert.deepEqual(
      world.trades.drain().map((e) => [e.trade.id, e.kind === "cancelled" && e.reason]),
      [[trade.id, "server_shutdown"]],
    );
    assert.deepEqual([ann.tile, bob.tile], [world.spawnTile, world.spawnTile], "both walked out");
    assert.deepEqual(packs(), before, "stakes and offers stay with their owners");
    assert.deepEqual(
      [ann, bob, gus].map((p) => [p.lockedSlots.size, p.inventoryFrozen]),
      [
        [0, false],
        [0, false],
        [0, false],
      ],
    );
    assert.equal(book.sessions.size + world.trades.sessions.size, 0);
    assert.throws(() => book.challenge("c_ann", "c_bob", 0), code("SERVER_STOPPING"));
    assert.throws(() => world.trades.request("c_ann", "c_bob", 0), code("SERVER_STOPPING"));
  });

  it("a challenge needs the two within range, asked and answered", () => {
    const ann = add("ann");
    add("bob", { x: world.spawnTile.x + book.limits.rangeTiles + 1, z: world.spawnTile.z });
    assert.throws(() => book.challenge("c_ann", "c_bob", 0), code("TOO_FAR"));
    ann.tile = { x: world.spawnTile.x + 2, z: world.spawnTile.z };
    const d = book.challenge("c_ann", "c_bob", 0);
    ann.tile = { ...world.spawnTile };
    ann.tile.x -= 1;
    assert.throws(() => book.respond("c_bob", d.id, true, 0), code("TOO_FAR"));
    assert.equal(d.screen, "requested");
  });

  it("one duel at a time, and no trading in the middle of one", () => {
    add("ann");
    add("bob");
    add("cat");
    const d = book.challenge("c_ann", "c_bob", 0);
    assert.throws(() => book.challenge("c_ann", "c_cat", 0), code("ALREADY_IN_DUEL"));
    book.respond("c_bob", d.id, true, 0);
    assert.throws(() => book.challenge("c_cat", "c_bob", 0), code("ALREADY_IN_DUEL"));
    assert.throws(() => world.trades.request("c_cat", "c_ann", 0), code("PLAYER_UNAVAILABLE"));
    assert.throws(() => world.trades.request("c_ann", "c_cat", 0), code("IN_DUEL"));
    // And the other way: a trader cannot be challenged, nor challenge.
    add("dan");
    const t = world.trades.request("c_cat", "c_dan", 0);
    world.trades.respond("c_dan", t.id, true, 0);
    assert.throws(() => book.challenge("c_ann", "c_cat", 0), code("PLAYER_UNAVAILABLE"));
    assert.throws(() => book.challenge("c_dan", "c_ann", 0), code("ALREADY_IN_TRADE"));
  });
});
