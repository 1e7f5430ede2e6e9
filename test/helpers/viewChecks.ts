import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { WorldSync } from "../../rooms/interest/worldSync.js";
import type { WorldViews } from "../../rooms/interest/worldViews.js";
import { ZONE_SIZE } from "../../src/game/world/interest.js";
import type { Tile } from "../../src/game/types.js";
import type { WorldPlayer } from "./worldClient.js";
import type { Frame } from "./wsClient.js";

/**
 * What SDK clients decode, checked against what the server has them see (rooms/interest/worldWindows.ts,
 * PROTOCOL.md §2): the server's sets recorded tick by tick, each client's decoded state compared
 * with them patch after patch.
 */

export const COLLECTIONS = { player: "players", npc: "npcs", resource: "resources", groundItem: "groundItems", station: "stations" } as const;
export type Kind = keyof typeof COLLECTIONS;
/** Per kind, each entity held and its fields. */
export type Snapshot = Record<Kind, Record<string, unknown>>;

/** Entities by id with their fields, in id order (comparable as JSON). */
export function fieldsOf(ids: Iterable<string>, get: (id: string) => { toJSON(): unknown } | undefined): Record<string, unknown> {
  return Object.fromEntries([...ids].sort().map((id) => [id, get(id)?.toJSON()]));
}

/**
 * What the server has each viewer hold by tick, recorded as the views are updated (what the
 * tick's patch brings) and again after the patch (what a hand-over frame brings, if any).
 */
export type Meant = Map<number, Map<string, Snapshot[]>>;
export function recordViews(room: WorldRoom): Meant {
  const byTick: Meant = new Map();
  const interest = room.interest;
  const record = () => {
    let now = byTick.get(room.world.tick);
    if (!now) byTick.set(room.world.tick, (now = new Map()));
    for (const id of interest.viewers()) now.set(id, [...(now.get(id) ?? []), snapshotOf(room, interest.seenBy(id)!)]);
  };
  const update = interest.updateViews.bind(interest);
  interest.updateViews = () => {
    const out = update();
    record();
    return out;
  };
  const afterPatch = interest.afterPatch.bind(interest);
  interest.afterPatch = () => {
    afterPatch();
    record();
  };
  return byTick;
}

/** The shared interest implementation's views of a room (its zones, windows and shared StateViews), for the suites that look into them. */
export function sharedViewsOf(room: WorldRoom): WorldViews {
  const interest = room.interest;
  if (!(interest instanceof WorldSync)) throw new Error(`the room's interest is ${interest.kind}, not the shared implementation`);
  return interest.views;
}

/** What an SDK client has decoded, by kind. */
export function decoded(p: WorldPlayer): Snapshot {
  return decodedState(p.room.state);
}

export function decodedState(s: any): Snapshot {
  return Object.fromEntries(Object.entries(COLLECTIONS).map(([k, c]) => [k, fieldsOf(s[c].keys(), (id) => s[c].get(id))])) as Snapshot;
}

/** The entities of a viewer's sets, with their fields as the room's state has them now. */
export function snapshotOf(room: WorldRoom, visible: Record<Kind, ReadonlySet<string>>): Snapshot {
  return Object.fromEntries(
    Object.entries(COLLECTIONS).map(([k, c]) => [
      k,
      fieldsOf(visible[k as Kind], (e) => (room.state[c] as unknown as Map<string, { toJSON(): unknown }>).get(e)),
    ]),
  ) as Snapshot;
}

/**
 * Check every patch the client applies against what the server meant it to hold at that tick
 * (a tick's second patch, a hand-over frame, against what it held after the patch), until
 * `stop()`; returns the mismatches and how many patches were checked.
 */
export function checkEveryPatch(p: WorldPlayer, byTick: Meant) {
  const mismatches: string[] = [];
  let checked = 0;
  const patchesOf = new Map<number, number>();
  const onPatch = (state: any) => {
    const nth = patchesOf.get(state.tick) ?? 0;
    patchesOf.set(state.tick, nth + 1);
    const meant = byTick.get(state.tick)?.get(p.id)?.[nth];
    if (!meant) return;
    checked++;
    const got = decoded(p);
    for (const k of Object.keys(COLLECTIONS) as Kind[]) {
      if (JSON.stringify(got[k]) !== JSON.stringify(meant[k]))
        mismatches.push(`tick ${state.tick} ${k}: decoded ${JSON.stringify(got[k]).slice(0, 400)}, meant ${JSON.stringify(meant[k]).slice(0, 400)}`);
    }
  };
  p.room.onStateChange(onPatch);
  return {
    mismatches,
    checked: () => checked,
    /** Ticks it was sent a second patch in (a hand-over frame). */
    handOvers: () => [...patchesOf.values()].filter((n) => n > 1).length,
    stop: () => p.room.onStateChange.remove(onPatch),
  };
}

/** A walkable tile in a zone of its own `dx` zones east of `from`'s (same row of tiles). */
export function zonesEast(room: WorldRoom, from: Tile, dx: number): Tile {
  const x = from.x + dx * ZONE_SIZE;
  for (let dz = 0; dz < ZONE_SIZE; dz++) {
    const t = { x, z: from.z + dz };
    if (room.world.map.inBounds(t.x, t.z) && !room.world.map.isBlocked(t.x, t.z)) return t;
  }
  throw new Error(`no walkable tile ${dx} zones east of ${JSON.stringify(from)}`);
}

/** What a /ws client that applies every `world:update` among `frames` believes is in its view. */
export function wsModelOf(frames: Frame[]): Set<string> {
  const shown = new Set<string>();
  for (const f of frames) {
    if (f.type !== "world:update") continue;
    for (const list of Object.values(COLLECTIONS)) for (const e of f.data[list]) shown.add(e.id);
    for (const id of f.data.removed) shown.delete(id);
  }
  return shown;
}

/** The ids of every entity the server has this player see now (none when it has no viewer). */
export function heldBy(room: WorldRoom, playerId: string): Set<string> {
  const seen = room.interest.seenBy(playerId);
  if (!seen) return new Set();
  return new Set([...seen.player, ...seen.npc, ...seen.resource, ...seen.groundItem, ...seen.station]);
}

/** How a client's model differs from what it was to hold: what it keeps that it should not, and what it lacks. */
export function ghostsAndMissing(model: Set<string>, held: Set<string>): { ghosts: string[]; missing: string[] } {
  return { ghosts: [...model].filter((id) => !held.has(id)), missing: [...held].filter((id) => !model.has(id)) };
}

/**
 * Record what is logged through the given console methods (a decoder logs a structure it does not
 * know, and skips it) instead of printing it, until `stop()`.
 */
export function recordComplaints(...methods: Array<"error" | "warn">) {
  const lines: string[] = [];
  const saved = methods.map((m) => [m, console[m]] as const);
  for (const m of methods) console[m] = (...args: unknown[]) => lines.push(String(args[0]));
  return {
    lines,
    stop: () => {
      for (const [m, f] of saved) console[m] = f;
    },
  };
}
