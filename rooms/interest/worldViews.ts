import { StateView } from "@colyseus/schema";
import { nearZone, zoneCentre, zoneOf } from "../../src/game/world/interest.js";
import type { EntityKind } from "../../src/game/world/entities.js";
import type { World } from "../../src/game/world/World.js";
import type { Tile } from "../../src/game/types.js";
import type { WorldState } from "../../schema/WorldState.js";
import type { WorldUpdate } from "../../src/protocol/index.js";
import { KINDS, collectionOf, type AnyState } from "./stateCollections.js";
import { seedView, ViewPool } from "./seededView.js";
import { Viewer, Window, Zone } from "./viewWindows.js";
import { handOverFrame, type HandOverFrames } from "./viewHandOvers.js";
import { FirstViews } from "./firstViews.js";
import { WindowContents } from "./windowContents.js";

/**
 * Decides which window each client sees through and keeps the StateViews that filter its patches:
 * its zone's window, shared (what a window holds: rooms/interest/windowContents.ts, everything within
 * AOI_RADIUS tiles of its centre, players capped at VIEW_PLAYER_CAP others, PROTOCOL.md §2). The
 * clients of a zone share one StateView, so Colyseus encodes a zone's patch once for all of them,
 * and one world:update.
 *
 * A client that cannot share (it has drops only it may see yet, or its zone's crowd is over the cap
 * and it is not among those shown) gets a window of its own, centred on itself, as the classic
 * protocol does. A client of schema patches stepping into another zone gets its old zone's patch
 * for that tick (the old zone shows it, whatever the cap), then, after the patch, one frame of
 * what comes and goes between the two zones' sets (rooms/interest/viewHandOvers.ts), and shares the new
 * zone's view from then on. Any other change of windows (to or from a window of its own, or a
 * client of world:update JSON) goes through a StateView of its own for one tick, seeded with what
 * the client already holds (nothing re-sent), moved to the new window's set.
 */
export class WorldViews {
  readonly viewers = new Map<string, Viewer>();
  readonly zones = new Map<number, Zone>();
  /** Clients handed from one zone's view to another's so far, and the frames made for them (one per pair of zones a tick). */
  readonly handOvers = { clients: 0, frames: 0 };
  private readonly pool = new ViewPool();
  /** What each window holds (rooms/interest/windowContents.ts). */
  private readonly contents: WindowContents;
  /** The views made at joins, until their first states are made (rooms/interest/firstViews.ts). */
  readonly first: FirstViews;
  /** States removed from the schema since the last patch, by kind and id (a seeded view must still see them go). */
  private readonly removedStates: Record<EntityKind, Map<string, AnyState>> = {
    player: new Map(),
    npc: new Map(),
    resource: new Map(),
    groundItem: new Map(),
    station: new Map(),
  };

  constructor(
    private readonly world: World,
    private readonly state: WorldState,
    /** How hand-over frames are made and sent. */
    private readonly frames: HandOverFrames,
    /** Most other players one viewer sees (VIEW_PLAYER_CAP). */
    playerCap = 250,
  ) {
    this.contents = new WindowContents(world, state, playerCap);
    this.first = new FirstViews(state, frames);
  }

  /** A state leaves the schema (its DELETE still goes to views that held it). */
  removed(kind: EntityKind, id: string, s: AnyState) {
    this.removedStates[kind].set(id, s);
  }

  attach(playerId: string, json: boolean, setView?: (view: StateView) => void): Viewer {
    const v = new Viewer(playerId, json, setView);
    v.own = new Window(setView ? new StateView() : undefined);
    this.viewers.set(playerId, v);
    if (v.own.view) {
      setView!(v.own.view);
      this.first.made(v.own.view);
    }
    return v;
  }

  detach(playerId: string) {
    const v = this.viewers.get(playerId);
    if (!v) return;
    this.viewers.delete(playerId);
    if (v.zone) this.unshare(v, v.zone);
    if (v.own?.view) {
      this.first.forget(v.own.view);
      this.pool.release(v.own.view, this.held(v.own));
    }
  }

