import { matchMaker } from "@colyseus/core";
import { knowledgeOf, type WorldKnowledge } from "../src/agents/knowledge.js";
import type { GameData } from "../src/manifests/index.js";
import { snapshotOf } from "../src/game/world/players.js";
import type { PlayerEntity } from "../src/game/world/entities.js";
import type { Tile } from "../src/game/types.js";
import type { ServerMessage, ServerMessageType } from "../src/protocol/index.js";
import type { AreaCounts, LiveCharacter, OnlineCharacter, PrivateOutcome, WorldAccess, WorldSummary } from "../src/worldAccess.js";
import { lockKey } from "./characterLocks.js";
import { worldRoomId } from "./worldHosting.js";
import type { WorldEntry, WorldSpec } from "../src/worldSpecs.js";
import { worldDirectory } from "./worldDirectory.js";
import { createWorld } from "./worldSetup.js";
import type { WorldRoom } from "./WorldRoom.js";

/** What the facade reads of a world room: its world, its sessions, its ignore lists and which world it is. */
export type FacadeRoom = Pick<WorldRoom, "world" | "sessions" | "ignores"> & { spec?: { id: number }; kick?: (playerId: string, by: string) => void };

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
    return "delivered";
  },
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
};
export type RoomOp = keyof typeof roomOps;
export const isRoomOp = (op: unknown): op is RoomOp => typeof op === "string" && Object.hasOwn(roomOps, op);

/** How the facade reaches world rooms: which run, which holds a character, and a call on one. */
export interface WorldRooms {
  /** The room ids of every world running (here, or anywhere in the cluster). */
  all(): Promise<string[]>;
  /** The room of the world with this id, or of the first world when none is given (undefined while it does not run). */
  ofWorld(worldId?: number): Promise<string | undefined>;
  /** The room the character is live in (the holder of its presence lock), if any. */
  holding(characterId: string): Promise<string | undefined>;
  /** An op on a room; undefined when the room does not answer (gone, its process dead). */
  call<K extends RoomOp>(roomId: string, op: K, args: unknown[]): Promise<Awaited<ReturnType<(typeof roomOps)[K]>> | undefined>;
  /** The map as the world data places it (the same in every world). */
  knowledge(): Promise<WorldKnowledge | undefined>;
  /** The configured worlds and where each stands. */
  directory(): Promise<WorldEntry[]>;
}

/** How long a remote room call may take before its room counts as not answering. */
const REMOTE_CALL_MS = 3000;

/**
 * The world rooms through Colyseus: the matchmaker's listings (this process's, or every
 * process's with the Redis driver), the presence locks of the characters, and each call made on
 * the room object when it runs here or as a remote room call when it runs on another process.
 * Never a room object of another process: everything crosses as JSON.
 */
export function colyseusWorldRooms(specs: WorldSpec[], gameData: GameData): WorldRooms {
  let knowledge: WorldKnowledge | undefined;
  return {
    directory: () => worldDirectory(specs),
    async all() {
      return (await matchMaker.query({ name: "world" })).map((l) => l.roomId);
    },
    async ofWorld(worldId = specs[0]?.id) {
      if (worldId === undefined) return undefined;
      const roomId = worldRoomId(worldId);
      return (await matchMaker.query({ name: "world", roomId })).length ? roomId : undefined;
    },
    async holding(characterId) {
      return (await matchMaker.presence.hget(lockKey(characterId), "holder")) ?? undefined;
    },
    async call(roomId, op, args) {
      const local = matchMaker.getLocalRoomById(roomId) as unknown as FacadeRoom | undefined;
      if (local?.world) return (roomOps[op] as (room: FacadeRoom, ...a: unknown[]) => any)(local, ...structuredClone(args));
      try {
        return ((await matchMaker.remoteRoomCall(roomId, "facade" as never, [op, args], REMOTE_CALL_MS)) ?? undefined) as any;
      } catch {
        return undefined;
      }
    },
    async knowledge() {
      // Every world places the same things from the same data: one placed here serves them all.
      return (knowledge ??= knowledgeOf(createWorld(gameData)));
    },
  };
}

