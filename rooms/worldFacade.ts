import { matchMaker } from "@colyseus/core";
import { knowledgeOf } from "../src/agents/knowledge.js";
import { snapshotOf } from "../src/game/world/players.js";
import type { PlayerEntity } from "../src/game/world/entities.js";
import type { AreaCounts, OnlineCharacter, WorldAccess } from "../src/worldAccess.js";
import type { WorldRoom } from "./WorldRoom.js";

/** What the facade reads of a world room: its world, its sessions and its ignore lists. */
export type FacadeRoom = Pick<WorldRoom, "world" | "sessions" | "ignores">;

/** The area an npc or resource was placed by: its id is `npc:<area>:…` / `res:<area>:…` (src/game/world/setup.ts). */
const areaOf = (id: string) => id.split(":")[1] ?? "";

const online = (p: PlayerEntity): OnlineCharacter => ({ id: p.id, name: p.name, isAgent: p.isAgent, combatLevel: p.combatLevel, tile: { ...p.tile } });

/** The world room of this process, if one runs here (the first `world` room listed). */
export async function localWorldRoom(): Promise<FacadeRoom | undefined> {
  const [listing] = await matchMaker.query({ name: "world" });
  return listing ? (matchMaker.getLocalRoomById(listing.roomId) as unknown as WorldRoom | undefined) : undefined;
}

/**
 * `ctx.world` in one process: the world room running here, found through the matchmaker at each
 * call (none while the server starts or stops). The only place outside the rooms that reads a
 * world room's fields. `findRoom` is for tests.
 */
export function localWorld(findRoom: () => Promise<FacadeRoom | undefined> = localWorldRoom): WorldAccess {
  return {
    async onlineCharacters() {
      const room = await findRoom();
      return room ? [...room.world.players.values()].map(online) : [];
    },
    async character(characterId) {
      const p = (await findRoom())?.world.players.get(characterId);
      return p ? { ...snapshotOf(p), combatLevel: p.combatLevel } : undefined;
    },
    async whereIs(characterId) {
      const p = (await findRoom())?.world.players.get(characterId);
      return p ? { ...p.tile } : undefined;
    },
    async isOnline(characterId) {
      return (await findRoom())?.world.players.has(characterId) ?? false;
    },
    async hasSession(characterId) {
      return (await findRoom())?.sessions.has(characterId) ?? false;
    },
    async isAccountOnline(accountId) {
      const room = await findRoom();
      return [...(room?.sessions.values() ?? [])].some((s) => s.accountId === accountId);
    },
    async sendTo(characterId, type, data) {
      const session = (await findRoom())?.sessions.get(characterId);
      if (!session) return false;
      session.client.send(type, data);
      return true;
    },
    async reloadIgnores(accountId) {
      await (await findRoom())?.ignores?.reload(accountId);
    },
    async rename(characterId, name) {
      const world = (await findRoom())?.world;
      const p = world?.players.get(characterId);
      if (!world || !p) return;
      p.name = name;
      world.touchPlayer(p, true);
    },
    async spawnTile() {
      const world = (await findRoom())?.world;
      return world ? { ...world.spawnTile } : undefined;
    },
    async summary() {
      const world = (await findRoom())?.world;
      if (!world) return undefined;
      const areas = new Map<string, AreaCounts>();
      const area = (id: string) => {
        const key = areaOf(id);
        let a = areas.get(key);
        if (!a) areas.set(key, (a = { npcs: { alive: 0, dead: 0 }, resources: { available: 0, depleted: 0 } }));
        return a;
      };
      for (const npc of world.npcs.values()) area(npc.id).npcs[npc.deadUntilTick != null ? "dead" : "alive"]++;
      for (const r of world.resources.values()) area(r.id).resources[r.depleted ? "depleted" : "available"]++;
      return { tick: world.tick, players: [...world.players.values()].map(online), areas };
    },
    async mapKnowledge() {
      const world = (await findRoom())?.world;
      return world ? knowledgeOf(world) : undefined;
    },
  };
}
