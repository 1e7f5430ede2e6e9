import assert from "node:assert/strict";
import { WORLD_FEATURES } from "../../src/features/index.js";
import { ATTEMPT_TICKS, pickpocketFailChance, startPickpocket, startStealing } from "../../src/features/thieving/thieving.js";
import { thieveryIn } from "../../src/features/thieving/thievingManifest.js";
import { emptyInventory } from "../../src/game/inventory.js";
import { xpForLevel } from "../../src/game/skills.js";
import { movePlayer } from "../../src/game/world/commands.js";
import type { NpcEntity, PlayerEntity } from "../../src/game/world/entities.js";
import { tickWorld } from "../../src/game/world/tick.js";
import type { World } from "../../src/game/world/World.js";
import { refreshLevels } from "../../src/game/world/xp.js";
import type { GameData } from "../../src/manifests/index.js";
import { createWorld } from "../../rooms/worldSetup.js";
import { codeOf } from "../game/fixtures.js";
import { addStarter } from "../helpers/handPlaced.js";
import { defaultGameData } from "../helpers/server.js";
import { worldSuite } from "../helpers/worldClient.js";
import { place, setRng, worldRoomOf } from "../helpers/worldRoom.js";

const STALL = "stall:fish_stall";
const STALL_TILE = { x: 108, z: 98 };

function withThieving(p: PlayerEntity, level: number) {
  p.xp.thieving = xpForLevel(level);
  refreshLevels(p);
}

/** Tick until the player has no action (at most `limit` ticks). */
function untilIdle(world: World, p: PlayerEntity, limit = 40) {
  for (let i = 0; i < limit && p.action; i++) tickWorld(world);
}

const count = (p: PlayerEntity, itemId: string) => p.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
const notices = (world: World, code: string) => world.events.drain().filter((e) => e.kind === "notice" && e.code === code);

