import { generateId, matchMaker, type IRoomCache, type Room } from "@colyseus/core";

/** A seat reserved in a room, as a client consumes it (`client.consumeSeatReservation`). */
export type SeatReservation = matchMaker.ISeatReservation;

/**
 * Reserve one seat per auth in the listed room, all in one call to the room (one message when the
 * room is on another process). Each seat's auth becomes its client's `client.auth` when it joins.
 * The reservations come back in the order of `auths`; when the room refuses any seat (full, or
 * closing) this throws, and the seats it did grant expire unused after the room's reservation time.
 */
export async function reserveSeats(listing: IRoomCache, auths: readonly object[]): Promise<SeatReservation[]> {
  const sessionIds = auths.map(() => generateId());
  const granted = await matchMaker.reserveMultipleSeatsFor(
    listing,
    auths.map((auth, i) => ({ sessionId: sessionIds[i], options: {}, auth })),
  );
  if (granted.length !== auths.length || granted.some((ok) => !ok)) throw new Error(`room ${listing.roomId} refused a seat`);
  return sessionIds.map((sessionId) => matchMaker.buildSeatReservation(listing, sessionId));
}

/**
 * Colyseus 0.18's private seat bookkeeping on a Room: `_reservedSeats` (session id → [options, auth,
 * consumed, reconnecting]; a seat turns non-enumerable once its client is in) and
 * `_reservedSeatTimeouts` (session id → the timer that expires it). Colyseus has no public call to
 * withdraw a reservation; test/rooms/colyseusSeats.test.ts fails if an upgrade renames or changes
 * these fields.
 */
export interface RoomSeatInternals {
  _reservedSeats: Record<string, unknown>;
  _reservedSeatTimeouts: Record<string, NodeJS.Timeout | undefined>;
}

/**
 * Withdraw every seat reserved in the room and not taken yet: its client can no longer join with
 * it. A room that is closing calls this, since a seat taken into a closing room would keep it open.
 * Returns the session ids withdrawn.
 */
export function withdrawUntakenSeats(room: Room): string[] {
  const seats = room as unknown as RoomSeatInternals;
  const withdrawn = Object.keys(seats._reservedSeats);
  for (const sessionId of withdrawn) {
    clearTimeout(seats._reservedSeatTimeouts[sessionId]);
    delete seats._reservedSeatTimeouts[sessionId];
    delete seats._reservedSeats[sessionId];
  }
  return withdrawn;
}
