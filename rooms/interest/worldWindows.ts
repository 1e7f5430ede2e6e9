import { nearZone, zoneCentre, zoneOf } from "../../src/game/world/interest.js";
import type { World } from "../../src/game/world/World.js";
import type { Tile } from "../../src/game/types.js";
import type { WorldState } from "../../schema/WorldState.js";
import type { WorldUpdate } from "../../src/protocol/index.js";
import type { InterestClient } from "./worldInterest.js";
import { KINDS } from "./stateCollections.js";
import { Viewer, Window, Zone } from "./viewWindows.js";
import { WindowContents } from "./windowContents.js";

/**
 * Which window each client sees through, and so which entities it is shown: its zone's window,
 * shared (what a window holds: windowContents.ts, everything within AOI_RADIUS tiles of its centre,
 * players capped at VIEW_PLAYER_CAP others, PROTOCOL.md §2), or one of its own. This is the choice
 * alone, the same for both interest implementations (worldInterest.ts): it keeps no StateView.
 * The shared implementation (worldViews.ts) extends it, keeping its StateViews at the hooks below;
 * the plain one (plainInterest.ts) reads each viewer's sets after every tick.
 *
 * A client that cannot share (it has drops only it may see yet, or its zone's crowd is over the cap
 * and it is not among those shown) gets a window of its own, centred on itself, as the classic
 * protocol does. A client of schema patches stepping into another zone is shown its old zone's set
 * for the tick's patch (the old zone shows it, whatever the cap), then, after the patch, the new
 * zone's (`handOver`), and shares the new zone's window from then on. Any other change of windows
 * (to or from a window of its own, or a client of world:update JSON) goes through a window of its
 * own for one tick, moved to the new window's set.
 */
export class WorldWindows {
  readonly viewers = new Map<string, Viewer>();
  readonly zones = new Map<number, Zone>();
  /** Clients handed from one zone's window to another's so far, and the frames made for them (one per pair of zones a tick). */
  readonly handOvers = { clients: 0, frames: 0 };
  /** What each window holds (windowContents.ts). */
  protected readonly contents: WindowContents;

  constructor(
    protected readonly world: World,
    protected readonly state: WorldState,
    /** Most other players one viewer sees (VIEW_PLAYER_CAP). */
    playerCap = 250,
  ) {
    this.contents = new WindowContents(world, state, playerCap);
  }

  attach(playerId: string, client: InterestClient): Viewer {
    const v = new Viewer(playerId, client.json, client.setView);
    v.own = new Window();
    this.viewers.set(playerId, v);
    this.ownMade(v, v.own, "join");
    return v;
  }

  detach(playerId: string) {
    const v = this.viewers.get(playerId);
    if (!v) return;
    this.viewers.delete(playerId);
    if (v.zone) this.unshare(v, v.zone);
    if (v.own) this.ownDropped(v.own, true);
  }

