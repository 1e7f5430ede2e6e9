import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { killNpc, killPlayer } from "../../src/game/world/npcSystem.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken, joinWorld } from "../helpers/worldClient.js";
import { place, setRng, ticks, theWorld } from "../helpers/worldRoom.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";
import { ghostsAndMissing, heldBy, wsModelOf } from "../helpers/viewChecks.js";

/**
 * The /ws parts of issue 10, views: every departure from a view (a player switching identity,
 * teleported, killed, kicked, taken over; npcs, fires and ground items leaving the world) is listed
 * in `world:update.removed`, so a client never keeps a ghost.
 */

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));

/** Wait until the socket's model of its view is the server's (no ghost, nothing missing). */
async function modelMatches(p: WsPlayer, room: WorldRoom, playerId: string) {
  try {
    await p.next("world:update", () => sameSet(wsModelOf(p.frames), heldBy(room, playerId)), { timeoutMs: 10_000 });
  } catch {
    const { ghosts, missing } = ghostsAndMissing(wsModelOf(p.frames), heldBy(room, playerId));
    assert.fail(`the client's view differs from the server's: ghosts ${JSON.stringify(ghosts)}, missing ${JSON.stringify(missing)}`);
  }
}

/** The next world:update after `since` that lists `id` in `removed`. */
const removedIn = (p: WsPlayer, id: string, since: number) => p.next("world:update", (f) => f.data.removed.includes(id), { since, timeoutMs: 10_000 });

