import assert from "node:assert/strict";
import { matchMaker, Room } from "@colyseus/core";
import { Client } from "@colyseus/sdk";
import { reserveSeats, withdrawUntakenSeats, type RoomSeatInternals } from "../../rooms/colyseusSeats.js";
import { reserveTradeSeats } from "../../rooms/tradeDesk.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/**
 * rooms/colyseusSeats.ts reaches into Colyseus's private seat bookkeeping (Room._reservedSeats and
 * Room._reservedSeatTimeouts) to withdraw seats, since Colyseus has no public call for it. These
 * tests run it on real rooms made through the matchmaker and taken over the real transport: they
 * fail when a Colyseus upgrade renames those fields or changes what they hold.
 */

/** A room with two seats and nothing else. */
class SeatProbe extends Room {
  maxClients = 2;
  onCreate() {
    this.autoDispose = false;
  }
}

const UPGRADE_HINT = "Colyseus changed its private seat bookkeeping: update withdrawUntakenSeats in rooms/colyseusSeats.ts";

describe("Colyseus seats: reserving both at once, withdrawing the untaken (rooms/colyseusSeats.ts)", function () {
  this.timeout(30_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
    matchMaker.defineRoomType("seat-probe", SeatProbe);
  });
  after(async () => {
    matchMaker.removeRoomType("seat-probe");
    await server?.close();
  });

  async function probeRoom() {
    const listing = await matchMaker.createRoom("seat-probe", {});
    const room = matchMaker.getLocalRoomById(listing.roomId) as SeatProbe;
    return { listing, room, seats: room as unknown as RoomSeatInternals };
  }

  it("reserveSeats reserves every seat in one call; the room's _reservedSeats and _reservedSeatTimeouts hold them with their auth", async () => {
    const { listing, room, seats } = await probeRoom();
    const [a, b] = await reserveSeats(listing, [{ who: "a" }, { who: "b" }]);
    assert.notEqual(a.sessionId, b.sessionId);
    assert.deepEqual([a.roomId, a.name, b.roomId], [listing.roomId, "seat-probe", listing.roomId]);

    assert.ok(seats._reservedSeats && typeof seats._reservedSeats === "object", UPGRADE_HINT);
    assert.ok(seats._reservedSeatTimeouts && typeof seats._reservedSeatTimeouts === "object", UPGRADE_HINT);
    assert.deepEqual(Object.keys(seats._reservedSeats).sort(), [a.sessionId, b.sessionId].sort(), UPGRADE_HINT);
    // [options, auth, consumed, reconnecting]
    assert.deepEqual(seats._reservedSeats[a.sessionId], [{}, { who: "a" }, false, false], UPGRADE_HINT);
    assert.deepEqual(Object.keys(seats._reservedSeatTimeouts).sort(), [a.sessionId, b.sessionId].sort(), UPGRADE_HINT);
    assert.equal(typeof seats._reservedSeatTimeouts[a.sessionId]?.hasRef, "function", UPGRADE_HINT);
    assert.ok(room.hasReservedSeat(a.sessionId) && room.hasReservedSeat(b.sessionId));

    // Both seats are taken by the reservations: a third is refused, and nothing is half-reserved.
    assert.ok(room.hasReachedMaxClients());
    await assert.rejects(reserveSeats(listing, [{ who: "c" }]), /refused a seat|full/);
    assert.equal(Object.keys(seats._reservedSeats).length, 2);
    await room.disconnect();
  });

  it("withdrawUntakenSeats: a withdrawn seat can no longer be taken, a taken one stays, and the room has room again", async () => {
    const { listing, room, seats } = await probeRoom();
    const [a, b] = await reserveSeats(listing, [{ who: "a" }, { who: "b" }]);

    const taken = await new Client(server.url).consumeSeatReservation(a);
    assert.equal(room.clients.length, 1);
    assert.deepEqual(room.clients[0].auth, { who: "a" }, "a seat's auth becomes its client's auth");
    // A taken seat is no longer listed: only the untaken one is withdrawn.
    assert.deepEqual(Object.keys(seats._reservedSeats), [b.sessionId], UPGRADE_HINT);

    assert.deepEqual(withdrawUntakenSeats(room), [b.sessionId]);
    assert.deepEqual(Object.keys(seats._reservedSeats), []);
    assert.deepEqual(Object.keys(seats._reservedSeatTimeouts), []);
    assert.equal(room.hasReservedSeat(b.sessionId), false, UPGRADE_HINT);
    assert.equal(room.hasReachedMaxClients(), false, UPGRADE_HINT);

    // Colyseus reads the same fields when a client comes with the seat: it is refused.
    await assert.rejects(new Client(server.url).consumeSeatReservation(b));
    assert.equal(room.clients.length, 1);
    assert.equal(room.clients[0].sessionId, a.sessionId);
    await taken.leave();
    await room.disconnect();
  });

  it("reserveTradeSeats: both traders' reservations by player id, their seat as the auth", async () => {
    const { listing, seats, room } = await probeRoom();
    const wanted = [
      { tradeId: "t1", playerId: "p-a", accountId: "acc-a" },
      { tradeId: "t1", playerId: "p-b", accountId: "acc-b" },
    ];
    const byPlayer = await reserveTradeSeats(listing, wanted);
    assert.deepEqual([...byPlayer.keys()], ["p-a", "p-b"]);
    assert.deepEqual((seats._reservedSeats[byPlayer.get("p-b")!.sessionId] as unknown[])[1], wanted[1]);
    assert.deepEqual(withdrawUntakenSeats(room).sort(), [byPlayer.get("p-a")!.sessionId, byPlayer.get("p-b")!.sessionId].sort());
    await room.disconnect();
  });
});
