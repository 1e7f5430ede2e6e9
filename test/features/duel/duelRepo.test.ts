import assert from "node:assert/strict";
import { DuelSettleError, duelHistory, settleDuelInTransaction, type DuelRecord } from "../../../src/features/duel/duelRepo.js";
import { TradeCommitError } from "../../../src/db/tradeRepo.js";
import { noRules, setRule } from "../../../src/features/duel/duelRules.js";
import type { OfferItem } from "../../../src/game/trade.js";
import { DATABASE_KINDS } from "../../helpers/database.js";
import { inventoryDb, ITEMS, stack as stake, type Slots } from "../../helpers/inventoryDb.js";

for (const kind of DATABASE_KINDS) {
  describe(`duel settlement on ${kind}`, function () {
    this.timeout(60_000);
    const t = inventoryDb(kind, "Duellist");
    const { character, slotsOf, prisma } = t;

    /** Each item id's total over the characters. */
    async function totals(...ids: string[]): Promise<Record<string, number>> {
      const rows = await prisma().inventoryItem.findMany({ where: { characterId: { in: ids } } });
      const out: Record<string, number> = {};
      for (const r of rows) out[r.itemId] = (out[r.itemId] ?? 0) + r.quantity;
      return out;
    }

    function record(
      id: string,
      winner: { id: string; name: string },
      winnerStake: OfferItem[],
      loser: { id: string; name: string },
      loserStake: OfferItem[],
    ): DuelRecord {
      return {
        id,
        winner: { characterId: winner.id, name: winner.name, stake: winnerStake, value: 50 },
        loser: { characterId: loser.id, name: loser.name, stake: loserStake, value: 130 },
        rules: setRule(noRules(), "noFood", true),
        arenaId: 3,
        outcome: "win",
      };
    }

    const settle = (duel: DuelRecord) => t.db.sql.transaction((tx) => settleDuelInTransaction(tx, duel, ITEMS));

    /** The settlement is refused with this code, and nothing about either character changed. */
    async function refused(duel: DuelRecord, code: string, message?: RegExp) {
      const ids = [duel.winner.characterId, duel.loser.characterId];
      const before = await Promise.all(ids.map(slotsOf));
      const rows = await prisma().duel.count();
      await assert.rejects(settle(duel), (err: unknown) => {
        assert.ok(err instanceof DuelSettleError, String(err));
        assert.ok(err instanceof TradeCommitError);
        assert.equal(err.code, code);
        if (message) assert.match(err.message, message);
        return true;
      });
      assert.deepEqual(await Promise.all(ids.map(slotsOf)), before);
      assert.equal(await prisma().duel.count(), rows);
    }

    it("moves exactly the loser's stake to the winner and writes one history row", async () => {
      const w = await character({ 0: ["coins", 100], 1: ["sword", 1] });
      const l = await character({ 0: ["logs", 1], 2: ["coins", 30], 5: ["sword", 1] });
      const before = await totals(w.id, l.id);
      const duel = record("duel-1", w, [stake(0, "coins", 50)], l, [stake(2, "coins", 30), stake(5, "sword", 1)]);
      const s = await settle(duel);
      assert.deepEqual(s.toWinner, [
        { itemId: "coins", quantity: 30 },
        { itemId: "sword", quantity: 1 },
      ]);
      assert.deepEqual(await slotsOf(w.id), { 0: ["coins", 130], 1: ["sword", 1], 2: ["sword", 1] });
      assert.deepEqual(await slotsOf(l.id), { 0: ["logs", 1] });
      assert.deepEqual(await totals(w.id, l.id), before);

      const rows = await prisma().duel.findMany({ where: { id: "duel-1" } });
      assert.equal(rows.length, 1);
      const row = rows[0]!;
      assert.deepEqual(
        [row.winnerId, row.loserId, row.winnerName, row.loserName, row.arenaId, row.outcome, row.winnerValue, row.loserValue],
        [w.id, l.id, w.name, l.name, 3, "win", 50n, 130n],
      );
      assert.deepEqual(row.winnerStake, duel.winner.stake);
      assert.deepEqual(row.loserStake, duel.loser.stake);
      assert.deepEqual(row.rules, { ...noRules(), noFood: true });
      assert.deepEqual(
        (await duelHistory(prisma(), l.id)).map((d) => d.id),
        ["duel-1"],
      );
      assert.deepEqual(
        (await duelHistory(prisma(), w.id)).map((d) => d.id),
        ["duel-1"],
      );
    });

    it("replaying a settled duel changes nothing and fails cleanly", async () => {
      const w = await character({ 0: ["coins", 10] });
      const l = await character({ 0: ["coins", 40], 1: ["logs", 1] });
      const duel = record("duel-replay", w, [], l, [stake(0, "coins", 20)]);
      await settle(duel);
      assert.deepEqual(await slotsOf(w.id), { 0: ["coins", 30] });
      // The loser still holds 20 coins in slot 0: the same stake would validate again.
      await refused(duel, "already_settled", /already settled/);
      assert.deepEqual(await slotsOf(l.id), { 0: ["coins", 20], 1: ["logs", 1] });
      assert.equal(await prisma().duel.count({ where: { id: "duel-replay" } }), 1);
    });

    it("a stake no longer in its slot (changed since) is refused with nothing written", async () => {
      const w = await character({ 0: ["coins", 10] });
      const l = await character({ 0: ["coins", 40], 1: ["logs", 1] });
      await prisma().inventoryItem.update({ where: { characterId_slot: { characterId: l.id, slot: 0 } }, data: { quantity: 19 } });
      await refused(record("duel-changed", w, [], l, [stake(0, "coins", 20)]), "stake_changed", /slot 0 no longer holds 20 x coins/);
      await refused(record("duel-moved", w, [], l, [stake(2, "logs", 1)]), "stake_changed");
      // The winner's own stake must still be held too.
      await refused(record("duel-winner-changed", w, [stake(0, "coins", 11)], l, [stake(1, "logs", 1)]), "stake_changed");
      await refused(record("duel-bad-quantity", w, [], l, [stake(0, "coins", -5)]), "stake_changed");
    });

    it("an item the items table marks untradeable is refused, whatever the world believes", async () => {
      const w = await character({ 0: ["coins", 10] });
      const l = await character({ 3: ["quest_key", 1] });
      await refused(record("duel-untradeable", w, [], l, [stake(3, "quest_key", 1)]), "stake_changed", /quest_key can't be traded/);
    });

    it("a winner without room, or a character gone, is refused with nothing written", async () => {
      const full = Object.fromEntries(Array.from({ length: 28 }, (_, i) => [i, ["logs", 1]])) as Slots;
      const w = await character(full);
      const l = await character({ 0: ["sword", 1] });
      await refused(record("duel-full", w, [], l, [stake(0, "sword", 1)]), "inventory_full", new RegExp(`${w.name}'s inventory`));
      await refused(record("duel-ghost", { id: "nobody", name: "Nobody" }, [], l, [stake(0, "sword", 1)]), "no_character");
    });

    it("settlements sharing both characters run at once without deadlock: both land, totals conserved", async () => {
      for (let round = 0; round < 4; round++) {
        const a = await character({ 0: ["coins", 100], 1: ["sword", 1] });
        const b = await character({ 0: ["coins", 200], 1: ["logs", 1], 2: ["sword", 1] });
        const before = await totals(a.id, b.id);
        // A rematch settled at the same moment: each locks the other's winner first unless locks go in id order.
        await Promise.all([
          settle(record(`race-${round}-1`, a, [stake(0, "coins", 50)], b, [stake(1, "logs", 1)])),
          settle(record(`race-${round}-2`, b, [stake(0, "coins", 20)], a, [stake(1, "sword", 1)])),
        ]);
        assert.deepEqual(await totals(a.id, b.id), before);
        assert.deepEqual(await totals(a.id), { coins: 100, logs: 1 });
        assert.deepEqual(await totals(b.id), { coins: 200, sword: 2 });
        assert.equal(await prisma().duel.count({ where: { id: { startsWith: `race-${round}-` } } }), 2);
      }
    });
  });
}