  /** Forget what a viewer was shown: its next update lists everything in view again (a resumed /ws socket's full view). */
  resetViewer(v: Viewer) {
    v.shareNext = undefined;
    v.handOver = undefined;
    if (v.zone) {
      this.unshare(v, v.zone);
      v.own = new Window(v.setView ? new StateView() : undefined);
      if (v.own.view) v.setView!(v.own.view);
      return;
    }
    const own = v.own!;
    for (const kind of KINDS) {
      const collection = collectionOf(this.state, kind);
      for (const id of own.visible[kind]) {
        const s = collection.get(id);
        if (s) own.view?.remove(s);
      }
      own.visible[kind] = new Set();
    }
    own.stillAt = {};
    own.movingAt = {};
  }

  /**
   * Bring every window up to date with what is in range now; returns the JSON deltas for the
   * viewers that take them (call after the schema is synced).
   */
  updateViews(): Map<string, WorldUpdate> {
    const w = this.world;
    const out = new Map<string, WorldUpdate>();
    this.contents.newRound(true);
    for (const z of this.zones.values()) {
      z.members.length = 0;
      z.leavers.length = 0;
    }
    for (const v of this.viewers.values()) {
      const me = w.players.get(v.playerId);
      if (!me) continue;
      const z = (v.at = this.zoneFor(v, me.tile));
      z.members.push(v);
      // A client of patches alone is handed over after the patch; until then its zone shows it.
      v.leaving = v.zone !== undefined && v.zone !== z && v.setView !== undefined && !v.json;
      if (v.leaving) v.zone!.leavers.push(v.playerId);
    }
    for (const z of this.zones.values()) if (z.members.length > 0 || z.leavers.length > 0) this.contents.zone(z);
    for (const v of this.viewers.values()) {
      const update = this.updateViewer(v);
      if (update) out.set(v.playerId, update);
    }
    // Zones nobody stands in or is encoded through any more go (after those leaving were seeded from them).
    for (const [key, z] of this.zones) if (z.members.length === 0 && z.sharers.size === 0) this.zones.delete(key);
    return out;
  }

  /**
   * After the tick's patch went out: the viewers brought to their zone's set take its shared view,
   * and what the views queued for nobody is dropped.
   */
  afterPatch() {
    this.handOver();
    for (const v of this.viewers.values()) {
      const z = v.shareNext;
      if (!z) continue;
      v.shareNext = undefined;
      if (this.zones.get(z.key) !== z) continue;
      if (v.own!.view) this.pool.release(v.own!.view, this.held(v.own!));
      v.own = undefined;
      this.share(v, z);
    }
    // A zone's view encoded for its clients is empty already; one nobody took keeps nothing for later sharers, who hold its set.
    for (const z of this.zones.values()) z.view?.changes.clear();
    for (const kind of KINDS) this.removedStates[kind].clear();
    this.first.patched();
  }

  /** Those who stepped into another zone this tick are sent the frame from their zone's set to the new one's, and share the new one's view. */
  private handOver() {
    const made = new Map<string, Uint8Array>();
    for (const v of this.viewers.values()) {
      const to = v.handOver;
      if (!to) continue;
      v.handOver = undefined;
      const from = v.zone;
      if (!from || this.zones.get(to.key) !== to) continue;
      const pair = `${from.key}>${to.key}`;
      let frame = made.get(pair);
      if (!frame) {
        frame = handOverFrame(from, to, this.state, this.frames);
        made.set(pair, frame);
        this.handOvers.frames++;
      }
      this.handOvers.clients++;
      this.frames.send(v.playerId, frame);
      this.unshare(v, from);
      this.share(v, to);
    }
  }

  /** A viewer holding a zone's set is encoded through its view from now on (made, seeded with the set, if none). */
  private share(v: Viewer, z: Zone) {
    if (v.setView) {
      if (!z.view) {
        z.view = this.pool.take();
        seedView(z.view, this.state, this.held(z));
      }
      v.setView(z.view);
    }
    v.zone = z;
    z.sharers.add(v);
  }

