import assert from "node:assert/strict";
import type { AgentMapping } from "@prisma/client";
import { goalFrom } from "../../src/agents/brain.js";
import { AgentRuntime } from "../../src/agents/runtime.js";
import { AgentView } from "../../src/agents/view.js";
import { activeGoal, agentById } from "../../src/db/agentRepo.js";
import type { WorldAccess } from "../../src/worldAccess.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";

/**
 * The owner's controls in the runtime: goal, pause, resume and words change the built-in driver's
 * state, or are recorded and passed on to an external runtime holding the character.
 */
describe("agent runtime: the owner's controls", function () {
  this.timeout(60_000);
  let server: TestServer;
  let runtime: AgentRuntime;
  let names = 0;
  const prisma = () => server.ctx.db.prisma;

  /** A registered agent (started by the built-in runtime), as its mapping. */
  async function register(): Promise<AgentMapping> {
    const owner = await guestToken(server);
    const r = await rest(server, "POST", "/api/agent/register", owner.token, { name: `Ctl ${++names}` });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return (await agentById(prisma(), r.body.agentId))!;
  }

  before(async () => {
    server = await startTestServer();
    runtime = server.arena.agents;
  });
  after(async () => {
    await server.close();
  });

  describe("an agent driven here", () => {
    it("setGoal: the driver takes the owner's goal now and it is recorded", async () => {
      const m = await register();
      const d = runtime.driver(m.agentId)!;
      const goal = goalFrom({ type: "idle", target: null }, d.sight, "owner");
      await runtime.setGoal(m, goal);
      assert.equal(d.mind.goal, goal);
      assert.equal((await activeGoal(prisma(), m.agentId))?.id, goal.id);
      const status = await runtime.goalStatus(m);
      assert.deepEqual([status.goal?.id, status.goal?.source, status.goalsPaused], [goal.id, "owner", false]);
    });

    it("pause clears the goal and stops autonomous choice (recorded); resume lifts it", async () => {
      const m = await register();
      const d = runtime.driver(m.agentId)!;
      await runtime.pause(m);
      assert.deepEqual([d.mind.paused, d.mind.goal], [true, null]);
      assert.equal((await agentById(prisma(), m.agentId))?.goalsPaused, true);
      assert.equal(await activeGoal(prisma(), m.agentId), null);
      assert.deepEqual(await runtime.goalStatus(m), { goal: null, goalsPaused: true });
      assert.equal((await runtime.status(m)).goalsPaused, true);

      await runtime.resume(m);
      assert.equal(d.mind.paused, false);
      assert.equal((await agentById(prisma(), m.agentId))?.goalsPaused, false);
    });

    it("tell: a command is queued; other words get an in-character reply said in chat", async () => {
      const m = await register();
      const d = runtime.driver(m.agentId)!;
      const told = await runtime.tell(m, "go to bank");
      assert.deepEqual(told, { delivered: true, command: { kind: "bank" }, reply: null });
      assert.deepEqual(d.mind.queue.at(-1), { kind: "bank" });
      const hello = await runtime.tell(m, "hello there");
      assert.equal(hello.delivered, true);
      assert.equal(hello.command, null);
      assert.match(hello.reply!, new RegExp(`^Well met! ${m.name} here`));
      assert.ok(d.mind.say.includes(hello.reply!));
    });

    it("setRunning: false takes it out and records it, true brings it back", async () => {
      const m = await register();
      await runtime.setRunning(m, false);
      assert.equal(runtime.driver(m.agentId), undefined);
      assert.equal((await agentById(prisma(), m.agentId))?.running, false);
      await runtime.setRunning(m, true);
      assert.ok(runtime.driver(m.agentId));
      const fresh = (await agentById(prisma(), m.agentId))!;
      assert.deepEqual([fresh.running, fresh.runtime], [true, "builtin"]);
      const status = await runtime.status(fresh);
      assert.deepEqual([status.runtime, status.running], ["builtin", true]);
    });
  });

  describe("an agent not driven here", () => {
    /** A runtime of its own over a world where the character's session is held elsewhere (an external runtime), or by nobody. */
    function elsewhere(held: boolean) {
      const sent: Array<[string, string, unknown]> = [];
      const world: Partial<WorldAccess> = {
        hasSession: async () => held,
        isOnline: async () => held,
        sendTo: async (characterId, type, data) => {
          if (held) sent.push([characterId, type, data]);
          return held;
        },
      };
      return { sent, runtime: new AgentRuntime({ ...server.ctx, world: world as WorldAccess }) };
    }

    it("goal, pause and resume are recorded and told to the external runtime as goalOverride", async () => {
      const m = await register();
      await runtime.setRunning(m, false);
      const { sent, runtime: other } = elsewhere(true);
      const goal = goalFrom({ type: "idle", target: null }, new AgentView(), "owner");
      await other.setGoal(m, goal);
      assert.equal((await activeGoal(prisma(), m.agentId))?.id, goal.id);
      assert.deepEqual((await other.goalStatus(m)).goal?.id, goal.id);
      await other.pause(m);
      assert.equal(await activeGoal(prisma(), m.agentId), null);
      assert.equal((await other.goalStatus(m)).goalsPaused, true);
      await other.resume(m);
      assert.equal((await agentById(prisma(), m.agentId))?.goalsPaused, false);
      assert.deepEqual(
        sent.map(([id, type, data]) => [id, type, data]),
        [
          [
            m.characterId,
            "goalOverride",
            { goal: { id: goal.id, type: "idle", target: null, source: "owner", progress: goal.progress, count: null, resume: null } },
          ],
          [m.characterId, "goalOverride", { goal: null, goalsPaused: true }],
          [m.characterId, "goalOverride", { goalsPaused: false }],
        ],
      );
      assert.deepEqual([(await other.status(m)).runtime, (await other.status(m)).running], ["external", false]);
    });

    it("tell goes to the external runtime as agentMessage, or is not delivered when nobody holds the character", async () => {
      const m = await register();
      await runtime.setRunning(m, false);
      const { sent, runtime: other } = elsewhere(true);
      assert.deepEqual(await other.tell(m, "mine"), { delivered: true, command: { kind: "gather", skill: "mining" }, reply: null });
      assert.deepEqual(await other.tell(m, "hello"), { delivered: true, command: null, reply: null });
      assert.deepEqual(sent, [
        [m.characterId, "agentMessage", { content: "mine", command: { kind: "gather", skill: "mining" } }],
        [m.characterId, "agentMessage", { content: "hello", command: null }],
      ]);

      const { runtime: nobody } = elsewhere(false);
      assert.equal((await nobody.tell(m, "mine")).delivered, false);
      assert.equal((await nobody.tell(m, "hello")).delivered, false);
      assert.equal((await nobody.status(m)).runtime, m.runtime);
    });
  });
});
