import assert from "node:assert/strict";
import { ClientState, Protocol, SchemaSerializer } from "@colyseus/core";
import { $changes, Decoder, StateView } from "@colyseus/schema";
import { NpcState, PlayerState, WorldState } from "../../schema/WorldState.js";
import { shareEntityEncodes, type SharedEncodes } from "../../rooms/interest/sharedEncodes.js";

/**
 * rooms/interest/sharedEncodes.ts copies each entity's bytes into every view instead of encoding them per
 * view. Two identical worlds are driven by the same random script (entities moving, joining and
 * leaving the state, views adding and removing them, several clients on one view): one encoded
 * the Colyseus way, one with shared encodes. Each client of each is decoded by a real Decoder.
 * Every patch must be as long as Colyseus's, decode to the same state, and that state must be
 * what the client's view holds.
 */

/** A small deterministic random source (the script must be the same for both worlds). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface FakeClient {
  state: ClientState;
  view: StateView;
  frames: Uint8Array[];
  raw(bytes: Uint8Array): void;
}

class Side {
  state = new WorldState();
  serializer = new SchemaSerializer<any>();
  views: StateView[] = [];
  clients: FakeClient[] = [];
  decoders: Decoder<any>[] = [];
  encodes?: SharedEncodes;

  constructor(shared: boolean, viewCount: number, clientsPerView: number) {
    this.serializer.reset(this.state as any);
    if (shared) this.encodes = shareEntityEncodes(this.serializer);
    for (let v = 0; v < viewCount; v++) {
      const view = new StateView();
      this.views.push(view);
      for (let c = 0; c < clientsPerView; c++) {
        const client: FakeClient = {
          state: ClientState.JOINED,
          view,
          frames: [],
          raw(bytes) {
            this.frames.push(bytes.slice());
          },
        };
        this.clients.push(client);
        this.decoders.push(new Decoder(new WorldState() as any));
      }
    }
  }

  /** The first state each client is sent, then nothing but patches. */
  join() {
    this.clients.forEach((c, i) => {
      const full = this.serializer.getFullState(c as any) as Uint8Array;
      this.decoders[i].decode(full, { offset: 1 });
    });
  }

  patch(): number[] {
    for (const c of this.clients) c.frames = [];
    this.serializer.applyPatches(this.clients as any);
    return this.clients.map((c, i) => {
      let length = 0;
      for (const f of c.frames) {
        assert.equal(f[0], Protocol.ROOM_STATE_PATCH);
        this.decoders[i].decode(f, { offset: 1 });
        length += f.length;
      }
      return length;
    });
  }
}

/** One random step of the script, applied alike to a world. */
function step(side: Side, rnd: () => number, tick: number) {
  const players = side.state.players as unknown as Map<string, any>;
  const npcs = side.state.npcs as unknown as Map<string, any>;
  side.state.tick = tick;
  // Entities move and change.
  for (const p of players.values()) {
    if (rnd() < 0.6) {
      p.x += 1;
      p.wx = p.x + 0.5;
    }
    if (rnd() < 0.2) p.action = rnd() < 0.5 ? "" : "woodcutting";
    if (rnd() < 0.1) p.health = Math.floor(rnd() * 99);
  }
  for (const n of npcs.values()) if (rnd() < 0.5) n.z += 1;
  // Some join the state, some leave it.
  const joins = Math.floor(rnd() * 3);
  for (let j = 0; j < joins; j++) {
    const id = `p${tick}-${j}`;
    players.set(
      id,
      new PlayerState({
        id,
        name: `Player ${id}`,
        x: 10,
        z: 20,
        wx: 10.5,
        wy: 0,
        wz: 20.5,
        health: 10,
        maxHealth: 10,
        combatLevel: 3,
        action: "",
        moving: false,
        running: false,
        isAgent: false,
        skulled: false,
      }),
    );
  }
  if (rnd() < 0.3) {
    const id = `n${tick}`;
    npcs.set(id, new NpcState({ id, npcId: "goblin", name: "Goblin", x: 5, z: 5, health: 5, maxHealth: 5, level: 2, state: "idle", targetId: "" }));
  }
  const ids = [...players.keys()];
  if (ids.length > 4 && rnd() < 0.4) {
    const gone = ids[Math.floor(rnd() * ids.length)];
    for (const v of side.views) v.remove(players.get(gone));
    players.delete(gone);
  }
  // Views take in and let go of entities.
  const all = [...players.values(), ...npcs.values()];
  for (const v of side.views) {
    for (const s of all) {
      const r = rnd();
      if (r < 0.15) v.add(s);
      else if (r < 0.22) v.remove(s);
    }
  }
}

