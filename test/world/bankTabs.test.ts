import assert from "node:assert/strict";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken, joinWorld, worldSuite, type WorldPlayer } from "../helpers/worldClient.js";
import { besideOf, leaveAndSettle, place, worldRoomOf } from "../helpers/worldRoom.js";

const bankOf = (sync: any, itemId: string) => sync.bank?.find((b: { itemId: string }) => b.itemId === itemId);

/** At the bank, with logs in the pack and placeholders on. */
async function atBank(a: WorldPlayer) {
  const room = worldRoomOf(a);
  place(room, a.id, besideOf(room, room.world.bankTiles[0]));
  const p = room.world.players.get(a.id)!;
  p.inventory[20] = { itemId: "logs", quantity: 1 };
  p.inventory[21] = { itemId: "logs", quantity: 1 };
  room.world.touchPlayer(p);
  const since = a.mark();
  a.send("player:setting", { name: "bankPlaceholders", value: true });
  await a.next("player:sync", (s) => s.vars.bankPlaceholders === true && s.bank !== null, { since });
  return { room, p };
}

/** Deposit the logs into tab 3, withdraw them all (a placeholder stays), move the coins to tab 5. */
async function arrange(a: WorldPlayer) {
  const { p } = await atBank(a);
  let since = a.mark();
  a.send("bank:deposit", { slot: 20, quantity: 2, tab: 3 });
  let sync = await a.next("player:sync", (s) => bankOf(s, "logs")?.quantity === 2, { since });
  assert.deepEqual(bankOf(sync, "logs"), { itemId: "logs", quantity: 2, tab: 3 });
  since = a.mark();
  a.send("bank:withdraw", { itemId: "logs", quantity: 2 });
  sync = await a.next("player:sync", (s) => bankOf(s, "logs")?.quantity === 0, { since });
  assert.deepEqual(bankOf(sync, "logs"), { itemId: "logs", quantity: 0, tab: 3 }, "a placeholder");
  const coins = p.inventory.findIndex((s) => s?.itemId === "coins");
  since = a.mark();
  a.send("bank:deposit", { slot: coins, quantity: 5 });
  await a.next("player:sync", (s) => bankOf(s, "coins")?.quantity === 5, { since });
  since = a.mark();
  a.send("bank:tab", { itemId: "coins", tab: 5 });
  sync = await a.next("player:sync", (s) => bankOf(s, "coins")?.tab === 5, { since });
  return sync;
}

describe("bank tabs and placeholders over the protocol", function () {
  this.timeout(30_000);
  const suite = worldSuite();

  it("deposit into a tab, a placeholder left by the last withdrawal, a tab changed, the deposit back into the placeholder, a release", async () => {
    const a = await suite.join();
    await arrange(a);
    let since = a.mark();
    a.send("bank:deposit", { slot: worldRoomOf(a).world.players.get(a.id)!.inventory.findIndex((s) => s?.itemId === "logs"), quantity: 2 });
    let sync = await a.next("player:sync", (s) => bankOf(s, "logs")?.quantity === 2, { since });
    assert.equal(bankOf(sync, "logs").tab, 3, "back in the placeholder's tab");
    since = a.mark();
    a.send("bank:release", { itemId: "logs" });
    assert.equal((await a.next("error", () => true, { since })).code, "NOT_A_PLACEHOLDER");
    since = a.mark();
    a.send("bank:withdraw", { itemId: "logs", quantity: 2 });
    await a.next("player:sync", (s) => bankOf(s, "logs")?.quantity === 0, { since });
    since = a.mark();
    a.send("bank:release", {});
    sync = await a.next("player:sync", (s) => s.bank && !bankOf(s, "logs"), { since });
    assert.ok(bankOf(sync, "coins"), "a stack that holds some stays");
  });

  it("refuses bad tabs, unknown items and moves away from a bank; nothing changes", async () => {
    const a = await suite.join();
    const { room, p } = await atBank(a);
    const before = JSON.stringify(p.bank);
    for (const [type, payload, code] of [
      ["bank:tab", { itemId: "coins", tab: 10 }, "INVALID_PAYLOAD"],
      ["bank:tab", { itemId: "coins", tab: -1 }, "INVALID_PAYLOAD"],
      ["bank:tab", { itemId: "coins", tab: 1.5 }, "INVALID_PAYLOAD"],
      ["bank:tab", { itemId: "coins" }, "INVALID_PAYLOAD"],
      ["bank:tab", { itemId: "dragon_bones", tab: 1 }, "NOT_IN_BANK"],
      ["bank:deposit", { slot: 20, quantity: 1, tab: 99 }, "INVALID_PAYLOAD"],
      ["bank:release", { itemId: "dragon_bones" }, "NOT_IN_BANK"],
      ["bank:release", { itemId: 7 }, "INVALID_PAYLOAD"],
      ["player:setting", { name: "bankPlaceholders", value: "yes" }, "INVALID_PAYLOAD"],
    ] as const) {
      const since = a.mark();
      a.send(type, payload);
      assert.equal((await a.next("error", () => true, { since })).code, code, `${type} ${JSON.stringify(payload)}`);
    }
    place(room, a.id, { x: room.world.spawnTile.x + 20, z: room.world.spawnTile.z + 20 });
    for (const [type, payload] of [
      ["bank:tab", { itemId: "coins", tab: 1 }],
      ["bank:release", {}],
    ] as const) {
      const since = a.mark();
      a.send(type, payload);
      assert.equal((await a.next("error", () => true, { since })).code, "NOT_NEAR_BANK");
    }
    assert.equal(JSON.stringify(p.bank), before);
  });
});

for (const kind of DATABASE_KINDS) {
  describe(`bank tabs and placeholders kept on ${kind}`, function () {
    this.timeout(60_000);
    let t: TestDb;
    let server: TestServer | undefined;
    beforeEach(async () => {
      t = await openTestDb(kind);
    });
    afterEach(async () => {
      await server?.close();
      server = undefined;
      await t.cleanup();
    });

    it("tabs, a placeholder and the placeholder setting survive a restart", async () => {
      server = await startTestServer({ db: t.db });
      const who = await guestToken(server);
      const a = await joinWorld(server, {}, who);
      await arrange(a);
      await leaveAndSettle(a);
      const rows = await t.db.prisma.bankItem.findMany({ where: { characterId: a.id }, orderBy: { slot: "asc" } });
      assert.deepEqual(
        rows.map((r) => [r.itemId, r.quantity, r.tab]),
        [
          ["logs", 0, 3],
          ["coins", 5, 5],
        ],
      );
      await server.close();
      server = await startTestServer({ db: t.db });
      const again = await joinWorld(server, {}, who);
      const room = worldRoomOf(again);
      place(room, again.id, besideOf(room, room.world.bankTiles[0]));
      const sync = await again.next("player:sync", (s) => s.bank !== null);
      assert.deepEqual(sync.bank, [
        { itemId: "logs", quantity: 0, tab: 3 },
        { itemId: "coins", quantity: 5, tab: 5 },
      ]);
      assert.equal(sync.vars.bankPlaceholders, true);
      await again.leave();
    });
  });
}