  /** Forget what a viewer was shown: its next update lists everything in view again (a resumed /ws socket's full view). */
  resetViewer(v: Viewer) {
    v.shareNext = undefined;
    v.handOver = undefined;
    if (v.zone) {
      this.unshare(v, v.zone);
      v.own = new Window();
      this.ownMade(v, v.own, "reset");
      return;
    }
    const own = v.own!;
    this.ownCleared(own);
    for (const kind of KINDS) own.visible[kind] = new Set();
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
      v.leaving = v.zone !== undefined && v.zone !== z && v.patches && !v.json;
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

  /** After the tick's patch went out: those stepping into another zone are handed over, and the viewers brought to their zone's set share its window. */
  afterPatch() {
    this.handOver();
    for (const v of this.viewers.values()) {
      const z = v.shareNext;
      if (!z) continue;
      v.shareNext = undefined;
      if (this.zones.get(z.key) !== z) continue;
      this.ownDropped(v.own!, false);
      v.own = undefined;
      this.share(v, z);
    }
  }

  /** The zone a viewer is handed to after this tick's patch (it holds that zone's set then), if any. */
  handedTo(v: Viewer): Zone | undefined {
    const to = v.handOver;
    return to && v.zone && this.zones.get(to.key) === to ? to : undefined;
  }

  /** Those who stepped into another zone this tick move from their zone's set to the new one's, and share the new one's window. */
  private handOver() {
    for (const v of this.viewers.values()) {
      const to = this.handedTo(v);
      v.handOver = undefined;
      if (!to) continue;
      const from = v.zone!;
      this.handingOver(v, from, to);
      this.handOvers.clients++;
      this.unshare(v, from);
      this.share(v, to);
    }
  }

  /** A viewer holding a zone's set shares its window from now on. */
  private share(v: Viewer, z: Zone) {
    this.sharing(v, z);
    v.zone = z;
    z.sharers.add(v);
  }

  /**
   * Bring one viewer up to date now (on join): its first delta is everything in range. Where its
   * zone's window was worked out last tick, that window and itself is what it sees first, found
   * without a spatial query. Under the cap it shares that window from the next tick with nothing
   * to hand over; in a crowd over the cap, its window of its own shows the nearest from the next
   * tick, as any other (PROTOCOL.md §2), starting from the radius the zone has shrunk to, and until
   * then it sees the zone's window, cut to the cap (bench:world's 2,000 joins all start on the
   * spawn tile).
   */
  refreshViewer(v: Viewer): WorldUpdate | undefined {
    this.contents.newRound(false);
    const me = this.world.players.get(v.playerId);
    if (!me || v.zone) return undefined;
    const own = v.own!;
    const z = this.zones.get(zoneOf(me.tile));
    return this.firstWindow(own, z, me.id, () => {
      if (!z) return this.contents.own(own, me, v.json);
      [own.playerRadius, own.calmTicks] = [z.playerRadius, z.calmTicks];
      own.unchosen = true;
      return this.contents.fromZone(own, z, me, v.json);
    });
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
    // Handed over: this tick its own window goes to exactly the zone's set; from the next it shares the zone's.
    v.shareNext = z;
    return this.contents.toZone(v.own!, z, v.json);
  }

  /** A sharer leaves its zone's window: a window of its own, holding what it holds (the zone's set as last sent). */
  private leaveZone(v: Viewer) {
    const z = v.zone!;
    const own = new Window();
    for (const kind of KINDS) own.visible[kind] = z.sentBefore(kind, this.world.tick);
    own.playerRadius = z.playerRadius;
    this.ownMade(v, own, "leave");
    this.unshare(v, z);
    v.own = own;
  }

  /** A viewer no longer shares its zone's window. */
  private unshare(v: Viewer, z: Zone) {
    z.sharers.delete(v);
    v.zone = undefined;
    if (z.sharers.size === 0) this.zoneLeft(z);
  }

  // The hooks where the shared implementation keeps its StateViews (worldViews.ts); nothing here.

  /** A viewer was given a window of its own: at its join, at a reset, or leaving its zone's (holding that zone's set as last sent). */
  protected ownMade(_v: Viewer, _own: Window, _why: "join" | "reset" | "leave") {}
  /** A viewer's window of its own is given up: it left (`gone`), or it shares its zone's from now on. */
  protected ownDropped(_own: Window, _gone: boolean) {}
  /** A window of its own is about to be emptied (a reset). */
  protected ownCleared(_own: Window) {}
  /** A viewer is about to share a zone's window. */
  protected sharing(_v: Viewer, _z: Zone) {}
  /** The last sharer of a zone's window left it. */
  protected zoneLeft(_z: Zone) {}
  /** A viewer is handed from one zone's window to another's, after the tick's patch. */
  protected handingOver(_v: Viewer, _from: Zone, _to: Zone) {}
  /** A join's first window is worked out by `work` (into `own`; `z`: its zone's window, if any). */
  protected firstWindow(_own: Window, _z: Zone | undefined, _playerId: string, work: () => WorldUpdate | undefined): WorldUpdate | undefined {
    return work();
  }
}
