import { StateView } from "@colyseus/schema";
import type { EntityKind } from "../../src/game/world/entities.js";
import type { World } from "../../src/game/world/World.js";
import type { WorldState } from "../../schema/WorldState.js";
import type { WorldUpdate } from "../../src/protocol/index.js";
import { KINDS, collectionOf, type AnyState } from "./stateCollections.js";
import { seedView, ViewPool } from "./seededView.js";
import type { Viewer, Window, Zone } from "./viewWindows.js";
import { handOverFrame, type HandOverFrames } from "./viewHandOvers.js";
import { FirstViews } from "./firstViews.js";
import { WorldWindows } from "./worldWindows.js";
import type { MirrorWatcher } from "./stateMirror.js";

/**
 * The shared implementation's StateViews, kept beside the windows' choice (worldWindows.ts). The
 * clients of a zone share one StateView, so Colyseus encodes a zone's patch once for all of them
 * (and each entity's bytes once for every view: sharedEncodes.ts), and one world:update.
 *
 * A client of schema patches stepping into another zone gets its old zone's patch for that tick,
 * then, after the patch, one frame of what comes and goes between the two zones' sets
 * (viewHandOvers.ts), and shares the new zone's view from then on. Any other change of windows goes
 * through a StateView of its own for one tick, seeded with what the client already holds (nothing
 * re-sent: seededView.ts), moved to the new window's set. A joining client's view is seeded with
 * its first window, which its first state sends (firstViews.ts, firstState.ts).
 */
export class WorldViews extends WorldWindows implements MirrorWatcher {
  private readonly pool = new ViewPool();
  /** The views made at joins, until their first states are made (firstViews.ts). */
  readonly first: FirstViews;
  /** States removed from the schema since the last patch, by kind and id (a seeded view must still see them go). */
  private readonly removedStates: Record<EntityKind, Map<string, AnyState>> = {
    player: new Map(),
    npc: new Map(),
    resource: new Map(),
    groundItem: new Map(),
    station: new Map(),
  };
  /** The hand-over frames made after this tick's patch, by pair of zones. */
  private readonly frameOfPair = new Map<string, Uint8Array>();

  constructor(
    world: World,
    state: WorldState,
    /** How hand-over frames are made and sent. */
    private readonly frames: HandOverFrames,
    /** Most other players one viewer sees (VIEW_PLAYER_CAP). */
    playerCap = 250,
  ) {
    super(world, state, playerCap);
    this.first = new FirstViews(state, frames);
  }

  /** The schema was synced from the world. */
  synced() {
    this.first.synced();
  }

  /** A state leaves the schema (its DELETE still goes to views that held it). */
  removed(kind: EntityKind, id: string, s: AnyState) {
    this.removedStates[kind].set(id, s);
  }

  /** After the tick's patch: hand-overs and shares (WorldWindows), then what the views queued for nobody is dropped. */
  override afterPatch() {
    this.frameOfPair.clear();
    super.afterPatch();
    // A zone's view encoded for its clients is empty already; one nobody took keeps nothing for later sharers, who hold its set.
    for (const z of this.zones.values()) z.view?.changes.clear();
    for (const kind of KINDS) this.removedStates[kind].clear();
    this.first.patched();
  }

  protected override ownMade(v: Viewer, own: Window, why: "join" | "reset" | "leave") {
    if (!v.setView) return;
    if (why === "leave") {
      own.view = this.pool.take();
      seedView(own.view, this.state, this.held(own));
    } else own.view = new StateView();
    v.setView(own.view);
    if (why === "join") this.first.made(own.view);
  }

  protected override ownDropped(own: Window, gone: boolean) {
    if (!own.view) return;
    if (gone) this.first.forget(own.view);
    this.pool.release(own.view, this.held(own));
  }

  protected override ownCleared(own: Window) {
    if (!own.view) return;
    for (const kind of KINDS) {
      const collection = collectionOf(this.state, kind);
      for (const id of own.visible[kind]) {
        const s = collection.get(id);
        if (s) own.view.remove(s);
      }
    }
  }

  /** A viewer holding a zone's set is encoded through its view from now on (made, seeded with the set, if none). */
  protected override sharing(v: Viewer, z: Zone) {
    if (!v.setView) return;
    if (!z.view) {
      z.view = this.pool.take();
      seedView(z.view, this.state, this.held(z));
    }
    v.setView(z.view);
  }

  /** The last one out gives the zone's view back. */
  protected override zoneLeft(z: Zone) {
    if (!z.view) return;
    this.pool.release(z.view, this.held(z));
    z.view = undefined;
  }

  /** The frame from `from`'s set to `to`'s, made once per pair of zones a tick, is sent to the client. */
  protected override handingOver(v: Viewer, from: Zone, to: Zone) {
    const pair = `${from.key}>${to.key}`;
    let frame = this.frameOfPair.get(pair);
    if (!frame) {
      frame = handOverFrame(from, to, this.state, this.frames);
      this.frameOfPair.set(pair, frame);
      this.handOvers.frames++;
    }
    this.frames.send(v.playerId, frame);
  }

  /**
   * A fresh view is seeded with a join's first window (marked as holding it, nothing queued): its
   * client's first state sends it (FirstViews.firstAdds), each entity's bytes copied rather than
   * queued and encoded for this view alone. Where that window is its zone's and itself, every join
   * into the zone until the next tick is sent the same bytes of it (FirstViews): a join costs what
   * the window holds, however many are online.
   */
  protected override firstWindow(own: Window, z: Zone | undefined, playerId: string, work: () => WorldUpdate | undefined): WorldUpdate | undefined {
    const view = own.view;
    const seeding = view !== undefined && this.first.has(view) && own.visible.player.size === 0;
    if (seeding) own.view = undefined;
    try {
      return work();
    } finally {
      if (seeding) {
        own.view = view;
        seedView(view, this.state, this.held(own));
        // (A character back in the same tick it left is in its zone's window already: its window is its own.)
        const shared = z !== undefined && !z.visible.player.has(playerId);
        if (shared) this.first.seeded(view, own, z, collectionOf(this.state, "player").get(playerId));
        else this.first.seeded(view, own);
      }
    }
  }

  /** The states a window's view holds (those that left the schema since the last patch too). */
  private held(win: Window): AnyState[] {
    const out: AnyState[] = [];
    for (const kind of KINDS) {
      const collection = collectionOf(this.state, kind);
      for (const id of win.visible[kind]) {
        const s = collection.get(id) ?? this.removedStates[kind].get(id);
        if (s) out.push(s);
      }
    }
    return out;
  }
}
