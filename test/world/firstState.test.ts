import assert from "node:assert/strict";
import { Protocol } from "@colyseus/core";
import { Decoder } from "@colyseus/schema";
import { WorldState } from "../../schema/WorldState.js";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { zoneOf } from "../../src/game/world/interest.js";
import { worldSuite, type WorldPlayer } from "../helpers/worldClient.js";
import { place, tileAway, ticks, worldRoomOf } from "../helpers/worldRoom.js";
import { COLLECTIONS, checkEveryPatch, decodedState, recordComplaints, recordViews, sharedViewsOf, snapshotOf, zonesEast, type Snapshot } from "../helpers/viewChecks.js";

/**
 * A joining SDK client's first state (rooms/interest/firstState.ts, rooms/interest/firstViews.ts): made from what its
 * view was seeded with, it decodes onto an empty state to exactly what the server has it see, with
 * no structure before the entry that introduces it, however the join falls between ticks.
 */

/** Each client's first state as sent, by session id, and what its viewer held when it was made. */
function recordFirstStates(room: WorldRoom) {
  const sent = new Map<string, { bytes: Uint8Array; meant?: Snapshot }>();
  const internals = room as unknown as { sendFullState(client: any): void };
  const sendFullState = internals.sendFullState.bind(room);
  internals.sendFullState = (client: any) => {
    const raw = client.raw.bind(client);
    client.raw = (bytes: Uint8Array) => {
      client.raw = raw;
      const playerId = client.userData?.playerId as string | undefined;
      const viewer = playerId ? sharedViewsOf(room).viewers.get(playerId) : undefined;
      sent.set(client.sessionId, { bytes: bytes.slice(), meant: viewer && snapshotOf(room, viewer.visible) });
      raw(bytes);
    };
    sendFullState(client);
  };
  return sent;
}

/** Decode a first state onto an empty state: what it decodes to, and what the decoder complained of (it logs a structure it does not know, and skips it). */
function decodeFirst(bytes: Uint8Array): { state: Snapshot; complaints: string[] } {
  assert.equal(bytes[0], Protocol.ROOM_STATE);
  const decoder = new Decoder(new WorldState() as any);
  const complaints = recordComplaints("error", "warn");
  try {
    decoder.decode(bytes, { offset: 1 });
  } finally {
    complaints.stop();
  }
  return { state: decodedState(decoder.state), complaints: complaints.lines };
}

/** The client's first state decodes on its own to what was meant, and the patches after it keep it so. */
async function checkFirstState(sent: ReturnType<typeof recordFirstStates>, p: WorldPlayer, byTick: ReturnType<typeof recordViews>) {
  const first = sent.get(p.room.sessionId);
  assert.ok(first?.meant, "its first state was recorded with what its viewer held");
  const decoded = decodeFirst(first.bytes);
  assert.deepEqual(decoded.complaints, [], "every structure comes after what introduces it");
  assert.deepEqual(decoded.state, first.meant, "the first state decodes, onto an empty state, to exactly what it was to hold");
  for (const c of Object.values(COLLECTIONS)) assert.ok((p.room.state as any)[c], `state.${c}`);
  // The client's own decoder complains the same way of a patch it cannot place.
  const complaints = recordComplaints("error");
  const check = checkEveryPatch(p, byTick);
  try {
    await p.sees(() => check.checked() >= 3, "three patches");
  } finally {
    check.stop();
    complaints.stop();
  }
  assert.deepEqual(check.mismatches, []);
  assert.deepEqual(complaints.lines, [], "the patches after it decode without a complaint");
}