/** A side of shared encodes, two views of `clientsPerView` clients each, joined and patched for five ticks of the script. */
function warmedUp(clientsPerView: number, seed: number) {
  const side = new Side(true, 2, clientsPerView);
  const rnd = random(seed);
  for (let i = 0; i < 6; i++) step(side, rnd, 0);
  side.join();
  for (let tick = 1; tick <= 5; tick++) {
    step(side, rnd, tick);
    side.patch();
  }
  return { side, rnd };
}

/** What a client holding view 0's set is to stop and start holding to hold view 1's (players and npcs). */
function movesBetween(side: Side) {
  const [from, to] = side.views;
  const sees = (v: StateView, s: any) => v.isChangeTreeVisible(s[$changes]);
  return (["players", "npcs"] as const).map((kind) => {
    const all = [...(side.state[kind] as unknown as Map<string, object>).values()];
    return {
      collection: side.state[kind],
      removed: all.filter((s) => sees(from, s) && !sees(to, s)),
      added: all.filter((s) => !sees(from, s) && sees(to, s)),
    };
  });
}

/** A warmed-up side whose views' move frame has been made once (every added entity's add kept), and a player it adds. */
function addsKept() {
  const { side } = warmedUp(1, 7);
  const moves = movesBetween(side);
  const added = moves.flatMap((m) => m.added);
  const player = moves[0].added[0] as any;
  assert.ok(player && added.length > 1, "players and others to add");
  side.encodes!.moveFrame(moves);
  return { side, moves, added, player };
}

/**
 * Make `bytes` and check how the entities of `added` were made: every one copied from the bytes
 * kept of it, one of them brought up to date first by rewriting its kept bytes in place
 * ("rewritten"), or every one but one, encoded again, fields and entry ("encoded").
 */
function onlyOneMadeAgain(side: Side, added: object[], make: () => Uint8Array, how: "rewritten" | "encoded"): Uint8Array {
  const counts = { ...side.encodes!.counts };
  const bytes = make();
  const after = side.encodes!.counts;
  if (how === "rewritten") {
    assert.equal(after.rewritten - counts.rewritten, 1, "the changed entity's kept bytes, rewritten");
    assert.equal(after.encoded - counts.encoded, 0, "nothing encoded again");
    assert.equal(after.copied - counts.copied, added.length, "every entity's bytes copied");
  } else {
    assert.equal(after.rewritten - counts.rewritten, 0, "nothing rewritten");
    assert.equal(after.encoded - counts.encoded, 2, "the changed entity's fields and entry, made again");
    assert.equal(after.copied - counts.copied, added.length - 1, "every other entity's bytes copied");
  }
  return bytes;
}

