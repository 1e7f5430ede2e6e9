import type { ItemStack, SkillName, Tile } from "../types.js";

/**
 * What a tick or a command produced that someone must be told of, or that must be stored.
 * The room turns these into messages and database writes; the world never does I/O.
 */
export type WorldEvent =
  | { kind: "xp"; playerId: string; skill: SkillName; xp: number; level: number; gained: number }
  | { kind: "levelUp"; playerId: string; skill: SkillName; level: number }
  | { kind: "hit"; attackerId: string; targetId: string; damage: number; targetHealth: number; at: Tile }
  | { kind: "notice"; playerId: string; code: string; message: string }
  | { kind: "actionFailed"; playerId: string; code: string; message: string }
  | { kind: "npcKilled"; playerId: string; npcId: string; at: Tile }
  | { kind: "death"; playerId: string; deathId: string; at: Tile; items: ItemStack[]; killedBy: string | null }
  | { kind: "deathExpired"; deathId: string };

export class EventSink {
  private events: WorldEvent[] = [];
  push(e: WorldEvent) {
    this.events.push(e);
  }
  drain(): WorldEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }
}
