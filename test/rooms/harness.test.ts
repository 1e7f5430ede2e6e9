import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { bootArena, guest, joinAsGuest, quietOtherMessages, type Harness, type Player } from "./harness.js";

/**
 * The world room through @colyseus/testing, as a game developer would test a room: `boot()` the
 * server's default export (arena.config.ts), join with the harness's SDK, and wait for events:
 * a message (`client.waitForMessage`), a patch (`client.waitForNextPatch()` on the client,
 * `room.waitForNextPatch()` on the server), never for time. The server-side room
 * (`colyseus.getRoomById`) is the truth to check against.
 */
describe("harness: the world room through @colyseus/testing", function () {
  // Booting opens a database and makes the world; a tick is 600 ms.
  this.timeout(60_000);
  let colyseus: Harness;
  let world: WorldRoom;
  let close: () => Promise<void>;
  const joined: Player["room"][] = [];

  before(async () => {
    ({ colyseus, world, close } = await bootArena());
  });
  afterEach(async () => {
    // A consented leave: the world saves the character.
    await Promise.all(joined.splice(0).map((room) => room.leave().catch(() => {})));
  });
  after(async () => {
    await close?.();
  });

  async function join(): Promise<Player> {
    const player = await joinAsGuest(colyseus, world);
    joined.push(player.room);
    return player;
  }

  it("a guest joins: its private player:sync, and itself in the synchronised state", async () => {
    const a = await join();
    assert.match(a.id, /\S/);
    assert.ok(Array.isArray(a.sync.inventory) && a.sync.inventory.length > 0, "the starter kit");
    // The shared state holds the player (in its own view), where the sync says it stands.
    const me = a.room.state.players.get(a.id);
    assert.ok(me, "the player is in its state");
    assert.equal(me.name, a.sync.name);
    assert.deepEqual([me.x, me.z], [a.sync.position.x, a.sync.position.z]);
    // And the server's room has the session.
    assert.ok(world.sessions.has(a.id));
  });

  it("a move is applied by the world's tick and seen in the patches", async () => {
    const a = await join();
    const me = () => a.room.state.players.get(a.id);
    const target = { x: me().x + 2, z: me().z };
    assert.ok(!world.world.map.isBlocked(target.x, target.z), "a walkable tile next to the spawn");

    a.room.send("player:move", target);
    // Walking covers two tiles a tick: the player arrives within a patch or two (five at most).
    for (let i = 0; i < 5 && me().x !== target.x; i++) await a.room.waitForNextPatch();
    assert.deepEqual([me().x, me().z], [target.x, target.z]);
    assert.deepEqual(world.world.players.get(a.id)!.tile, target);
  });

  it("a chat message reaches another player nearby", async () => {
    const a = await join();
    // colyseus.connectTo(room) when the first sync is not needed: it resolves once the state is in,
    // after that sync came (the SDK warns it had no handler for it).
    colyseus.sdk.auth.token = (await guest(colyseus)).token;
    const listener = await colyseus.connectTo(world);
    joined.push(listener);
    quietOtherMessages(listener);

    // The waiter goes in before the message is sent.
    const heard = listener.waitForMessage("chat:message", 15_000);
    a.room.send("player:chat", { message: "hello from the harness" });
    const chat = await heard;
    assert.equal(chat.fromId, a.id);
    assert.equal(chat.fromName, a.sync.name);
    assert.equal(chat.message, "hello from the harness");
    assert.equal(chat.channel, "local");
  });

  it("an invalid payload is answered with error INVALID_PAYLOAD and changes nothing", async () => {
    const a = await join();
    const before = { ...world.world.players.get(a.id)!.tile };

    const answer = a.room.waitForMessage("error", 15_000);
    a.room.send("player:move", { x: "ten", z: before.z });
    const error = await answer;
    assert.equal(error.code, "INVALID_PAYLOAD");
    assert.equal(typeof error.message, "string");

    // Two ticks of the server later (each ends with a patch), the player has not moved.
    await world.waitForNextPatch();
    await world.waitForNextPatch();
    assert.deepEqual(world.world.players.get(a.id)!.tile, before);
    assert.deepEqual(world.world.players.get(a.id)!.path, []);
    assert.deepEqual([a.room.state.players.get(a.id).x, a.room.state.players.get(a.id).z], [before.x, before.z]);
  });
});