describe("/ws integrity: whatever leaves a view is listed in world:update.removed", function () {
  this.timeout(60_000);
  let server: TestServer;
  const open: WsPlayer[] = [];
  const ADMIN = "integrity-admin-code";
  /** The cow pasture: 45 tiles from the spawn, out of its view. */
  const PASTURE = { x: 110, z: 57 };
  before(async () => {
    server = await startTestServer({ env: { WS_GUEST_AFTER_MS: "50", ADMIN_CODE: ADMIN } });
  });
  afterEach(() => {
    for (const p of open.splice(0)) p.close();
  });
  after(async () => {
    await server?.close();
  });
  /** A /ws player by token (URL), in the world. */
  const player = async (query = "") => {
    const p = await wsConnect(server.port, query || `?token=${encodeURIComponent((await guestToken(server)).token)}`);
    open.push(p);
    const auth = await p.next("authenticated");
    await p.next("world:update");
    return { p, id: auth.data.playerId as string, name: (await p.next("player:sync")).data.name as string };
  };
  const admin = async (p: WsPlayer) => {
    const since = p.mark();
    p.send("player:chat", { message: `/admin ${ADMIN}` });
    await p.next("notice", (f) => f.data.code === "ADMIN_GRANTED", { since });
  };

  it("an identity switch on /ws: the socket's next world:update removes its previous player and whatever it saw; other /ws and SDK viewers drop it too", async () => {
    const room = await theWorld();
    const watcher = await player();
    const sdk = await joinWorld(server);
    const first = await guestToken(server);
    const second = await guestToken(server);
    // Authenticate first: the socket's first player is the token's (no guest).
    const b = await wsConnect(server.port);
    open.push(b);
    b.send("authenticate", { token: first.token }, "one");
    const old = (await b.next("authenticated", (f) => f.id === "one")).data.playerId as string;
    // All three stand at the cow pasture, 45 tiles from the spawn where the next identity appears.
    place(room, watcher.id, PASTURE);
    place(room, sdk.id, { x: PASTURE.x + 1, z: PASTURE.z });
    place(room, old, { x: PASTURE.x, z: PASTURE.z + 1 });
    await watcher.p.next("world:update", (f) => f.data.players.some((p: { id: string }) => p.id === old));
    while (!sdk.room.state.players.has(old)) await ticks(room, 1);
    await modelMatches(b, room, old);
    const seen = wsModelOf(b.frames);
    assert.ok(
      [...seen].some((id) => id.startsWith("npc:brindle_pasture")),
      "the socket saw the pasture's animals",
    );

    const since = b.mark();
    const watcherSince = watcher.p.mark();
    b.send("authenticate", { token: second.token }, "two");
    const now = (await b.next("authenticated", (f) => f.id === "two", { since })).data.playerId as string;
    assert.notEqual(now, old);
    // The new identity's first update lists its previous player, and all it saw at the pasture, as removed.
    const firstUpdate = await b.next("world:update", () => true, { since });
    const inView = heldBy(room, now);
    assert.ok(firstUpdate.data.removed.includes(old), `the previous player is removed: ${JSON.stringify(firstUpdate.data.removed)}`);
    for (const id of seen) if (!inView.has(id)) assert.ok(firstUpdate.data.removed.includes(id), `${id} is removed`);
    await modelMatches(b, room, now);
    assert.equal(wsModelOf(b.frames).has(old), false);
    // The other viewers: the watcher's next updates list it, the SDK client's state drops it.
    await removedIn(watcher.p, old, watcherSince);
    await modelMatches(watcher.p, room, watcher.id);
    for (let i = 0; sdk.room.state.players.has(old); i++) {
      assert.ok(i < 20, "the SDK client still has the previous player");
      await ticks(room, 1);
    }
    await sdk.leave();
  });

  it("a player teleported away, killed and respawned elsewhere, kicked, or gone is removed from a viewer's view; so are npcs, fires and ground items that leave the world", async () => {
    const room = await theWorld();
    const viewer = await player();
    const other = await player();
    await admin(viewer.p);
    await admin(other.p);
    const scene = PASTURE;
    for (const who of [viewer, other]) {
      const since = who.p.mark();
      who.p.send("player:chat", { message: `/tp ${scene.x} ${scene.z + (who === other ? 1 : 0)}` });
      await who.p.next("notice", (f) => f.data.code === "TELEPORTED", { since });
    }
    await viewer.p.next("world:update", (f) => f.data.players.some((p: { id: string }) => p.id === other.id));

    // Teleported out of range.
    let since = viewer.p.mark();
    other.p.send("player:chat", { message: `/tp ${scene.x + 40} ${scene.z}` });
    await removedIn(viewer.p, other.id, since);
    await modelMatches(viewer.p, room, viewer.id);
    other.p.send("player:chat", { message: `/tp ${scene.x} ${scene.z + 1}` });
    await viewer.p.next("world:update", (f) => f.data.players.some((p: { id: string }) => p.id === other.id), { since });

    // Killed: it wakes at the spawn, far away.
    since = viewer.p.mark();
    killPlayer(room.world, room.world.players.get(other.id)!, null);
    await removedIn(viewer.p, other.id, since);
    await modelMatches(viewer.p, room, viewer.id);
    since = viewer.p.mark();
    other.p.send("player:chat", { message: `/tp ${scene.x} ${scene.z + 1}` });
    await viewer.p.next("world:update", (f) => f.data.players.some((p: { id: string }) => p.id === other.id), { since });

    // An npc killed, a fire burnt out, a ground item taken.
    const cow = [...room.world.npcs.values()].find((n) => n.defId === "cow" && n.deadUntilTick == null && heldBy(room, viewer.id).has(n.id));
    assert.ok(cow, "a cow in view");
    since = viewer.p.mark();
    killNpc(room.world, cow, room.world.players.get(viewer.id)!);
    await removedIn(viewer.p, cow.id, since);

    setRng(room, 0);
    since = viewer.p.mark();
    viewer.p.send("player:chat", { message: "/give logs 1" });
    await viewer.p.next("notice", (f) => f.data.code === "GIVEN", { since });
    const inv = (await viewer.p.next("player:sync", (f) => f.data.inventory.some((s: { itemId: string }) => s.itemId === "logs"), { since })).data
      .inventory as Array<{ slot: number; itemId: string }>;
    const slotOf = (itemId: string) => inv.find((s) => s.itemId === itemId)!.slot;
    since = viewer.p.mark();
    viewer.p.send("inventory:use", { slot: slotOf("tinderbox"), targetSlot: slotOf("logs") });
    const fire = (
      await viewer.p.next("world:update", (f) => f.data.resources.some((r: { id: string }) => r.id.startsWith("fire:")), { since })
    ).data.resources.find((r: { id: string }) => r.id.startsWith("fire:"));
    room.world.resources.get(fire.id)!.expiresAtTick = room.world.tick + 1;
    await removedIn(viewer.p, fire.id, since);

    since = viewer.p.mark();
    viewer.p.send("inventory:use", { slot: slotOf("coins"), action: "drop" });
    const isCoins = (g: { itemId: string }) => g.itemId === "coins";
    const dropped = (await viewer.p.next("world:update", (f) => f.data.groundItems.some(isCoins), { since })).data.groundItems.find(isCoins);
    viewer.p.send("player:action", { action: "pickup", targetId: dropped.id });
    await removedIn(viewer.p, dropped.id, since);
    await modelMatches(viewer.p, room, viewer.id);

    // Kicked, then a player that simply leaves.
    since = viewer.p.mark();
    viewer.p.send("player:chat", { message: `/kick ${other.name}` });
    assert.equal((await other.p.closed).code, 4101);
    await removedIn(viewer.p, other.id, since);
    const third = await player();
    since = viewer.p.mark();
    third.p.send("player:chat", { message: `/admin ${ADMIN}` });
    await third.p.next("notice", (f) => f.data.code === "ADMIN_GRANTED");
    third.p.send("player:chat", { message: `/tp ${scene.x + 1} ${scene.z}` });
    await viewer.p.next("world:update", (f) => f.data.players.some((p: { id: string }) => p.id === third.id), { since });
    since = viewer.p.mark();
    third.p.close();
    await removedIn(viewer.p, third.id, since);
    await modelMatches(viewer.p, room, viewer.id);
  });

  it("a take-over by another login keeps one copy of the character in a viewer's view, where it stands", async () => {
    const room = await theWorld();
    const viewer = await player();
    const who = await guestToken(server);
    const first = await player(`?token=${encodeURIComponent(who.token)}`);
    await viewer.p.next("world:update", (f) => f.data.players.some((p: { id: string }) => p.id === first.id));
    const second = await wsConnect(server.port, `?token=${encodeURIComponent(who.token)}`);
    open.push(second);
    assert.equal((await second.next("authenticated")).data.playerId, first.id);
    assert.equal((await first.p.closed).code, 4100);
    await modelMatches(viewer.p, room, viewer.id);
    assert.ok(wsModelOf(viewer.p.frames).has(first.id));
  });
});
