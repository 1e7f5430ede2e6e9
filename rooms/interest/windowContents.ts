import { canSeeGroundItem } from "../../src/game/world/deathPiles.js";
import { AOI_RADIUS } from "../../src/game/spatialGrid.js";
import { boundedView, tileDistance } from "../../src/game/world/interest.js";
import type { EntityKind, PlayerEntity } from "../../src/game/world/entities.js";
import type { World } from "../../src/game/world/World.js";
import type { Tile } from "../../src/game/types.js";
import type { WorldState } from "../../schema/WorldState.js";
import type { WorldUpdate } from "../../src/protocol/index.js";
import { collectionOf, type AnyState } from "./stateCollections.js";
import { emptyUpdate, type Window, type Zone } from "./viewWindows.js";
import { ANYONE, DropSight } from "./dropSight.js";
import { advanceWindow, type EntityJson, type Square } from "./windowAdvance.js";
import { changeEntry } from "./updateForms.js";

/** No players seen yet (a window whose players are chosen afresh). */
const NONE: ReadonlySet<string> = new Set();

/**
 * What each window of WorldWindows (worldWindows.ts) holds: everything within AOI_RADIUS tiles of
 * its centre that is in the schema (ground items: those its viewer may see, a zone's those everyone
 * may see), players capped at `playerCap` others (PROTOCOL.md §2). Each call moves one window to
 * its new sets (rooms/interest/windowAdvance.ts) and gives its world:update, when it takes them.
 */
export class WindowContents {
  /** Filled by each spatial query in turn (read before the next one). */
  private readonly scratch = new Set<string>();
  /** Each entity's whole JSON and change entry, made once per update round however many windows list it. */
  private readonly json = new Map<string, object>();
  private readonly changes = new Map<string, object>();
  private readonly entityJson: EntityJson = {
    whole: (id, s) => this.jsonOf(id, s),
    change: (id, s) => {
      let c = this.changes.get(id);
      if (!c) {
        c = changeEntry(id, s, this.jsonOf(id, s));
        this.changes.set(id, c);
      }
      return c;
    },
  };
  /** Who may see the ground items (worked out once a tick). */
  private readonly drops: DropSight;

  constructor(
    private readonly world: World,
    private readonly state: WorldState,
    /** Most other players one viewer sees (VIEW_PLAYER_CAP). */
    private readonly playerCap: number,
  ) {
    this.drops = new DropSight(world);
  }

  /** A new round of updates: each entity's JSON is made afresh, and with `drops` (a tick's round) who may see the ground items is worked out again. */
  newRound(drops: boolean) {
    this.json.clear();
    this.changes.clear();
    if (drops) this.drops.update();
  }

  /** May `me` share zone `z`'s window: does it show `me`, and is no drop that only `me` may see within its sight? */
  canShare(me: PlayerEntity, z: Zone): boolean {
    return z.visible.player.has(me.id) && !this.drops.privateTo(me.id).some((g) => tileDistance(g.tile, z.centre) <= AOI_RADIUS);
  }

  private jsonOf(id: string, s: AnyState): object {
    let j = this.json.get(id);
    if (!j) {
      j = s.toJSON();
      this.json.set(id, j);
    }
    return j;
  }

  /**
   * A zone's window: everything within AOI_RADIUS of its centre that anyone may see, at most cap + 1
   * players: those standing in the zone always (each sees itself), then the others by the cap's rules.
   */
  zone(z: Zone) {
    const w = this.world;
    z.update = z.members.some((v) => v.json) ? emptyUpdate(w.tick) : undefined;
    // Leavers are shown wherever they stand: where one stands beyond the window's radius, the players are worked out afresh this tick and the next.
    const farLeaver = z.leavers.some((id) => !w.within("player", id, z.centre, z.playerRadius));
    if (farLeaver) z.movingAt.player = undefined;
    this.advance(
      z,
      z.update,
      (kind, now) => {
        if (kind !== "player") return this.admit(kind, w.near(kind, z.centre, AOI_RADIUS, this.scratch), ANYONE, now);
        const near = w.near("player", z.centre, z.playerRadius, this.scratch);
        const room = this.playerCap + 1;
        // More standing in the zone (or leaving it) than the cap: it shows those the cap's rules choose, and the rest have windows of their own.
        const standing = z.members.map((m) => m.playerId).concat(z.leavers);
        const forced = standing.length <= room ? standing : [];
        for (const id of forced) near.delete(id);
        const others = boundedView(near, z.visible.player, (id) => w.players.get(id)?.tile, { tile: z.centre }, room - forced.length, z);
        this.admit(kind, others, ANYONE, now);
        this.admit(kind, forced, ANYONE, now);
      },
      this.square(z.centre, ANYONE, this.playerCap + 1),
    );
    if (farLeaver) z.movingAt.player = undefined;
  }

