import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

import { guestToken, joinWorld } from "../helpers/worldClient.js";
import { besideOf, place, setRng, ticks, theWorld } from "../helpers/worldRoom.js";
import { wsConnect } from "../helpers/wsClient.js";
import { rest } from "../helpers/rest.js";

/** The agent endpoints steering real agents of the built-in runtime in a real world, over real HTTP. */
describe("agents: REST control of the built-in runtime", function () {
  this.timeout(120_000);
  let server: TestServer;
  let room: WorldRoom;
  const call = (method: string, path: string, token?: string, body?: unknown) => rest(server, method, path, token, body);
  /** Wait until the world shows it (checked every tick, bounded). */
  const until = async (what: string, check: () => boolean, maxTicks = 100) => {
    for (let i = 0; i < maxTicks; i++) {
      if (check()) return;
      await ticks(room, 1);
    }
    assert.fail(`not within ${maxTicks} ticks: ${what}`);
  };
  let names = 0;
  const register = async (owner: { token: string }) => {
    const r = await call("POST", "/api/agent/register", owner.token, { name: `Agent ${++names}` });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body as { agentId: string; characterId: string; token: string };
  };

  before(async () => {
    server = await startTestServer();
    room = await theWorld();
  });
  after(async () => {
    await server.close();
  });

  it("a registered agent is a player in the world; stop takes it out, start brings it back; the mapping is readable", async () => {
    const owner = await guestToken(server);
    const a = await register(owner);
    assert.match(a.agentId, /^a_/);
    await until("the agent joins", () => room.world.players.has(a.characterId));
    assert.equal(room.world.players.get(a.characterId)!.isAgent, true);
    const list = await call("GET", "/api/agent", owner.token);
    assert.deepEqual(
      list.body.agents.map((x: any) => [x.agentId, x.running, x.online, x.runtime]),
      [[a.agentId, true, true, "builtin"]],
    );
    const mapping = await call("GET", `/api/agents/mapping/${a.agentId}`, owner.token);
    assert.deepEqual([mapping.body.mapping.characterId, mapping.body.mapping.ownerAccountId], [a.characterId, owner.accountId]);

    assert.equal((await call("POST", `/api/agent/${a.agentId}/stop`, owner.token)).body.running, false);
    await until("the agent leaves", () => !room.world.players.has(a.characterId));
    assert.equal((await call("POST", `/api/agent/${a.agentId}/start`, owner.token)).body.running, true);
    await until("the agent is back", () => room.world.players.has(a.characterId));
  });

  it("a woodcutting goal gains woodcutting xp and banks when the pack is full, then goes back to chopping", async () => {
    const owner = await guestToken(server);
    const a = await register(owner);
    await until("the agent joins", () => room.world.players.has(a.characterId));
    const p = room.world.players.get(a.characterId)!;
    const tree = [...room.world.resources.values()].find((r) => r.resourceId === "tree_normal" && !r.depleted)!;
    place(room, p.id, besideOf(room, tree.tile));
    // Every roll succeeds (and trees seldom deplete): one log fills the pack.
    setRng(room, 0.05);
    for (let slot = 0; slot < 28; slot++) if (!p.inventory[slot]) p.inventory[slot] = { itemId: "logs", quantity: 1 };
    p.inventory[27] = null;
    room.world.touchPlayer(p);
    const xpBefore = p.xp.woodcutting;

    const set = await call("POST", `/api/agents/${a.agentId}/goal`, owner.token, { goalId: "woodcutting:tree_normal" });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.goal.type, "woodcutting");
    assert.ok(set.body.availableGoals.some((g: any) => g.id === "woodcutting:tree_normal" && g.available));

    await until("woodcutting xp", () => p.xp.woodcutting > xpBefore);
    await until("the logs are banked", () => p.bank.some((s) => s.itemId === "logs" && s.quantity >= 18), 200);
    assert.ok(
      p.inventory.some((s) => s?.itemId === "bronze_hatchet"),
      "the hatchet is kept",
    );
    await until("back to chopping", () => server.arena.agents.driver(a.agentId)?.mind.goal?.type === "woodcutting");
    const goal = await call("GET", `/api/agents/${a.agentId}/goal`, owner.token);
    assert.equal(goal.body.goal.type, "woodcutting", "back to the goal after banking");
    assert.ok(goal.body.goal.progress.xpGained > 0);
    assert.ok(goal.body.goal.progress.banked >= 18);
  });

  it("stop pauses within one tick (path cleared, goal null, goalsPaused); commands still work; resume brings autonomous goals back", async () => {
    const owner = await guestToken(server);
    const a = await register(owner);
    await until("the agent joins", () => room.world.players.has(a.characterId));
    const p = room.world.players.get(a.characterId)!;
    await until("it picks a goal by itself", () => room.world.players.get(a.characterId)!.action !== null || p.path.length > 0, 40);

    const stopped = await call("POST", `/api/agents/${a.agentId}/goal/stop`, owner.token);
    assert.equal(stopped.status, 200);
    assert.equal(stopped.body.goal, null);
    assert.equal(stopped.body.goalsPaused, true);
    assert.ok(Array.isArray(stopped.body.availableGoals));
    assert.deepEqual([p.path.length, p.action], [0, null], "path and action cleared at once");
    await ticks(room, 4);
    assert.deepEqual([p.path.length, p.action], [0, null], "no goal of its own while paused");
    assert.equal((await call("GET", `/api/agents/${a.agentId}/goal`, owner.token)).body.goal, null);

    // A command still runs while paused.
    const tree = [...room.world.resources.values()].find((r) => r.resourceId === "tree_normal" && !r.depleted)!;
    place(room, p.id, besideOf(room, tree.tile));
    const msg = await call("POST", `/api/agents/${a.agentId}/message`, owner.token, { content: "chop trees" });
    assert.deepEqual([msg.body.queued, msg.body.command], [true, "gather"]);
    await until("it chops", () => p.action?.type === "gather");
    const stop = await call("POST", `/api/agents/${a.agentId}/message`, owner.token, { content: "stop" });
    assert.equal(stop.body.queued, true);
    await until("it stops", () => p.action === null);
    await ticks(room, 3);
    assert.equal(p.action, null);

    const resumed = await call("POST", `/api/agents/${a.agentId}/goal/resume`, owner.token);
    assert.equal(resumed.body.goalsPaused, false);
    await until("it chooses a goal again", () => p.action !== null || p.path.length > 0, 40);
    assert.notEqual((await call("GET", `/api/agents/${a.agentId}/goal`, owner.token)).body.goal, null);
  });

  it("words that are no command get an in-character reply in world chat; quick actions list what it can do", async () => {
    const owner = await guestToken(server);
    const a = await register(owner);
    await until("the agent joins", () => room.world.players.has(a.characterId));
    const listener = await joinWorld(server);
    try {
      const reply = await call("POST", `/api/agents/${a.agentId}/message`, owner.token, { content: "hello there, how is the weather?" });
      assert.equal(reply.body.queued, false);
      assert.match(reply.body.reply, /Well met/);
      const heard = await listener.next(
        "chat:message",
        (m) => m.fromId === a.characterId || m.playerId === a.characterId || m.from === a.characterId || String(m.message ?? m.text ?? "").includes("Well met"),
      );
      assert.ok(heard);

      const q = await call("GET", `/api/agents/${a.agentId}/quick-actions`, owner.token);
      assert.equal(q.status, 200);
      const ids = q.body.actions.map((x: any) => x.id);
      assert.deepEqual(ids, [
        "woodcutting",
        "mining",
        "fishing",
        "smelting",
        "smithing",
        "crafting",
        "fletching",
        "runecrafting",
        "tanning",
        "combat",
        "pickup",
        "bank",
        "buy",
        "sell",
        "quest",
        "stop",
        "idle",
      ]);
      for (const x of q.body.actions) {
        assert.equal(typeof x.available, "boolean");
        if (!x.available) assert.equal(typeof x.reason, "string", x.id);
      }
      assert.ok(q.body.nearbyLocations.length > 0);
      const distances = q.body.nearbyLocations.map((l: any) => l.distance);
      assert.deepEqual(
        distances,
        [...distances].sort((x: number, y: number) => x - y),
      );
      assert.ok(q.body.inventory.items.some((i: any) => i.itemId === "coins" && i.quantity === 25));
      assert.equal(q.body.inventory.usedSlots + q.body.inventory.freeSlots, 28);
    } finally {
      await listener.leave();
    }
  });

  it("an external runtime driving the character over /ws gets goalOverride and agentMessage", async () => {
    const owner = await guestToken(server);
    const a = await register(owner);
    await call("POST", `/api/agent/${a.agentId}/stop`, owner.token);
    await until("the built-in driver left", () => !room.world.players.has(a.characterId));
    const ws = await wsConnect(server.port, `?token=${encodeURIComponent(a.token)}`);
    try {
      const auth = await ws.next("authenticated");
      assert.equal(auth.data.playerId, a.characterId);
      const set = await call("POST", `/api/agents/${a.agentId}/goal`, owner.token, { type: "idle" });
      assert.equal(set.status, 200);
      assert.equal((await ws.next("goalOverride")).data.goal.type, "idle");
      await call("POST", `/api/agents/${a.agentId}/message`, owner.token, { content: "go to bank" });
      const m = await ws.next("agentMessage");
      assert.deepEqual([m.data.content, m.data.command.kind], ["go to bank", "bank"]);
      const list = await call("GET", "/api/agent", owner.token);
      assert.equal(list.body.agents[0].runtime, "external");
    } finally {
      ws.close();
      await ws.closed;
    }
  });

  it("an external login takes a running agent over: the runtime's rounds leave it be, and drive the agent again once it left", async () => {
    const owner = await guestToken(server);
    const a = await register(owner);
    const runtime = server.arena.agents;
    await until("the built-in driver plays", () => runtime.driver(a.agentId) !== undefined && room.world.players.has(a.characterId));
    const ws = await wsConnect(server.port, `?token=${encodeURIComponent(a.token)}`);
    let closed = false;
    try {
      assert.equal((await ws.next("authenticated")).data.playerId, a.characterId);
      await until("the built-in driver stepped aside", () => runtime.driver(a.agentId) === undefined);
      // Rounds that would take over an agent nobody drives: this one is played over /ws.
      await runtime.round(true);
      await runtime.round(true);
      await ticks(room, 2);
      assert.equal(runtime.driver(a.agentId), undefined);
      assert.deepEqual(
        ws.frames.filter((f) => f.type === "session:replaced"),
        [],
      );
      assert.equal((await call("GET", "/api/agent", owner.token)).body.agents[0].runtime, "external");
      ws.close();
      await ws.closed;
      closed = true;
      await until("the external session ended", () => !room.world.players.has(a.characterId));
      await runtime.round(true);
      await until("the built-in driver plays again", () => runtime.driver(a.agentId) !== undefined && room.world.players.has(a.characterId));
    } finally {
      if (!closed) {
        ws.close();
        await ws.closed;
      }
    }
  });

  it("401 without a token, 403 for someone else's agent, 404 for an unknown one, 400 for bad input", async () => {
    const owner = await guestToken(server);
    const other = await guestToken(server);
    const a = await register(owner);
    const paths: Array<[string, string, unknown?]> = [
      ["GET", `/api/agents/${a.agentId}/goal`],
      ["POST", `/api/agents/${a.agentId}/goal`, { type: "idle" }],
      ["POST", `/api/agents/${a.agentId}/goal/stop`],
      ["POST", `/api/agents/${a.agentId}/goal/resume`],
      ["POST", `/api/agents/${a.agentId}/message`, { content: "stop" }],
      ["GET", `/api/agents/${a.agentId}/quick-actions`],
      ["GET", `/api/agents/mapping/${a.agentId}`],
      ["POST", `/api/agent/${a.agentId}/start`],
      ["POST", `/api/agent/${a.agentId}/stop`],
    ];
    for (const [method, path, body] of paths) {
      assert.equal((await call(method, path, undefined, body)).status, 401, `${method} ${path}`);
      assert.equal((await call(method, path, other.token, body)).status, 403, `${method} ${path}`);
      assert.equal((await call(method, path.replace(a.agentId, "a_nobody"), owner.token, body)).status, 404, `${method} ${path}`);
    }
    assert.equal((await call("GET", "/api/agent")).status, 401);
    assert.deepEqual((await call("GET", "/api/agent", other.token)).body.agents, []);
    for (const [path, body, code] of [
      ["/api/agent/register", { name: "" }, "INVALID_PAYLOAD"],
      ["/api/agent/register", { name: "Way Too Long Name" }, "INVALID_PAYLOAD"],
      [`/api/agents/${a.agentId}/goal`, {}, "INVALID_PAYLOAD"],
      [`/api/agents/${a.agentId}/goal`, { goalId: "mining:nowhere" }, "UNKNOWN_GOAL"],
      [`/api/agents/${a.agentId}/goal`, { type: "flying" }, "INVALID_PAYLOAD"],
      [`/api/agents/${a.agentId}/goal`, { type: "smithing", count: 0 }, "INVALID_PAYLOAD"],
      [`/api/agents/${a.agentId}/goal`, { type: "idle", count: 2 }, "INVALID_PAYLOAD"],
      [`/api/agents/${a.agentId}/goal`, { type: "smelting", target: "gold_bar" }, "UNKNOWN_GOAL"],
      [`/api/agents/${a.agentId}/message`, { content: "" }, "INVALID_PAYLOAD"],
      [`/api/agents/${a.agentId}/message`, { content: 42 }, "INVALID_PAYLOAD"],
    ] as const) {
      const r = await call("POST", path, owner.token, body);
      assert.equal(r.status, 400, `${path} ${JSON.stringify(body)}`);
      assert.equal(r.body.error.code, code, `${path} ${JSON.stringify(body)}: ${r.body.error.message}`);
    }
  });
});
