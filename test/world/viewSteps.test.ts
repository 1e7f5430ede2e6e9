import assert from "node:assert/strict";
import { Encoder } from "@colyseus/schema";
import { WorldState } from "../../schema/WorldState.js";
import type { HandOverFrames } from "../../rooms/interest/viewHandOvers.js";
import { KINDS, COLLECTION } from "../../rooms/interest/stateCollections.js";
import { WorldSync } from "../../rooms/interest/worldSync.js";
import { createWorld } from "../../rooms/worldSetup.js";
import { AOI_RADIUS } from "../../src/game/spatialGrid.js";
import { canSeeGroundItem } from "../../src/game/world/deathPiles.js";
import { ANYONE } from "../../rooms/interest/dropSight.js";
import type { EntityKind } from "../../src/game/world/entities.js";
import { tickNpcs } from "../../src/game/world/npcSystem.js";
import { removePlayer } from "../../src/game/world/players.js";
import type { World } from "../../src/game/world/World.js";
import type { Tile } from "../../src/game/types.js";
import type { Viewer } from "../../rooms/interest/viewWindows.js";
import type { WorldUpdate } from "../../src/protocol/index.js";
import { addStarter } from "../helpers/handPlaced.js";
import { defaultGameData } from "../helpers/server.js";
import { seededRng } from "../game/rng.js";

/** The hand-over frames are not looked at here (the room's suites decode them): made empty, sent nowhere. */
const noFrames: HandOverFrames = {
  moveFrame: () => new Uint8Array(),
  addsBody: () => new Uint8Array(),
  send: () => {},
};

type Sets = Record<EntityKind, Set<string>>;
const emptySets = (): Sets => Object.fromEntries(KINDS.map((k) => [k, new Set<string>()])) as Sets;

/** What a client holds after taking its world:update (entered and changed ids in, removed ones out). */
function take(held: Sets, update: WorldUpdate | undefined) {
  if (!update) return;
  for (const kind of KINDS) for (const e of update[COLLECTION[kind]] as Array<{ id: string }>) held[kind].add(e.id);
  for (const id of update.removed) for (const kind of KINDS) held[kind].delete(id);
}

/** Everything of a kind a fresh look from `centre` finds, that the window's viewer may see (a zone's: anyone). */
function inSquare(w: World, kind: EntityKind, centre: Tile, viewerId: string | undefined): Set<string> {
  const out = new Set<string>();
  const tiles: Array<[string, Tile]> =
    kind === "player"
      ? [...w.players.values()].map((p) => [p.id, p.tile])
      : kind === "npc"
        ? [...w.npcs.values()].filter((n) => n.deadUntilTick == null).map((n) => [n.id, n.position])
        : kind === "groundItem"
          ? [...w.groundItems.values()].filter((g) => canSeeGroundItem(g, viewerId ?? ANYONE, w.tick)).map((g) => [g.id, g.tile])
          : kind === "resource"
            ? [...w.resources.values()].map((r) => [r.id, r.tile])
            : [...w.stations.values()].map((s) => [s.id, s.tile]);
  for (const [id, t] of tiles) if (Math.abs(t.x - centre.x) <= AOI_RADIUS && Math.abs(t.z - centre.z) <= AOI_RADIUS) out.add(id);
  return out;
}

/**
 * A world with no room around it, its players all clients of world:update: each tick some walk
 * (some far), some drop an item only they may see for a while, some pick one up, some leave and
 * others join; the npcs act. `check` runs after every tick's update.
 */
