import { matchMaker } from "@colyseus/core";
import { knowledgeOf, type WorldKnowledge } from "../../src/game/world/knowledge.js";
import type { GameData } from "../../src/manifests/index.js";
import type { Tile } from "../../src/game/types.js";
import type { ServerMessage, ServerMessageType } from "../../src/protocol/index.js";
import type { LiveCharacter, OnlineCharacter, PrivateOutcome, WorldAccess, WorldSummary } from "../../src/worldAccess.js";
import { characterClaims } from "../characterLocks.js";
import { worldRoomId } from "./worldHosting.js";
import type { WorldEntry, WorldSpec } from "../../src/worldSpecs.js";
import { worldDirectory } from "./worldDirectory.js";
import { createWorld } from "../worldSetup.js";
import { roomOps, type FacadeRoom, type RoomOp } from "../roomOps.js";

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
export function colyseusWorldRooms(specs: WorldSpec[], gameData: () => GameData): WorldRooms {
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
      return characterClaims(matchMaker.presence).holderOf(characterId);
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
      // Every world places the same things from the same data: one placed here serves them all (until a content reload).
      const data = gameData();
      if (knowledge?.data !== data) knowledge = knowledgeOf(createWorld(data));
      return knowledge;
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
    async applyStanding(accountId, standing) {
      await everywhere("applyStanding", [accountId, standing]);
    },
    async broadcast(payload) {
      await everywhere("broadcast", [payload]);
    },
    async chatBetween(characterId, otherId) {
      return (await onCharacter(characterId, "chatBetween", [characterId, otherId])) ?? [];
    },
    async saveAll() {
      return (await everywhere("saveAll", [])).reduce<number>((sum, n) => sum + (n ?? 0), 0);
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
    async worldStats() {
      return (await everywhere("stats", [])).filter((s) => s !== undefined).sort((a, b) => a.world - b.world);
    },
    async mapKnowledge() {
      return rooms.knowledge();
    },
    async worlds() {
      return rooms.directory();
    },
  };
}
