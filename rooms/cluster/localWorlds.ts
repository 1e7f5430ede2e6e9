import { matchMaker } from "@colyseus/core";
import type { LocalWorlds } from "../../src/staff/restart.js";
import type { WorldRoom } from "../WorldRoom.js";
import { worldRoomId } from "./worldHosting.js";

/** How long a restart waits for the rooms to let their players go before it stops the process anyway. */
const CLOSE_DEADLINE_MS = 15_000;

/** The world rooms this process runs (those of `ids`), as a scheduled restart and the operator's changes reach them. */
export function localWorlds(ids: () => Iterable<number>): LocalWorlds {
  const rooms = () =>
    [...ids()].map((id) => matchMaker.getLocalRoomById(worldRoomId(id)) as WorldRoom | undefined).filter((r) => r?.staff !== undefined) as WorldRoom[];
  return {
    broadcast: (payload) => rooms().forEach((room) => room.staff.broadcast(payload)),
    applyStanding: (accountId, standing) => rooms().forEach((room) => room.staff.applyStanding(accountId, standing)),
    applyContent: (data) => rooms().map((room) => ({ world: room.spec.id, ...room.applyContent(data) })),
    callOff: async () => void (await Promise.all(rooms().map((room) => room.callOff()))),
    saveAll: async () => (await Promise.all(rooms().map((room) => room.saveAll()))).reduce((sum, n) => sum + n, 0),
    closeAll: async (code, reason) => {
      // Each room's sessions left and saved, or the deadline: the graceful stop that follows saves whatever is left.
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_DEADLINE_MS)));
      await Promise.race([Promise.all(rooms().map((room) => room.closeAll(code, reason))), deadline]).finally(() => clearTimeout(timer));
    },
  };
}
