import assert from "node:assert/strict";
import { LocalPresence } from "@colyseus/core";
import { DRAINING_KEY, WorldHosting, worldHostKey } from "../../rooms/cluster/worldHosting.js";
import { silentLogger } from "../../src/logger.js";
import type { WorldSpec } from "../../src/worldSpecs.js";

const SPECS: WorldSpec[] = [301, 302, 303].map((id) => ({ id, name: `World ${id}`, capacity: 100 }));

/**
 * Processes of a cluster as WorldHosting instances on one presence: a process is alive while it
 * listens on its Colyseus process channel (`p:<id>`), as a real one does from its start.
 */
function processes(presence: LocalPresence) {
  const made = new Map<
    string,
    {
      hosting: WorldHosting;
      open: Set<number>;
      closed: number[];
      players: Map<number, number>;
      movedOut: number[];
      movedTo: Array<[number, string | undefined]>;
      stop(): void;
    }
  >();
  return (id: string) => {
    const listener = () => {};
    void presence.subscribe(`p:${id}`, listener);
    const open = new Set<number>();
    const closed: number[] = [];
    const players = new Map<number, number>();
    const movedOut: number[] = [];
    const movedTo: Array<[number, string | undefined]> = [];
    const hosting = new WorldHosting(
      presence,
      SPECS,
      { processId: id },
      {
        open: async (spec) => void open.add(spec.id),
        isEmpty: (spec) => (players.get(spec.id) ?? 0) === 0,
        close: async (spec) => {
          open.delete(spec.id);
          closed.push(spec.id);
        },
        moveOut: async (spec, next) => {
          assert.ok(open.has(spec.id), "a world moves out of the room that runs it, before it closes");
          movedOut.push(spec.id);
          movedTo.push([spec.id, next]);
          return players.get(spec.id) ?? 0;
        },
      },
      silentLogger,
    );
    const p = { hosting, open, closed, players, movedOut, movedTo, stop: () => presence.unsubscribe(`p:${id}`, listener) };
    made.set(id, p);
    return p;
  };
}

const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);

