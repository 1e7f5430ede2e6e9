import { AOI_RADIUS } from "../src/game/spatialGrid.js";
import type { EntityKind } from "../src/game/world/entities.js";
import type { World } from "../src/game/world/World.js";
import type { Tile } from "../src/game/types.js";
import type { WorldState } from "../schema/WorldState.js";
import type { WorldUpdate } from "../src/protocol/index.js";
import { COLLECTION, KINDS, collectionOf, type AnyState } from "./stateCollections.js";
import { emptyUpdate, type Window } from "./viewWindows.js";

/** An entity's JSON for a world:update: whole (entering a view) or its change entry (held already; rooms/updateForms.ts). */
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
 * Move a window to the sets `fill` gives, kind by kind: entities leaving are removed from its
 * view and listed as removed, those entering are added, and the JSON lists those entering (whole)
 * and those changed this tick (their change entries). Still kinds are recomputed only when `at`
 * (the window's centre) moved or one came or went, moving kinds only when it moved or one of them
 * came into or left its square. `update`: true for a new world:update, or the one to fill.
 */
export function advanceWindow(
  w: World,
  state: WorldState,
  json: EntityJson,
  win: Window,
  update: boolean | WorldUpdate | undefined,
  fill: (kind: EntityKind, now: Set<string>) => void,
  at?: Tile,
): WorldUpdate | undefined {
  const out = update === true ? emptyUpdate(w.tick) : update || undefined;
  // A window moved to sets given outright (a hand-over) finds its kinds afresh next time.
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
      if (
        last &&
        last.tick === w.tick - 1 &&
        last.x === at.x &&
        last.z === at.z &&
        last.radius === radius &&
        radius === AOI_RADIUS &&
        !w.changedNear(kind, at, radius)
      ) {
        last.tick = w.tick;
        if (list) for (const id of w.changedThisTick[kind]) if (seen.has(id)) list.push(json.change(id, collection.get(id)!));
        continue;
      }
      win.movingAt[kind] = { x: at.x, z: at.z, radius, tick: w.tick };
    }
    const now = win.spare[kind];
    now.clear();
    fill(kind, now);
    for (const id of seen) {
      if (now.has(id)) continue;
      const s = collection.get(id);
      if (s) win.view?.remove(s);
      out?.removed.push(id);
    }
    for (const id of now) {
      const s = collection.get(id)!;
      const entered = !seen.has(id);
      if (entered) win.view?.add(s);
      if (list) {
        if (entered) list.push(json.whole(id, s));
        else if (w.changedThisTick[kind].has(id)) list.push(json.change(id, s));
      }
    }
    win.spare[kind] = seen;
    win.visible[kind] = now;
    win.advancedTick[kind] = w.tick;
  }
  return out;
}
