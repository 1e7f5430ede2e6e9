import assert from "node:assert/strict";
import { duelsOf } from "../../src/features/duel/index.js";
import { WORLD_FEATURES } from "../../src/features/index.js";
import { startTravel } from "../../src/features/travel/travel.js";
import { routesIn } from "../../src/features/travel/travelManifest.js";
import { addItem, emptyInventory } from "../../src/game/inventory.js";
import { movePlayer } from "../../src/game/world/commands.js";
import type { NpcEntity, PlayerEntity } from "../../src/game/world/entities.js";
import type { WorldEvent } from "../../src/game/world/events.js";
import { tickWorld } from "../../src/game/world/tick.js";
import type { World } from "../../src/game/world/World.js";
import type { GameData } from "../../src/manifests/index.js";
import { createWorld } from "../../rooms/worldSetup.js";
import { codeOf } from "../game/fixtures.js";
import { addStarter } from "../helpers/handPlaced.js";
import { defaultGameData, startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken, worldSuite } from "../helpers/worldClient.js";
import { place, theWorld, worldRoomOf } from "../helpers/worldRoom.js";
import { mcpConnect, type McpTestClient } from "../mcp/helpers.js";

const count = (p: PlayerEntity, itemId: string) => p.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
const drained = (world: World, kind: WorldEvent["kind"]) => world.events.drain().filter((e) => e.kind === kind);

/** A pack of `coins` coins and nothing else. */
function withCoins(world: World, p: PlayerEntity, coins: number) {
  p.inventory = coins > 0 ? addItem(emptyInventory(), "coins", coins, world.data.items).inventory : emptyInventory();
}

function untilIdle(world: World, p: PlayerEntity, limit = 60) {
  for (let i = 0; i < limit && p.action; i++) tickWorld(world);
}