describe("world room: a joining client's first state", function () {
  this.timeout(60_000);
  const suite = worldSuite();

  it("introduces every collection, and with the patches after it holds exactly what the server has it see", async () => {
    const first = await suite.join();
    const room = worldRoomOf(first);
    const byTick = recordViews(room);
    // Patches have gone out: the state has nothing pending, bar what changes as b joins.
    await ticks(room, 2);
    const views = sharedViewsOf(room);
    const firstAdds = views.first.firstAdds.bind(views.first);
    let madeFromSeededView = false;
    views.first.firstAdds = (view) => {
      const adds = firstAdds(view);
      madeFromSeededView ||= adds !== undefined;
      return adds;
    };
    const sent = recordFirstStates(room);
    const b = await suite.join();
    await b.sees((s) => s.players.get(b.id) && s.players.get(first.id), "itself and the other player");
    assert.ok(madeFromSeededView, "its first state was made from its seeded view (FirstViews.firstAdds)");
    const meant = sent.get(b.room.sessionId)!.meant!;
    assert.ok(Object.keys(meant.resource).length > 0 && Object.keys(meant.player).length === 2, "itself, the other player and resources");
    await checkFirstState(sent, b, byTick);
    assert.ok(sharedViewsOf(room).viewers.get(b.id)!.visible.resource.size > 0, "it sees resources near the spawn");
  });

  it("two joins between the same two ticks into a zone nobody stood in: the second's first state brings the first, changes not yet patched and all, in order", async () => {
    const first = await suite.join();
    const room = worldRoomOf(first);
    const spawn = room.world.spawnTile;
    // Nobody stands in the spawn's zone: it has no window, so each join there is shown what lies around it.
    place(room, first.id, zonesEast(room, spawn, 3));
    await ticks(room, 2);
    assert.equal(sharedViewsOf(room).zones.has(zoneOf(spawn)), false, "the spawn's zone has no window");
    const byTick = recordViews(room);
    const sent = recordFirstStates(room);
    // No tick until both have joined: b is in the schema with its fields not yet patched when c's first state is made.
    room.loop.stop();
    let b: WorldPlayer, c: WorldPlayer;
    try {
      b = await suite.join();
      c = await suite.join();
    } finally {
      room.loop.begin();
    }
    assert.ok(sent.get(c.room.sessionId)?.meant?.player[b.id], "c's first state was to hold b");
    await checkFirstState(sent, c, byTick);
    await checkFirstState(sent, b, byTick);
  });

  it("a character taken over between two ticks, its state changed and not yet patched: the new session's first state brings it whole, in order", async () => {
    const first = await suite.join();
    const room = worldRoomOf(first);
    const b = await suite.join();
    const target = tileAway(room, room.world.players.get(b.id)!.tile, 6);
    b.send("player:move", { x: target.x, z: target.z });
    await b.sees((s) => s.players.get(b.id)?.moving === true, "itself walking");
    const byTick = recordViews(room);
    const sent = recordFirstStates(room);
    // No tick until the new session is in: its player's state in the schema is the old session's, changed by the join.
    room.loop.stop();
    let again: WorldPlayer;
    try {
      again = await suite.join({ characterId: b.id }, { token: b.token, accountId: b.accountId });
    } finally {
      room.loop.begin();
    }
    assert.equal(again.id, b.id);
    assert.ok(sent.get(again.room.sessionId)?.meant?.player[first.id], "it was to hold the other player");
    await checkFirstState(sent, again, byTick);
  });

  it("a client whose answer to its join comes after a patch is sent, as its first state, exactly what its view holds by then", async () => {
    const first = await suite.join();
    const room = worldRoomOf(first);
    const byTick = recordViews(room);
    const sent = recordFirstStates(room);
    const held = holdJoinAnswer(room, () => ticks(room, 2));
    const ticked = room.world.tick;
    const b = await suite.join();
    assert.ok(held.done, "b's answer to its join was held");
    assert.ok(room.world.tick >= ticked + 2, "patches went out before b's first state");
    assert.ok(sharedViewsOf(room).viewers.get(b.id)!.shared, "b shares its zone's view by then");
    assert.ok(sent.get(b.room.sessionId)?.meant?.player[first.id], "b was to hold the other player");
    await checkFirstState(sent, b, byTick);
  });

  it("the same with a window of its own by then (a drop only it may see), from which another player left meanwhile", async () => {
    const first = await suite.join();
    const room = worldRoomOf(first);
    const byTick = recordViews(room);
    const sent = recordFirstStates(room);
    const held = holdJoinAnswer(room, async (playerId) => {
      // Its window is its own, then the other player walks out of it: the view's queue has an add and a remove its client never got.
      const me = room.world.players.get(playerId)!;
      room.world.addGroundItem({ id: room.world.newId(), itemId: "logs", quantity: 1, tile: { ...me.tile }, ownerId: playerId, createdTick: room.world.tick });
      await ticks(room, 1);
      place(room, first.id, zonesEast(room, me.tile, 3));
      await ticks(room, 2);
    });
    const b = await suite.join();
    assert.ok(held.done, "b's answer to its join was held");
    const vb = sharedViewsOf(room).viewers.get(b.id)!;
    assert.equal(vb.shared, false, "b has a window of its own");
    assert.equal(vb.visible.player.has(first.id), false, "the other player left b's window");
    assert.equal(Object.keys(sent.get(b.room.sessionId)!.meant!.groundItem).length, 1, "b was to hold its drop");
    await checkFirstState(sent, b, byTick);
  });
});

/** Hold the next client's answer to JOIN_ROOM (after which its first state is sent) until `meanwhile` is done with its player. */
function holdJoinAnswer(room: WorldRoom, meanwhile: (playerId: string) => Promise<void>) {
  const internals = room as unknown as { _onMessage(client: unknown, buffer: Uint8Array): void };
  const onMessage = internals._onMessage;
  const held = { done: false };
  internals._onMessage = function (this: WorldRoom, client: any, buffer: Uint8Array) {
    if (held.done || buffer[0] !== Protocol.JOIN_ROOM) return onMessage.call(this, client, buffer);
    held.done = true;
    meanwhile(client.userData.playerId).then(() => onMessage.call(this, client, buffer));
  };
  return held;
}
