import assert from "node:assert/strict";
import { ClientState, Protocol, SchemaSerializer } from "@colyseus/core";
import { Decoder, type StateView } from "@colyseus/schema";
import { WorldState } from "../../schema/WorldState.js";
import { makeInterest } from "../../rooms/interest/interestKinds.js";
import { COLLECTION, KINDS, collectionOf } from "../../rooms/interest/stateCollections.js";
import type { InterestKind, WorldInterest } from "../../rooms/interest/worldInterest.js";
import { WorldSync } from "../../rooms/interest/worldSync.js";
import { createWorld } from "../../rooms/worldSetup.js";
import { dropItem, movePlayer, startPickup } from "../../src/game/world/commands.js";
import { canSeeGroundItem } from "../../src/game/world/deathPiles.js";
import { removePlayer } from "../../src/game/world/players.js";
import { tickGroundItems, tickNpcs, tickPlayers, tickResources } from "../../src/game/world/tick.js";
import type { World } from "../../src/game/world/World.js";
import { GameError, type Tile } from "../../src/game/types.js";
import type { WorldUpdate } from "../../src/protocol/index.js";
import { addStarter } from "../helpers/handPlaced.js";
import { defaultGameData } from "../helpers/server.js";
import { checkEveryPatch, decodedState, fieldsOf, recordComplaints, recordViews, type Kind, type Snapshot } from "../helpers/viewChecks.js";
import { worldSuite, type WorldPlayer } from "../helpers/worldClient.js";
import { place, walkableNear, worldRoomOf } from "../helpers/worldRoom.js";
import { seededRng } from "../game/rng.js";

/**
 * The two interest implementations (rooms/interest/worldInterest.ts) side by side: two identical
 * worlds with no room around them, each with the schema serializer a room has, one mirrored to its
 * clients by the shared implementation and one by the plain one, are driven by the same seeded
 * script, tick by tick (players joining between ticks, some of schema patches, some of
 * world:update JSON, some of both, walking and teleported across zones, dropping items only they
 * may see yet, picking items up, leaving and coming back, some in the same tick; npcs acting;
 * ground items turning public and despawning), in a crowd over a small player cap. Each client of
 * patches decodes what it is sent with a real Decoder, as the room's clients would (the first
 * state, the patches, the hand-over frames). After every join and every tick, every client must
 * hold the same entities with the same fields under both, that must be what the server has it
 * see, and each JSON client's model must be the same under both.
 */

const CAP = 4;
const TICKS = 160;

/** A client of one side: its decoder (a client of patches) and its model of world:update (a client of JSON). */
class TestClient {
  state = ClientState.JOINED;
  view?: StateView;
  readonly decoder = new Decoder(new WorldState() as any);
  /** Entities by id, as the merged world:update entries have them. */
  readonly model = new Map<string, Record<string, unknown>>();
  frames = 0;

  constructor(
    readonly id: string,
    readonly json: boolean,
    readonly patches: boolean,
  ) {}

  /** What the room sends it as bytes: a first state, a patch, a hand-over frame. */
  raw(bytes: Uint8Array) {
    assert.ok(bytes[0] === Protocol.ROOM_STATE || bytes[0] === Protocol.ROOM_STATE_PATCH, `a state or a patch (${bytes[0]})`);
    this.frames++;
    this.decoder.decode(bytes, { offset: 1 });
  }

  /** A world:update in the changes form (as the views make it): entries merged, the removed dropped. */
  take(update: WorldUpdate) {
    for (const kind of KINDS) for (const e of update[COLLECTION[kind]] as Array<{ id: string }>) this.model.set(e.id, { ...this.model.get(e.id), ...e });
    for (const id of update.removed) this.model.delete(id);
  }

  decoded(): Snapshot {
    return decodedState(this.decoder.state);
  }

