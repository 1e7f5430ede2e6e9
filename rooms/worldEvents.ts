import { AOI_RADIUS } from "../src/game/spatialGrid.js";
import type { WorldEvent } from "../src/game/world/events.js";
import type { World } from "../src/game/world/World.js";
import type { ServerMessage, ServerMessageType } from "../src/protocol/index.js";

/** What turning the world's events into messages needs from its room. */
export interface EventContext {
  world: World;
  /** Send a message to a player in the world (nothing when they are not online). */
  toPlayer<K extends ServerMessageType>(playerId: string, type: K, payload: ServerMessage<K>): void;
  /** A player died: its trade ends, and the death lock and the emptied pack are written now. */
  playerDied(playerId: string): void;
  /** A death pile ran out: its lock is closed in the database. */
  deathExpired(deathId: string): void;
}

/** The tick's world events as the messages the players are told (docs/PROTOCOL.md §4). */
export function dispatchEvents(ctx: EventContext, events: WorldEvent[]) {
  const position = (at: { x: number; z: number }) => ({ x: at.x, y: 0, z: at.z });
  for (const e of events) {
    switch (e.kind) {
      case "xp":
        ctx.toPlayer(e.playerId, "skill:xp", { skill: e.skill, xp: e.xp, level: e.level, gained: e.gained });
        break;
      case "levelUp":
        ctx.toPlayer(e.playerId, "skill:levelup", { skill: e.skill, level: e.level });
        break;
      case "hit":
        for (const id of ctx.world.near("player", e.at, AOI_RADIUS)) {
          ctx.toPlayer(id, "combat:hit", { attackerId: e.attackerId, targetId: e.targetId, damage: e.damage, targetHealth: e.targetHealth });
        }
        break;
      case "notice":
        ctx.toPlayer(e.playerId, "notice", { code: e.code, message: e.message });
        break;
      case "actionFailed":
        ctx.toPlayer(e.playerId, "error", { code: e.code, message: e.message });
        break;
      case "npcKilled":
        ctx.toPlayer(e.playerId, "npc:killed", { npcId: e.npcId, position: position(e.at) });
        break;
      case "death":
        ctx.toPlayer(e.playerId, "player:death", { deathId: e.deathId, position: position(e.at), items: e.items, killedBy: e.killedBy });
        ctx.playerDied(e.playerId);
        break;
      case "deathExpired":
        ctx.deathExpired(e.deathId);
        break;
    }
  }
}