describe("Shared entity encodes (rooms/interest/sharedEncodes.ts): one encode per entity, copied into every view", () => {
  it("over 60 random ticks, every client's patches are as long as Colyseus's and decode to the same state, the state its view holds", () => {
    const colyseus = new Side(false, 8, 2);
    const shared = new Side(true, 8, 2);
    for (const side of [colyseus, shared]) {
      const rnd = random(7);
      for (let i = 0; i < 6; i++) step(side, rnd, 0);
      side.join();
    }
    const rndA = random(11);
    const rndB = random(11);
    for (let tick = 1; tick <= 60; tick++) {
      step(colyseus, rndA, tick);
      step(shared, rndB, tick);
      const lengths = shared.patch();
      assert.deepEqual(lengths, colyseus.patch(), `patch lengths at tick ${tick}`);
      shared.decoders.forEach((d, i) => {
        assert.deepEqual(d.state.toJSON(), colyseus.decoders[i].state.toJSON(), `client ${i} at tick ${tick}`);
      });
    }
    // What each client decoded is what its view holds, field for field.
    shared.clients.forEach((c, i) => {
      const decoded = shared.decoders[i].state.toJSON() as Record<string, Record<string, unknown>>;
      for (const kind of ["players", "npcs"] as const) {
        const expected: Record<string, unknown> = {};
        for (const [id, s] of shared.state[kind] as unknown as Map<string, any>) if (c.view.isChangeTreeVisible(s[$changes])) expected[id] = s.toJSON();
        assert.deepEqual(decoded[kind], expected, `client ${i}'s ${kind}`);
      }
    });
    // Entities were encoded once and copied for the other views.
    const counts = shared.encodes!.counts;
    assert.ok(counts.copied > counts.encoded, `copied ${counts.copied}, encoded ${counts.encoded}`);
  });

  it("a move frame takes a client from one view's set to another's; it then decodes that view's patches like the clients already on it", () => {
    const { side, rnd } = warmedUp(2, 3);
    // Client 0 (on view 0) moves to view 1, whose clients are 2 and 3.
    const [, to] = side.views;
    const moves = movesBetween(side);
    assert.ok(moves.some((m) => m.removed.length > 0) && moves.some((m) => m.added.length > 0), "the two views differ both ways");
    const frame = side.encodes!.moveFrame(moves);
    assert.equal(frame[0], Protocol.ROOM_STATE_PATCH);
    side.decoders[0].decode(frame, { offset: 1 });
    assert.deepEqual(side.decoders[0].state.toJSON(), side.decoders[2].state.toJSON(), "after the frame");
    side.clients[0].view = to;
    for (let tick = 6; tick <= 20; tick++) {
      step(side, rnd, tick);
      side.patch();
      assert.deepEqual(side.decoders[0].state.toJSON(), side.decoders[2].state.toJSON(), `at tick ${tick}`);
    }
  });

  it("a move frame made again after a patch: an entity unchanged since is copied, one whose numbers changed has its kept bytes rewritten in place", () => {
    const { side, moves, added, player } = addsKept();
    // One entity's tile changes in the next patch; nothing else does.
    player.x += 7;
    side.patch();
    const frame = onlyOneMadeAgain(side, added, () => side.encodes!.moveFrame(moves), "rewritten");
    side.decoders[0].decode(frame, { offset: 1 });
    assert.deepEqual(side.decoders[0].state.toJSON(), side.decoders[1].state.toJSON(), "client 0 now holds view 1's set, as it is now");
    assert.equal(side.decoders[0].state.players.get(player.id).x, player.x);
  });

  it("a move frame made again after a patch: an entity whose text changed (its bytes may change length) is encoded afresh", () => {
    const { side, moves, added, player } = addsKept();
    player.action = player.action === "" ? "woodcutting" : "";
    player.x += 1;
    side.patch();
    const frame = onlyOneMadeAgain(side, added, () => side.encodes!.moveFrame(moves), "encoded");
    side.decoders[0].decode(frame, { offset: 1 });
    assert.deepEqual(side.decoders[0].state.toJSON(), side.decoders[1].state.toJSON(), "client 0 now holds view 1's set, as it is now");
    assert.deepEqual(side.decoders[0].state.players.get(player.id).toJSON(), (player as any).toJSON());
  });

  it("a first state's adds may be made with changes not yet patched: an entity changed since its bytes were made is brought up to date", () => {
    const { side, moves, added, player } = addsKept();
    // It changes, and no patch has gone out since.
    player.x += 5;
    player.health = 3;
    const body = onlyOneMadeAgain(side, added, () => side.encodes!.addsBody(moves), "rewritten");
    side.decoders[0].decode(body);
    assert.equal(side.decoders[0].state.players.get(player.id).x, player.x, "its value now, not the one its bytes were first made with");
    assert.equal(side.decoders[0].state.players.get(player.id).health, 3);
  });

  it("a move frame is refused while the state has changes not yet patched (its entities' bytes would be stale)", () => {
    const side = new Side(true, 1, 1);
    step(side, random(5), 0);
    side.join();
    side.state.tick = 99;
    assert.throws(() => side.encodes!.moveFrame([]), /changes not yet patched/);
  });
});
