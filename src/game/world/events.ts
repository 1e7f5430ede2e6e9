import type { DialogueNode } from "../../manifests/dialogue.js";
import type { ProductionKind } from "../../protocol/vocabulary.js";
import type { QuestEvent } from "../quests.js";
import type { AttackKind } from "../attacks.js";
import type { ItemStack, SkillName, Tile } from "../types.js";

/**
 * What a tick or a command produced that someone must be told of, or that must be stored.
 * The room turns these into messages and database writes; the world never does I/O.
 */
export type WorldEvent =
  | { kind: "xp"; playerId: string; skill: SkillName; xp: number; level: number; gained: number }
  | { kind: "levelUp"; playerId: string; skill: SkillName; level: number }
  /** A blow; a spell that missed outright `splash`es. */
  | { kind: "hit"; attackerId: string; targetId: string; damage: number; targetHealth: number; at: Tile; style: AttackKind; splash?: boolean }
  | { kind: "notice"; playerId: string; code: string; message: string }
  | { kind: "actionFailed"; playerId: string; code: string; message: string }
  | { kind: "npcKilled"; playerId: string; npcId: string; at: Tile }
  | { kind: "death"; playerId: string; deathId: string; at: Tile; items: ItemStack[]; killedBy: string | null }
  | { kind: "deathExpired"; deathId: string }
  | { kind: "dialogue"; playerId: string; npcId: string; npcName: string; node: DialogueNode }
  | { kind: "dialogueEnd"; playerId: string; npcId: string; reason: "finished" | "closed" | "walked_away" | "npc_gone" | "content_changed" }
  | { kind: "bankOpened"; playerId: string; npcId: string }
  | { kind: "storeOpened"; playerId: string }
  | { kind: "storeClosed"; playerId: string; storeId: string; reason: "closed" | "walked_away" | "npc_gone" | "content_changed" }
  /** Shelves of a store changed: everyone with it open is told. */
  | { kind: "storeChanged"; storeId: string; itemIds: string[] }
  | { kind: "quest"; playerId: string; event: QuestEvent }
  /** One production attempt (`made` empty when it failed). */
  | { kind: "made"; playerId: string; recipeKind: ProductionKind; recipeId: string; success: boolean; made: ItemStack[]; remaining: number }
  | { kind: "tannerOpened"; playerId: string; npcId: string }
  /** Content a feature read and could not use (its own manifest's bad entries): logged as a warning. */
  | { kind: "contentWarning"; message: string }
  /** A dialogue effect the server does not play (logged once per name). */
  | { kind: "unknownEffect"; npcId: string; effect: string };

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
