import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { givePack, tileAway } from "../helpers/worldRoom.js";
import { syncCount, wsWorldSuite } from "../helpers/wsWorld.js";

/** production:make over the plain JSON protocol: the same rules as for SDK clients. */

describe("/ws: production", function () {
  this.timeout(40_000);
  const suite = wsWorldSuite();
  const player = () => suite.player();

  it("crafting leather gloves: production:made, skill:xp and a player:sync with the gloves", async () => {
    const { ws, room, p } = await player();
    const gloves = room.world.data.recipes.crafting!.find((r) => r.id === "leather_gloves")!;
    givePack(room, p.id, [["needle", 1], ...gloves.inputs.map((i) => [i.itemId, i.quantity] as [string, number])]);
    const since = ws.mark();
    ws.send("production:make", { kind: "crafting", recipeId: "leather_gloves" }, "gloves");
    const madeFrame = await ws.next("production:made", () => true, { since });
    assert.deepEqual(madeFrame.data, { kind: "crafting", recipeId: "leather_gloves", success: true, made: gloves.outputs, remaining: 0 });
    const xp = await ws.next("skill:xp", (f) => f.data.skill === gloves.skill, { since });
    assert.equal(xp.data.gained, Math.round(gloves.xp));
    const sync = await ws.next("player:sync", (f) => syncCount(f, "leather_gloves") === 1 && f.data.action === null, { since });
    assert.equal(syncCount(sync, "needle"), 1, "the needle is kept");
    for (const i of gloves.inputs) assert.equal(syncCount(sync, i.itemId), 0, `${i.itemId} used`);
    assert.equal(ws.frames.slice(since).filter((f) => f.type === "error").length, 0);
  });

  it("every skill at its station: smelting, smithing, fletching, runecrafting and tanning, walking there with stationId", async () => {
    const { ws, room, p } = await player();
    const stationOf = (type: string, runeType?: string) =>
      [...room.world.stations.values()].find((s) => s.type === type && (!runeType || s.runeType === runeType))!.id;
    const tanner = [...room.world.npcs.values()].find((n) => n.defId === "tanner")!;
    const cases: Array<{ kind: string; recipeId: string; stationId?: string; extra: Array<[string, number]> }> = [
      { kind: "smelting", recipeId: "bronze_bar", stationId: stationOf("furnace"), extra: [] },
      { kind: "smithing", recipeId: "bronze_dagger", stationId: stationOf("anvil"), extra: [["hammer", 1]] },
      { kind: "fletching", recipeId: "arrow_shaft", extra: [["knife", 1]] },
      { kind: "runecrafting", recipeId: "air_rune", stationId: stationOf("runecrafting_altar", "air"), extra: [] },
      { kind: "tanning", recipeId: "leather", stationId: tanner.id, extra: [] },
    ];
    for (const c of cases) {
      const recipe = room.world.data.recipes[c.kind]!.find((r) => r.id === c.recipeId)!;
      const inputs = recipe.inputs.map((i): [string, number] => [i.itemId, i.quantity]);
      givePack(room, p.id, [...inputs, ...c.extra, ...(recipe.coins ? [["coins", recipe.coins] as [string, number]] : [])]);
      // A few tiles from the station: the make walks the rest.
      const at = c.stationId ? (room.world.stations.get(c.stationId)?.tile ?? tanner.position) : p.tile;
      p.tile = tileAway(room, at, 3);
      p.path = [];
      room.world.place("player", p.id, p.tile);
      const since = ws.mark();
      ws.send("production:make", { kind: c.kind, recipeId: c.recipeId, ...(c.stationId ? { stationId: c.stationId } : {}) }, c.kind);
      const made = await ws.next("production:made", () => true, { since, timeoutMs: 30_000 });
      assert.deepEqual(made.data, { kind: c.kind, recipeId: c.recipeId, success: true, made: recipe.outputs, remaining: 0 }, c.kind);
      const sync = await ws.next("player:sync", (f) => syncCount(f, c.recipeId) === recipe.outputs[0]!.quantity, { since });
      for (const [itemId] of inputs) assert.equal(syncCount(sync, itemId), 0, `${c.kind}: ${itemId} used`);
      assert.equal(ws.frames.slice(since).filter((f) => f.type === "error").length, 0, c.kind);
    }
  });

  it("a bad production:make gets INVALID_PAYLOAD with the frame's id; nothing changes and the socket stays open", async () => {
    const { ws, room, p } = await player();
    givePack(room, p.id, [
      ["needle", 1],
      ["leather", 1],
      ["thread", 1],
    ]);
    const before = JSON.stringify(p.inventory);
    let since = ws.mark();
    ws.send("production:make", { kind: "cooking" }, "bad-kind");
    const err = await ws.next("error", () => true, { since });
    assert.deepEqual([err.id, err.data.code], ["bad-kind", "INVALID_PAYLOAD"]);
    assert.equal(JSON.stringify(p.inventory), before);
    assert.equal(p.action, null);

    since = ws.mark();
    ws.send("ping", {}, "alive");
    assert.equal((await ws.next("pong", () => true, { since })).id, "alive");
    ws.send("production:make", { kind: "crafting", recipeId: "leather_gloves", count: 1 }, "good");
    await ws.next("production:made", (f) => f.data.recipeId === "leather_gloves", { since });
    assert.equal(ws.ws.readyState, ws.ws.OPEN);
  });
});
