import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import type { HandOverFrames } from "../../rooms/interest/viewHandOvers.js";
import { AOI_RADIUS } from "../../src/game/spatialGrid.js";
import { ZONE_MARGIN, ZONE_SIZE, zoneCentre, zoneOf } from "../../src/game/world/interest.js";
import type { Tile } from "../../src/game/types.js";
import { guestToken, worldSuite, type WorldPlayer } from "../helpers/worldClient.js";
import { place, ticks, worldRoomOf } from "../helpers/worldRoom.js";
import { wsConnect } from "../helpers/wsClient.js";
import { checkEveryPatch, decoded, ghostsAndMissing, heldBy, recordViews, sharedViewsOf, wsModelOf, zonesEast } from "../helpers/viewChecks.js";

/**
 * Shared views (rooms/interest/worldViews.ts, PROTOCOL.md §2): the clients standing in one zone are encoded
 * through one StateView; one moving between zones, or with a drop only it may see, is handed a
 * view of its own seeded with what it holds, and its decoded state stays exactly what the server
 * says it sees, patch after patch.
 */

describe("world room: shared views per zone", function () {
  this.timeout(60_000);
  const suite = worldSuite();

  it("clients standing in one zone are encoded through one StateView and decode the same state", async () => {
    const a = await suite.join();
    const b = await suite.join();
    const room = worldRoomOf(a);
    const spawn = room.world.spawnTile;
    place(room, b.id, { x: spawn.x + (spawn.x % ZONE_SIZE < ZONE_SIZE - 1 ? 1 : -1), z: spawn.z });
    assert.equal(zoneOf(room.world.players.get(a.id)!.tile), zoneOf(room.world.players.get(b.id)!.tile));
    const va = sharedViewsOf(room).viewers.get(a.id)!;
    const vb = sharedViewsOf(room).viewers.get(b.id)!;
    while (!(va.shared && vb.shared)) await ticks(room, 1);
    assert.equal(va.zone, vb.zone, "one zone's window");
    const clientOf = (p: WorldPlayer) => room.clients.find((c) => c.sessionId === p.room.sessionId)!;
    assert.equal(clientOf(a).view, clientOf(b).view, "one StateView for both clients");
    await a.sees((s) => s.players.get(b.id), "a sees b");
    await b.sees((s) => s.players.get(a.id), "b sees a");
    await ticks(room, 1);
    await a.sees(() => JSON.stringify(decoded(a)) === JSON.stringify(decoded(b)), "the same state as b");
  });

  it("a player crossing zones, past others, decodes at every patch exactly what the server says it holds", async () => {
    const walker = await suite.join();
    const room = worldRoomOf(walker);
    const byTick = recordViews(room);
    const spawn = room.world.spawnTile;
    // Others stand a zone apart along the way, so the walker's windows keep changing what they hold.
    const others = [await suite.join(), await suite.join(), await suite.join()];
    others.forEach((p, i) => place(room, p.id, zonesEast(room, spawn, 1 + i)));
    const check = checkEveryPatch(walker, byTick);
    const otherChecks = others.map((p) => checkEveryPatch(p, byTick));
    try {
      const target = zonesEast(room, spawn, 2);
      walker.send("player:move", { x: target.x, z: target.z, run: true });
      const tileOf = (p: WorldPlayer) => room.world.players.get(p.id)!.tile;
      const at = (p: WorldPlayer, t: Tile) => tileOf(p).x === t.x && tileOf(p).z === t.z;
      for (let n = 0; !at(walker, target); n++) {
        assert.ok(n < 100, "the walker gets there");
        await ticks(room, 1);
      }
      // And back, with the others now walking too.
      const home = { x: spawn.x, z: spawn.z + 2 };
      for (const p of others) p.send("player:move", home);
      walker.send("player:move", { x: spawn.x, z: spawn.z });
      for (let n = 0; !at(walker, spawn) || others.some((p) => tileOf(p).x > home.x + 2); n++) {
        assert.ok(n < 100, "all of them get back");
        await ticks(room, 1);
      }
      await ticks(room, 3);
      await walker.sees(() => check.checked() > 10, "a dozen patches");
    } finally {
      check.stop();
      otherChecks.forEach((c) => c.stop());
    }
    assert.deepEqual(check.mismatches, []);
    for (const c of otherChecks) assert.deepEqual(c.mismatches, []);
    assert.ok(check.handOvers() >= 4, `handed over at each of its four zone crossings (${check.handOvers()})`);
    const v = sharedViewsOf(room).viewers.get(walker.id)!;
    assert.ok(v.shared, "back to a shared view once settled");
  });

  it("two clients stepping from one zone into the next in the same tick are sent one hand-over frame, made once, and then share the new zone's view", async () => {
    const a = await suite.join();
    const b = await suite.join();
    const room = worldRoomOf(a);
    const byTick = recordViews(room);
    const spawn = room.world.spawnTile;
    place(room, b.id, { x: spawn.x + (spawn.x % ZONE_SIZE < ZONE_SIZE - 1 ? 1 : -1), z: spawn.z });
    const va = sharedViewsOf(room).viewers.get(a.id)!;
    const vb = sharedViewsOf(room).viewers.get(b.id)!;
    while (!(va.shared && vb.shared && va.zone === vb.zone)) await ticks(room, 1);
    const from = va.zone!;
    const frames = (sharedViewsOf(room) as unknown as { frames: HandOverFrames }).frames;
    const moveFrame = frames.moveFrame;
    const made: number[] = [];
    frames.moveFrame = (moves) => {
      made.push(room.world.tick);
      return moveFrame(moves);
    };
    const checks = [checkEveryPatch(a, byTick), checkEveryPatch(b, byTick)];
    try {
      const next = zonesEast(room, spawn, 1);
      place(room, a.id, next);
      place(room, b.id, { x: next.x + 1, z: next.z });
      const crossed = room.world.tick + 1;
      while (va.zone === from || vb.zone === from) await ticks(room, 1);
      await ticks(room, 2);
      assert.deepEqual(made, [crossed], "one frame made, in the tick they crossed");
      assert.notEqual(va.zone, from);
      assert.equal(va.zone, vb.zone, "both share the new zone's window");
      const clientOf = (p: WorldPlayer) => room.clients.find((c) => c.sessionId === p.room.sessionId)!;
      assert.equal(clientOf(a).view, clientOf(b).view, "and its StateView");
      await a.sees((s) => s.players.get(b.id)?.x === next.x + 1, "a sees b where it stands now");
    } finally {
      frames.moveFrame = moveFrame;
      checks.forEach((c) => c.stop());
    }
    for (const c of checks) {
      assert.deepEqual(c.mismatches, []);
      assert.equal(c.handOvers(), 1, "each was sent the frame");
    }
  });

  it("a sharer stepping out of its zone keeps its view up to ZONE_MARGIN tiles out, and is handed to the zone it stands in one tile further", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const byTick = recordViews(room);
    const va = sharedViewsOf(room).viewers.get(a.id)!;
    while (!va.shared) await ticks(room, 1);
    const home = va.zone!;
    const edge = zoneCentre(home.key).x + ZONE_SIZE / 2 - 1;
    const walkable = (t: Tile) => room.world.map.inBounds(t.x, t.z) && !room.world.map.isBlocked(t.x, t.z);
    // A row of the zone where both tiles past its east edge can be stood on.
    const row = [...Array(ZONE_SIZE).keys()]
      .map((dz) => zoneCentre(home.key).z - ZONE_SIZE / 2 + dz)
      .find((z) => walkable({ x: edge + ZONE_MARGIN, z }) && walkable({ x: edge + ZONE_MARGIN + 1, z }));
    assert.ok(row !== undefined, "a row to step out along");
    const check = checkEveryPatch(a, byTick);
    try {
      for (let out = 1; out <= ZONE_MARGIN; out++) {
        place(room, a.id, { x: edge + out, z: row });
        await ticks(room, 2);
        assert.equal(va.zone, home, `${out} tile(s) out: still its zone's view`);
        assert.notEqual(zoneOf({ x: edge + out, z: row }), home.key);
      }
      const beyond = { x: edge + ZONE_MARGIN + 1, z: row };
      place(room, a.id, beyond);
      for (let n = 0; va.zone === home || !va.shared; n++) {
        assert.ok(n < 5, "handed over once past the margin");
        await ticks(room, 1);
      }
      assert.equal(va.zone!.key, zoneOf(beyond), "the view of the zone it stands in");
      await ticks(room, 2);
      await a.sees(() => check.checked() > 3, "patches checked");
    } finally {
      check.stop();
    }
    assert.deepEqual(check.mismatches, []);
  });

  it("a zone's window is not worked out again while nobody comes into it or leaves it; one who does is taken in alone, without a fresh look", async () => {
    const a = await suite.join();
    const b = await suite.join();
    const c = await suite.join();
    const room = worldRoomOf(a);
    const spawn = room.world.spawnTile;
    const beside = { x: spawn.x + (spawn.x % ZONE_SIZE < ZONE_SIZE - 1 ? 1 : -1), z: spawn.z };
    place(room, b.id, beside);
    const va = sharedViewsOf(room).viewers.get(a.id)!;
    const vb = sharedViewsOf(room).viewers.get(b.id)!;
    const centre = zoneCentre(zoneOf(spawn));
    // c waits out of the zone's sight (its window: AOI_RADIUS tiles around the centre).
    place(room, c.id, { x: centre.x + AOI_RADIUS + ZONE_SIZE, z: centre.z });
    while (!(va.shared && vb.shared)) await ticks(room, 1);
    const near = room.world.near.bind(room.world);
    const asked: number[] = [];
    room.world.near = (kind, tile, radius, out) => {
      if (kind === "player" && tile.x === centre.x && tile.z === centre.z) asked.push(room.world.tick);
      return near(kind, tile, radius, out);
    };
    try {
      await ticks(room, 2);
      asked.length = 0;
      await ticks(room, 3);
      assert.deepEqual(asked, [], "not worked out while nothing moves");
      const to = { x: beside.x, z: beside.z + (beside.z % ZONE_SIZE < ZONE_SIZE - 1 ? 1 : -1) };
      place(room, b.id, to);
      await ticks(room, 1);
      assert.deepEqual(asked, [], "not worked out when b moved within the window");
      await a.sees((s) => s.players.get(b.id)?.z === to.z, "a sees b where it stands now");
      assert.equal(va.zone, vb.zone, "a and b still share the zone's view");
      // c comes into the window, standing in the next zone.
      const inSight = { x: centre.x + ZONE_SIZE, z: centre.z };
      place(room, c.id, inSight);
      await ticks(room, 1);
      assert.deepEqual(asked, [], "not worked out afresh the tick c came into the window");
      await a.sees((s) => s.players.get(c.id)?.x === inSight.x, "a sees c");
      assert.ok(va.zone!.visible.player.has(c.id), "c is in the zone's window");
    } finally {
      room.world.near = near;
    }
  });

  it("a drop only its owner may see yet gives the owner a view of its own; once public, both share again and see it", async () => {
    const a = await suite.join();
    const b = await suite.join();
    const room = worldRoomOf(a);
    const byTick = recordViews(room);
    const spawn = room.world.spawnTile;
    place(room, b.id, { x: spawn.x + (spawn.x % ZONE_SIZE < ZONE_SIZE - 1 ? 1 : -1), z: spawn.z });
    const va = sharedViewsOf(room).viewers.get(a.id)!;
    const vb = sharedViewsOf(room).viewers.get(b.id)!;
    while (!(va.shared && vb.shared)) await ticks(room, 1);
    const checks = [checkEveryPatch(a, byTick), checkEveryPatch(b, byTick)];
    try {
      const slot = room.world.players.get(a.id)!.inventory.findIndex((s) => s?.itemId === "tinderbox");
      a.send("inventory:use", { slot, action: "drop" });
      await a.next("player:sync", (s) => !s.inventory.some((i: { itemId: string } | null) => i?.itemId === "tinderbox"));
      const item = [...room.world.groundItems.values()].find((g) => g.ownerId === a.id && g.itemId === "tinderbox")!;
      await a.sees((s) => s.groundItems.get(item.id), "the owner sees its drop");
      assert.equal(va.shared, false, "the owner has a view of its own");
      assert.equal(vb.shared, true, "the other still shares the zone's");
      assert.equal(b.room.state.groundItems.get(item.id), undefined, "the other does not see the drop");
      item.createdTick -= 100; // older than the private window (a scene change, not a sleep)
      await b.sees((s) => s.groundItems.get(item.id), "the drop, public, reaches the other");
      while (!va.shared) await ticks(room, 1);
      assert.equal(va.zone, vb.zone);
      await ticks(room, 2);
      assert.ok(a.room.state.groundItems.get(item.id), "the owner still has it");
    } finally {
      checks.forEach((c) => c.stop());
    }
    for (const c of checks) assert.deepEqual(c.mismatches, []);
  });

  it("a /ws client sharing a zone's world:update and crossing zones keeps a model with no ghost and nothing missing", async () => {
    const who = await guestToken(suite.server);
    const ws = await wsConnect(suite.server.port, `?token=${encodeURIComponent(who.token)}`);
    try {
      const id = (await ws.next("authenticated")).data.playerId as string;
      const other = await suite.join();
      const room = worldRoomOf(other);
      const spawn = room.world.spawnTile;
      place(room, other.id, zonesEast(room, spawn, 1));
      const mismatches: string[] = [];
      const target = zonesEast(room, spawn, 2);
      ws.send("player:move", { x: target.x, z: target.z, run: true });
      let shared = 0;
      let cursor = 0;
      for (let seen = 0; seen < 15 || room.world.players.get(id)!.tile.x !== target.x; seen++) {
        assert.ok(seen < 60, "the walk ends");
        const f = await ws.next("world:update", () => true, { since: cursor });
        cursor = ws.frames.indexOf(f) + 1;
        if (room.world.tick !== f.data.tick) continue; // the next tick already ran: its truth is not this frame's
        if (sharedViewsOf(room).viewers.get(id)!.shared) shared++;
        const { ghosts, missing } = ghostsAndMissing(wsModelOf(ws.frames.slice(0, cursor)), heldBy(room, id));
        if (ghosts.length || missing.length) mismatches.push(`tick ${f.data.tick}: ghosts ${ghosts}, missing ${missing}`);
      }
      assert.deepEqual(mismatches, []);
      assert.ok(shared > 0, "it shared its zone's world:update on some ticks");
    } finally {
      ws.close();
    }
  });
});

