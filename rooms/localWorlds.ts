import { matchMaker } from "@colyseus/core";
import type { LocalWorlds } from "../src/staff/restart.js";
import type { WorldRoom } from "./WorldRoom.js";
import { worldRoomId } from "./worldHosting.js";

/** The world rooms this process runs (those of `ids`), as a scheduled restart and the operator's changes reach them. */
export function localWorlds(ids: () => Iterable<number>): LocalWorlds {
  const rooms = () =>
    [...ids()].map((id) => matchMaker.getLocalRoomById(worldRoomId(id)) as WorldRoom | undefined).filter((r) => r?.staff !== undefined) as WorldRoom[];
  return {
    broadcast: (payload) => rooms().forEach((room) => room.staff.broadcast(payload)),
    applyStanding: (accountId, standing) => rooms().forEach((room) => room.staff.applyStanding(accountId, standing)),
    saveAll: async () => (await Promise.all(rooms().map((room) => room.saveAll()))).reduce((sum, n) => sum + n, 0),
    closeAll: async (code, reason) => {
      await Promise.all(
        rooms().map(async (room) => {
          room.closeAll(code, reason);
          await room.settled();
        }),
      );
    },
  };
}