  /**
   * Bring one viewer up to date now (on join): its first delta is everything in range. A fresh
   * view is seeded with it (marked as holding it, nothing queued): its client's first state sends
   * it (FirstViews.firstAdds), each entity's bytes copied rather than queued and encoded for this view alone.
   * Where its zone's window was worked out last tick, that window and itself is what it sees first,
   * found without a spatial query, and every join into the zone until the next tick is sent the
   * same bytes of it (FirstViews): a join costs what the window holds, however many are online.
   * Under the cap it shares that window from the next tick with nothing to hand over; in a crowd
   * over the cap, its window of its own shows the nearest from the next tick, as any other
   * (PROTOCOL.md §2), starting from the radius the zone has shrunk to, and until then it sees the
   * zone's window, cut to the cap (bench:world's 2,000 joins all start on the spawn tile).
   */
  refreshViewer(v: Viewer): WorldUpdate | undefined {
    this.contents.newRound(false);
    const me = this.world.players.get(v.playerId);
    if (!me || v.zone) return undefined;
    const own = v.own!;
    const view = own.view;
    const seeding = view !== undefined && this.first.has(view) && own.visible.player.size === 0;
    if (seeding) own.view = undefined;
    const z = this.zones.get(zoneOf(me.tile));
    try {
      if (!z) return this.contents.own(own, me, v.json);
      [own.playerRadius, own.calmTicks] = [z.playerRadius, z.calmTicks];
      own.unchosen = true;
      return this.contents.fromZone(own, z, me, v.json);
    } finally {
      if (seeding) {
        own.view = view;
        seedView(view, this.state, this.held(own));
        // (A character back in the same tick it left is in its zone's window already: its window is its own.)
        const shared = z !== undefined && !z.visible.player.has(me.id);
        if (shared) this.first.seeded(view, own, z, collectionOf(this.state, "player").get(me.id));
        else this.first.seeded(view, own);
      }
    }
  }

  /** The zone a viewer belongs to this tick: the one whose window it shares while it stands in it or within ZONE_MARGIN of it, else the one it stands in. */
  private zoneFor(v: Viewer, tile: Tile): Zone {
    const z = v.zone;
    return z && this.zones.get(z.key) === z && nearZone(tile, z.key) ? z : this.zoneAt(tile);
  }

  private zoneAt(tile: Tile): Zone {
    const key = zoneOf(tile);
    let z = this.zones.get(key);
    if (!z) {
      z = new Zone(key, zoneCentre(key));
      this.zones.set(key, z);
    }
    return z;
  }

  private updateViewer(v: Viewer): WorldUpdate | undefined {
    const w = this.world;
    const me = w.players.get(v.playerId);
    if (!me) return undefined;
    const z = v.at!; // set for every viewer with a player at the start of updateViews
    const canShare = this.contents.canShare(me, z);
    if (canShare && v.zone === z) return v.json ? z.update : undefined;
    if (canShare && v.leaving && v.zone!.visible.player.has(me.id)) {
      v.handOver = z;
      return undefined;
    }
    if (v.zone) this.leaveZone(v);
    if (!canShare) {
      v.shareNext = undefined;
      return this.contents.own(v.own!, me, v.json);
    }
    // Handed over: this tick its own view goes to exactly the zone's set; from the next it shares the zone's.
    v.shareNext = z;
    return this.contents.toZone(v.own!, z, v.json);
  }

  /** A sharer leaves its zone's window: a view of its own, seeded with what it holds (the zone's set as last sent). */
  private leaveZone(v: Viewer) {
    const z = v.zone!;
    const w = this.world;
    const own = new Window(v.setView ? this.pool.take() : undefined);
    for (const kind of KINDS) own.visible[kind] = z.sentBefore(kind, w.tick);
    own.playerRadius = z.playerRadius;
    if (own.view) {
      seedView(own.view, this.state, this.held(own));
      v.setView!(own.view);
    }
    this.unshare(v, z);
    v.own = own;
  }

  /** A viewer no longer encoded through its zone's view; the last one out gives the view back. */
  private unshare(v: Viewer, z: Zone) {
    z.sharers.delete(v);
    v.zone = undefined;
    if (z.sharers.size === 0 && z.view) {
      this.pool.release(z.view, this.held(z));
      z.view = undefined;
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