/** The rooms of a test: the one room given (or none), holding every character. */
export function oneRoom(find: () => Promise<FacadeRoom | undefined>): WorldRooms {
  const ID = "world-1";
  return {
    all: async () => ((await find()) ? [ID] : []),
    ofWorld: async () => ((await find()) ? ID : undefined),
    holding: async () => ((await find()) ? ID : undefined),
    async call(_roomId, op, args) {
      const room = await find();
      return room ? (roomOps[op] as (room: FacadeRoom, ...a: unknown[]) => any)(room, ...args) : undefined;
    },
    knowledge: async () => {
      const room = await find();
      return room ? knowledgeOf(room.world) : undefined;
    },
    directory: async () => {
      const room = await find();
      const players = room?.world.players.size ?? 0;
      const status = room ? "online" : "offline";
      return [{ id: 1, name: "World 1", capacity: 2000, players, status, full: false, roomId: room ? ID : null, processId: null, publicAddress: null }];
    },
  };
}

/**
 * `ctx.world`: the only place outside the rooms that reaches a world room's fields, through
 * `rooms` (a character's own world for what concerns it; every world for who is online and for
 * account-wide changes; the first world for the spawn and the summary unless one is named).
 */
export function worldFacade(rooms: WorldRooms): WorldAccess {
  const onCharacter = async <K extends RoomOp>(characterId: string, op: K, args: unknown[]) => {
    const roomId = await rooms.holding(characterId);
    return roomId ? rooms.call(roomId, op, args) : undefined;
  };
  const everywhere = async <K extends RoomOp>(op: K, args: unknown[]) => Promise.all((await rooms.all()).map((id) => rooms.call(id, op, args)));
  const onWorld = async <K extends RoomOp>(worldId: number | undefined, op: K) => {
    const roomId = await rooms.ofWorld(worldId);
    return roomId ? rooms.call(roomId, op, []) : undefined;
  };
  return {
    async onlineCharacters() {
      return (await everywhere("online", [])).flatMap((list) => list ?? []);
    },
    async character(characterId) {
      return (await onCharacter(characterId, "character", [characterId])) ?? undefined;
    },
    async whereIs(characterId) {
      return (await onCharacter(characterId, "whereIs", [characterId])) ?? undefined;
    },
    async worldOf(characterId) {
      return (await onCharacter(characterId, "character", [characterId]))?.world;
    },
    async isOnline(characterId) {
      return (await onCharacter(characterId, "isOnline", [characterId])) ?? false;
    },
    async hasSession(characterId) {
      return (await onCharacter(characterId, "hasSession", [characterId])) ?? false;
    },
    async isAccountOnline(accountId) {
      return (await everywhere("isAccountOnline", [accountId])).some(Boolean);
    },
    async sendTo<K extends ServerMessageType>(characterId: string, type: K, data: ServerMessage<K>) {
      return (await onCharacter(characterId, "sendTo", [characterId, type, data])) ?? false;
    },
    async deliverPrivate(characterId, payload) {
      return (await onCharacter(characterId, "privateMessage", [characterId, payload])) ?? "offline";
    },
    async reloadIgnores(accountId) {
      await everywhere("reloadIgnores", [accountId]);
    },
    async kick(characterId, by) {
      return (await onCharacter(characterId, "kick", [characterId, by])) ?? false;
    },
    async rename(characterId, name) {
      await onCharacter(characterId, "rename", [characterId, name]);
    },
    async spawnTile() {
      return onWorld(undefined, "spawnTile");
    },
    async summary(worldId) {
      return onWorld(worldId, "summary");
    },
    async mapKnowledge() {
      return rooms.knowledge();
    },
    async worlds() {
      return rooms.directory();
    },
  };
}
