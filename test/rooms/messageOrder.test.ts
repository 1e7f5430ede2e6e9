import assert from "node:assert/strict";
import { MAX_WAITING, MessageOrder, orderOf } from "../../rooms/messageOrder.js";

/** A promise settled from outside: an answer still under way. */
function pending() {
  let settle!: (ok: boolean) => void;
  const p = new Promise<void>((resolve, reject) => (settle = (ok) => (ok ? resolve() : reject(new Error("refused")))));
  p.catch(() => {});
  return { p, settle };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("one client's messages in the order sent (rooms/messageOrder.ts)", () => {
  it("runs at once while nothing is under way", () => {
    const o = new MessageOrder();
    const ran: number[] = [];
    assert.equal(
      o.run(() => ran.push(1)),
      true,
    );
    assert.equal(
      o.run(() => ran.push(2)),
      true,
    );
    assert.deepEqual(ran, [1, 2]);
  });

  it("holds what comes after an answer under way, then runs it in arrival order, whether the answer succeeded or not", async () => {
    for (const ok of [true, false]) {
      const o = new MessageOrder();
      const ran: string[] = [];
      const tp = pending();
      o.run(() => {
        ran.push("tp");
        o.hold(tp.p);
      });
      o.run(() => ran.push("buy"));
      o.run(() => ran.push("walk"));
      assert.deepEqual(ran, ["tp"]);
      tp.settle(ok);
      await settled();
      assert.deepEqual(ran, ["tp", "buy", "walk"]);
    }
  });

  it("a held message that holds again keeps the rest waiting behind it", async () => {
    const o = new MessageOrder();
    const ran: string[] = [];
    const first = pending();
    const second = pending();
    o.run(() => (ran.push("a"), o.hold(first.p)));
    o.run(() => (ran.push("b"), o.hold(second.p)));
    o.run(() => ran.push("c"));
    first.settle(true);
    await settled();
    assert.deepEqual(ran, ["a", "b"]);
    second.settle(true);
    await settled();
    assert.deepEqual(ran, ["a", "b", "c"]);
  });

  it(`refuses a message when ${MAX_WAITING} wait already, and takes them again once they ran`, async () => {
    const o = new MessageOrder();
    const held = pending();
    let ran = 0;
    o.run(() => o.hold(held.p));
    for (let i = 0; i < MAX_WAITING; i++)
      assert.equal(
        o.run(() => ran++),
        true,
      );
    assert.equal(
      o.run(() => ran++),
      false,
    );
    held.settle(true);
    await settled();
    assert.equal(ran, MAX_WAITING);
    assert.equal(
      o.run(() => ran++),
      true,
    );
    assert.equal(ran, MAX_WAITING + 1);
  });

  it("a waiting handler that throws does not stop the ones after it; its error is reported as an unhandled rejection", async () => {
    const o = new MessageOrder();
    const held = pending();
    const ran: string[] = [];
    const reported = new Promise<unknown>((resolve) => process.prependOnceListener("unhandledRejection", resolve));
    o.run(() => o.hold(held.p));
    o.run(() => {
      throw new Error("a handler failed");
    });
    o.run(() => ran.push("after"));
    held.settle(true);
    assert.equal(((await reported) as Error).message, "a handler failed");
    assert.deepEqual(ran, ["after"]);
  });

  it("each client has its own order", () => {
    const a = {};
    const b = {};
    assert.equal(orderOf(a), orderOf(a));
    assert.notEqual(orderOf(a), orderOf(b));
  });
});
