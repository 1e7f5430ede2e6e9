import assert from "node:assert/strict";
import { matchMaker } from "@colyseus/core";
import { Client } from "@colyseus/sdk";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { guestToken, joinWorld, worldSuite } from "../helpers/worldClient.js";
import { leaveAndSettle, place, ticks, worldRoomOf } from "../helpers/worldRoom.js";
import { wsConnect } from "../helpers/wsClient.js";

describe("world room: chat, admin and sessions", function () {
  this.timeout(30_000);
  const suite = worldSuite({ env: { ADMIN_CODE: "open-sesame-77" } });
  const join = suite.join;

  it("local chat reaches nearby players, not far ones; /world reaches everyone", async () => {
    const a = await join();
    const near = await join();
    const far = await join();
    const room = worldRoomOf(a);
    const spawn = room.world.spawnTile;
    place(room, near.id, { x: spawn.x + 2, z: spawn.z });
    place(room, far.id, { x: spawn.x + 60, z: spawn.z });
    await ticks(room, 1);
    const sNear = near.mark();
    const sFar = far.mark();
    a.send("player:chat", { message: "  hello\u0007 there  " });
    const heard = await near.next("chat:message", () => true, { since: sNear });
    assert.deepEqual([heard.fromId, heard.fromName, heard.message, heard.channel], [a.id, a.sync().name, "hello there", "local"]);
    assert.ok(!Number.isNaN(Date.parse(heard.timestamp)));
    a.send("player:chat", { message: "/world anyone out there?" });
    const shout = await far.next("chat:message", () => true, { since: sFar });
    assert.deepEqual([shout.message, shout.channel], ["anyone out there?", "world"]);
    assert.equal(far.received.slice(sFar).filter((m) => m.type === "chat:message").length, 1, "the far player did not hear the local message");
  });

  it("chat limits: too long, empty, wrong types are refused", async () => {
    const a = await join();
    for (const [payload, code] of [
      [{ message: "x".repeat(201) }, "MESSAGE_TOO_LONG"],
      [{ message: "   " }, "EMPTY_MESSAGE"],
      [{ message: 42 }, "INVALID_PAYLOAD"],
      [{ message: "x".repeat(1500) }, "INVALID_PAYLOAD"],
      [{}, "INVALID_PAYLOAD"],
      [{ message: "/dance" }, "UNKNOWN_COMMAND"],
    ] as const) {
      const since = a.mark();
      a.send("player:chat", payload);
      assert.equal((await a.next("error", () => true, { since })).code, code, JSON.stringify(payload).slice(0, 40));
    }
  });

  it("admin commands are refused until /admin with the right code; wrong codes say so and lock after 3", async () => {
    const a = await join();
    const b = await join();
    const room = worldRoomOf(a);
    let since = a.mark();
    a.send("player:chat", { message: "/give logs 5" });
    assert.equal((await a.next("error", () => true, { since })).code, "FORBIDDEN");
    since = a.mark();
    a.send("player:chat", { message: "/admin nope" });
    const wrong = await a.next("error", () => true, { since });
    assert.equal(wrong.code, "ADMIN_WRONG_CODE");
    assert.match(wrong.message, /2 attempts left/);
    since = a.mark();
    a.send("player:chat", { message: "/admin open-sesame-77" });
    assert.equal((await a.next("notice", () => true, { since })).code, "ADMIN_GRANTED");

    // give
    since = a.mark();
    a.send("player:chat", { message: "/give logs 3" });
    await a.next("notice", (n) => n.code === "GIVEN", { since });
    assert.equal(room.world.players.get(a.id)!.inventory.filter((s) => s?.itemId === "logs").length, 3);
    since = a.mark();
    a.send("player:chat", { message: "/give no_such_item 1" });
    assert.equal((await a.next("error", () => true, { since })).code, "UNKNOWN_ITEM");
    since = a.mark();
    a.send("player:chat", { message: "/give logs -4" });
    assert.equal((await a.next("error", () => true, { since })).code, "INVALID_QUANTITY");
    // teleport
    const dest = { x: room.world.spawnTile.x + 10, z: room.world.spawnTile.z + 3 };
    since = a.mark();
    a.send("player:chat", { message: `/tp ${dest.x} ${dest.z}` });
    await a.next("notice", (n) => n.code === "TELEPORTED", { since });
    assert.deepEqual(room.world.players.get(a.id)!.tile, dest);
    since = a.mark();
    a.send("player:chat", { message: "/tp 99999 5" });
    assert.equal((await a.next("error", () => true, { since })).code, "OUT_OF_BOUNDS");
    // kick
    const closed = new Promise<number>((resolve) => b.room.onLeave((code: number) => resolve(code)));
    a.send("player:chat", { message: `/kick ${b.sync().name}` });
    assert.equal(await closed, 4101);

    // c is another account: never granted, and locks after three wrong codes.
    const c = await join();
    // The third wrong code locks the gate: then even the right code is refused.
    for (const [code, expected] of [["guess", "ADMIN_WRONG_CODE"], ["guess", "ADMIN_WRONG_CODE"], ["guess", "ADMIN_LOCKED"], ["open-sesame-77", "ADMIN_LOCKED"]]) {
      since = c.mark();
      c.send("player:chat", { message: `/admin ${code}` });
      assert.equal((await c.next("error", () => true, { since })).code, expected);
    }
    since = c.mark();
    c.send("player:chat", { message: "/tp 100 100" });
    assert.equal((await c.next("error", () => true, { since })).code, "FORBIDDEN");
  });

  it("the /admin lock is the account's: reconnecting, even over /ws, buys no more guesses; other accounts are not locked", async () => {
    const who = await guestToken(suite.server);
    const first = await join({}, who);
    for (const expected of ["ADMIN_WRONG_CODE", "ADMIN_WRONG_CODE"]) {
      const since = first.mark();
      first.send("player:chat", { message: "/admin guess" });
      assert.equal((await first.next("error", () => true, { since })).code, expected);
    }
    await leaveAndSettle(first);
    // A new session of the same account: one guess left, then locked, even for the right code.
    const second = await join({}, who);
    let since = second.mark();
    second.send("player:chat", { message: "/admin guess" });
    const locked = await second.next("error", () => true, { since });
    assert.equal(locked.code, "ADMIN_LOCKED");
    assert.match(locked.message, /15 minutes/);
    await leaveAndSettle(second);
    const ws = await wsConnect(suite.server.port, `?token=${encodeURIComponent(who.token)}`);
    await ws.next("player:sync");
    ws.send("player:chat", { message: "/admin open-sesame-77" });
    assert.equal((await ws.next("error")).data.code, "ADMIN_LOCKED");
    ws.close();
    await ws.closed;
    // Someone else's account is not affected.
    const other = await join();
    since = other.mark();
    other.send("player:chat", { message: "/admin open-sesame-77" });
    assert.equal((await other.next("notice", () => true, { since })).code, "ADMIN_GRANTED");
  });

  it("a second login of the same character replaces the first", async () => {
    const who = await guestToken(suite.server);
    const first = await join({}, who);
    const room = worldRoomOf(first);
    // Progress made in the first session carries over.
    const p = room.world.players.get(first.id)!;
    p.inventory[20] = { itemId: "logs", quantity: 1 };
    room.world.touchPlayer(p);
    const told = first.next("session:replaced");
    const closed = new Promise<number>((resolve) => first.room.onLeave((code: number) => resolve(code)));
    const second = await join({}, who);
    assert.equal(second.id, first.id);
    await told;
    assert.equal(await closed, 4100);
    assert.equal(room.sessions.size, suite.players.filter((x) => x !== first).length);
    assert.deepEqual(second.sync().inventory.find((s: { slot: number }) => s.slot === 20), { slot: 20, itemId: "logs", quantity: 1, locked: false });
    assert.equal([...room.world.players.keys()].filter((id) => id === first.id).length, 1);
    const sessions = await suite.server.ctx.db.prisma.playerSession.findMany({ where: { characterId: first.id }, orderBy: { startedAt: "asc" } });
    assert.equal(sessions.length, 2);
    assert.equal(sessions[0].endReason, "replaced");
    assert.equal(sessions[1].endedAt, null);
  });

  it("two logins of one character at once: one connection stays, one session, one character in the world", async () => {
    const who = await guestToken(suite.server);
    // Each connection is watched from the moment it joins: the earlier one may be closed before the other has joined.
    const open = new Set<Awaited<ReturnType<Client["joinOrCreate"]>>>();
    const connect = async () => {
      const sdk = new Client(suite.server.url);
      sdk.auth.token = who.token;
      const r = await sdk.joinOrCreate("world");
      open.add(r);
      r.onLeave(() => open.delete(r));
      return r;
    };
    const rooms = (await Promise.allSettled([connect(), connect()])).flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    assert.ok(rooms.length >= 1);
    const room = matchMaker.getLocalRoomById(rooms[0].roomId) as unknown as WorldRoom;
    await ticks(room, 3);
    // The earlier login was told and closed: one connection is left, and it is the live session.
    assert.equal(open.size, 1, "exactly one connection stays open");
    const mine = [...room.sessions.values()].filter((s) => s.accountId === who.accountId);
    assert.equal(mine.length, 1, "one live session");
    assert.equal(room.world.players.has(mine[0].playerId), true);
    assert.equal([...room.world.players.values()].filter((p) => p.accountId === who.accountId).length, 1, "one character in the world");
    await Promise.all([...open].map((r) => r.leave().catch(() => {})));
  });
});