describe("feature: travel, tick by tick", () => {
  let world: World;
  let odo: NpcEntity;
  let ferris: NpcEntity;
  beforeEach(async () => {
    world = createWorld(await defaultGameData(), { features: WORLD_FEATURES.list });
    assert.deepEqual(drained(world, "contentWarning"), [], "the default world's travel.json loads whole");
    odo = [...world.npcs.values()].find((n) => n.defId === "carter_odo")!;
    ferris = [...world.npcs.values()].find((n) => n.defId === "carter_ferris")!;
    assert.ok(odo && ferris, "the default world has its two carters");
  });

  it("walks up to the carter, pays the fare (the ledger's paid) and stands at the destination; the carter there brings it back", () => {
    const p = addStarter(world, "Rider", { x: odo.position.x - 5, z: odo.position.z });
    withCoins(world, p, 25);
    const route = routesIn(world).get("carter_odo")!;
    startTravel(world, p.id, odo.id);
    tickWorld(world);
    assert.equal(count(p, "coins"), 25, "nothing paid from down the street");
    untilIdle(world, p);
    assert.deepEqual(p.tile, route.to);
    assert.equal(count(p, "coins"), 25 - route.fare);
    assert.deepEqual(
      p.ledgerEvents.filter((e) => e.cause === "paid"),
      [{ itemId: "coins", delta: -route.fare, cause: "paid", ref: "travel:town_to_yard" }],
    );
    const [told] = drained(world, "notice").filter((e) => e.kind === "notice" && e.code === "TRAVELLED");
    assert.match((told as { message: string }).message, /^You travel to the Duelling Yard for 10 coins$/);
    // Back with the yard's carter.
    startTravel(world, p.id, ferris.id);
    untilIdle(world, p);
    assert.deepEqual(p.tile, routesIn(world).get("carter_ferris")!.to);
    assert.equal(count(p, "coins"), 5);
  });

  it("refusals change nothing: no such carter, too few coins (locked ones not counted), in combat, in a duel, a pack being committed", () => {
    const p = addStarter(world, "Stayer", { x: odo.position.x - 1, z: odo.position.z });
    const villager = [...world.npcs.values()].find((n) => n.defId === "villager")!;
    const before = () => JSON.stringify([p.tile, p.inventory, p.action, p.ledgerEvents]);
    withCoins(world, p, 9);
    let was = before();
    assert.equal(
      codeOf(() => startTravel(world, p.id, odo.id)),
      "NO_FARE",
    );
    assert.equal(
      codeOf(() => startTravel(world, p.id, "npc:nowhere")),
      "UNKNOWN_TARGET",
    );
    assert.equal(
      codeOf(() => startTravel(world, p.id, villager.id)),
      "UNKNOWN_TARGET",
    );
    assert.equal(before(), was);
    withCoins(world, p, 10);
    p.lockedSlots.add(0);
    assert.equal(
      codeOf(() => startTravel(world, p.id, odo.id)),
      "NO_FARE",
      "coins offered in a trade are not the fare",
    );
    p.lockedSlots.clear();
    p.lastHitTick = world.tick;
    assert.equal(
      codeOf(() => startTravel(world, p.id, odo.id)),
      "IN_COMBAT",
    );
    p.lastHitTick = -1000;
    const duels = duelsOf(world);
    const inArena = duels.inArena.bind(duels);
    duels.inArena = (id: string) => id === p.id;
    assert.equal(
      codeOf(() => startTravel(world, p.id, odo.id)),
      "IN_DUEL",
    );
    duels.inArena = inArena;
    p.inventoryFrozen = "trade";
    assert.equal(
      codeOf(() => startTravel(world, p.id, odo.id)),
      "TRADE_COMPLETING",
    );
    p.inventoryFrozen = false;
    was = before();
    for (let i = 0; i < 5; i++) tickWorld(world);
    assert.equal(before(), was, "nothing started, nothing paid");
  });

  it("a move on the way calls it off unpaid; coins gone by the time it reaches the carter end it NO_FARE, told", () => {
    const p = addStarter(world, "Changer", { x: odo.position.x - 6, z: odo.position.z });
    withCoins(world, p, 30);
    startTravel(world, p.id, odo.id);
    tickWorld(world);
    movePlayer(world, p.id, { x: p.tile.x - 2, z: p.tile.z });
    for (let i = 0; i < 20; i++) tickWorld(world);
    assert.equal(count(p, "coins"), 30);
    assert.notDeepEqual(p.tile, routesIn(world).get("carter_odo")!.to);
    startTravel(world, p.id, odo.id);
    tickWorld(world);
    withCoins(world, p, 4);
    world.events.drain();
    untilIdle(world, p);
    const failed = drained(world, "actionFailed") as Array<Extract<WorldEvent, { kind: "actionFailed" }>>;
    assert.deepEqual(
      failed.map((e) => e.code),
      ["NO_FARE"],
    );
    assert.match(failed[0]!.message, /The fare to the Duelling Yard is 10 coins; you have 4/);
    assert.equal(count(p, "coins"), 4);
  });

  it("travel.json's bad entries are skipped, each with a warning; a route's npc must name the travel service", async () => {
    const data = await defaultGameData();
    const broken: GameData = {
      ...data,
      extras: {
        ...data.extras,
        travel: {
          routes: [
            { id: "fine", npcId: "carter_odo", name: "Somewhere", to: { x: 100, z: 100 }, fare: 3 },
            { id: "ghost", npcId: "nobody", name: "Nowhere", to: { x: 100, z: 100 }, fare: 3 },
            { id: "villager", npcId: "villager", name: "Market", to: { x: 100, z: 100 }, fare: 3 },
            { id: "far", npcId: "carter_ferris", name: "Off the map", to: { x: 99999, z: 100 }, fare: 3 },
            { id: "fine", npcId: "carter_ferris", name: "Again", to: { x: 100, z: 100 }, fare: 3 },
            { id: "cheap", npcId: "carter_ferris", name: "Cheap", to: { x: 100, z: 100 }, fare: -1 },
          ],
        },
      },
    };
    const w = createWorld(broken, { features: WORLD_FEATURES.list });
    const warnings = w.events.drain().flatMap((e) => (e.kind === "contentWarning" ? [e.message] : []));
    assert.deepEqual(
      warnings.map((m) => m.replace(/:.*/, "")),
      new Array(6).fill("travel.json"),
      warnings.join("\n"),
    );
    const all = warnings.join("\n");
    assert.match(all, /route ghost: no npc nobody/);
    assert.match(all, /route villager: npc villager does not name the travel service/);
    assert.match(all, /route far: its destination is outside the map or blocked/);
    assert.match(all, /route fine: its id or its npc carter_ferris has a route already/);
    assert.match(all, /route 5: fare/);
    assert.match(all, /npc carter_ferris names the travel service but has no route/);
    assert.deepEqual([...routesIn(w).keys()], ["carter_odo"]);
    const none = createWorld({ ...data, extras: { ...data.extras, travel: "not a manifest" } }, { features: WORLD_FEATURES.list });
    assert.match(
      none.events
        .drain()
        .flatMap((e) => (e.kind === "contentWarning" ? [e.message] : []))
        .join("\n"),
      /not an object with a routes list/,
    );
  });
});

