import type { StateView } from "@colyseus/schema";
import { AOI_RADIUS } from "../../src/game/spatialGrid.js";
import type { EntityKind } from "../../src/game/world/entities.js";
import type { Tile } from "../../src/game/types.js";
import type { WorldUpdate } from "../../src/protocol/index.js";

/** The windows on the world that WorldWindows (worldWindows.ts) keeps: a zone's, shared, or a client's own. */

export type Sets = Record<EntityKind, Set<string>>;
export const sets = (): Sets => ({ player: new Set(), npc: new Set(), resource: new Set(), groundItem: new Set(), station: new Set() });
const lists = (): Record<EntityKind, string[]> => ({ player: [], npc: [], resource: [], groundItem: [], station: [] });
export const emptyUpdate = (tick: number): WorldUpdate => ({ tick, players: [], npcs: [], resources: [], groundItems: [], stations: [], removed: [] });

/** A window on the world: the entities in it by kind, and the StateView (if any: the shared implementation's) its clients are encoded through. */
export class Window {
  visible = sets();
  /** The sets the next update fills and swaps with `visible` (no new sets every tick). */
  spare = sets();
  /** The tick each kind was last brought up to date, and what came into it and left it then. */
  advancedTick: Partial<Record<EntityKind, number>> = {};
  entered = lists();
  left = lists();
  /** Where the window was centred and the world's membership of a still kind when those were last found. */
  stillAt: Partial<Record<EntityKind, { x: number; z: number; membership: number }>> = {};
  /** Where the window was centred, its radius, and the tick, when a moving kind was last found. */
  movingAt: Partial<Record<EntityKind, { x: number; z: number; radius: number; tick: number }>> = {};
  /** How far (tiles) it sees players now: AOI_RADIUS, less while a crowd is over the cap. */
  playerRadius = AOI_RADIUS;
  /** Ticks in a row its crowd has been under the cap (it sees a tile further every 10). */
  calmTicks = 0;
  /** Its players were given without the cap's choice (a join's first window, its zone's): the next choice is made afresh, nearest first. */
  unchosen = false;
  constructor(public view?: StateView) {}
}

/** The window the clients standing in one zone share (its StateView only while some client is encoded through it). */
export class Zone extends Window {
  /** The viewers standing in it this tick (and its sharers standing within ZONE_MARGIN of it). */
  readonly members: Viewer[] = [];
  /** The viewers encoded through its window (and sent its world:update). */
  readonly sharers = new Set<Viewer>();
  /** The players of its sharers standing in another zone this tick, handed over after the patch (shown this tick whatever the cap). */
  readonly leavers: string[] = [];
  /** Its world:update of this tick, when one of its members takes them. */
  update?: WorldUpdate;
  constructor(
    readonly key: number,
    readonly centre: Tile,
  ) {
    super();
  }

  /** What its clients were last sent: the set before this tick's update if it ran this tick (a copy). */
  sentBefore(kind: EntityKind, tick: number): Set<string> {
    const before = new Set(this.visible[kind]);
    if (this.advancedTick[kind] !== tick) return before;
    for (const id of this.entered[kind]) before.delete(id);
    for (const id of this.left[kind]) before.add(id);
    return before;
  }
}

/** One client's window on the world: its zone's, shared, or one of its own. */
export class Viewer {
  /** Its own window (while it does not share its zone's). */
  own?: Window;
  /** The zone whose window it shares. */
  zone?: Zone;
  /** The zone it belongs to this tick (worked out at the start of each update). */
  at?: Zone;
  /** It was brought to this zone's window this tick and shares it from the next. */
  shareNext?: Zone;
  /** It shares its zone's window this tick while standing in another zone; it is handed over to `handOver` after the patch. */
  leaving = false;
  handOver?: Zone;
  constructor(
    readonly playerId: string,
    /** Wants `world:update` JSON deltas (clients of the plain /ws protocol, the built-in agents). */
    readonly json: boolean,
    /** Points the client's patches at a StateView; absent for clients that take no schema patches. */
    readonly setView?: (view: StateView) => void,
  ) {}

  /** Entity ids it has been sent, by kind. */
  get visible(): Sets {
    return this.zone ? this.zone.visible : this.own!.visible;
  }

  get shared(): boolean {
    return this.zone !== undefined;
  }

  /** Takes schema patches. */
  get patches(): boolean {
    return this.setView !== undefined;
  }
}
