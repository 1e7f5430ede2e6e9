import type { World } from "../src/game/world/World.js";
import type { Session } from "./worldSessions.js";

/** What the admin monitor shows of a room (its list of clients, at least). */
export interface InspectData {
  clients: Array<{ sessionId: string } & Record<string, unknown>>;
  [key: string]: unknown;
}

/**
 * The admin monitor's view of a world room (/colyseus: @colyseus/monitor adds `getInspectData` to
 * every room without typing it), with each client's character and account beside its session id.
 */
export function withCharacters(base: InspectData, room: { sessions: ReadonlyMap<string, Session>; world: World }): InspectData {
  const bySession = new Map([...room.sessions.values()].map((s) => [s.client.sessionId, s]));
  return {
    ...base,
    clients: base.clients.map((c) => {
      const s = bySession.get(c.sessionId);
      const p = s ? room.world.players.get(s.playerId) : undefined;
      return { ...c, characterId: s?.playerId ?? null, name: p?.name ?? null, accountId: s?.accountId ?? null, isAgent: p?.isAgent ?? false };
    }),
  };
}
