import assert from "node:assert/strict";
import { heard, newAgent as newAgentIn } from "../helpers/agentWorld.js";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import type { AgentDriver } from "../../src/agents/driver.js";
import { emptyInventory } from "../../src/game/inventory.js";
import type { PlayerEntity } from "../../src/game/world/entities.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

import { setRng, theWorld } from "../helpers/worldRoom.js";

/** A real agent of the built-in runtime making things in the default world by itself, through room messages only (the planner alone: productionPlanner.test.ts). */
describe("agents and production: in the world", function () {
  this.timeout(240_000);
  let server: TestServer;
  let room: WorldRoom;
  let names = 0;
  const call = (method: string, path: string, token?: string, body?: unknown) => rest(server, method, path, token, body);

  /** Every message the agent takes in, from now on, in order. */
  function record(d: AgentDriver) {
    const log: Array<{ type: string; data: any; tick: number }> = [];
    d.heard.on("message", (type: string, data: any) => log.push({ type, data, tick: room.world.tick }));
    return log;
  }

  const newAgent = () => newAgentIn(server, room, `Smith ${++names}`);

  const count = (p: PlayerEntity, itemId: string) => p.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);

  /** A pack of exactly these stacks (scene setup); resolves once the agent has been told. */
  async function givePack(d: AgentDriver, p: PlayerEntity, stacks: Array<[string, number]>) {
    const inv = emptyInventory();
    stacks.forEach(([itemId, quantity], i) => (inv[i] = { itemId, quantity }));
    p.inventory = inv;
    room.world.touchPlayer(p);
    const want = JSON.stringify(stacks);
    await heard(d, "player:sync", (s) => JSON.stringify(s.inventory.map((i: any) => [i.itemId, i.quantity])) === want);
  }

  before(async () => {
    server = await startTestServer();
    room = await theWorld();
  });
  after(async () => {
    setRng(room, 0.5);
    await server.close();
  });

  it("a smithing goal goes from ore to a bronze dagger by itself: buys a hammer, mines copper and tin, smelts at the furnace, smiths at the anvil", async () => {
    const { owner, a, d, p } = await newAgent();
    assert.equal((await call("POST", `/api/agents/${a.agentId}/goal/stop`, owner.token)).status, 200);
    // No bars, no ores, no hammer: a pickaxe and coins enough for a hammer.
    await givePack(d, p, [
      ["bronze_pickaxe", 1],
      ["coins", 25],
    ]);
    // Every mining roll succeeds.
    setRng(room, 0.05);
    const listed = await call("GET", `/api/agents/${a.agentId}/goal`, owner.token);
    const option = listed.body.availableGoals.find((g: any) => g.id === "smithing:bronze_dagger");
    assert.deepEqual([option.type, option.target, option.available], ["smithing", "bronze_dagger", true]);
    const log = record(d);
    const smithed = heard(d, "production:made", (m) => m.recipeId === "bronze_dagger" && m.success, 400);

    const set = await call("POST", `/api/agents/${a.agentId}/goal`, owner.token, { type: "smithing", target: "bronze_dagger", count: 1 });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual([set.body.goal.type, set.body.goal.target, set.body.goal.count, set.body.goal.progress.made], ["smithing", "bronze_dagger", 1, 0]);
    const goal = d.mind.goal!;
    const made = await smithed;
    assert.deepEqual(made.made, [{ itemId: "bronze_dagger", quantity: 1 }]);

    // In its pack; the hammer and the pickaxe kept, the bar and the ores used, 4 coins spent.
    if (count(p, "bronze_dagger") === 0) await heard(d, "player:sync", () => count(p, "bronze_dagger") === 1);
    assert.deepEqual(
      ["bronze_dagger", "hammer", "bronze_pickaxe", "bronze_bar", "copper_ore", "tin_ore", "coins"].map((id) => count(p, id)),
      [1, 1, 1, 0, 0, 0, 21],
    );
    // In that order: the hammer bought, copper and tin mined, a bar smelted at the furnace, the dagger at the anvil.
    const first = (pred: (e: (typeof log)[number]) => boolean) => log.findIndex(pred);
    const steps = [
      first((e) => e.type === "store:bought" && e.data.itemId === "hammer"),
      first((e) => e.type === "skill:xp" && e.data.skill === "mining"),
      first((e) => e.type === "production:made" && e.data.recipeId === "bronze_bar" && e.data.success),
      first((e) => e.type === "production:made" && e.data.recipeId === "bronze_dagger"),
    ];
    assert.ok(
      steps.every((i) => i >= 0),
      JSON.stringify(steps),
    );
    assert.deepEqual(
      steps,
      [...steps].sort((x, y) => x - y),
    );
    assert.equal(log.filter((e) => e.type === "skill:xp" && e.data.skill === "mining").length, 2, "one copper, one tin");
    assert.equal(log.filter((e) => e.type === "error").length, 0, JSON.stringify(log.filter((e) => e.type === "error").map((e) => e.data)));

    // The goal reached its count: progress says so, it is over and recorded completed.
    if (d.mind.goal) await heard(d, "*", () => d.mind.goal === null);
    assert.deepEqual([goal.progress.made, goal.progress.bought, goal.progress.coins, goal.progress.gathered, goal.completed], [1, 1, -4, 2, true]);
    assert.ok(goal.progress.xpGained > 0, "smithing xp");
    let row = await server.ctx.db.prisma.agentGoal.findUnique({ where: { id: goal.id } });
    for (let i = 0; i < 20 && row?.status !== "completed"; i++) {
      await heard(d, "world:update");
      row = await server.ctx.db.prisma.agentGoal.findUnique({ where: { id: goal.id } });
    }
    assert.equal(row?.status, "completed");
  });

  it('told in words: "smelt" makes a bar from the ores it carries at the furnace; what it cannot make is answered with the reason', async () => {
    const { owner, a, d, p } = await newAgent();
    assert.equal((await call("POST", `/api/agents/${a.agentId}/goal/stop`, owner.token)).status, 200);
    await givePack(d, p, [
      ["copper_ore", 1],
      ["tin_ore", 1],
    ]);
    const log = record(d);
    const smelted = heard(d, "production:made", (m) => m.recipeId === "bronze_bar", 200);
    const told = await call("POST", `/api/agents/${a.agentId}/message`, owner.token, { content: "smelt" });
    assert.deepEqual([told.body.queued, told.body.command], [true, "make"]);
    assert.equal((await smelted).success, true);
    if (d.mind.goal) await heard(d, "*", () => d.mind.goal === null, 50);
    assert.equal(count(p, "bronze_bar"), 1);
    assert.deepEqual(
      log.filter((e) => e.type === "store:bought"),
      [],
      "nothing bought",
    );

    const said = heard(d, "chat:message", (m) => String(m.message ?? m.text ?? "").includes("I can't do that"));
    await call("POST", `/api/agents/${a.agentId}/message`, owner.token, { content: "smith an iron dagger" });
    assert.match(String((await said).message ?? (await said).text), /Smithing level 15/);
  });
});
