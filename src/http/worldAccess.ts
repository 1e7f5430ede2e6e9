import { matchMaker } from "@colyseus/core";
import type { WorldRoom } from "../../rooms/WorldRoom.js";

/** The world room of this process (REST reads who is online, where, and steers agents through it). */
export async function liveWorld(): Promise<WorldRoom | undefined> {
  const [listing] = await matchMaker.query({ name: "world" });
  return listing ? (matchMaker.getLocalRoomById(listing.roomId) as unknown as WorldRoom | undefined) : undefined;
}