async function run(opts: {
  players: number;
  ticks: number;
  cap: number;
  setup?: (w: World) => void;
  check: (w: World, sync: WorldSync, held: Map<string, Sets>) => void;
}) {
  const rng = seededRng(7);
  const world = createWorld(await defaultGameData(), { rng });
  opts.setup?.(world);
  const state = new WorldState();
  // The schema's encoder binds the state its StateViews filter (the patches themselves are not made here).
  new Encoder(state);
  const sync = new WorldSync(world, state, noFrames, opts.cap);
  const spawn = world.spawnTile;
  const held = new Map<string, Sets>();
  const near = (t: Tile, d: number): Tile => {
    for (let k = 0; k < 20; k++) {
      const x = t.x + Math.round((rng() * 2 - 1) * d);
      const z = t.z + Math.round((rng() * 2 - 1) * d);
      if (world.map.inBounds(x, z) && !world.map.isBlocked(x, z)) return { x, z };
    }
    return { ...t };
  };
  let joined = 0;
  const join = () => {
    const p = addStarter(world, `v${joined++}`, near(spawn, 60));
    // Every third a client of schema patches alone (handed over by frame after the patch: a zone shows it that tick wherever it stands).
    if (joined % 3 === 0) sync.views.attach(p.id, { json: false, setView: () => {} });
    else {
      sync.views.attach(p.id, { json: true });
      held.set(p.id, emptySets());
    }
  };
  for (let i = 0; i < opts.players; i++) join();
  for (let t = 0; t < opts.ticks; t++) {
    world.tick++;
    for (const p of [...world.players.values()]) {
      const roll = rng();
      if (roll < 0.3) {
        p.tile = near(p.tile, roll < 0.02 ? 40 : 3);
        world.place("player", p.id, p.tile);
      } else if (roll < 0.33) {
        world.addGroundItem({ id: `g${world.tick}_${p.id}`, itemId: "coins", quantity: 1, tile: { ...p.tile }, ownerId: p.id, createdTick: world.tick });
      } else if (roll < 0.35) {
        const [g] = [...world.groundItems.values()].filter((g) => g.ownerId === p.id);
        if (g) world.removeGroundItem(g.id);
      } else if (roll < 0.36) {
        removePlayer(world, p.id);
        sync.views.detach(p.id);
        held.delete(p.id);
        join();
      }
    }
    npcsLooking = true;
    tickNpcs(world);
    npcsLooking = false;
    sync.syncState();
    const updates = sync.views.updateViews();
    for (const [id, update] of updates) take(held.get(id)!, update);
    sync.views.afterPatch();
    opts.check(world, sync, held);
    world.endTick();
  }
}

/** True while the npcs act: their own looks for players nearby are no window's. */
let npcsLooking = false;

/** The window a viewer's client holds: its zone's, or its own. */
const windowOf = (v: Viewer) => (v.zone ? { centre: v.zone.centre, viewerId: undefined } : { centre: undefined, viewerId: v.playerId });

describe("world views: windows brought up to date from what crossed their edge", function () {
  this.timeout(120_000);

  it("under the cap, every window holds exactly what a fresh look finds, and its client holds the same; most players' windows are stepped", async () => {
    let fresh = 0;
    let stepped = 0;
    let checked = 0;
    await run({
      players: 80,
      ticks: 80,
      cap: 10_000,
      setup: (w) => {
        const near = w.near.bind(w);
        const crossed = w.crossedNear.bind(w);
        w.near = (kind, tile, radius, out) => {
          if (kind === "player" && !npcsLooking) fresh++;
          return near(kind, tile, radius, out);
        };
        w.crossedNear = (kind, tile, radius, out) => {
          if (kind === "player" && !npcsLooking) stepped++;
          return crossed(kind, tile, radius, out);
        };
      },
      check: (w, sync, held) => {
        for (const v of sync.views.viewers.values()) {
          const me = w.players.get(v.playerId)!;
          const { centre, viewerId } = windowOf(v);
          const mine = held.get(v.playerId);
          for (const kind of KINDS) {
            const found = inSquare(w, kind, centre ?? me.tile, viewerId);
            // Those handed out of a zone after this tick's patch were shown in it this tick, wherever they stood.
            if (kind === "player") for (const id of v.zone?.leavers ?? []) found.add(id);
            const meant = [...found].sort();
            assert.deepEqual([...v.visible[kind]].sort(), meant, `tick ${w.tick}, ${v.playerId}'s window's ${kind}s`);
            if (mine) assert.deepEqual([...mine[kind]].sort(), meant, `tick ${w.tick}, what ${v.playerId}'s client holds of ${kind}s`);
            checked++;
          }
        }
      },
    });
    assert.ok(checked >= 80 * 80 * KINDS.length, `windows checked (${checked})`);
    assert.ok(stepped > fresh, `players' windows stepped ${stepped} times, looked at afresh ${fresh}`);
  });

  it("every client holds what its window holds, over the cap too, where a window shows at most the cap", async () => {
    const cap = 6;
    let over = 0;
    await run({
      players: 60,
      ticks: 60,
      cap,
      check: (w, sync, held) => {
        for (const v of sync.views.viewers.values()) {
          const mine = held.get(v.playerId);
          if (mine) for (const kind of KINDS) assert.deepEqual([...mine[kind]].sort(), [...v.visible[kind]].sort(), `tick ${w.tick}, ${v.playerId}'s ${kind}s`);
          assert.ok(v.visible.player.size <= cap + 1, `at most the cap and itself (${v.visible.player.size})`);
          const me = w.players.get(v.playerId)!;
          const { centre } = windowOf(v);
          if (inSquare(w, "player", centre ?? me.tile, undefined).size > cap + 1) over++;
        }
      },
    });
    assert.ok(over > 0, "some windows had more players in their square than the cap");
  });
});