describe("world room: shared views per zone, in a crowd over the cap", function () {
  this.timeout(60_000);
  const suite = worldSuite({ env: { VIEW_PLAYER_CAP: "2" } });

  it("those standing in a zone are always in its view (and share it); the cap's room left goes to the nearest others", async () => {
    const v = await suite.join();
    const room = worldRoomOf(v);
    const spawn = room.world.spawnTile;
    const zoneStart = { x: spawn.x - (spawn.x % ZONE_SIZE), z: spawn.z - (spawn.z % ZONE_SIZE) };
    place(room, v.id, zoneStart);
    // Two others just outside the zone (within the radius): with v, the zone's view is full.
    const outside = [await suite.join(), await suite.join()];
    outside.forEach((p, i) => place(room, p.id, { x: zoneStart.x + ZONE_SIZE + 1 + i, z: zoneStart.z }));
    const newcomer = await suite.join();
    place(room, newcomer.id, zonesEast(room, zoneStart, 2));
    const viewer = sharedViewsOf(room).viewers.get(v.id)!;
    while (!viewer.shared || viewer.visible.player.size < 3) await ticks(room, 1);
    // The newcomer walks into v's zone: it is shown (it stands there) and shares the view; one of the two outside makes room.
    place(room, newcomer.id, { x: zoneStart.x + 1, z: zoneStart.z + 1 });
    const nv = sharedViewsOf(room).viewers.get(newcomer.id)!;
    for (let t = 0; nv.zone === undefined || nv.zone !== viewer.zone; t++) {
      assert.ok(t < 10, "the newcomer shares the zone's view within a few ticks");
      await ticks(room, 1);
    }
    assert.ok(viewer.visible.player.has(newcomer.id), "the newcomer is in its zone's view");
    assert.equal(viewer.visible.player.size, 3, "you and two others: the cap holds");
    await v.sees((s) => s.players.get(newcomer.id) && s.players.size === 3, "the newcomer and one other");
    await newcomer.sees((s) => s.players.get(v.id) && s.players.get(newcomer.id) && s.players.size === 3, "the same view");
  });
});
