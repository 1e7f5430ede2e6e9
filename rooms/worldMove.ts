import type { Presence } from "@colyseus/core";
import { CLOSE_CODES } from "../src/protocol/index.js";
import { MoveTickets } from "./cluster/moveTickets.js";
import type { Session, WorldClient } from "./worldSessions.js";

/** What a world room moving out (a drain) is asked for. */
export interface MovingRoom {
  spec: { id: number };
  presence: Presence;
  sessions: Map<string, Session>;
  /** Trades and duels under way end `server_shutdown`, nothing moves; both sides are told first. */
  callOff(): Promise<void>;
  saveAll(): Promise<number>;
  closeAll(code: number, reason: string): Promise<void>;
}

/**
 * A world leaves this process for another of the cluster (rooms/cluster/worldHosting.ts, drain):
 * what is half agreed is called off (nothing moves), every player is saved, each session is told
 * `world:moving` with a resume token that works on any process (rooms/cluster/moveTickets.ts) and
 * closed with 4103 WORLD_MOVED; resolves once every leave is saved. The room refuses joins from the
 * start (WorldRoom.onAuth), so a client that knocks too soon is told to try again.
 */
export async function moveSessionsOut(room: MovingRoom, hosts: string[], next: string | null): Promise<number> {
  await room.callOff();
  await room.saveAll();
  const tickets = new MoveTickets(room.presence);
  const message = `World ${room.spec.id} moves to another server process: join again in a moment`;
  const sessions = [...room.sessions.values()];
  await Promise.all(
    sessions.map(async (s) => {
      const auth = (s.client as WorldClient).auth;
      const resumeToken = await tickets.issue({
        accountId: s.accountId,
        characterId: s.playerId,
        world: room.spec.id,
        claims: { role: auth?.role ?? "player", ...(auth?.guest ? { guest: true } : {}), ...(auth?.characterId ? { characterId: auth.characterId } : {}) },
      });
      s.client.send("world:moving", { world: room.spec.id, resumeToken, hosts, next, message });
    }),
  );
  await room.closeAll(CLOSE_CODES.WORLD_MOVED, "world moved");
  return sessions.length;
}