  /** A window of its own, centred on its player (as the classic protocol does). */
  own(own: Window, me: PlayerEntity, json: boolean): WorldUpdate | undefined {
    const w = this.world;
    const unchosen = own.unchosen;
    own.unchosen = false;
    return this.advance(
      own,
      json,
      (kind, now) => {
        const near =
          kind === "player"
            ? boundedView(
                w.near("player", me.tile, own.playerRadius, this.scratch),
                unchosen ? NONE : own.visible.player,
                (id) => w.players.get(id)?.tile,
                me,
                this.playerCap,
                own,
              )
            : w.near(kind, me.tile, AOI_RADIUS, this.scratch);
        this.admit(kind, near, me.id, now);
      },
      this.square(me.tile, me.id, this.playerCap + 1),
    );
  }

  /**
   * A window of its own moved to its zone's sets (as the zone's clients were last sent them), the
   * players cut to the cap (the first so many of them), and its player.
   */
  fromZone(own: Window, z: Zone, me: PlayerEntity, json: boolean): WorldUpdate | undefined {
    return this.advance(own, json, (kind, now) => {
      if (kind !== "player") return this.admit(kind, z.visible[kind], me.id, now);
      const players = collectionOf(this.state, "player");
      let room = this.playerCap;
      for (const id of z.visible.player) {
        if (room === 0) break;
        if (!players.has(id)) continue;
        now.add(id);
        room--;
      }
      this.admit(kind, [me.id], me.id, now);
    });
  }

  /** A window of its own moved to exactly zone `z`'s sets (its viewer shares the zone's view from the next tick). */
  toZone(own: Window, z: Zone, json: boolean): WorldUpdate | undefined {
    return this.advance(own, json, (kind, now) => {
      for (const id of z.visible[kind]) now.add(id);
    });
  }

  /** Those of `near` that are in the schema (ground items: that `viewerId` may see). */
  private admit(kind: EntityKind, near: Iterable<string>, viewerId: string, now: Set<string>) {
    for (const id of near) if (this.admits(kind, id, viewerId)) now.add(id);
  }

  /** `admits`, made once for the windows' squares (a function made per window would cost every tick). */
  private readonly admitsOne = (kind: EntityKind, id: string, viewerId: string) => this.admits(kind, id, viewerId);

  /** Is the entity in the schema (a ground item: may `viewerId` see it)? */
  private admits(kind: EntityKind, id: string, viewerId: string): boolean {
    if (kind === "groundItem") {
      const g = this.world.groundItems.get(id);
      if (!g || !canSeeGroundItem(g, viewerId, this.world.tick)) return false;
    }
    return collectionOf(this.state, kind).has(id);
  }

  /** The square around `centre` of a window whose viewer is `viewerId`, holding at most `players` players before the cap's rules choose. */
  private square(centre: Tile, viewerId: string, players: number): Square {
    return { centre, viewerId, players, admits: this.admitsOne };
  }

  /** Move a window to the sets `fill` gives (rooms/interest/windowAdvance.ts). */
  private advance(
    win: Window,
    update: boolean | WorldUpdate | undefined,
    fill: (kind: EntityKind, now: Set<string>) => void,
    square?: Square,
  ): WorldUpdate | undefined {
    return advanceWindow(this.world, this.state, this.entityJson, win, update, fill, square);
  }
}
