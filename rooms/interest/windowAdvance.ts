import { AOI_RADIUS } from "../../src/game/spatialGrid.js";
import type { EntityKind } from "../../src/game/world/entities.js";
import type { World } from "../../src/game/world/World.js";
import type { Tile } from "../../src/game/types.js";
import type { WorldState } from "../../schema/WorldState.js";
import type { WorldUpdate } from "../../src/protocol/index.js";
import { COLLECTION, KINDS, collectionOf, type AnyState } from "./stateCollections.js";
import { emptyUpdate, type Window } from "./viewWindows.js";

/** An entity's JSON for a world:update: whole (entering a view) or its change entry (held already; rooms/interest/updateForms.ts). */
export interface EntityJson {
  whole(id: string, s: AnyState): object;
  change(id: string, s: AnyState): object;
}

/** Kinds whose entities never move: the ones in view change only when the window moves or one comes or goes. */
const STILL: ReadonlySet<EntityKind> = new Set(["resource", "station"]);
/**
 * Kinds whose ones in view change only when the window moves or one of them comes into or leaves
 * its square (a ground item turning public is noted as coming into it: World.seenAnew).
 */
const MOVING: ReadonlySet<EntityKind> = new Set(["player", "npc", "groundItem"]);

/**
 * A window centred on a tile (a zone's, or a client's own), whose viewer is `viewerId` (a zone's:
 * anyone). `players`: the most players its set holds when it holds every one of its square (the
 * cap; beyond it `fill` chooses). `admits`: does an entity of its square belong in its sets?
 */
export interface Square {
  centre: Tile;
  viewerId: string;
  players: number;
  admits(kind: EntityKind, id: string, viewerId: string): boolean;
}

/** Filled by each window's look at what crossed its square's edge (read before the next one). */
const crossing = new Set<string>();

/**
 * Move a window to the sets `fill` gives, kind by kind: entities leaving are removed from its
 * view and listed as removed, those entering are added, and the JSON lists those entering (whole)
 * and those changed this tick (their change entries). Still kinds are recomputed only when the
 * window's centre moved or one came or went. A moving kind whose window stayed where it was is
 * brought up to date from the entities that came into or left its square alone, while its set
 * holds every one the square admits (under the player cap); otherwise it is found afresh.
 * `update`: true for a new world:update, or the one to fill. Without `square` (a window moved to
 * sets given outright: a hand-over), every kind is found afresh next time.
 */
export function advanceWindow(
  w: World,
  state: WorldState,
  json: EntityJson,
  win: Window,
  update: boolean | WorldUpdate | undefined,
  fill: (kind: EntityKind, now: Set<string>) => void,
  square?: Square,
): WorldUpdate | undefined {
  const out = update === true ? emptyUpdate(w.tick) : update || undefined;
  const at = square?.centre;
  if (!at) {
    win.stillAt = {};
    win.movingAt = {};
  }
  for (const kind of KINDS) {
    const collection = collectionOf(state, kind);
    const seen = win.visible[kind];
    const list = out ? (out[COLLECTION[kind]] as object[]) : undefined;
    if (at && STILL.has(kind)) {
      const still = win.stillAt[kind];
      if (still && still.x === at.x && still.z === at.z && still.membership === w.membershipVersion[kind]) {
        if (list) for (const id of w.changedThisTick[kind]) if (seen.has(id)) list.push(json.change(id, collection.get(id)!));
        continue;
      }
      win.stillAt[kind] = { x: at.x, z: at.z, membership: w.membershipVersion[kind] };
    }
    if (at && MOVING.has(kind)) {
      // Unchanged when it was found last tick around the same tile and radius, nothing of the kind
      // came into or left its square since, and (players) no crowd has the radius adapting.
      const radius = kind === "player" ? win.playerRadius : AOI_RADIUS;
      const last = win.movingAt[kind];
      if (last && last.tick === w.tick - 1 && last.x === at.x && last.z === at.z && last.radius === radius && radius === AOI_RADIUS) {
        last.tick = w.tick;
        if (stepWindow(w, json, win, kind, square!, collection, list, out)) continue;
      }
      win.movingAt[kind] = { x: at.x, z: at.z, radius, tick: w.tick };
    }
    const now = win.spare[kind];
    now.clear();
    fill(kind, now);
    const entered = win.entered[kind];
    const left = win.left[kind];
    entered.length = 0;
    left.length = 0;
    for (const id of seen) {
      if (now.has(id)) continue;
      left.push(id);
      const s = collection.get(id);
      if (s) win.view?.remove(s);
      out?.removed.push(id);
    }
    for (const id of now) {
      const s = collection.get(id)!;
      const isNew = !seen.has(id);
      if (isNew) {
        entered.push(id);
        win.view?.add(s);
      }
      if (list) {
        if (isNew) list.push(json.whole(id, s));
        else if (w.changedThisTick[kind].has(id)) list.push(json.change(id, s));
      }
    }
    win.spare[kind] = seen;
    win.visible[kind] = now;
    win.advancedTick[kind] = w.tick;
  }
  return out;
}

/**
 * A moving kind's set brought up to date in place from the entities that crossed its square's
 * edge since the last tick: those now within it that it admits come in, the others go. False,
 * with nothing changed, when the set holds more than it admits all of (a choice was made) or would.
 */
function stepWindow(
  w: World,
  json: EntityJson,
  win: Window,
  kind: EntityKind,
  square: Square,
  collection: Map<string, AnyState>,
  list: object[] | undefined,
  out: WorldUpdate | undefined,
): boolean {
  const seen = win.visible[kind];
  const limit = kind === "player" ? square.players : Infinity;
  if (seen.size > limit) return false;
  const entered = win.entered[kind];
  const left = win.left[kind];
  entered.length = 0;
  left.length = 0;
  for (const id of w.crossedNear(kind, square.centre, AOI_RADIUS, crossing)) {
    const inside = w.within(kind, id, square.centre, AOI_RADIUS) && square.admits(kind, id, square.viewerId);
    if (inside !== seen.has(id)) (inside ? entered : left).push(id);
  }
  if (seen.size + entered.length - left.length > limit) {
    entered.length = 0;
    left.length = 0;
    return false;
  }
  for (const id of left) {
    seen.delete(id);
    const s = collection.get(id);
    if (s) win.view?.remove(s);
    out?.removed.push(id);
  }
  // Those it held already and still holds are listed by their changes; those coming in, whole.
  if (list) for (const id of w.changedThisTick[kind]) if (seen.has(id)) list.push(json.change(id, collection.get(id)!));
  for (const id of entered) {
    seen.add(id);
    const s = collection.get(id)!;
    win.view?.add(s);
    list?.push(json.whole(id, s));
  }
  win.advancedTick[kind] = w.tick;
  return true;
}
