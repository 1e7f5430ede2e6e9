import assert from "node:assert/strict";
import type { WorldRoom } from "../../../rooms/WorldRoom.js";
import type { TestServer } from "../../helpers/server.js";
import { duelToFight, openDuel, stake } from "../../helpers/duelSteps.js";
import { slotOf } from "../../helpers/tradeSteps.js";
import { countItems, PAIRS, tradingHooks, until } from "../../helpers/tradeSuite.js";
import { setRng } from "../../helpers/worldRoom.js";
import { registry } from "../../../src/metrics.js";
import { duelsOf } from "../../../src/features/duel/index.js";

/**
 * Staked duels over both protocols: the three screens, the arena, the rules, and the settlement in
 * the world and the database. Every roll is 0.5: a bare-handed level-1 fighter lands a blow on
 * another for 1 hitpoint (10 life points), so a duellist left with 10 falls to one blow.
 */
for (const [kindA, kindB] of PAIRS) {
  describe(`duels: ${kindA} player against ${kindB} player`, function () {
    this.timeout(60_000);
    let server: TestServer;
    let room: WorldRoom;
    const { pair } = tradingHooks(kindA, kindB, (s, r) => {
      server = s;
      room = r;
    });

    it("a staked duel: three screens, the arena, a defeat; the winner takes the loser's stake in the world and the database", async () => {
      const [a, b] = await pair();
      const coins = slotOf(a.sync(), "coins");
      const shrimp = slotOf(b.sync(), "shrimp");
      const before = {
        aCoins: countItems(room, a.id, "coins"),
        bCoins: countItems(room, b.id, "coins"),
        aShrimp: countItems(room, a.id, "shrimp"),
        bShrimp: countItems(room, b.id, "shrimp"),
      };
      const spawn = { ...room.world.spawnTile };
      room.world.players.get(b.id)!.inventory[27] = { itemId: "trout", quantity: 1 };
      const duelId = await duelToFight(a, b, { a: [coins, 10], b: [shrimp, 1] }, { noFood: true });
      const arena = duelsOf(room.world).sessions.get(duelId)!.arena!;
      assert.deepEqual(room.world.players.get(a.id)!.tile, arena.spawnPoints[0]);
      assert.deepEqual(room.world.players.get(b.id)!.tile, arena.spawnPoints[1]);
      // Food is off: b's trout stays uneaten.
      const mb = b.mark();
      b.send("inventory:use", { slot: 27, action: "eat" });
      assert.equal((await b.next("error", () => true, { since: mb })).code, "DUEL_RULE");
      assert.deepEqual(room.world.players.get(b.id)!.inventory[27], { itemId: "trout", quantity: 1 });
      setRng(room, 0.5);
      room.world.players.get(b.id)!.health = 10;
      const ma = a.mark();
      a.send("player:action", { action: "attack", targetId: b.id });
      const [endA, endB] = await Promise.all([
        a.next("duel:ended", (d) => d.duelId === duelId, { since: ma }),
        b.next("duel:ended", (d) => d.duelId === duelId, { since: mb }),
      ]);
      assert.deepEqual([endA.outcome, endA.winnerId, endA.received, endA.settled], ["win", a.id, [{ itemId: "shrimp", quantity: 1 }], true]);
      assert.deepEqual([endB.outcome, endB.winnerId, endB.received], ["win", a.id, []]);
      // The world: a keeps its coins and has b's shrimp; b keeps all but the stake; both whole, back at the spawn.
      assert.equal(countItems(room, a.id, "coins"), before.aCoins);
      assert.equal(countItems(room, a.id, "shrimp"), before.aShrimp + 1);
      assert.equal(countItems(room, b.id, "coins"), before.bCoins);
      assert.equal(countItems(room, b.id, "shrimp"), before.bShrimp - 1);
      for (const id of [a.id, b.id]) {
        const p = room.world.players.get(id)!;
        assert.deepEqual(p.tile, spawn);
        assert.equal(p.health, 100);
        assert.equal(p.lockedSlots.size, 0);
        assert.equal(p.inventoryFrozen, false);
      }
      assert.equal([...room.world.groundItems.values()].filter((g) => g.deathId).length, 0, "a duel death leaves no pile");
      assert.match(await registry.metrics(), /duels_total\{outcome="win"\} [1-9]/, "counted in the metrics");
      // The database: the settlement and its history row.
      const prisma = server.ctx.db.prisma;
      const row = await prisma.duel.findUnique({ where: { id: duelId } });
      assert.equal(row?.winnerId, a.id);
      assert.equal(row?.loserId, b.id);
      assert.equal(row?.outcome, "win");
      const dbShrimp = async (id: string) =>
        (await prisma.inventoryItem.findMany({ where: { characterId: id, itemId: "shrimp" } })).reduce((n, r) => n + r.quantity, 0);
      assert.equal(await dbShrimp(a.id), before.aShrimp + 1);
      assert.equal(await dbShrimp(b.id), before.bShrimp - 1);
    });

    it("the rules hold in the arena: no moving out, no magic, no food, no npcs; a forfeit hands the stake over", async () => {
      const [a, b] = await pair();
      const coins = slotOf(b.sync(), "coins");
      const duelId = await duelToFight(a, b, { b: [coins, 5] }, { noMovement: true, noMagic: true });
      const pa = room.world.players.get(a.id)!;
      const pb = room.world.players.get(b.id)!;
      assert.ok(Math.max(Math.abs(pa.tile.x - pb.tile.x), Math.abs(pa.tile.z - pb.tile.z)) <= 1, "rooted duellists start side by side");
      const refused = async (type: string, data: unknown, code: string, event = "error") => {
        const m = a.mark();
        a.send(type, data);
        assert.equal((await a.next(event, () => true, { since: m })).code, code, type);
      };
      await refused("player:move", { x: pa.tile.x + 1, z: pa.tile.z }, "DUEL_RULE");
      await refused("combat:cast", { spellId: "gust_dart", targetId: b.id }, "NO_RUNES");
      pa.inventory[27] = { itemId: "air_rune", quantity: 5 };
      pa.inventory[26] = { itemId: "mind_rune", quantity: 5 };
      await refused("combat:cast", { spellId: "gust_dart", targetId: b.id }, "DUEL_RULE");
      const goblin = [...room.world.npcs.values()].find((n) => n.defId === "goblin")!;
      await refused("player:action", { action: "attack", targetId: goblin.id }, "IN_DUEL");
      await refused("duel:cancel", { duelId }, "INVALID_STATE", "duel:error");
      const coinsBefore = countItems(room, a.id, "coins");
      const mb = b.mark();
      b.send("duel:forfeit", { duelId });
      const end = await b.next("duel:ended", (d) => d.duelId === duelId, { since: mb });
      assert.deepEqual([end.outcome, end.winnerId], ["forfeit", a.id]);
      await until(() => countItems(room, a.id, "coins") === coinsBefore + 5);
      assert.equal((await server.ctx.db.prisma.duel.findUnique({ where: { id: duelId } }))?.outcome, "forfeit");
    });

    it("leaving mid-fight loses it, even when forfeits are off: the stake is settled before the leaver's save", async () => {
      const [a, b] = await pair();
      const coins = slotOf(b.sync(), "coins");
      const bCoins = countItems(room, b.id, "coins");
      const aCoins = countItems(room, a.id, "coins");
      const duelId = await duelToFight(a, b, { b: [coins, 7] }, { noForfeit: true });
      const mb = b.mark();
      b.send("duel:forfeit", { duelId });
      assert.equal((await b.next("duel:error", () => true, { since: mb })).code, "DUEL_RULE");
      const ma = a.mark();
      await b.close();
      const end = await a.next("duel:ended", (d) => d.duelId === duelId, { since: ma });
      assert.deepEqual([end.outcome, end.winnerId, end.received], ["disconnect", a.id, [{ itemId: "coins", quantity: 7 }]]);
      assert.equal(countItems(room, a.id, "coins"), aCoins + 7);
      await room.settled();
      const saved = await server.ctx.db.prisma.inventoryItem.findMany({ where: { characterId: b.id, itemId: "coins" } });
      assert.equal(
        saved.reduce((n, r) => n + r.quantity, 0),
        bCoins - 7,
      );
      const character = await server.ctx.db.prisma.character.findUnique({ where: { id: b.id } });
      assert.deepEqual([character?.positionX, character?.positionZ], [room.world.spawnTile.x, room.world.spawnTile.z], "saved outside the arena");
    });

    it("refuses bad moves with a clear code and changes nothing", async () => {
      const [a, b] = await pair();
      const duelRefused = async (t: typeof a, type: string, data: unknown, code: string) => {
        const m = t.mark();
        t.send(type, data);
        assert.equal((await t.next("duel:error", () => true, { since: m })).code, code, `${type} ${JSON.stringify(data)}`);
      };
      await duelRefused(a, "duel:challenge", { targetPlayerId: a.id }, "SELF_DUEL");
      await duelRefused(a, "duel:challenge", { targetPlayerId: "c_nobody" }, "PLAYER_OFFLINE");
      await duelRefused(a, "duel:challenge", { targetPlayerId: 42 }, "INVALID_PAYLOAD");
      await duelRefused(a, "duel:accept", { duelId: "d_nothing" }, "UNKNOWN_DUEL");
      const duelId = await openDuel(a, b);
      await duelRefused(a, "duel:rule", { duelId, rule: "noSwords", on: true }, "INVALID_RULE");
      await duelRefused(a, "duel:rule", { duelId, rule: "noFood", on: "yes" }, "INVALID_RULE");
      for (const rule of ["noMelee", "noRanged"]) a.send("duel:rule", { duelId, rule, on: true });
      await duelRefused(a, "duel:rule", { duelId, rule: "noMagic", on: true }, "INVALID_RULES");
      await duelRefused(a, "duel:stake", { duelId, inventorySlot: 0, quantity: 1 }, "INVALID_STATE");
      // An acceptance is reset by a change of rules, and cannot be given twice.
      let m = b.mark();
      b.send("duel:accept", { duelId });
      await b.next("duel:screen", (d) => d.me.accepted, { since: m });
      await duelRefused(b, "duel:accept", { duelId }, "ALREADY_ACCEPTED");
      m = b.mark();
      a.send("duel:rule", { duelId, rule: "noRanged", on: false });
      await b.next("duel:screen", (d) => !d.me.accepted && d.rules.noRanged === false, { since: m });
      // On the stakes screen: bad slots and quantities.
      a.send("duel:accept", { duelId });
      b.send("duel:accept", { duelId });
      await a.next("duel:screen", (d) => d.screen === "stakes", { since: m });
      const coins = slotOf(a.sync(), "coins");
      for (const [slot, quantity, code] of [
        [coins, -1, "INVALID_QUANTITY"],
        [coins, 2 ** 40, "INVALID_QUANTITY"],
        [coins, 1.5, "INVALID_QUANTITY"],
        [coins, 1_000_000, "INVALID_QUANTITY"],
        [99, 1, "INVALID_SLOT"],
        ["3", 1, "INVALID_SLOT"],
      ] as const) {
        const sm = a.mark();
        a.send("duel:stake", { duelId, inventorySlot: slot, quantity });
        const err = await a.next("duel:error", () => true, { since: sm });
        assert.equal(err.code, code, `${slot} x ${quantity}`);
      }
      const screen = await stake(a, duelId, coins, 3);
      assert.deepEqual(screen.me.stake, [{ inventorySlot: coins, itemId: "coins", quantity: 3 }]);
      // A third player may not touch it, nor be attacked outside a duel (here, in the safe town).
      await duelRefused(b, "duel:forfeit", { duelId }, "INVALID_STATE");
      m = a.mark();
      a.send("player:action", { action: "attack", targetId: b.id });
      assert.equal((await a.next("error", () => true, { since: m })).code, "SAFE_ZONE");
      m = a.mark();
      b.send("duel:cancel", { duelId });
      const cancelled = await a.next("duel:cancelled", (d) => d.duelId === duelId, { since: m });
      assert.equal(cancelled.reason, "cancelled");
      assert.equal(room.world.players.get(a.id)!.lockedSlots.size, 0, "the stake is unlocked");
    });
  });
}
