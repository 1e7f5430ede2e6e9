import assert from "node:assert/strict";
import type { DropEntry } from "../../src/manifests/gameData.js";
import {
  GROUND_ITEM_DESPAWN_TICKS,
  GROUND_ITEM_PRIVATE_TICKS,
  groundItemExpired,
  groundItemPublicTick,
  groundItemVisibleTo,
  rollDrops,
  rollQuantity,
} from "../../src/game/drops.js";
import { fixedRng, seededRng } from "./rng.js";

const entry = (itemId: string, chance: number, min = 1, max = 1, rarity: DropEntry["rarity"] = "common"): DropEntry => ({
  itemId,
  minQuantity: min,
  maxQuantity: max,
  chance,
  rarity,
});

describe("game: drops", function () {
  it("always drops 'always' entries and rolls the rest independently (1 000 kills)", function () {
    const table = [entry("bones", 1, 1, 1, "always"), entry("hide", 0.5, 1, 1, "always"), entry("coins", 0.25, 2, 10), entry("gem", 0.01)];
    const rng = seededRng(11);
    let coins = 0;
    for (let i = 0; i < 1000; i++) {
      const loot = rollDrops(rng, table);
      assert.equal(loot[0]!.itemId, "bones");
      assert.equal(loot[1]!.itemId, "hide", "rarity 'always' wins over a chance below 1");
      const c = loot.find((s) => s.itemId === "coins");
      if (c) {
        coins++;
        assert.ok(c.quantity >= 2 && c.quantity <= 10, `quantity ${c.quantity}`);
      }
    }
    assert.ok(Math.abs(coins / 1000 - 0.25) <= 0.03, `coins dropped ${coins / 1000}`);
  });

  it("covers every quantity in [min, max] and nothing else", function () {
    const rng = seededRng(12);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) seen.add(rollQuantity(rng, 3, 8));
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      [3, 4, 5, 6, 7, 8],
    );
    assert.equal(rollQuantity(fixedRng(), 4, 4), 4, "no draw for a fixed quantity");
    assert.equal(rollQuantity(fixedRng(0.999999), 1, 3), 3);
  });

  it("merges duplicate items and draws in table order", function () {
    const table = [entry("coins", 1, 5, 5, "always"), entry("feathers", 0.5, 1, 4), entry("coins", 0.5, 10, 10)];
    // feathers: 0.2 < 0.5 hits, quantity 1 + floor(0.5 * 4) = 3; coins: 0.4 < 0.5 hits, fixed 10.
    const rng = fixedRng(0.2, 0.5, 0.4);
    assert.deepEqual(rollDrops(rng, table), [
      { itemId: "coins", quantity: 15 },
      { itemId: "feathers", quantity: 3 },
    ]);
    assert.equal(rng.used(), 3);
    assert.deepEqual(rollDrops(fixedRng(0.5, 0.9), table), [{ itemId: "coins", quantity: 5 }], "0.5 is not below 0.5");
    assert.deepEqual(rollDrops(fixedRng(), []), []);
  });

  it("keeps ground items private for 100 ticks and removes them after 300", function () {
    assert.equal(GROUND_ITEM_PRIVATE_TICKS, 100);
    assert.equal(GROUND_ITEM_DESPAWN_TICKS, 300);
    const item = { ownerId: "killer", createdTick: 1000 };
    assert.equal(groundItemVisibleTo(item, "killer", 1000), true);
    assert.equal(groundItemVisibleTo(item, "other", 1099), false);
    assert.equal(groundItemVisibleTo(item, "other", 1100), true);
    assert.equal(groundItemPublicTick(item), 1100);
    assert.equal(groundItemExpired(item, 1299), false);
    assert.equal(groundItemExpired(item, 1300), true);
    assert.equal(groundItemVisibleTo(item, "killer", 1300), false);
    assert.equal(groundItemVisibleTo(item, "other", 1299), true);
  });

  it("shows ownerless items to everyone and untradeable ones only to their owner", function () {
    assert.equal(groundItemVisibleTo({ ownerId: null, createdTick: 0 }, "anyone", 0), true);
    assert.equal(groundItemPublicTick({ createdTick: 7 }), 7);
    const bound = { ownerId: "p", createdTick: 0, tradeable: false };
    assert.equal(groundItemVisibleTo(bound, "q", 250), false);
    assert.equal(groundItemVisibleTo(bound, "p", 250), true);
  });
});
