import assert from "node:assert/strict";
import { refreshLevels } from "../../src/game/world/xp.js";
import { worldSuite } from "../helpers/worldClient.js";
import { besideOf, place, setRng, tileAway, worldRoomOf, countInSync, givePack, stationOf } from "../helpers/worldRoom.js";

const count = countInSync;

/** Production at the default world's furnace and anvil, over the SDK: make X, stop conditions, refusals. */
describe("world room: production at stations", function () {
  this.timeout(60_000);
  const suite = worldSuite();

  it("smelting at the furnace: `count` bars, one every recipe's ticks, xp each; the action then ends", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const furnace = stationOf(room, "furnace");
    place(room, a.id, besideOf(room, furnace.tile));
    givePack(room, a.id, [
      ["copper_ore", 1],
      ["tin_ore", 1],
      ["copper_ore", 1],
      ["tin_ore", 1],
      ["copper_ore", 1],
      ["tin_ore", 1],
    ]);
    const recipe = room.world.data.recipes.smelting!.find((r) => r.id === "bronze_bar")!;
    const since = a.mark();
    a.send("production:make", { kind: "smelting", recipeId: "bronze_bar", count: 2 });
    const first = await a.next("production:made", () => true, { since });
    assert.deepEqual(first, { kind: "smelting", recipeId: "bronze_bar", success: true, made: [{ itemId: "bronze_bar", quantity: 1 }], remaining: 1 });
    const xp = await a.next("skill:xp", (m) => m.skill === "smithing", { since });
    assert.equal(xp.gained, Math.round(recipe.xp));
    await a.next("production:made", (m) => m.remaining === 0, { since });
    const sync = await a.next("player:sync", (s) => count(s, "bronze_bar") === 2 && s.action === null, { since });
    assert.equal(count(sync, "copper_ore"), 1, "the third set is left: count 2 was asked");
  });

  it("make all at the anvil (walking there from afar with stationId) stops quietly when the bars run out; a hammer is needed", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const anvil = stationOf(room, "anvil");
    place(room, a.id, tileAway(room, anvil.tile, 6));
    givePack(room, a.id, [
      ["bronze_bar", 1],
      ["bronze_bar", 1],
    ]);
    let since = a.mark();
    a.send("production:make", { kind: "smithing", recipeId: "bronze_dagger", count: "all", stationId: anvil.id });
    assert.equal((await a.next("error", () => true, { since })).code, "NO_TOOL");
    givePack(room, a.id, [
      ["bronze_bar", 1],
      ["bronze_bar", 1],
      ["hammer", 1],
    ]);
    since = a.mark();
    a.send("production:make", { kind: "smithing", recipeId: "bronze_dagger", count: "all", stationId: anvil.id });
    await a.next("production:made", (m) => m.remaining === null, { since });
    const sync = await a.next("player:sync", (s) => count(s, "bronze_dagger") === 2 && s.action === null, { since });
    assert.equal(count(sync, "bronze_bar"), 0);
    assert.equal(a.received.slice(since).filter((m) => m.type === "error").length, 0, "running out of bars on make-all is not an error");
  });

  it("a failed smelt (successRate) still uses its ore and gives no xp; a count not reached ends with MISSING_MATERIALS", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const iron = room.world.data.recipes.smelting!.find((r) => r.successRate !== undefined);
    assert.ok(iron, "the default world has a smelting recipe that can fail");
    const e = room.world.players.get(a.id)!;
    e.xp.smithing = 1_000_000;
    refreshLevels(e);
    place(room, a.id, besideOf(room, stationOf(room, "furnace").tile));
    givePack(room, a.id, [[iron.inputs[0]!.itemId, 1]]);
    setRng(room, 0.999);
    const since = a.mark();
    a.send("production:make", { kind: "smelting", recipeId: iron.id, count: 2 });
    const failed = await a.next("production:made", () => true, { since });
    assert.deepEqual({ success: failed.success, made: failed.made }, { success: false, made: [] });
    assert.equal((await a.next("error", () => true, { since })).code, "MISSING_MATERIALS");
    const sync = a.sync();
    assert.equal(count(sync, iron.inputs[0]!.itemId), 0);
    assert.equal(count(sync, iron.id), 0);
    assert.equal(a.received.slice(since).filter((m) => m.type === "skill:xp").length, 0);
    setRng(room, 0.5);
  });

  it("refusals change nothing: unknown recipe, not at a station, the wrong station, no level, no inputs, offered slots, bad payloads", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const furnace = stationOf(room, "furnace");
    const anvil = stationOf(room, "anvil");
    givePack(room, a.id, [
      ["copper_ore", 1],
      ["tin_ore", 1],
    ]);
    const before = JSON.stringify(room.world.players.get(a.id)!.inventory);
    const refusals: Array<[unknown, string]> = [
      [{ kind: "smelting", recipeId: "gold_bar" }, "UNKNOWN_RECIPE"],
      [{ kind: "smelting", recipeId: "bronze_bar" }, "NOT_AT_STATION"],
      [{ kind: "smelting", recipeId: "bronze_bar", stationId: anvil.id }, "WRONG_STATION"],
      [{ kind: "smelting", recipeId: "bronze_bar", stationId: "station:nowhere" }, "WRONG_STATION"],
      [{ kind: "cooking", recipeId: "shrimp" }, "INVALID_PAYLOAD"],
      [{ kind: "smelting", recipeId: "bronze_bar", count: 0 }, "INVALID_PAYLOAD"],
      [{ kind: "smelting", recipeId: "bronze_bar", count: -1 }, "INVALID_PAYLOAD"],
      [{ kind: "smelting", recipeId: "bronze_bar", count: 1.5 }, "INVALID_PAYLOAD"],
      [{ kind: "smelting", recipeId: "bronze_bar", count: 2 ** 31 }, "INVALID_PAYLOAD"],
      [{ kind: "smelting", recipeId: "bronze_bar", count: "5" }, "INVALID_PAYLOAD"],
      [{ kind: "smelting" }, "INVALID_PAYLOAD"],
    ];
    for (const [payload, expected] of refusals) {
      const since = a.mark();
      a.send("production:make", payload);
      assert.equal((await a.next("error", () => true, { since })).code, expected, JSON.stringify(payload));
    }
    place(room, a.id, besideOf(room, furnace.tile));
    const iron = room.world.data.recipes.smelting!.find((r) => r.level > 1)!;
    givePack(room, a.id, [[iron.inputs[0]!.itemId, 1]]);
    let since = a.mark();
    a.send("production:make", { kind: "smelting", recipeId: iron.id });
    assert.equal((await a.next("error", () => true, { since })).code, "LEVEL_TOO_LOW");
    givePack(room, a.id, [["copper_ore", 1]]);
    since = a.mark();
    a.send("production:make", { kind: "smelting", recipeId: "bronze_bar" });
    assert.equal((await a.next("error", () => true, { since })).code, "MISSING_MATERIALS");
    givePack(room, a.id, [
      ["copper_ore", 1],
      ["tin_ore", 1],
    ]);
    room.world.players.get(a.id)!.lockedSlots.add(1);
    since = a.mark();
    a.send("production:make", { kind: "smelting", recipeId: "bronze_bar" });
    assert.equal((await a.next("error", () => true, { since })).code, "MISSING_MATERIALS", "the offered tin cannot be smelted");
    room.world.players.get(a.id)!.lockedSlots.clear();
    assert.equal(JSON.stringify(room.world.players.get(a.id)!.inventory), before);
    assert.equal(room.world.players.get(a.id)!.action, null);
  });
});