describe("feature: travel over the protocol", function () {
  this.timeout(30_000);
  const suite = worldSuite();

  it("travel:ride takes the player there (player:sync: the place, the coins); bad payloads and unknown carters change nothing", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const odo = [...room.world.npcs.values()].find((n) => n.defId === "carter_odo")!;
    place(room, a.id, { x: odo.position.x - 2, z: odo.position.z });
    const p = room.world.players.get(a.id)!;
    p.inventory = addItem(emptyInventory(), "coins", 12, room.world.data.items).inventory;
    for (const [payload, code] of [
      [{ npcId: 7 }, "INVALID_PAYLOAD"],
      [{}, "INVALID_PAYLOAD"],
      [{ npcId: odo.id, extra: true }, "INVALID_PAYLOAD"],
      [{ npcId: "npc:nowhere" }, "UNKNOWN_TARGET"],
    ] as const) {
      const since = a.mark();
      a.send("travel:ride", payload);
      assert.equal((await a.next("error", () => true, { since })).code, code, JSON.stringify(payload));
    }
    assert.equal(p.action, null, "the refusals changed nothing");
    const since = a.mark();
    a.send("travel:ride", { npcId: odo.id });
    const told = await a.next("notice", (n) => n.code === "TRAVELLED", { since });
    assert.match(told.message, /Duelling Yard/);
    const to = routesIn(room.world).get("carter_odo")!.to;
    const synced = await a.next("player:sync", (s) => s.position.x === to.x && s.position.z === to.z, { since });
    assert.equal(
      synced.inventory.reduce((n: number, s: { itemId: string; quantity: number } | null) => n + (s?.itemId === "coins" ? s.quantity : 0), 0),
      2,
    );
  });
});

describe("feature: travel as an MCP tool", function () {
  this.timeout(30_000);
  let server: TestServer;
  let c: McpTestClient;
  before(async () => {
    server = await startTestServer();
    c = await mcpConnect(server, (await guestToken(server)).token);
  });
  after(async () => {
    await c?.close();
    await server?.close();
  });

  it("travel rides with a carter and answers travelled with the new position; NO_FARE without the coins", async () => {
    const room = await theWorld();
    const me = (await c.call("observe")).body.you;
    const p = room.world.players.get(me.id)!;
    const odo = [...room.world.npcs.values()].find((n) => n.defId === "carter_odo")!;
    place(room, p.id, { x: odo.position.x - 1, z: odo.position.z });
    p.inventory = emptyInventory();
    assert.match((await c.call("travel", { npcId: odo.id })).text, /^NO_FARE: /);
    p.inventory = addItem(emptyInventory(), "coins", 10, room.world.data.items).inventory;
    const rode = await c.call("travel", { npcId: odo.id });
    assert.equal(rode.isError, false, rode.text);
    assert.equal(rode.body.travelled, true);
    assert.deepEqual(rode.body.position, routesIn(room.world).get("carter_odo")!.to);
    assert.equal(count(p, "coins"), 0);
  });
});
