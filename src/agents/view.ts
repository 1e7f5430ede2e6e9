import { chebyshev } from "../game/movement.js";
import type { Tile } from "../game/types.js";
import {
  INVENTORY_SIZE,
  type DialogueNodeView,
  type GroundItemView,
  type NpcView,
  type PlayerSync,
  type PlayerView,
  type QuestView,
  type ResourceView,
  type StoreItemView,
  type StoreView,
  type WorldUpdate,
} from "../protocol/index.js";

/**
 * What an agent knows of the world: exactly what a client is told. Its own private state comes
 * from `player:sync`; everything in view from the per-tick `world:update` deltas; the conversation
 * and the store it has open from `dialogue:*` and `store:*`.
 */

/** What the view keeps of each entity in sight: the fields of `world:update` it reads. */
export type SeenPlayer = Pick<PlayerView, "id" | "x" | "z" | "moving" | "health" | "action">;
export type SeenNpc = Pick<NpcView, "id" | "npcId" | "name" | "x" | "z" | "health" | "state">;
export type SeenResource = Pick<ResourceView, "id" | "resourceId" | "skill" | "x" | "z" | "depleted">;
export type SeenGroundItem = Pick<GroundItemView, "id" | "itemId" | "quantity" | "x" | "z">;

/**
 * What the view reads of a `player:sync` (a whole PlayerSync will do, and so does a character's
 * REST view with `bank` and `action` null, with its quest journal or without).
 */
export type SyncSeen = Pick<PlayerSync, "id" | "name" | "position" | "health" | "maxHealth" | "combatLevel" | "skills"> &
  Partial<Pick<PlayerSync, "equipment" | "action" | "prayer" | "autocast" | "vars">> & {
    /** The bank in reach (a placeholder's quantity is 0). */
    bank?: Array<{ itemId: string; quantity: number; tab?: number }> | null;
    inventory: SelfState["inventory"];
    quests?: { quests: QuestView[] };
  };

/** What the view reads of a `world:update` (a whole WorldUpdate will do). */
export interface UpdateSeen {
  tick?: WorldUpdate["tick"];
  players?: SeenPlayer[];
  npcs?: SeenNpc[];
  resources?: SeenResource[];
  groundItems?: SeenGroundItem[];
  removed?: WorldUpdate["removed"];
}

export interface SelfState {
  id: string;
  name: string;
  tile: Tile;
  health: number;
  maxHealth: number;
  combatLevel: number;
  skills: Record<string, { level: number; xp: number }>;
  inventory: Array<{ slot: number; itemId: string; quantity: number; locked?: boolean }>;
  equipment: Record<string, { itemId: string; quantity: number } | undefined>;
  /** The quest journal: every quest started (the others are not started). */
  quests: QuestView[];
  /** Present only while standing at a bank. */
  bank: Array<{ itemId: string; quantity: number }> | null;
  /** "gather" | "attack" | "pickup" | null (from player:sync) */
  action: string | null;
  /** What others see it do (world:update): "", "woodcutting", "mining", "fishing", "combat", "pickup". */
  doing: string;
  moving: boolean;
  /** Prayer points and the prayers on (absent: not told yet). */
  prayer?: { points: number; max: number; active: string[] };
  /** The spell its staff autocasts. */
  autocast?: string | null;
  /** Its settings and the features' state shown to it (player:sync's vars; empty when not told). */
  vars: PlayerSync["vars"];
}

export class AgentView {
  self: SelfState | null = null;
  tick = 0;
  readonly players = new Map<string, SeenPlayer>();
  readonly npcs = new Map<string, SeenNpc>();
  readonly resources = new Map<string, SeenResource>();
  readonly groundItems = new Map<string, SeenGroundItem>();
  /** The node of the conversation in progress (the last `dialogue:node`), null once it ended. */
  dialogue: DialogueNodeView | null = null;
  /** The store open (`store:open`, kept up to date by `store:update`), null once closed. */
  store: StoreView | null = null;
  /** What its bank held when it last stood at one (null: never seen). */
  banked: Array<{ itemId: string; quantity: number }> | null = null;

  /** Apply a `player:sync`. */
  sync(s: SyncSeen) {
    // Placeholders (0 of an item) hold nothing an agent could withdraw.
    const bank = s.bank
      ? s.bank.filter((b) => b.quantity > 0).map((b) => ({ itemId: b.itemId, quantity: b.quantity, ...(b.tab ? { tab: b.tab } : {}) }))
      : null;
    if (bank) this.banked = bank;
    this.self = {
      id: s.id,
      name: s.name,
      tile: { x: s.position.x, z: s.position.z },
      health: s.health,
      maxHealth: s.maxHealth,
      combatLevel: s.combatLevel,
      skills: s.skills,
      inventory: s.inventory,
      equipment: s.equipment ?? {},
      quests: s.quests?.quests ?? this.self?.quests ?? [],
      bank,
      action: s.action ?? null,
      doing: this.self?.doing ?? "",
      moving: this.self?.moving ?? false,
      ...(s.prayer ? { prayer: { points: s.prayer.points, max: s.prayer.max, active: [...s.prayer.active] } } : {}),
      autocast: s.autocast ?? null,
      vars: s.vars ?? this.self?.vars ?? {},
    };
  }

  /** Apply a `world:update` delta. */
  update(u: UpdateSeen) {
    this.tick = u.tick ?? this.tick;
    for (const p of u.players ?? []) {
      this.players.set(p.id, p);
      if (this.self && p.id === this.self.id) {
        this.self.tile = { x: p.x, z: p.z };
        this.self.moving = p.moving;
        this.self.health = p.health;
        this.self.doing = p.action ?? "";
      }
    }
    for (const n of u.npcs ?? []) this.npcs.set(n.id, n);
    for (const r of u.resources ?? []) this.resources.set(r.id, r);
    for (const g of u.groundItems ?? []) this.groundItems.set(g.id, g);
    for (const id of u.removed ?? []) {
      this.players.delete(id);
      this.npcs.delete(id);
      this.resources.delete(id);
      this.groundItems.delete(id);
    }
  }

  /** `dialogue:node`, `dialogue:end`. */
  dialogueShown(node: DialogueNodeView | null) {
    this.dialogue = node;
  }

  /** `store:open`, `store:close`. */
  storeShown(store: StoreView | null) {
    this.store = store;
  }

  /** `store:update`: the shelves that changed, and those gone. */
  storeUpdated(u: { storeId: string; items: StoreItemView[]; removed: string[] }) {
    if (!this.store || this.store.storeId !== u.storeId) return;
    const changed = new Map(u.items.map((i) => [i.itemId, i]));
    const items = this.store.items.filter((i) => !u.removed.includes(i.itemId)).map((i) => changed.get(i.itemId) ?? i);
    for (const i of u.items) if (!items.some((x) => x.itemId === i.itemId)) items.push(i);
    this.store = { ...this.store, items };
  }

  freeSlots(): number {
    return INVENTORY_SIZE - (this.self?.inventory.length ?? 0);
  }

  count(itemId: string): number {
    return (this.self?.inventory ?? []).filter((s) => s.itemId === itemId).reduce((n, s) => n + s.quantity, 0);
  }
}

/** The nearest of `things` to `from`, or undefined. */
export function nearest<T extends { x: number; z: number }>(from: Tile, things: Iterable<T>): T | undefined {
  let best: T | undefined;
  let bestD = Infinity;
  for (const t of things) {
    const d = chebyshev(from, t);
    if (d < bestD) [best, bestD] = [t, d];
  }
  return best;
}