describe("feature: thieving, tick by tick", () => {
  let world: World;
  let roll: number;
  let villager: NpcEntity;
  beforeEach(async () => {
    roll = 0.99;
    world = createWorld(await defaultGameData(), { rng: () => roll, features: WORLD_FEATURES.list });
    villager = [...world.npcs.values()].find((n) => n.defId === "villager")!;
    assert.ok(villager, "the default world has villagers");
  });

  it("a picked pocket gives the npc's loot and thieving xp, recorded in the ledger as stolen, after walking up to it", () => {
    const p = addStarter(world, "Lightfoot", { x: villager.position.x - 4, z: villager.position.z });
    const coins = count(p, "coins");
    startPickpocket(world, p.id, villager.id);
    assert.equal(p.action?.type, "feature");
    tickWorld(world);
    assert.equal(count(p, "coins"), coins, "nothing taken from across the street");
    untilIdle(world, p);
    assert.equal(count(p, "coins") - coins, 3);
    assert.equal(p.xp.thieving, 8);
    assert.deepEqual(
      p.ledgerEvents.filter((e) => e.cause === "stolen"),
      [{ itemId: "coins", delta: 3, cause: "stolen", ref: "villager" }],
    );
    const [told] = notices(world, "STOLEN");
    assert.match((told as { message: string }).message, /3 x Coins/);
  });

  it("a thief caught is stunned: hurt, no step and no action until the stun's ticks are over, and told so", () => {
    const p = addStarter(world, "Fumbler", { x: villager.position.x - 1, z: villager.position.z });
    const target = thieveryIn(world).pickpockets.get("villager")!;
    roll = 0; // below any fail chance
    startPickpocket(world, p.id, villager.id);
    untilIdle(world, p);
    assert.equal(notices(world, "PICKPOCKET_FAILED").length, 1);
    assert.equal(p.health, 100 - 10 * target.stunDamage);
    assert.equal(p.xp.thieving, 0);
    assert.equal(p.vars.stunnedUntilTick, world.tick + target.stunTicks);
    assert.equal(world.heldBy(p)?.code, "STUNNED");
    // A path given anyway (a command straight to the engine) is not walked while stunned.
    const from = { ...p.tile };
    movePlayer(world, p.id, { x: from.x, z: from.z - 3 });
    for (let i = 0; i < target.stunTicks - 1; i++) tickWorld(world);
    assert.deepEqual(p.tile, from, "held in place");
    assert.equal(world.heldBy(p)?.code, "STUNNED");
    tickWorld(world);
    assert.equal(p.vars.stunnedUntilTick, 0, "the stun is over");
    assert.equal(world.heldBy(p), undefined);
    tickWorld(world);
    assert.notDeepEqual(p.tile, from, "walks again");
  });

  it("a stun that takes the last hitpoints kills the thief", () => {
    const p = addStarter(world, "Frail", { x: villager.position.x - 1, z: villager.position.z });
    p.health = 5;
    roll = 0;
    startPickpocket(world, p.id, villager.id);
    untilIdle(world, p);
    const deaths = world.events.drain().filter((e) => e.kind === "death" && e.playerId === p.id);
    assert.equal(deaths.length, 1);
    assert.deepEqual(p.tile, world.spawnTile, "respawned at the spawn");
  });

  it("the chance to be caught falls evenly from the npc's failChance at its level to none at its safeLevel", () => {
    const v = thieveryIn(world).pickpockets.get("villager")!;
    assert.equal(pickpocketFailChance(v, 1), v.failChance);
    assert.equal(pickpocketFailChance(v, v.safeLevel!), 0);
    assert.equal(pickpocketFailChance(v, 99), 0);
    const mid = pickpocketFailChance(v, Math.round((1 + v.safeLevel!) / 2));
    assert.ok(mid > 0 && mid < v.failChance, `${mid}`);
    // The roll decides: just above the chance is a success.
    const p = addStarter(world, "Lucky", { x: villager.position.x - 1, z: villager.position.z });
    roll = v.failChance + 0.01;
    startPickpocket(world, p.id, villager.id);
    untilIdle(world, p);
    assert.equal(notices(world, "STOLEN").length, 1);
  });

  it("a stall needs its level; its theft empties it (STALL_EMPTY) until it restocks", () => {
    const p = addStarter(world, "Snatcher", { x: STALL_TILE.x - 1, z: STALL_TILE.z });
    assert.equal(world.stations.get(STALL)?.type, "thieving_stall");
    assert.equal(
      codeOf(() => startStealing(world, p.id, STALL)),
      "LEVEL_TOO_LOW",
    );
    assert.equal(p.action, null);
    withThieving(p, 5);
    startStealing(world, p.id, STALL);
    for (let i = 0; i < ATTEMPT_TICKS; i++) tickWorld(world);
    assert.equal(count(p, "raw_trout"), 0, "not before the attempt's ticks");
    untilIdle(world, p);
    assert.equal(count(p, "raw_trout"), 1, "the roll of 0.99 draws the last loot entry");
    assert.equal(p.xp.thieving - xpForLevel(5), 16);
    assert.equal(p.ledgerEvents.at(-1)?.cause, "stolen");
    assert.equal(p.ledgerEvents.at(-1)?.ref, "fish_stall");
    assert.equal(
      codeOf(() => startStealing(world, p.id, STALL)),
      "STALL_EMPTY",
    );
    const stall = thieveryIn(world).stalls.get(STALL)!;
    for (let i = 0; i < stall.restockTicks; i++) tickWorld(world);
    roll = 0; // the first entry
    startStealing(world, p.id, STALL);
    untilIdle(world, p);
    assert.equal(count(p, "raw_shrimp"), 1);
  });

  it("refuses a full pack, unknown npcs and stalls, npcs with no pocket to pick and stations that are no stall; a move calls a theft off", () => {
    const p = addStarter(world, "Careful", { x: villager.position.x - 1, z: villager.position.z });
    withThieving(p, 5);
    const clerk = [...world.npcs.values()].find((n) => n.defId === "bank_clerk")!;
    assert.equal(
      codeOf(() => startPickpocket(world, p.id, "npc:nowhere")),
      "UNKNOWN_TARGET",
    );
    assert.equal(
      codeOf(() => startPickpocket(world, p.id, clerk.id)),
      "UNKNOWN_TARGET",
    );
    assert.equal(
      codeOf(() => startStealing(world, p.id, "stall:nowhere")),
      "UNKNOWN_TARGET",
    );
    assert.equal(
      codeOf(() => startStealing(world, p.id, "station:brindlemere:brindlemere_anvil")),
      "UNKNOWN_TARGET",
    );
    p.inventory = emptyInventory().map(() => ({ itemId: "logs", quantity: 1 }));
    assert.equal(
      codeOf(() => startStealing(world, p.id, STALL)),
      "INVENTORY_FULL",
    );
    assert.equal(
      codeOf(() => startPickpocket(world, p.id, villager.id)),
      "INVENTORY_FULL",
      "no coins to stack on",
    );
    p.inventory[0] = { itemId: "coins", quantity: 10 };
    startPickpocket(world, p.id, villager.id);
    assert.ok(p.action, "coins stack on the coins held");
    assert.equal(p.action && p.action.type, "feature");
    movePlayer(world, p.id, { x: p.tile.x - 3, z: p.tile.z });
    assert.equal(p.action, null);
    untilIdle(world, p);
    for (let i = 0; i < 10; i++) tickWorld(world);
    assert.equal(count(p, "coins"), 10, "nothing stolen after the move");
    assert.equal(p.xp.thieving, xpForLevel(5));
  });

  it("skips the manifest's bad entries with a warning", async () => {
    const data = await defaultGameData();
    const broken: GameData = {
      ...data,
      extras: {
        ...data.extras,
        thieving: {
          pickpocket: [
            { npcId: "villager", level: 1, xp: 1, loot: [{ itemId: "coins" }] },
            { npcId: "nobody", level: 1, xp: 1, loot: [{ itemId: "coins" }] },
            { npcId: "town_guard", level: 0, xp: 1, loot: [{ itemId: "coins" }] },
          ],
          stalls: [
            { id: "fine", name: "Fine", position: { x: 108, z: 98 }, level: 1, xp: 1, loot: [{ itemId: "raw_shrimp" }] },
            { id: "ghost", name: "Ghost", position: { x: 108, z: 99 }, level: 1, xp: 1, loot: [{ itemId: "ghost_fish" }] },
            { id: "far", name: "Far", position: { x: 99999, z: 98 }, level: 1, xp: 1, loot: [{ itemId: "raw_shrimp" }] },
            { id: "odd", name: "Odd", position: { x: 108, z: 97 }, level: 1, xp: 1, loot: [{ itemId: "raw_shrimp", min: 5, max: 2 }] },
          ],
        },
      },
    };
    const w = createWorld(broken, { features: WORLD_FEATURES.list });
    const warnings = w.events.drain().flatMap((e) => (e.kind === "contentWarning" ? [e.message] : []));
    assert.deepEqual(
      warnings.map((m) => m.replace(/:.*/, "")),
      new Array(6).fill("thieving.json"),
      warnings.join("\n"),
    );
    assert.match(warnings.join("\n"), /pickpocket 1: no npc nobody/);
    assert.match(warnings.join("\n"), /pickpocket 2: level/);
    assert.match(warnings.join("\n"), /npc town_guard names the pickpocket service but has no pickpocket entry/);
    assert.match(warnings.join("\n"), /stall ghost: no item ghost_fish/);
    assert.match(warnings.join("\n"), /stall far: its position is outside the map/);
    assert.match(warnings.join("\n"), /stall 3: loot.0: max is below min/);
    assert.deepEqual([...thieveryIn(w).pickpockets.keys()], ["villager"]);
    assert.deepEqual([...thieveryIn(w).stalls.keys()], ["stall:fine"]);
    const fine = createWorld({ ...data, extras: { ...data.extras, thieving: "not a manifest" } }, { features: WORLD_FEATURES.list });
    assert.match(
      fine.events
        .drain()
        .flatMap((e) => (e.kind === "contentWarning" ? [e.message] : []))
        .join("\n"),
      /not an object/,
    );
  });
});

