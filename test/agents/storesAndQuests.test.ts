import assert from "node:assert/strict";
import { heard, newAgent as newAgentIn } from "../helpers/agentWorld.js";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import type { AgentDriver } from "../../src/agents/driver.js";
import type { PlayerEntity } from "../../src/game/world/entities.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

import { ticks, theWorld } from "../helpers/worldRoom.js";

const LETTER = "the_wardens_letter";
const MENACE = "mudfoot_menace";

/** Real agents of the built-in runtime in a real world, steered over REST, acting only through room messages (the planner alone: storesAndQuestsPlanner.test.ts). */
describe("agents and stores and quests: in the world", function () {
  this.timeout(120_000);
  let server: TestServer;
  let room: WorldRoom;
  let names = 0;
  const call = (method: string, path: string, token?: string, body?: unknown) => rest(server, method, path, token, body);

  const newAgent = () => newAgentIn(server, room, `Quester ${++names}`);

  const count = (p: PlayerEntity, itemId: string) => p.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
  /** Change the pack server-side (scene setup) and wait until the agent has been told. */
  async function setPack(d: AgentDriver, p: PlayerEntity, change: (inv: PlayerEntity["inventory"]) => void) {
    change(p.inventory);
    room.world.touchPlayer(p);
    const want = JSON.stringify(p.inventory.flatMap((s) => (s ? [[s.itemId, s.quantity]] : [])));
    await heard(d, "player:sync", (s) => JSON.stringify(s.inventory.map((i: any) => [i.itemId, i.quantity])) === want);
  }
  const setCoins = (quantity: number) => (inv: PlayerEntity["inventory"]) => {
    inv[inv.findIndex((s) => s?.itemId === "coins")] = { itemId: "coins", quantity };
  };
  const option = (body: any, id: string) => body.availableGoals.find((g: any) => g.id === id);

  before(async () => {
    server = await startTestServer();
    room = await theWorld();
  });
  after(async () => {
    await server.close();
  });

  it("an agent given quest:the_wardens_letter finishes it by itself (warden, bank clerk, warden), and it is recorded completed", async () => {
    const { owner, a, d, p } = await newAgent();
    const before = await call("GET", `/api/agents/${a.agentId}/goal`, owner.token);
    assert.deepEqual([option(before.body, `quest:${LETTER}`).available, option(before.body, `quest:${MENACE}`).available], [true, false]);
    assert.match(option(before.body, `quest:${MENACE}`).reason, /The Warden's Letter completed first/);
    const coins = count(p, "coins");
    // Whom it talked to, in order (each conversation's npc once).
    const talkedTo: string[] = [];
    d.heard.on("message", (t: string, node: any) => {
      if (t === "dialogue:node" && talkedTo.at(-1) !== node.npcId) talkedTo.push(node.npcId);
    });
    const completed = heard(d, "quest:completed", (q) => q.questId === LETTER);

    const set = await call("POST", `/api/agents/${a.agentId}/goal`, owner.token, { goalId: `quest:${LETTER}` });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual([set.body.goal.type, set.body.goal.target], ["quest", LETTER]);
    const goalId = set.body.goal.id;
    const done = await completed;
    assert.deepEqual(done.rewards.items, [
      { itemId: "bronze_shortsword", quantity: 1 },
      { itemId: "coins", quantity: 150 },
      { itemId: "iron_hatchet", quantity: 1 },
    ]);
    const byDef = (id: string) => [...room.world.npcs.values()].find((n) => n.id === id)?.defId;
    assert.deepEqual(talkedTo.map(byDef), ["warden_holt", "bank_clerk", "warden_holt"]);
    assert.equal(p.quests.get(LETTER)?.completions, 1);
    assert.equal(count(p, "coins"), coins + 150);
    assert.equal(count(p, "iron_hatchet"), 1);
    assert.equal(count(p, "bronze_shortsword"), 1);

    // The goal is over, recorded as completed; the journal now offers the next quest.
    if (d.mind.goal?.id === goalId) await heard(d, "*", () => d.mind.goal?.id !== goalId);
    let row = await server.ctx.db.prisma.agentGoal.findUnique({ where: { id: goalId } });
    for (let i = 0; i < 20 && row?.status !== "completed"; i++) {
      await ticks(room, 1);
      row = await server.ctx.db.prisma.agentGoal.findUnique({ where: { id: goalId } });
    }
    assert.equal(row?.status, "completed");
    const after = await call("GET", `/api/agents/${a.agentId}/goal`, owner.token);
    assert.match(option(after.body, `quest:${LETTER}`).reason, /already completed/);
    assert.equal(option(after.body, `quest:${MENACE}`).available, true);
  });

  it("an agent without a hatchet cannot take woodcutting without coins (the reason says why); with them it buys the cheapest hatchet and chops", async () => {
    const { owner, a, d, p } = await newAgent();
    assert.equal((await call("POST", `/api/agents/${a.agentId}/goal/stop`, owner.token)).status, 200);
    await setPack(d, p, (inv) => {
      inv[inv.findIndex((s) => s?.itemId === "bronze_hatchet")] = null;
      setCoins(10)(inv);
    });
    const poor = await call("GET", `/api/agents/${a.agentId}/goal`, owner.token);
    assert.equal(option(poor.body, "woodcutting:tree_normal").available, false);
    assert.match(option(poor.body, "woodcutting:tree_normal").reason, /Bronze Hatchet for 32 coins; I have 10/);
    const refused = await call("POST", `/api/agents/${a.agentId}/goal`, owner.token, { goalId: "woodcutting:tree_normal" });
    assert.deepEqual([refused.status, refused.body.error.code], [400, "GOAL_UNAVAILABLE"]);

    await setPack(d, p, setCoins(100));
    const bought = heard(d, "store:bought", (b) => b.itemId === "bronze_hatchet");
    const set = await call("POST", `/api/agents/${a.agentId}/goal`, owner.token, { goalId: "woodcutting:tree_normal" });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const deal = await bought;
    assert.deepEqual([deal.quantity, deal.coins], [1, 32]);
    await heard(d, "*", () => d.sight.self?.doing === "woodcutting");
    assert.equal(count(p, "bronze_hatchet"), 1);
    assert.equal(count(p, "iron_hatchet"), 0, "the cheapest suitable tool");
    assert.equal(count(p, "coins"), 68);
    assert.equal(p.store, null, "the store was closed");
    assert.deepEqual([d.mind.goal?.type, d.mind.goal?.progress.bought], ["woodcutting", 1]);
  });

  it("an agent given the sell goal sells its logs and ends with more coins; its tools and food stay", async () => {
    const { owner, a, d, p } = await newAgent();
    assert.equal((await call("POST", `/api/agents/${a.agentId}/goal/stop`, owner.token)).status, 200);
    await setPack(d, p, (inv) => {
      for (let i = 0; i < 10; i++) inv[inv.indexOf(null) === -1 ? inv.length : inv.indexOf(null)] = { itemId: "logs", quantity: 1 };
    });
    const kit = ["bronze_hatchet", "bronze_pickaxe", "small_fishing_net", "tinderbox", "shrimp"].map((id) => [id, count(p, id)]);
    const coins = count(p, "coins");
    const listed = await call("GET", `/api/agents/${a.agentId}/goal`, owner.token);
    assert.equal(option(listed.body, "sell").available, true);

    const sold = heard(d, "store:sold", (s) => s.itemId === "logs");
    const set = await call("POST", `/api/agents/${a.agentId}/goal`, owner.token, { type: "sell" });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const goalId = set.body.goal.id;
    const deal = await sold;
    assert.equal(deal.quantity, 10);
    if (d.mind.goal?.id === goalId) await heard(d, "*", () => d.mind.goal?.id !== goalId);
    assert.equal(count(p, "logs"), 0);
    assert.equal(count(p, "coins"), coins + deal.coins);
    assert.ok(count(p, "coins") > coins, "more coins than before");
    assert.deepEqual(
      kit.map(([id]) => [id, count(p, id as string)]),
      kit,
    );
    assert.equal(d.mind.goal, null, "paused: nothing after the sale");
    await heard(d, "*", () => p.store === null);
  });
});
