import { StateView } from "@colyseus/schema";
import { canSeeGroundItem } from "../src/game/world/deathPiles.js";
import { AOI_RADIUS } from "../src/game/spatialGrid.js";
import { boundedView } from "../src/game/world/interest.js";
import { maxHealth } from "../src/game/skills.js";
import type { EntityKind, PlayerEntity } from "../src/game/world/entities.js";
import type { World } from "../src/game/world/World.js";
import { GroundItemState, NpcState, PlayerState, ResourceState, StationState, type WorldState } from "../schema/WorldState.js";
import type { WorldUpdate } from "../src/protocol/index.js";

type AnyState = PlayerState | NpcState | ResourceState | GroundItemState | StationState;
const KINDS: EntityKind[] = ["player", "npc", "resource", "groundItem", "station"];
const COLLECTION = { player: "players", npc: "npcs", resource: "resources", groundItem: "groundItems", station: "stations" } as const;
/** Kinds whose entities never move: the ones in view change only when the viewer moves or one comes or goes. */
const STILL: ReadonlySet<EntityKind> = new Set(["resource", "station"]);

/** What others see a player doing: the resource's skill while gathering, "combat", the recipe's skill while making, or the action. */
function actionLabel(w: World, p: PlayerEntity): string {
  const a = p.action;
  if (!a) return "";
  if (a.type === "gather") return w.resources.get(a.targetId)?.skill ?? "gather";
  if (a.type === "attack") return "combat";
  if (a.type === "make") return w.data.recipes[a.kind]?.find((r) => r.id === a.recipeId)?.skill ?? "make";
  return a.type;
}

/** One client's window on the world: its StateView and what it currently sees. */
export interface Viewer {
  playerId: string;
  /** Absent for clients that take no schema patches (the /ws adapter's): they get world:update only. */
  view?: StateView;
  /** Entity ids in view, by kind. */
  visible: Record<EntityKind, Set<string>>;
  /** The sets the next update fills and swaps with `visible` (no new sets every tick). */
  spare: Record<EntityKind, Set<string>>;
  /** Wants `world:update` JSON deltas (clients of the plain /ws protocol). */
  json: boolean;
  /** Where the viewer stood and the world's membership of a still kind (resources, stations) when those were last found. */
  stillAt: Partial<Record<EntityKind, { x: number; z: number; membership: number }>>;
  /** How far (tiles) it sees other players now: AOI_RADIUS, less while a crowd is over the cap. */
  playerRadius: number;
  /** Ticks in a row its crowd has been under the cap (it sees a tile further every 10). */
  calmTicks: number;
}

/**
 * Mirrors the world into the Colyseus schema and decides, per client, which entities it sees:
 * those within AOI_RADIUS tiles (ground items: only those it may see yet). Entities enter and
 * leave each client's StateView as they come in and out of range.
 */
export class WorldSync {
  readonly viewers = new Map<string, Viewer>();
  /** Filled by each spatial query in turn (read before the next one). */
  private readonly scratch = new Set<string>();
  /** Each entity's JSON, made once per update round however many viewers see it. */
  private readonly json = new Map<string, object>();

  private jsonOf(id: string, s: AnyState): object {
    let j = this.json.get(id);
    if (!j) {
      j = s.toJSON();
      this.json.set(id, j);
    }
    return j;
  }

  constructor(
    private readonly world: World,
    private readonly state: WorldState,
    /** Most other players one viewer sees (VIEW_PLAYER_CAP). */
    private readonly playerCap = 250,
  ) {}

  /** Copy every changed entity into the schema and drop removed ones (call once per tick). */
  syncState() {
    const w = this.world;
    this.state.tick = w.tick;
    for (const kind of KINDS) {
      const collection = this.state[COLLECTION[kind]] as unknown as Map<string, AnyState>;
      for (const id of w.removedThisTick[kind]) {
        if (!this.entity(kind, id)) collection.delete(id);
      }
      for (const id of w.changedThisTick[kind]) this.syncOne(kind, id);
    }
  }