describe("world hosting: each world once, shared out, taken over", () => {
  it("one process runs every world; processes that arrive get empty worlds handed over until the shares differ by one at most", async () => {
    const presence = new LocalPresence();
    const start = processes(presence);
    const a = start("A");
    await a.hosting.round();
    assert.deepEqual(sorted(a.open), [301, 302, 303]);

    const b = start("B");
    await b.hosting.round();
    assert.deepEqual(sorted(b.open), [], "nothing is free: B takes nothing away");
    await a.hosting.round();
    assert.deepEqual(sorted(a.open), [302, 303], "A, two ahead, hands its first empty world over");
    assert.equal((await presence.hget(worldHostKey(301), "holder")) ?? undefined, undefined, "its claim is free");
    await b.hosting.round();
    assert.deepEqual(sorted(b.open), [301]);
    await a.hosting.round();
    await b.hosting.round();
    assert.deepEqual([sorted(a.open), sorted(b.open)], [[302, 303], [301]], "one apart: stable");

    const c = start("C");
    await c.hosting.round();
    await a.hosting.round();
    await c.hosting.round();
    assert.deepEqual([sorted(a.open), sorted(b.open), sorted(c.open)], [[303], [301], [302]]);
    for (const id of [301, 302, 303]) assert.ok(await presence.hget(worldHostKey(id), "holder"));
  });

  it("a world with players in it stays where it is", async () => {
    const presence = new LocalPresence();
    const start = processes(presence);
    const a = start("A");
    await a.hosting.round();
    for (const id of [301, 302, 303]) a.players.set(id, 1);
    const b = start("B");
    for (let i = 0; i < 3; i++) {
      await a.hosting.round();
      await b.hosting.round();
    }
    assert.deepEqual([sorted(a.open), sorted(b.open)], [[301, 302, 303], []]);
  });

  it("a process gone for two rounds loses its worlds to the others; if it was only cut off, it closes them at its next round", async () => {
    const presence = new LocalPresence();
    const start = processes(presence);
    const a = start("A");
    await a.hosting.round();
    a.players.set(301, 1);
    const b = start("B");
    await a.hosting.round();
    await b.hosting.round();
    assert.deepEqual([sorted(a.open), sorted(b.open)], [[301, 303], [302]]);

    a.stop(); // A no longer listens: gone, as a SIGKILLed process's subscriptions are
    await b.hosting.round();
    assert.deepEqual(sorted(b.open), [302], "one round gone is not enough");
    await b.hosting.round();
    assert.deepEqual(sorted(b.open), [301, 302, 303], "B runs every world now");
    assert.equal(await presence.hget(worldHostKey(301), "holder"), "B");

    await a.hosting.round();
    assert.deepEqual(sorted(a.open), [], "A finds its claims taken and closes its rooms");
    assert.equal(await presence.hget(worldHostKey(301), "holder"), "B", "and leaves B's claims alone");
  });

  it("a claim that lapsed while nobody took it (a round late under load) is taken again: the world keeps running", async () => {
    const presence = new LocalPresence();
    const a = processes(presence)("A");
    await a.hosting.round();
    a.players.set(301, 400);
    await presence.del(worldHostKey(301)); // expired: the process was too busy to refresh it in time
    await a.hosting.round();
    assert.deepEqual([sorted(a.open), a.closed], [[301, 302, 303], []], "no world was closed");
    assert.equal(await presence.hget(worldHostKey(301), "holder"), "A");
  });

  it("a draining process moves its worlds out with their players, and the others take each at once, not at their next round", async () => {
    const presence = new LocalPresence();
    const start = processes(presence);
    const a = start("A");
    await a.hosting.round();
    for (const id of [301, 302, 303]) a.players.set(id, 10);
    const b = start("B");
    const c = start("C");
    // B and C run their rounds only when told a world was freed (an hour between rounds otherwise).
    await Promise.all([b.hosting.start(3_600_000), c.hosting.start(3_600_000)]);
    assert.deepEqual([sorted(b.open), sorted(c.open)], [[], []], "every world has players on A: nothing moves by itself");

    const drained = await a.hosting.drain();
    assert.deepEqual(drained, { worlds: [301, 302, 303], players: 30 });
    assert.deepEqual(a.movedOut, [301, 302, 303]);
    assert.deepEqual(sorted(a.open), [], "A closed every room");
    assert.deepEqual(await presence.smembers(DRAINING_KEY), ["A"]);
    // No round is due for an hour: the freed worlds' messages start the rounds that take them.
    for (let turn = 0; b.open.size + c.open.size < 3; turn++) {
      assert.ok(turn < 10_000, `the freed worlds were not taken: ${JSON.stringify([sorted(b.open), sorted(c.open)])}`);
      await new Promise((r) => setImmediate(r));
    }
    assert.deepEqual([...b.open, ...c.open].sort(), [301, 302, 303], "every world runs again, on B or C");
    // Each world went where A meant it to (the one running the fewest, in turn: B, C, B), and nobody else took it.
    assert.deepEqual([sorted(b.open), sorted(c.open)], [[301, 303], [302]]);
    assert.deepEqual(
      a.movedTo,
      [["B"], ["C"], ["B"]].map(([to], i) => [301 + i, to]),
    );
    for (const id of [301, 302, 303]) assert.notEqual(await presence.hget(worldHostKey(id), "holder"), "A");

    await a.hosting.round();
    assert.deepEqual(sorted(a.open), [], "a draining process claims nothing again");
    await a.hosting.stop();
    assert.deepEqual(await presence.smembers(DRAINING_KEY), [], "its stop takes it off the draining set");
    await Promise.all([b.hosting.stop(), c.hosting.stop()]);
  });
});
