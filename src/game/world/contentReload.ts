import type { GameData } from "../../manifests/index.js";
import { holdingsOf } from "../ledger.js";
import { findRecipes } from "../production.js";
import { sameBounds, worldBounds } from "../tileMap.js";
import type { Tile } from "../types.js";
import { newStock, restoreShelf, type StoreStock } from "../store.js";
import type { PlayerEntity } from "./entities.js";
import { endAction } from "./playerSystem.js";
import { populateWorld } from "./setup.js";
import { closeStore } from "./stores.js";
import { endConversation } from "./talk.js";
import { World, type WorldFeature } from "./World.js";

/**
 * A content reload applied to a running world, between two ticks (README "Content reload"). The
 * new data is placed on a scratch world by the same rules as a start (src/game/world/setup.ts), and
 * the running world takes the difference: npcs, resource nodes and stations whose placement or
 * definition changed are put anew (a changed one at its spawn, with full health), vanished ones
 * leave, new ones appear, and the tiles trees, rocks and stations block follow them; stores take their new prices and listings and keep what is on their
 * shelves. What was open on changed content ends with the reason `content_changed`: a conversation
 * with a changed npc, a store whose definition changed, an action on a changed npc, node, station
 * or recipe (`CONTENT_CHANGED`). Nothing any player holds is touched.
 */

/** What a reload changed in one world. */
export interface WorldContentReport {
  npcs: { added: number; removed: number; replaced: number };
  resources: { added: number; removed: number; replaced: number };
  stations: { added: number; removed: number; replaced: number };
  stores: { added: string[]; removed: string[]; changed: string[] };
  /** Players whose conversation, store or action ended. */
  ended: { dialogues: number; stores: number; actions: number };
  /** Items of no definition any more, held by this world's players: by character, item and quantity. */
  heldRemoved: Array<{ characterId: string; itemId: string; quantity: number }>;
}

/** The reason and code a reload ends things with. */
export const CONTENT_CHANGED = "CONTENT_CHANGED";

/** Are two definitions the same? Compared as JSON (Maps and Sets as their entries). */
export const sameContent = (a: unknown, b: unknown) => a === b || asJson(a) === asJson(b);
const asJson = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (x instanceof Map ? [...x.entries()] : x instanceof Set ? [...x] : x));

/**
 * Does the ground of the new data differ from the running data's: the world's bounds (its areas'
 * extent) or the buildings? A reload cannot move it. (Trees, rocks and stations block their own
 * tiles: those a reload places anew.)
 */
export function groundChanged(running: GameData, next: GameData): boolean {
  return !sameBounds(worldBounds(running), worldBounds(next)) || !sameContent(running.buildings, next.buildings);
}

const skippedByFeatures = new WeakMap<GameData, string[]>();

/**
 * What the features would skip in `data` (their own files' bad entries), as a world populated from
 * it tells them: a content reload refuses new ones as it refuses the loader's. Once per game data.
 */
export function featureWarnings(data: GameData, features: readonly WorldFeature[]): string[] {
  let skipped = skippedByFeatures.get(data);
  if (!skipped) {
    let ids = 0;
    const scratch = new World(data, { rng: Math.random, newId: () => `check${++ids}`, features });
    populateWorld(scratch);
    skipped = scratch.events.drain().flatMap((e) => (e.kind === "contentWarning" ? [e.message] : []));
    skippedByFeatures.set(data, skipped);
  }
  return skipped;
}