  /** Copy one entity into the schema (also alone: a player joining between ticks, the rest waiting for the tick's syncState). */
  syncOne(kind: EntityKind, id: string) {
    const collection = this.state[COLLECTION[kind]] as unknown as Map<string, AnyState>;
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

  attach(playerId: string, json: boolean, patches = true): Viewer {
    const viewer: Viewer = {
      playerId,
      view: patches ? new StateView() : undefined,
      visible: { player: new Set(), npc: new Set(), resource: new Set(), groundItem: new Set(), station: new Set() },
      spare: { player: new Set(), npc: new Set(), resource: new Set(), groundItem: new Set(), station: new Set() },
      json,
      stillAt: {},
      playerRadius: AOI_RADIUS,
      calmTicks: 0,
    };
    this.viewers.set(playerId, viewer);
    return viewer;
  }

  detach(playerId: string) {
    const v = this.viewers.get(playerId);
    if (!v) return;
    this.viewers.delete(playerId);
    v.view?.dispose();
  }

  /** Forget what a viewer was shown: its next update lists everything in view again (a resumed /ws socket's full view). */
  resetViewer(v: Viewer) {
    for (const kind of KINDS) {
      const collection = this.state[COLLECTION[kind]] as unknown as Map<string, AnyState>;
      for (const id of v.visible[kind]) {
        const s = collection.get(id);
        if (s) v.view?.remove(s);
      }
      v.visible[kind] = new Set();
    }
    v.stillAt = {};
  }

  /**
   * Bring every viewer's StateView up to date with what is in range now; returns the JSON
   * deltas for the viewers that asked for them (call after syncState).
   */
  updateViews(): Map<string, WorldUpdate> {
    const out = new Map<string, WorldUpdate>();
    this.json.clear();
    for (const v of this.viewers.values()) {
      const update = this.updateViewer(v);
      if (update) out.set(v.playerId, update);
    }
    return out;
  }

  /** Bring one viewer up to date now (on join): its first delta is everything in range. */
  refreshViewer(v: Viewer): WorldUpdate | undefined {
    this.json.clear();
    return this.updateViewer(v);
  }

  private updateViewer(v: Viewer): WorldUpdate | undefined {
    const w = this.world;
    const me = w.players.get(v.playerId);
    if (!me) return undefined;
    const update: WorldUpdate | undefined = v.json
      ? { tick: w.tick, players: [], npcs: [], resources: [], groundItems: [], stations: [], removed: [] }
      : undefined;
    for (const kind of KINDS) {
      const collection = this.state[COLLECTION[kind]] as unknown as Map<string, AnyState>;
      const seen = v.visible[kind];
      const list = update ? (update[COLLECTION[kind]] as object[]) : undefined;
      if (STILL.has(kind)) {
        // Nodes and stations never move: unless the viewer moved or one (a fire) came or went, the same ones are in view.
        const at = v.stillAt[kind];
        if (at && at.x === me.tile.x && at.z === me.tile.z && at.membership === w.membershipVersion[kind]) {
          if (list) for (const id of w.changedThisTick[kind]) if (seen.has(id)) list.push(this.jsonOf(id, collection.get(id)!));
          continue;
        }
        v.stillAt[kind] = { x: me.tile.x, z: me.tile.z, membership: w.membershipVersion[kind] };
      }
      const now = v.spare[kind];
      now.clear();
      const near = kind === "player" ? this.playersNear(v, me) : w.near(kind, me.tile, AOI_RADIUS, this.scratch);
      for (const id of near) {
        if (kind === "groundItem") {
          const g = w.groundItems.get(id);
          if (!g || !canSeeGroundItem(g, me.id, w.tick)) continue;
        }
        if (collection.has(id)) now.add(id);
      }
      for (const id of seen) {
        if (now.has(id)) continue;
        const s = collection.get(id);
        if (s) v.view?.remove(s);
        update?.removed.push(id);
      }
      for (const id of now) {
        const s = collection.get(id)!;
        const entered = !seen.has(id);
        if (entered) v.view?.add(s);
        if (list && (entered || w.changedThisTick[kind].has(id))) list.push(this.jsonOf(id, s));
      }
      v.spare[kind] = seen;
      v.visible[kind] = now;
    }
    return update;
  }

  /** The players a viewer sees this tick: within its radius, at most the cap (the nearest); the radius adapts. */
  private playersNear(v: Viewer, me: PlayerEntity): Iterable<string> {
    const w = this.world;
    return boundedView(w.near("player", me.tile, v.playerRadius, this.scratch), v.visible.player, (id) => w.players.get(id)?.tile, me, this.playerCap, v);
  }
}