describe("feature: thieving over the protocol", function () {
  this.timeout(30_000);
  const suite = worldSuite();

  it("a caught thief's orders are refused STUNNED until the stun ends (player:sync shows it); bad payloads change nothing", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const v = [...room.world.npcs.values()].find((n) => n.defId === "villager")!;
    place(room, a.id, { x: v.position.x - 1, z: v.position.z });
    let since = a.mark();
    a.send("thieving:pickpocket", { npcId: 7 });
    assert.equal((await a.next("error", () => true, { since })).code, "INVALID_PAYLOAD");
    since = a.mark();
    a.send("thieving:steal", { stallId: STALL, quantity: 5 });
    assert.equal((await a.next("error", () => true, { since })).code, "INVALID_PAYLOAD");
    since = a.mark();
    a.send("thieving:steal", { stallId: STALL });
    assert.equal((await a.next("error", () => true, { since })).code, "LEVEL_TOO_LOW");
    since = a.mark();
    a.send("thieving:pickpocket", { npcId: "npc:nowhere" });
    assert.equal((await a.next("error", () => true, { since })).code, "UNKNOWN_TARGET");
    assert.equal(room.world.players.get(a.id)!.action, null, "the refusals changed nothing");
    setRng(room, 0);
    since = a.mark();
    a.send("thieving:pickpocket", { npcId: v.id });
    await a.next("notice", (n) => n.code === "PICKPOCKET_FAILED", { since });
    const stunned = await a.next("player:sync", (s) => s.vars.stunnedUntilTick > 0, { since });
    assert.ok(stunned.health < 100);
    for (const [type, data] of [
      ["player:move", { x: v.position.x - 4, z: v.position.z }],
      ["player:action", { action: "talk", targetId: v.id }],
      ["thieving:pickpocket", { npcId: v.id }],
      ["player:homeTeleport", {}],
    ] as const) {
      since = a.mark();
      a.send(type, data);
      const e = await a.next("error", () => true, { since });
      assert.equal(e.code, "STUNNED", type);
      assert.match(e.message, /stunned for \d+ more seconds/);
    }
    await a.next("player:sync", (s) => s.vars.stunnedUntilTick === 0, { since });
    setRng(room, 0.5);
    since = a.mark();
    a.send("player:move", { x: v.position.x - 4, z: v.position.z });
    await a.next("player:sync", (s) => s.position.x !== stunned.position.x, { since });
    // Stalls are stations every client sees.
    await a.sees((s) => s.stations?.get?.(STALL)?.type === "thieving_stall", "the fish stall as a station");
  });
});