export function applyContent(world: World, next: GameData): WorldContentReport {
  const previous = world.data;
  const scratch = new World(next, { rng: world.rng, newId: world.newId, features: world.features });
  populateWorld(scratch);
  const report: WorldContentReport = {
    npcs: { added: 0, removed: 0, replaced: 0 },
    resources: { added: 0, removed: 0, replaced: 0 },
    stations: { added: 0, removed: 0, replaced: 0 },
    stores: { added: [], removed: [], changed: [] },
    ended: { dialogues: 0, stores: 0, actions: 0 },
    heldRemoved: [],
  };
  // What ends: everything a player has open on an entity or definition that changed.
  const goneNpcs = new Set<string>();
  const goneTargets = new Set<string>();

  for (const [id, npc] of world.npcs) {
    const fresh = scratch.npcs.get(id);
    const changed =
      !fresh ||
      fresh.defId !== npc.defId ||
      fresh.storeId !== npc.storeId ||
      !sameContent(fresh.spawn, npc.spawn) ||
      !sameContent(next.npcs.get(npc.defId), previous.npcs.get(npc.defId));
    if (!changed) continue;
    goneNpcs.add(id);
    goneTargets.add(id);
    world.npcs.delete(id);
    world.unplace("npc", id);
    if (fresh) report.npcs.replaced++;
    else report.npcs.removed++;
  }
  for (const [id, fresh] of scratch.npcs) {
    if (world.npcs.has(id)) continue;
    if (!goneNpcs.has(id)) report.npcs.added++;
    world.npcs.set(id, fresh);
    world.place("npc", id, fresh.position);
  }

  const gatheringDef = (data: GameData, skill: string, id: string) => data.gathering[skill as keyof GameData["gathering"]]?.get(id);
  takePlaced(world, "resource", world.resources, scratch.resources, report.resources, goneTargets, (id, node, fresh) => {
    if (!id.startsWith("res:")) return false; // fires are the players' own
    return (
      !fresh ||
      fresh.resourceId !== node.resourceId ||
      fresh.skill !== node.skill ||
      !sameContent(fresh.tile, node.tile) ||
      !sameContent(gatheringDef(next, fresh.skill, node.resourceId), gatheringDef(previous, node.skill, node.resourceId))
    );
  });
  takePlaced(
    world,
    "station",
    world.stations,
    scratch.stations,
    report.stations,
    goneTargets,
    (_id, station, fresh) => !fresh || !sameContent(fresh, station) || !sameContent(next.stations.get(station.type), previous.stations.get(station.type)),
  );
  // Trees, rocks and stations block their tiles: the new placements' (the ground itself is the same, groundChanged).
  world.map.takeBlocksOf(scratch.map);
  world.spawnTile = scratch.spawnTile;
  world.bankTiles = scratch.bankTiles;
  world.rangeTiles = scratch.rangeTiles;

  const changedStores = new Set<string>();
  for (const [id, stock] of world.stores) {
    const def = next.stores.get(id);
    if (def && sameContent(def, stock.def)) continue;
    changedStores.add(id);
    if (!def) {
      world.stores.delete(id);
      world.stockDrift.delete(id);
      report.stores.removed.push(id);
      continue;
    }
    world.stores.set(id, restocked(newStock(def), stock, next, world.tick));
    report.stores.changed.push(id);
  }
  for (const [id, def] of next.stores) {
    if (world.stores.has(id)) continue;
    world.stores.set(id, newStock(def));
    report.stores.added.push(id);
  }

  world.data = next;
  for (const f of world.features) f.reloaded?.(world, scratch);
  // What the features skipped in the new data is told by the running world, as at its start.
  for (const e of scratch.events.drain()) if (e.kind === "contentWarning") world.events.push(e);

  for (const p of world.players.values()) {
    if (p.dialogue && goneNpcs.has(p.dialogue.npcInstanceId)) {
      endConversation(world, p, "content_changed");
      report.ended.dialogues++;
    }
    if (p.store && (goneNpcs.has(p.store.npcInstanceId) || changedStores.has(p.store.storeId))) {
      closeStore(world, p, "content_changed");
      report.ended.stores++;
    }
    if (p.action && actionChanged(p, goneTargets, previous, next)) {
      endAction(world, p, CONTENT_CHANGED, "The world's content changed: start again");
      report.ended.actions++;
    }
    for (const [itemId, quantity] of heldOfRemoved(p, next)) report.heldRemoved.push({ characterId: p.id, itemId, quantity });
  }
  for (const npc of world.npcs.values()) {
    if (npc.target && !world.players.has(npc.target)) npc.target = null;
  }
  return report;
}

/**
 * Resource nodes or stations as the scratch world placed them: each running one that `changed` says
 * changed is put anew (or leaves, when the new data has none of that id) and named in `gone`; the
 * new ones are placed.
 */
function takePlaced<T extends { tile: Tile }>(
  world: World,
  kind: "resource" | "station",
  running: Map<string, T>,
  fresh: ReadonlyMap<string, T>,
  counts: { added: number; removed: number; replaced: number },
  gone: Set<string>,
  changed: (id: string, was: T, now: T | undefined) => boolean,
) {
  for (const [id, was] of running) {
    const now = fresh.get(id);
    if (!changed(id, was, now)) continue;
    gone.add(id);
    world.unplace(kind, id);
    if (now) {
      running.set(id, now); // in its place: the loop does not meet it again
      world.place(kind, id, now.tile);
      counts.replaced++;
    } else {
      running.delete(id);
      counts.removed++;
    }
  }
  for (const [id, now] of fresh) {
    if (running.has(id)) continue;
    running.set(id, now);
    world.place(kind, id, now.tile);
    counts.added++;
  }
}

/** The new shelves of a store whose definition changed: its new listing and prices, with the quantities on the shelves now. */
function restocked(fresh: StoreStock, old: StoreStock, next: GameData, tick: number): StoreStock {
  for (const [itemId, entry] of old.entries) {
    const listed = fresh.entries.get(itemId);
    if (listed) {
      // A listed item keeps what is on the shelf (unlimited stays as the new listing says).
      if (listed.base !== -1 && entry.quantity !== -1) {
        listed.quantity = entry.quantity;
        listed.nextChangeTick = entry.quantity === listed.base ? null : (entry.nextChangeTick ?? tick + Math.max(1, listed.restockTicks));
      }
    } else if (entry.quantity > 0 && next.items.has(itemId)) {
      // No longer listed: what is on the shelf stays for sale, and goes as bought-in stock does.
      restoreShelf(fresh, itemId, entry.quantity, next.items, tick);
    }
  }
  return fresh;
}

/** Does the player's action name something the reload changed? */
function actionChanged(p: PlayerEntity, goneTargets: ReadonlySet<string>, previous: GameData, next: GameData): boolean {
  const a = p.action!;
  if (a.type === "make") {
    if (a.stationId && goneTargets.has(a.stationId)) return true;
    return !sameContent(recipesOf(previous, a.kind, a.recipeId), recipesOf(next, a.kind, a.recipeId));
  }
  if (a.type === "pray") return goneTargets.has(a.stationId);
  return goneTargets.has(a.targetId);
}

function recipesOf(data: GameData, kind: string, id: string) {
  try {
    return findRecipes(data.recipes, kind, id);
  } catch {
    return null;
  }
}

/** What the player holds (pack, worn, bank) of items the new data no longer defines. */
function heldOfRemoved(p: PlayerEntity, next: GameData): Map<string, number> {
  return new Map([...holdingsOf(p)].filter(([itemId]) => !next.items.has(itemId)));
}
