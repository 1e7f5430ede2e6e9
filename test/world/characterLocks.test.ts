import assert from "node:assert/strict";
import { LocalPresence } from "@colyseus/core";
import { CharacterBusyError, CharacterLocks, RoomCharacterLocks, lockKey } from "../../rooms/characterLocks.js";
import { silentLogger } from "../../src/logger.js";

/** The character lock on Colyseus's presence (the in-process one; Redis answers the same calls). */
describe("character locks", function () {
  it("one holder at a time, even when many rooms try at once", async () => {
    const presence = new LocalPresence();
    const rooms = Array.from({ length: 8 }, (_, i) => new CharacterLocks(presence, `room${i}`));
    const won = await Promise.all(rooms.map((r) => r.tryAcquire("c1")));
    assert.equal(won.filter(Boolean).length, 1);
    const holder = rooms[won.indexOf(true)]!;
    assert.equal(await holder.holderOf("c1"), holder.holder);
    assert.equal(await holder.tryAcquire("c1"), true, "the holder holds it still");
    assert.equal(await rooms.find((r) => r !== holder)!.tryAcquire("c1"), false);
  });

  it("a room asked to let go saves and releases; the asker then holds it", async () => {
    const presence = new LocalPresence();
    const a = new CharacterLocks(presence, "a");
    const b = new CharacterLocks(presence, "b");
    assert.equal(await a.tryAcquire("c1"), true);
    const asked: string[] = [];
    await a.listen((id) => {
      asked.push(id);
      void a.release(id);
    });
    assert.deepEqual(await b.acquire("c1"), { tookOver: true });
    assert.deepEqual(asked, ["c1"]);
    assert.equal(await b.holderOf("c1"), "b");
    await a.release("c1");
    assert.equal(await b.holderOf("c1"), "b", "only the holder releases");
  });

  it("a holder that never answers (a dead process): the lock expires and the asker gets it; with a shorter wait, a clear refusal", async () => {
    const presence = new LocalPresence();
    const dead = new CharacterLocks(presence, "dead", { ttlS: 1 });
    assert.equal(await dead.tryAcquire("c1"), true);
    const impatient = new CharacterLocks(presence, "impatient", { waitMs: 200 });
    await assert.rejects(impatient.acquire("c1"), CharacterBusyError);
    const patient = new CharacterLocks(presence, "patient", { waitMs: 5_000 });
    assert.deepEqual(await patient.acquire("c1"), { tookOver: true });
    assert.equal(await patient.holderOf("c1"), "patient");
  });

  it("a refresh racing a release leaves no lock behind", async () => {
    const presence = new LocalPresence();
    const a = new CharacterLocks(presence, "a");
    assert.equal(await a.tryAcquire("c1"), true);
    await a.release("c1");
    await a.refresh(["c1"]);
    assert.equal(await presence.exists(lockKey("c1")), true);
    assert.equal(await new CharacterLocks(presence, "b").tryAcquire("c1"), true);
  });

  it("a room refreshes its locks by turns: every lock once in each run of turns, no turn taking them all", async () => {
    const refreshed: string[][] = [];
    const locks = new (class extends CharacterLocks {
      override async refresh(ids: Iterable<string>) {
        refreshed.push([...ids]);
      }
    })(new LocalPresence(), "a");
    const live = Array.from({ length: 400 }, (_, i) => `character-${i}`);
    const joining = "character-joining";
    const room = new RoomCharacterLocks(locks, (id) => live.includes(id), silentLogger);
    let joined!: () => void;
    const join = room.hold(joining, () => new Promise<void>((resolve) => (joined = resolve)));
    for (let tick = 100; tick < 116; tick++) room.refresh(live, tick, 8);
    joined();
    await join;
    const all = [...live, joining].sort();
    // Two runs of eight turns: each id twice, once in each run.
    for (const run of [refreshed.slice(0, 8), refreshed.slice(8, 16)]) assert.deepEqual(run.flat().sort(), all);
    assert.ok(refreshed.every((ids) => ids.length > 0 && ids.length < all.length / 4), `turns of ${refreshed.map((ids) => ids.length)}`);
    // One turn for all is every call.
    refreshed.length = 0;
    room.refresh(live, 7);
    assert.deepEqual(refreshed.flat().sort(), [...live].sort());
  });
});
