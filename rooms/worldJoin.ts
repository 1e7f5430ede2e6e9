import { ErrorCode, matchMaker, type AuthContext } from "@colyseus/core";
import { WorldChoiceError, type WorldEntry } from "../src/worldSpecs.js";
import { consumeInMemory, inMemoryAuth, type InMemoryRoomClient } from "./inMemoryClient.js";

/**
 * A seat in the world `w` (as chooseWorld picked it), wherever in the cluster it runs. A world
 * that filled up (or stopped) between the choice and the seat is WORLD_FULL (WORLD_UNAVAILABLE).
 */
export async function reserveWorldSeat(w: WorldEntry, options: Record<string, unknown>, auth: AuthContext): Promise<matchMaker.ISeatReservation> {
  if (!w.roomId) throw new WorldChoiceError(503, "WORLD_UNAVAILABLE", `World ${w.id} is not running right now; try again shortly`);
  try {
    return await matchMaker.joinById(w.roomId, options, auth);
  } catch (err) {
    const message = err instanceof Error ? err.message : "";
    const code = (err as { code?: unknown })?.code;
    if (/not available|not found/.test(message) || (code === ErrorCode.MATCHMAKE_INVALID_ROOM_ID && !/locked/.test(message)))
      throw new WorldChoiceError(503, "WORLD_UNAVAILABLE", `World ${w.id} is not running right now; try again shortly`);
    if (/locked|full/.test(message)) throw new WorldChoiceError(409, "WORLD_FULL", `World ${w.id} is full (capacity ${w.capacity}); choose another world`);
    throw err;
  }
}

/** Join an in-memory client (a /ws player, a built-in agent) to the world `w`, which runs on this process. */
export async function joinWorldInMemory<C extends InMemoryRoomClient>(
  make: (sessionId: string) => C,
  token: string,
  w: WorldEntry,
  options: Record<string, unknown>,
  remoteAddress: string,
) {
  const auth = inMemoryAuth(token, remoteAddress);
  return consumeInMemory(make, await reserveWorldSeat(w, options, auth), auth);
}
