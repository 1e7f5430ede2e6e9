import { matchMaker } from "@colyseus/core";
import type { IgnoreLists } from "../src/db/socialRepo.js";
import { snapshotOf } from "../src/game/world/players.js";
import type { PlayerEntity } from "../src/game/world/entities.js";
import type { World } from "../src/game/world/World.js";
import type { Tile } from "../src/game/types.js";
import type { ServerMessage, ServerMessageType } from "../src/protocol/index.js";
import type { AreaCounts, LiveCharacter, OnlineCharacter, PrivateOutcome, WorldStats, WorldSummary } from "../src/worldAccess.js";
import type { Session } from "./worldSessions.js";
import type { WorldStaff } from "./worldStaff.js";
import type { StandingView } from "../src/db/staffRepo.js";

/** What the facade reads of a world room: its world, its sessions, its ignore lists and which world it is. */
export interface FacadeRoom {
  world: World;
  sessions: ReadonlyMap<string, Pick<Session, "accountId" | "client"> & Partial<Pick<Session, "clientType">>>;
  ignores?: Pick<IgnoreLists, "ignores" | "reload">;
  spec?: { id: number };
  kick?: (playerId: string, by: string) => void;
  /** The staff side of the room: standings, broadcasts, the chat kept for reports. */
  staff?: Pick<WorldStaff, "applyStanding" | "broadcast" | "chat">;
  /** Save every player of the room now; how many. */
  saveAll?: () => Promise<number>;
  /** Its latest ticks (rooms/recentTicks.ts). */
  tickSummary?: () => { ticks: number; medianMs: number; p99Ms: number };
}

/** The area an npc or resource was placed by: its id is `npc:<area>:…` / `res:<area>:…` (src/game/world/setup.ts). */
const areaOf = (id: string) => id.split(":")[1] ?? "";

const online = (room: FacadeRoom, p: PlayerEntity): OnlineCharacter => ({
  id: p.id,
  name: p.name,
  isAgent: p.isAgent,
  combatLevel: p.combatLevel,
  tile: { ...p.tile },
  world: room.spec?.id ?? 1,
});

/**
 * What one world room answers for the facade, on the process it runs on: plain JSON in and out
 * (in a cluster these cross processes as remote room calls, WorldRoom.facade).
 */
export const roomOps = {
  online: (room: FacadeRoom): OnlineCharacter[] => [...room.world.players.values()].map((p) => online(room, p)),
  character(room: FacadeRoom, characterId: string): LiveCharacter | null {
    const p = room.world.players.get(characterId);
    return p ? structuredClone({ ...snapshotOf(p), combatLevel: p.combatLevel, world: room.spec?.id ?? 1 }) : null;
  },
  whereIs(room: FacadeRoom, characterId: string): Tile | null {
    const p = room.world.players.get(characterId);
    return p ? { ...p.tile } : null;
  },
  isOnline: (room: FacadeRoom, characterId: string): boolean => room.world.players.has(characterId),
  hasSession: (room: FacadeRoom, characterId: string): boolean => room.sessions.has(characterId),
  isAccountOnline: (room: FacadeRoom, accountId: string): boolean => [...room.sessions.values()].some((s) => s.accountId === accountId),
  sendTo(room: FacadeRoom, characterId: string, type: string, data: unknown): boolean {
    const session = room.sessions.get(characterId);
    if (!session) return false;
    session.client.send(type as ServerMessageType, data as never);
    return true;
  },
  /** A private message to the character's session, unless its account ignores the sender. */
  privateMessage(room: FacadeRoom, characterId: string, payload: ServerMessage<"chat:message">): PrivateOutcome {
    const session = room.sessions.get(characterId);
    if (!session) return "offline";
    if (room.ignores?.ignores(session.accountId, payload.fromId)) return "ignored";
    session.client.send("chat:message", payload);
    room.staff?.chat.heard(characterId, {
      at: payload.timestamp,
      fromId: payload.fromId,
      fromName: payload.fromName,
      channel: "private",
      message: payload.message,
    });
    return "delivered";
  },
  /** The account's standing changed: its sessions here take it (a ban removes them). */
  applyStanding: (room: FacadeRoom, accountId: string, standing: StandingView): boolean => room.staff?.applyStanding(accountId, standing) ?? false,
  broadcast: (room: FacadeRoom, payload: ServerMessage<"system:broadcast">): boolean => room.staff?.broadcast(payload) ?? false,
  saveAll: async (room: FacadeRoom): Promise<number> => (room.saveAll ? room.saveAll() : 0),
  /** The chat lines `characterId` saw between it and `otherId` (for a report made over REST). */
  chatBetween: (room: FacadeRoom, characterId: string, otherId: string) => room.staff?.chat.between(characterId, otherId) ?? [],
  /** An admin's kick of the character's session. */
  kick(room: FacadeRoom, characterId: string, by: string): boolean {
    if (!room.sessions.has(characterId) || !room.kick) return false;
    room.kick(characterId, by);
    return true;
  },
  async reloadIgnores(room: FacadeRoom, accountId: string): Promise<boolean> {
    await room.ignores?.reload(accountId);
    return true;
  },
  rename(room: FacadeRoom, characterId: string, name: string): boolean {
    const p = room.world.players.get(characterId);
    if (!p) return false;
    p.name = name;
    room.world.touchPlayer(p, true);
    return true;
  },
  summary(room: FacadeRoom): WorldSummary {
    const { world } = room;
    const areas: Record<string, AreaCounts> = {};
    const area = (id: string) => (areas[areaOf(id)] ??= { npcs: { alive: 0, dead: 0 }, resources: { available: 0, depleted: 0 } });
    for (const npc of world.npcs.values()) area(npc.id).npcs[npc.deadUntilTick != null ? "dead" : "alive"]++;
    for (const r of world.resources.values()) area(r.id).resources[r.depleted ? "depleted" : "available"]++;
    return { world: room.spec?.id ?? 1, tick: world.tick, players: roomOps.online(room), areas };
  },
  spawnTile: (room: FacadeRoom): Tile => ({ ...room.world.spawnTile }),
  /** Who plays in the world and how, its ticks, and the process that runs it (its memory). */
  stats(room: FacadeRoom): WorldStats {
    const byClient: Record<string, number> = {};
    for (const s of room.sessions.values()) byClient[s.clientType ?? "colyseus"] = (byClient[s.clientType ?? "colyseus"] ?? 0) + 1;
    let agents = 0;
    for (const p of room.world.players.values()) if (p.isAgent) agents++;
    const memory = process.memoryUsage();
    return {
      world: room.spec?.id ?? 1,
      tick: room.world.tick,
      players: room.world.players.size,
      agents,
      sessionsByClient: byClient,
      ticks: room.tickSummary?.() ?? null,
      processId: matchMaker.processId ?? null,
      processMemory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed, heapTotalBytes: memory.heapTotal },
    };
  },
};
export type RoomOp = keyof typeof roomOps;
export const isRoomOp = (op: unknown): op is RoomOp => typeof op === "string" && Object.hasOwn(roomOps, op);
