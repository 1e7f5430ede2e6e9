import { maxHealth } from "../../src/game/skills.js";
import type { EntityKind, PlayerEntity } from "../../src/game/world/entities.js";
import type { World } from "../../src/game/world/World.js";
import { GroundItemState, NpcState, PlayerState, ResourceState, StationState, type WorldState } from "../../schema/WorldState.js";
import { KINDS, collectionOf, type AnyState } from "./stateCollections.js";

/** What others see a player doing: the resource's skill while gathering, "combat", the recipe's skill while making, a feature's name, or the action. */
function actionLabel(w: World, p: PlayerEntity): string {
  const a = p.action;
  if (!a) return "";
  if (a.type === "gather") return w.resources.get(a.targetId)?.skill ?? "gather";
  if (a.type === "attack") return "combat";
  if (a.type === "make") return w.data.recipes[a.kind]?.find((r) => r.id === a.recipeId)?.skill ?? "make";
  if (a.type === "feature") return a.feature;
  return a.type;
}

/** Told by the mirror of what the views filtering the state need to know. */
export interface MirrorWatcher {
  /** The schema was synced from the world (a whole tick's changes). */
  synced(): void;
  /** A state left the schema (its DELETE still goes to views that held it). */
  removed(kind: EntityKind, id: string, s: AnyState): void;
}

/**
 * The world copied into the Colyseus schema state: every entity changed this tick written into its
 * state, those removed deleted. Which of it each client sees is the interest implementation's
 * business; both implementations mirror the world the same way.
 */
export class StateMirror {
  constructor(
    private readonly world: World,
    private readonly state: WorldState,
    private readonly watcher?: MirrorWatcher,
  ) {}

  /** Copy every changed entity into the schema and drop removed ones (call once per tick). */
  syncState() {
    const w = this.world;
    this.state.tick = w.tick;
    this.watcher?.synced();
    for (const kind of KINDS) {
      const collection = collectionOf(this.state, kind);
      for (const id of w.removedThisTick[kind]) {
        const s = collection.get(id);
        if (!s || this.entity(kind, id)) continue;
        collection.delete(id);
        this.watcher?.removed(kind, id, s);
      }
      for (const id of w.changedThisTick[kind]) this.syncOne(kind, id);
    }
  }

  /** Copy one entity into the schema (also alone: a player joining between ticks, the rest waiting for the tick's syncState). */
  syncOne(kind: EntityKind, id: string) {
    const collection = collectionOf(this.state, kind);
    if (!this.entity(kind, id)) return;
    let s = collection.get(id);
    if (!s) {
      s = this.create(kind);
      collection.set(id, s);
    }
    this.write(kind, id, s);
  }

  private entity(kind: EntityKind, id: string) {
    const w = this.world;
    return kind === "player"
      ? w.players.get(id)
      : kind === "npc"
        ? w.npcs.get(id)
        : kind === "resource"
          ? w.resources.get(id)
          : kind === "station"
            ? w.stations.get(id)
            : w.groundItems.get(id);
  }

  private create(kind: EntityKind): AnyState {
    return kind === "player"
      ? new PlayerState()
      : kind === "npc"
        ? new NpcState()
        : kind === "resource"
          ? new ResourceState()
          : kind === "station"
            ? new StationState()
            : new GroundItemState();
  }

  private write(kind: EntityKind, id: string, s: AnyState) {
    const w = this.world;
    if (kind === "player") {
      const p = w.players.get(id)!;
      const t = s as PlayerState;
      t.id = p.id;
      t.name = p.name;
      t.x = p.tile.x;
      t.z = p.tile.z;
      t.wx = p.tile.x + 0.5;
      t.wy = 0;
      t.wz = p.tile.z + 0.5;
      t.health = p.health;
      t.maxHealth = maxHealth(p.levels.constitution);
      t.combatLevel = p.combatLevel;
      t.action = actionLabel(w, p);
      t.moving = p.path.length > 0;
      t.running = p.running;
      t.isAgent = p.isAgent;
      t.skulled = ((p.vars.skullTicks as number | undefined) ?? 0) > 0;
    } else if (kind === "npc") {
      const n = w.npcs.get(id)!;
      const t = s as NpcState;
      t.id = n.id;
      t.npcId = n.defId;
      t.name = n.name;
      t.x = n.position.x;
      t.z = n.position.z;
      t.health = n.health;
      t.maxHealth = n.maxHealth;
      t.level = n.level;
      t.state = n.deadUntilTick != null ? "dead" : n.target ? "combat" : n.returning || n.wanderTo ? "moving" : "idle";
      t.targetId = n.target ?? "";
    } else if (kind === "resource") {
      const r = w.resources.get(id)!;
      const t = s as ResourceState;
      t.id = r.id;
      t.resourceId = r.resourceId;
      t.skill = r.skill;
      t.name = r.name;
      t.x = r.tile.x;
      t.z = r.tile.z;
      t.depleted = r.depleted;
    } else if (kind === "station") {
      const st = w.stations.get(id)!;
      const t = s as StationState;
      t.id = st.id;
      t.type = st.type;
      t.name = st.name;
      t.x = st.tile.x;
      t.z = st.tile.z;
      t.runeType = st.runeType ?? "";
    } else {
      const g = w.groundItems.get(id)!;
      const t = s as GroundItemState;
      t.id = g.id;
      t.itemId = g.itemId;
      t.quantity = g.quantity;
      t.x = g.tile.x;
      t.z = g.tile.z;
    }
  }
}