  modelJson(): string {
    return JSON.stringify([...this.model.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}

/** One world, its schema state and serializer, and its interest implementation, as a WorldRoom holds them. */
class Side {
  readonly world: World;
  readonly state = new WorldState();
  readonly serializer = new SchemaSerializer<any>();
  readonly interest: WorldInterest;
  readonly clients = new Map<string, TestClient>();
  /** What each action did (its refusal's code, if any), to be the same on both sides. */
  readonly outcomes: string[] = [];

  constructor(
    readonly kind: InterestKind,
    data: Awaited<ReturnType<typeof defaultGameData>>,
  ) {
    let ids = 0;
    this.world = createWorld(data, { rng: seededRng(11), newId: () => `e${++ids}` });
    // As Room.setState does for the room's state.
    this.serializer.reset(this.state as any);
    this.interest = makeInterest(kind, {
      world: this.world,
      state: this.state,
      playerCap: CAP,
      serializer: this.serializer,
      send: (playerId, frame) => this.clients.get(playerId)?.raw(frame),
    });
    this.interest.syncState();
  }

  /** A player's client comes in, as WorldSessions.place has it (then the room sends its first state). */
  join(name: string, tile: Tile, json: boolean, patches: boolean) {
    const p = addStarter(this.world, name, tile);
    const c = new TestClient(p.id, json, patches);
    this.clients.set(p.id, c);
    const first = this.interest.join(p.id, { json, setView: patches ? (view) => (c.view = view) : undefined });
    if (json) {
      assert.ok(first, `${p.id}'s first world:update`);
      c.take(first);
    }
    if (patches) c.raw(this.interest.firstState(c) ?? this.serializer.getFullState(c as any));
  }

  /** A player's client goes, as WorldSessions' leave has it: out of the views, then out of the world. */
  leave(id: string) {
    this.clients.delete(id);
    this.interest.leave(id);
    removePlayer(this.world, id);
  }

  /** Run a command of the world's, noting its outcome. */
  act(what: string, fn: () => void) {
    try {
      fn();
      this.outcomes.push(`${what}: done`);
    } catch (err) {
      if (!(err instanceof GameError)) throw err;
      this.outcomes.push(`${what}: ${err.code}`);
    }
  }

  /** One tick, as runTick has the phases that touch what clients see. */
  tick() {
    const w = this.world;
    w.tick++;
    tickPlayers(w);
    tickNpcs(w);
    tickResources(w);
    tickGroundItems(w);
    w.events.drain();
    this.interest.syncState();
    const updates = this.interest.updateViews();
    for (const [id, update] of updates) this.clients.get(id)?.take(update);
    this.serializer.applyPatches([...this.clients.values()].filter((c) => c.patches) as any);
    this.interest.afterPatch();
    w.endTick();
  }

  /** What the server has a client see: the entities of its sets, with their fields as the schema has them. */
  truth(id: string): Snapshot {
    const seen = this.interest.seenBy(id)!;
    return Object.fromEntries(KINDS.map((k) => [k, fieldsOf(seen[k], (e) => collectionOf(this.state, k).get(e))])) as Snapshot;
  }
}

/** How two holdings of one kind differ: the ids only one holds, and the entities both hold with other fields (the first few). */
function gap(one: Record<string, unknown>, other: Record<string, unknown>): string | undefined {
  const only = (x: Record<string, unknown>, y: Record<string, unknown>) => Object.keys(x).filter((id) => !(id in y));
  const fields = Object.keys(one)
    .filter((id) => id in other && JSON.stringify(one[id]) !== JSON.stringify(other[id]))
    .slice(0, 2)
    .map((id) => `${JSON.stringify(one[id])} / ${JSON.stringify(other[id])}`);
  const [first, second] = [only(one, other), only(other, one)];
  if (first.length + second.length + fields.length === 0) return undefined;
  return `only in the first [${first.slice(0, 5)}], only in the second [${second.slice(0, 5)}], fields ${fields.join("; ")}`;
}

/**
 * Where the two sides differ in what a client holds, and (`patched`: after a tick, when the schema
 * has nothing pending) where a side's client holds other than the server has it see.
 */
function differences(a: Side, b: Side, when: string, patched: boolean): string[] {
  const out: string[] = [];
  assert.deepEqual([...a.clients.keys()].sort(), [...b.clients.keys()].sort(), "the same clients");
  for (const [id, ca] of a.clients) {
    const cb = b.clients.get(id)!;
    if (ca.patches) {
      const [da, db] = [ca.decoded(), cb.decoded()];
      for (const k of KINDS as Kind[]) {
        const g = gap(da[k], db[k]);
        if (g) out.push(`${when}, ${id}'s ${k}s, ${a.kind} against ${b.kind}: ${g}`);
      }
      if (patched)
        for (const [side, d] of [
          [a, da],
          [b, db],
        ] as const) {
          const truth = side.truth(id);
          for (const k of KINDS as Kind[]) {
            const g = gap(d[k], truth[k]);
            if (g) out.push(`${when}, ${id}'s ${k}s under ${side.kind}, decoded against what the server has it see: ${g}`);
          }
        }
    }
    if (ca.json && patched) {
      const seen = a.interest.seenBy(id)!;
      const ids = KINDS.flatMap((k) => [...seen[k]]).sort();
      if (JSON.stringify([...ca.model.keys()].sort()) !== JSON.stringify(ids))
        out.push(`${when}, ${id}'s world:update model under ${a.kind} holds other than its sets`);
    }
    if (ca.json && ca.modelJson() !== cb.modelJson())
      out.push(`${when}, ${id}'s world:update model: ${a.kind} ${ca.modelJson().slice(0, 300)}; ${b.kind} ${cb.modelJson().slice(0, 300)}`);
  }
  return out;
}

describe("interest management: the shared and the plain implementation show every client the same", function () {
  this.timeout(60_000);

  it("over a seeded script of joins, walks across zones, teleports, drops, pick-ups, leaves and returns, every client decodes the same after every tick", async () => {
    const data = await defaultGameData();
    const shared = new Side("shared", data);
    const plain = new Side("plain", data);
    const sides = [shared, plain];
    const w = shared.world;
    const spawn = w.spawnTile;
    const rnd = seededRng(2024);
    const walkable = (from: Tile, reach: number): Tile => {
      for (;;) {
        const t = { x: from.x + Math.round((rnd() * 2 - 1) * reach), z: from.z + Math.round((rnd() * 2 - 1) * reach) };
        if (w.map.inBounds(t.x, t.z) && !w.map.isBlocked(t.x, t.z)) return t;
      }
    };
    let names = 0;
    const away: string[] = [];
    const joinNew = () => {
      const name = `p${names++}`;
      const tile = walkable(spawn, rnd() < 0.6 ? 6 : 50);
      const roll = rnd();
      // Most take patches; some JSON alone (the /ws adapter, agents); some both.
      const [json, patches] = roll < 0.6 ? [false, true] : roll < 0.85 ? [true, false] : [true, true];
      for (const s of sides) s.join(name, tile, json, patches);
    };
    const counts = { sharing: 0, ownWindow: 0, joins: 0, leaves: 0, returns: 0, walks: 0, teleports: 0, drops: 0, pickups: 0, checked: 0 };
    const mismatches: string[] = [];
    const check = (when: string, patched = false) => {
      mismatches.push(...differences(shared, plain, when, patched));
      counts.checked++;
    };
    const complaints = recordComplaints("error", "warn");
    try {
      for (let i = 0; i < 24; i++) joinNew();
      check("after the first joins");
      for (let t = 0; t < TICKS; t++) {
        const actions = 1 + Math.floor(rnd() * 6);
        for (let a = 0; a < actions; a++) {
          const ids = [...w.players.keys()];
          const id = ids[Math.floor(rnd() * ids.length)];
          const me = id ? w.players.get(id) : undefined;
          const roll = rnd();
          if (!me || roll < 0.08) {
            if (away.length > 0 && rnd() < 0.5) {
              // Back, as the same character.
              const back = away.splice(Math.floor(rnd() * away.length), 1)[0];
              const roll2 = rnd();
              const [json, patches] = roll2 < 0.6 ? [false, true] : roll2 < 0.85 ? [true, false] : [true, true];
              const tile = walkable(spawn, 20);
              for (const s of sides) s.join(back, tile, json, patches);
              counts.returns++;
            } else {
              joinNew();
              counts.joins++;
            }
          } else if (roll < 0.45) {
            // A walk, often across a zone's edge (zones are 32 tiles).
            const to = walkable(me.tile, rnd() < 0.5 ? 40 : 8);
            const run = rnd() < 0.3;
            for (const s of sides) s.act(`walk ${id}`, () => movePlayer(s.world, id, to, run));
            counts.walks++;
          } else if (roll < 0.52) {
            const to = walkable(spawn, 70);
            for (const s of sides) {
              const p = s.world.players.get(id)!;
              p.tile = { ...to };
              p.path = [];
              p.action = null;
              s.world.place("player", id, p.tile);
              s.world.touchPlayer(p, true);
            }
            counts.teleports++;
          } else if (roll < 0.64) {
            // A drop only its owner may see for a while; or an older one, turning public soon (or despawning).
            const slot = me.inventory.findIndex((s) => s !== null);
            if (slot >= 0 && rnd() < 0.6) for (const s of sides) s.act(`drop ${id}`, () => dropItem(s.world, id, slot, 1));
            else {
              const age = 80 + Math.floor(rnd() * 230);
              for (const s of sides)
                s.world.addGroundItem({ id: `old${t}_${a}`, itemId: "logs", quantity: 1, tile: { ...me.tile }, ownerId: id, createdTick: s.world.tick - age });
            }
            counts.drops++;
          } else if (roll < 0.78) {
            // Pick up the nearest item it may see.
            let best: { id: string; d: number } | undefined;
            for (const g of w.groundItems.values()) {
              if (!canSeeGroundItem(g, id, w.tick)) continue;
              const d = Math.max(Math.abs(g.tile.x - me.tile.x), Math.abs(g.tile.z - me.tile.z));
              if (d <= 20 && (!best || d < best.d)) best = { id: g.id, d };
            }
            if (best) {
              for (const s of sides) s.act(`pickup ${id}`, () => startPickup(s.world, id, best.id));
              counts.pickups++;
            }
          } else if (roll < 0.86) {
            for (const s of sides) s.leave(id);
            away.push(me.name);
            counts.leaves++;
            // Some come back before the next tick.
            if (rnd() < 0.3) {
              const back = away.pop()!;
              const tile = walkable(spawn, 20);
              for (const s of sides) s.join(back, tile, false, true);
              counts.returns++;
            }
          }
        }
        check(`tick ${w.tick + 1}, after the joins`);
        for (const s of sides) s.tick();
        check(`tick ${w.tick}`, true);
        for (const v of (shared.interest as WorldSync).views.viewers.values()) counts[v.shared ? "sharing" : "ownWindow"]++;
      }
    } finally {
      complaints.stop();
    }
    assert.deepEqual(shared.outcomes, plain.outcomes, "the worlds played alike");
    assert.deepEqual(mismatches.slice(0, 20), [], `${mismatches.length} differences`);
    assert.deepEqual(complaints.lines, [], "no decoder met a structure it does not know");
    // The script did reach what it is meant to compare.
    const views = (shared.interest as WorldSync).views;
    assert.ok(views.handOvers.clients > 20, `clients handed between zones' views: ${views.handOvers.clients}`);
    const decodedPlayers = [...shared.clients.values()].filter((c) => c.patches).map((c) => Object.keys(c.decoded().player).length);
    assert.ok(Math.max(...decodedPlayers) === CAP + 1, `a crowd over the cap: players decoded per client ${decodedPlayers}`);
    assert.ok(counts.leaves > 10 && counts.returns > 5 && counts.pickups > 10 && counts.drops > 10, JSON.stringify(counts));
    // Viewers after each tick sharing their zone's window, and with a window of their own (over the cap, or a drop only they may see).
    assert.ok(counts.sharing > 1000 && counts.ownWindow > 1000, JSON.stringify(counts));
  });
});

describe("interest management: a world room on the plain implementation", function () {
  this.timeout(60_000);
  const suite = worldSuite({ interest: "plain", env: { VIEW_PLAYER_CAP: "3" } });

  it("SDK clients walking, teleported, dropping, leaving and back decode at every patch what the server has them see", async () => {
    const rnd = seededRng(5);
    const players: WorldPlayer[] = [];
    for (let i = 0; i < 6; i++) players.push(await suite.join());
    const room = worldRoomOf(players[0]);
    assert.equal(room.interest.kind, "plain");
    const spawn = room.world.spawnTile;
    // The room's ticks are run here, one at a time, each once every client has the one before.
    room.loop.stop();
    const step = async () => {
      (room.loop as unknown as { onTick(): void }).onTick();
      const tick = room.world.tick;
      await Promise.all(players.map((p) => p.sees((s) => s.tick >= tick, `tick ${tick}`)));
    };
    const byTick = recordViews(room);
    const complaints = recordComplaints("error", "warn");
    const checks = new Map(players.map((p) => [p, checkEveryPatch(p, byTick)]));
    const mismatches: string[] = [];
    try {
      for (let round = 0; round < 30; round++) {
        const p = players[Math.floor(rnd() * players.length)];
        const me = room.world.players.get(p.id)!;
        const roll = rnd();
        if (roll < 0.5) movePlayer(room.world, p.id, walkableNear(room, me.tile, 40, rnd));
        else if (roll < 0.7) place(room, p.id, walkableNear(room, spawn, 70, rnd));
        else if (roll < 0.85) {
          room.world.addGroundItem({ id: room.world.newId(), itemId: "logs", quantity: 1, tile: { ...me.tile }, ownerId: p.id, createdTick: room.world.tick });
        } else {
          // Leaves, and comes back as the same character.
          checks.get(p)!.stop();
          await p.leave();
          while (room.sessions.has(p.id)) await new Promise((r) => setImmediate(r));
          const back = await suite.join({ characterId: p.id }, { token: p.token, accountId: p.accountId });
          players[players.indexOf(p)] = back;
          checks.set(back, checkEveryPatch(back, byTick));
        }
        await step();
        if (rnd() < 0.5) await step();
      }
    } finally {
      room.loop.begin();
      complaints.stop();
      for (const c of checks.values()) {
        c.stop();
        mismatches.push(...c.mismatches);
      }
    }
    assert.deepEqual(mismatches, []);
    assert.deepEqual(complaints.lines, [], "no decoder met a structure it does not know");
    const checked = [...checks.values()].reduce((n, c) => n + c.checked(), 0);
    assert.ok(checked > 200, `patches checked: ${checked}`);
  });
});
