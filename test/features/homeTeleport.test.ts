import assert from "node:assert/strict";
import { CAST_TICKS, COOLDOWN_MS, startHomeTeleport } from "../../src/features/homeTeleport/homeTeleport.js";
import { duelsOf } from "../../src/features/duel/index.js";
import { WORLD_FEATURES } from "../../src/features/index.js";
import { tickWorld } from "../../src/game/world/tick.js";
import type { World } from "../../src/game/world/World.js";
import { createWorld } from "../../rooms/worldSetup.js";
import { addStarter } from "../helpers/handPlaced.js";
import { defaultGameData } from "../helpers/server.js";
import { codeOf } from "../game/fixtures.js";
import { guestToken, joinWorld, worldSuite } from "../helpers/worldClient.js";
import { leaveAndSettle, place, ticks, worldRoomOf } from "../helpers/worldRoom.js";

describe("feature: the home teleport, tick by tick", () => {
  let world: World;
  let now: number;
  beforeEach(async () => {
    now = 1_000_000;
    world = createWorld(await defaultGameData(), { rng: () => 0.5, features: WORLD_FEATURES.list, now: () => now });
  });
  const away = () => ({ x: world.spawnTile.x + 6, z: world.spawnTile.z - 5 });

  it(`arrives at the spawn after ${CAST_TICKS} ticks, then waits out its cooldown in wall-clock time`, () => {
    const p = addStarter(world, "Homer", away());
    startHomeTeleport(world, p.id);
    for (let i = 1; i < CAST_TICKS; i++) tickWorld(world);
    assert.deepEqual(p.tile, away(), "still casting");
    tickWorld(world);
    assert.deepEqual(p.tile, world.spawnTile);
    assert.equal(p.vars.homeTeleportReadyAt, now + COOLDOWN_MS);
    const events = world.events.drain().filter((e) => e.kind === "notice" && e.playerId === p.id);
    assert.deepEqual(
      events.map((e) => (e.kind === "notice" ? e.code : "")),
      ["HOME_TELEPORT_STARTED", "HOME_TELEPORTED"],
    );
    assert.equal(
      codeOf(() => startHomeTeleport(world, p.id)),
      "TELEPORT_COOLDOWN",
    );
    now += COOLDOWN_MS - 1;
    assert.equal(
      codeOf(() => startHomeTeleport(world, p.id)),
      "TELEPORT_COOLDOWN",
    );
    now += 1;
    assert.equal(
      codeOf(() => startHomeTeleport(world, p.id)),
      undefined,
    );
  });

  it("a move, another order or a blow interrupts the cast; nothing else changes", () => {
    const p = addStarter(world, "Fidget", away());
    startHomeTeleport(world, p.id);
    tickWorld(world);
    p.path = [{ x: p.tile.x + 1, z: p.tile.z }];
    tickWorld(world);
    assert.equal(p.vars.homeTeleportAtTick, 0);
    assert.equal(p.vars.homeTeleportReadyAt, 0, "an interrupted cast costs no cooldown");
    for (let i = 0; i < CAST_TICKS + 2; i++) tickWorld(world);
    assert.notDeepEqual(p.tile, world.spawnTile);
    startHomeTeleport(world, p.id);
    p.lastHitTick = world.tick + 1;
    tickWorld(world);
    tickWorld(world);
    assert.equal(p.vars.homeTeleportAtTick, 0);
    const notices = world.events.drain().flatMap((e) => (e.kind === "notice" && e.playerId === p.id ? [e.code] : []));
    assert.equal(notices.filter((c) => c === "HOME_TELEPORT_INTERRUPTED").length, 2);
  });

  it("is refused in combat, from a duel's arena and from a PvP area of difficulty 1 or more", () => {
    const p = addStarter(world, "Fighter", away());
    p.lastHitTick = world.tick;
    assert.equal(
      codeOf(() => startHomeTeleport(world, p.id)),
      "IN_COMBAT",
    );
    p.lastHitTick = world.tick - 17;
    const duels = duelsOf(world);
    const inArena = duels.inArena.bind(duels);
    duels.inArena = (id: string) => id === p.id;
    assert.equal(
      codeOf(() => startHomeTeleport(world, p.id)),
      "NO_TELEPORT_HERE",
    );
    duels.inArena = inArena;
    assert.equal(
      codeOf(() => startHomeTeleport(world, p.id)),
      undefined,
    );
    // Ravelstone Ruins: the default world's PvP area, difficulty 2.
    const ruins = world.data.worldAreas.get("ravelstone_ruins")!;
    assert.ok(ruins.pvpEnabled && ruins.difficultyLevel === 2);
    const q = addStarter(world, "Wanderer", { x: 150, z: 140 });
    assert.equal(
      codeOf(() => startHomeTeleport(world, q.id)),
      "NO_TELEPORT_HERE",
    );
    ruins.difficultyLevel = 0;
    try {
      assert.equal(
        codeOf(() => startHomeTeleport(world, q.id)),
        undefined,
        "a shallow PvP area lets it through",
      );
    } finally {
      ruins.difficultyLevel = 2;
    }
  });
});

describe("feature: the home teleport over the protocol", function () {
  this.timeout(60_000);
  const suite = worldSuite();

  it("player:homeTeleport casts, arrives, and the cooldown survives a logout; bad payloads change nothing", async () => {
    const who = await guestToken(suite.server);
    const a = await joinWorld(suite.server, {}, who);
    const room = worldRoomOf(a);
    const from = { x: room.world.spawnTile.x + 6, z: room.world.spawnTile.z - 5 };
    place(room, a.id, from);
    let since = a.mark();
    a.send("player:homeTeleport", { where: "home" });
    assert.equal((await a.next("error", () => true, { since })).code, "INVALID_PAYLOAD");
    since = a.mark();
    a.send("player:homeTeleport", {});
    await a.next("notice", (n) => n.code === "HOME_TELEPORT_STARTED", { since });
    const casting = await a.next("player:sync", (s) => s.vars.homeTeleportAtTick > 0, { since });
    assert.equal(casting.vars.homeTeleportReadyAt, 0);
    await a.next("notice", (n) => n.code === "HOME_TELEPORTED", { since, timeoutMs: 20_000 });
    const home = await a.next("player:sync", (s) => s.position.x === room.world.spawnTile.x && s.position.z === room.world.spawnTile.z, { since });
    const readyAt = home.vars.homeTeleportReadyAt;
    assert.ok(readyAt > Date.now() + COOLDOWN_MS - 60_000, "the cooldown's end is shown");
    await leaveAndSettle(a);
    const again = await joinWorld(suite.server, {}, who);
    assert.equal(again.sync().vars.homeTeleportReadyAt, readyAt, "kept with the character");
    since = again.mark();
    again.send("player:homeTeleport", {});
    const refused = await again.next("error", () => true, { since });
    assert.equal(refused.code, "TELEPORT_COOLDOWN");
    assert.match(refused.message, /again in \d+ min/);
    await ticks(room, 1);
    assert.equal(room.world.players.get(again.id)!.vars.homeTeleportAtTick, 0);
    await again.leave();
  });
});
