import type { StateView } from "@colyseus/schema";
import type { EntityKind } from "../../src/game/world/entities.js";
import type { WorldState } from "../../schema/WorldState.js";
import { KINDS, collectionOf, type AnyState } from "./stateCollections.js";
import type { HandOverFrames } from "./viewHandOvers.js";
import type { CollectionMove } from "./moveFrames.js";
import type { Window, Zone } from "./viewWindows.js";

/** What a join's view was seeded with: its window and, where that is its zone's and itself, the zone, its player's state and the sync it was made after. */
interface Seeded {
  win: Window;
  zone?: Zone;
  self?: AnyState;
  syncs: number;
}

/**
 * The views made at joins that no patch has been encoded from yet (rooms/interest/worldViews.ts seeds each
 * with its viewer's first window), and the adds their clients' first states are made of
 * (rooms/interest/firstState.ts). Where a join's first window is its zone's and itself, the zone's adds are
 * made once until the schema is synced again: every join into that zone until the next tick is
 * sent the same bytes, then its own add.
 */
export class FirstViews {
  private readonly fresh = new Map<StateView, Seeded | undefined>();
  private readonly zoneAdds = new Map<Zone, Uint8Array>();
  /** Syncs of the schema so far (a zone's window and its adds hold until the next). */
  private syncs = 0;

  constructor(
    private readonly state: WorldState,
    private readonly frames: HandOverFrames,
  ) {}

  /** The schema was synced from the world: the adds made of zones' windows are out of date. */
  synced() {
    this.syncs++;
    this.zoneAdds.clear();
  }

  /** A view made at a join, not yet seeded. */
  made(view: StateView) {
    this.fresh.set(view, undefined);
  }

  /** Is this view one made at a join that no patch has been encoded from yet? */
  has(view: StateView): boolean {
    return this.fresh.has(view);
  }

  /** The view was seeded with `win`; `zone` and `self` when that window is the zone's and its player. */
  seeded(view: StateView, win: Window, zone?: Zone, self?: AnyState) {
    this.fresh.set(view, { win, zone, self, syncs: this.syncs });
  }

  /** The view's viewer left before its first state was made. */
  forget(view: StateView) {
    this.fresh.delete(view);
  }

  /** A patch was encoded: every view made so far has had its first state. */
  patched() {
    this.fresh.clear();
  }

  /**
   * For a view made at a join that no patch has been encoded from yet, and seeded with its
   * viewer's first window: the adds of everything in that window, the body of its client's first
   * state. Asked once: the answer is used up.
   */
  firstAdds(view: StateView): Uint8Array | undefined {
    const first = this.fresh.get(view);
    this.fresh.delete(view);
    if (!first) return undefined;
    const { win, zone, self } = first;
    // Its zone's window as it stands since the last sync (a window made before it is its own), then itself.
    if (!zone || !self || first.syncs !== this.syncs) return this.frames.addsBody(this.addsOf(win.visible));
    let shared = this.zoneAdds.get(zone);
    if (!shared) {
      shared = this.frames.addsBody(this.addsOf(win.visible, self));
      this.zoneAdds.set(zone, shared);
    }
    const own = this.frames.addsBody([{ collection: collectionOf(this.state, "player"), removed: [], added: [self] }]);
    const out = new Uint8Array(shared.length + own.length);
    out.set(shared);
    out.set(own, shared.length);
    return out;
  }

  /** The moves that add every state of these sets (but `except`). */
  private addsOf(visible: Record<EntityKind, Set<string>>, except?: AnyState): CollectionMove[] {
    const moves: CollectionMove[] = [];
    for (const kind of KINDS) {
      const collection = collectionOf(this.state, kind);
      const added: AnyState[] = [];
      for (const id of visible[kind]) {
        const s = collection.get(id);
        if (s && s !== except) added.push(s);
      }
      moves.push({ collection, removed: [], added });
    }
    return moves;
  }
}
