import assert from "node:assert/strict";
import { loadGameData, type GameData, type GatheringResource } from "../../src/manifests/index.js";
import { silentLogger } from "../../src/logger.js";
import { availableYields, canGather, DEFAULT_CATCH_RATE, gatherCycle, successChance } from "../../src/game/gathering.js";
import { INVENTORY_SIZE, type Inventory } from "../../src/game/types.js";
import { fixedRng, seededRng } from "./rng.js";

function inv(...ids: Array<string | [string, number]>): Inventory {
  const out: Inventory = Array(INVENTORY_SIZE).fill(null);
  ids.forEach((id, i) => (out[i] = typeof id === "string" ? { itemId: id, quantity: 1 } : { itemId: id[0], quantity: id[1] }));
  return out;
}
const full = (...ids: Array<string | [string, number]>) => {
  const out = inv(...ids);
  for (let i = ids.length; i < INVENTORY_SIZE; i++) out[i] = { itemId: "logs", quantity: 1 };
  return out;
};

describe("game: gathering", function () {
  let data: GameData;
  let tree: GatheringResource;
  let oak: GatheringResource;
  let copper: GatheringResource;
  let net: GatheringResource;
  let lure: GatheringResource;
  before(async function () {
    data = await loadGameData("world/manifests", silentLogger);
    tree = data.gathering.woodcutting.get("tree_normal")!;
    oak = data.gathering.woodcutting.get("tree_oak")!;
    copper = data.gathering.mining.get("ore_copper")!;
    net = data.gathering.fishing.get("fishing_spot_net")!;
    lure = data.gathering.fishing.get("fishing_spot_lure")!;
  });

  describe("successChance", function () {
    it("interpolates the catch rate between level 1 and 99 (out of 256)", function () {
      // tree_normal: low 62, high 196
      assert.equal(successChance(tree, tree.yields[0], 1), 63 / 256);
      assert.equal(successChance(tree, tree.yields[0], 99), 197 / 256);
      assert.equal(successChance(tree, tree.yields[0], 50), 130 / 256);
      assert.equal(successChance(tree, tree.yields[0], 150), 197 / 256, "levels above 99 count as 99");
      assert.equal(successChance(tree, undefined, 1), 63 / 256, "the resource's curve without a yield");
    });

    it("falls back to the default curve and clamps to 1", function () {
      const bare: GatheringResource = { ...tree, successChance: undefined, yields: [{ itemId: "logs", quantity: 1, chance: 1, xp: 25 }] };
      assert.equal(successChance(bare, bare.yields[0], 1), (DEFAULT_CATCH_RATE.low + 1) / 256);
      const sure: GatheringResource = { ...bare, successChance: { low: 255, high: 400 } };
      assert.equal(successChance(sure, undefined, 99), 1);
    });
  });

  describe("gatherCycle", function () {
    it("succeeds at a level-1 normal tree as often as the formula says (10 000 cycles, ±2%)", function () {
      const rng = seededRng(1);
      let ok = 0;
      for (let i = 0; i < 10_000; i++) if (gatherCycle(rng, tree, 1).success) ok++;
      assert.ok(Math.abs(ok / 10_000 - 63 / 256) < 0.02, `rate ${ok / 10_000}`);
    });

    it("succeeds more often at level 99 than at level 1", function () {
      const rng = seededRng(2);
      let low = 0;
      let high = 0;
      for (let i = 0; i < 10_000; i++) {
        if (gatherCycle(rng, tree, 1).success) low++;
        if (gatherCycle(rng, tree, 99).success) high++;
      }
      assert.ok(high > low + 4000, `${high} vs ${low}`);
      assert.ok(Math.abs(high / 10_000 - 197 / 256) < 0.02);
    });

    it("depletes trees at depleteChance (±2%), rocks always, fishing spots never", function () {
      const rng = seededRng(3);
      let successes = 0;
      let depleted = 0;
      for (let i = 0; i < 10_000; i++) {
        const r = gatherCycle(rng, tree, 99);
        assert.ok(r.success || !r.depleted, "only a success depletes");
        if (r.success) successes++;
        if (r.depleted) depleted++;
      }
      assert.equal(tree.depleteChance, 0.15);
      assert.ok(Math.abs(depleted / successes - 0.15) < 0.02, `depletion ${depleted / successes}`);
      for (let i = 0; i < 1000; i++) {
        const rock = gatherCycle(rng, copper, 1);
        assert.equal(rock.depleted, rock.success);
        assert.equal(gatherCycle(rng, net, 1).depleted, false);
      }
    });

    it("draws once for success and once for depletion, returning the yield", function () {
      const rng = fixedRng(63 / 256 - 1e-9, 0.1499);
      assert.deepEqual(gatherCycle(rng, tree, 1), { success: true, yield: tree.yields[0], depleted: true });
      assert.equal(rng.used(), 2);
      assert.deepEqual(gatherCycle(fixedRng(63 / 256), tree, 1), { success: false, depleted: false });
      const rock = fixedRng(0);
      assert.equal(gatherCycle(rock, copper, 1).depleted, true);
      assert.equal(rock.used(), 1, "certain depletion draws nothing");
      assert.deepEqual(gatherCycle(fixedRng(), oak, 1), { success: false, depleted: false }, "below the level: nothing");
    });

    it("picks among the yields the level allows, by their chance weights", function () {
      const mixed: GatheringResource = {
        ...net,
        yields: [
          { itemId: "raw_shrimp", quantity: 1, chance: 0.75, xp: 10, levelRequired: 1, catchLow: 255, catchHigh: 255 },
          { itemId: "raw_anchovies", quantity: 1, chance: 0.25, xp: 40, levelRequired: 15, catchLow: 255, catchHigh: 255 },
        ],
      };
      assert.deepEqual(
        availableYields(mixed, 14).map((y) => y.itemId),
        ["raw_shrimp"],
      );
      assert.equal(gatherCycle(fixedRng(0.5), mixed, 14).yield?.itemId, "raw_shrimp");
      assert.equal(gatherCycle(fixedRng(0.74, 0.5), mixed, 15).yield?.itemId, "raw_shrimp");
      assert.equal(gatherCycle(fixedRng(0.76, 0.5), mixed, 15).yield?.itemId, "raw_anchovies");
      const rng = seededRng(4);
      let anchovies = 0;
      for (let i = 0; i < 10_000; i++) if (gatherCycle(rng, mixed, 50).yield?.itemId === "raw_anchovies") anchovies++;
      assert.ok(Math.abs(anchovies / 10_000 - 0.25) < 0.02);
    });
  });

  describe("canGather", function () {
    it("refuses below the level", function () {
      const r = canGather(oak, 11, inv("bronze_hatchet"), data.items);
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.code, "LEVEL_TOO_LOW");
    });

    it("refuses without a tool, and accepts a wielded one", function () {
      const r = canGather(tree, 1, inv("bronze_pickaxe"), data.items);
      assert.equal(!r.ok && r.code, "NO_TOOL");
      assert.deepEqual(canGather(tree, 1, inv(), data.items, { equipped: ["bronze_hatchet"] }), { ok: true, toolId: "bronze_hatchet" });
    });

    it("picks the best tool the level allows", function () {
      const opts = { tools: data.tools };
      assert.deepEqual(canGather(tree, 1, inv("bronze_hatchet", "iron_hatchet"), data.items, opts), { ok: true, toolId: "iron_hatchet" });
      assert.deepEqual(canGather(tree, 1, inv("iron_hatchet", "bronze_hatchet"), data.items), { ok: true, toolId: "iron_hatchet" });
      assert.deepEqual(canGather(tree, 4, inv("steel_hatchet", "bronze_hatchet"), data.items, opts), { ok: true, toolId: "bronze_hatchet" });
      assert.deepEqual(canGather(tree, 5, inv("bronze_hatchet", "steel_hatchet"), data.items, opts), { ok: true, toolId: "steel_hatchet" });
      const r = canGather(tree, 4, inv("steel_hatchet"), data.items, opts);
      assert.equal(!r.ok && r.code, "NO_TOOL");
      assert.match(!r.ok ? r.message : "", /level 5/);
    });

    it("refuses lure fishing without bait", function () {
      const r = canGather(lure, 20, inv("fishing_rod"), data.items);
      assert.equal(!r.ok && r.code, "NO_BAIT");
      assert.deepEqual(canGather(lure, 20, inv("fishing_rod", ["feathers", 50]), data.items), { ok: true, toolId: "fishing_rod" });
    });

    it("refuses with a full inventory unless the yield stacks onto a stack already there", function () {
      const r = canGather(tree, 1, full("bronze_hatchet"), data.items);
      assert.equal(!r.ok && r.code, "INVENTORY_FULL");
      assert.deepEqual(canGather(tree, 1, inv("bronze_hatchet").slice(0, 5), data.items), { ok: true, toolId: "bronze_hatchet" }, "a short array has room");
      const plucking: GatheringResource = { ...tree, yields: [{ itemId: "feathers", quantity: 5, chance: 1, xp: 1 }] };
      assert.equal(data.items.get("feathers")!.stackable, true);
      assert.deepEqual(canGather(plucking, 1, full("bronze_hatchet", ["feathers", 3]), data.items), { ok: true, toolId: "bronze_hatchet" });
      assert.equal((canGather(plucking, 1, full("bronze_hatchet"), data.items) as { code?: string }).code, "INVENTORY_FULL");
    });

    it("needs no tool where none is named", function () {
      const bare: GatheringResource = { ...tree, toolRequired: undefined, toolItemIds: [] };
      assert.deepEqual(canGather(bare, 1, inv(), data.items), { ok: true, toolId: null });
    });
  });
});
