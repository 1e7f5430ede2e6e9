import type { AgentMapping } from "@prisma/client";
import { DEFAULT_TOKEN_TTL_SECONDS, signToken } from "../auth/tokens.js";
import type { ServerContext } from "../context.js";
import { activeGoal, recordGoal, runnableAgents } from "../db/agentRepo.js";
import { liveWorld } from "../http/worldAccess.js";
import { joinInMemory } from "../ws/roomClient.js";
import { goalFrom } from "./brain.js";
import { AgentDriver } from "./driver.js";
import type { Goal, GoalType } from "./goals.js";
import { knowledgeOf, type WorldKnowledge } from "./knowledge.js";

/**
 * The built-in agent runtime: every running agent is a player in the world room, joined through
 * the matchmaker with its own agent token like any client, bound by the same rules and limits.
 * An external runtime may drive an agent's character instead (over /ws with the agent's token):
 * its login takes the character over and the built-in driver steps aside.
 */
export class AgentRuntime {
  private readonly drivers = new Map<string, AgentDriver>();
  private readonly starting = new Map<string, Promise<AgentDriver>>();
  private known: WorldKnowledge | undefined;
  private goalWrites = new Map<string, Promise<void>>();

  constructor(private readonly ctx: ServerContext) {}

  /** Start every agent marked running (at server start). */
  async startAll(): Promise<void> {
    for (const m of await runnableAgents(this.ctx.db.prisma)) {
      await this.start(m).catch((err) => this.ctx.logger.warn({ err: (err as Error).message, agentId: m.agentId }, "agent could not start"));
    }
  }

  /** The map as the world data gives it: made once, the first time the world is running. */
  async knowledge(): Promise<WorldKnowledge> {
    if (this.known) return this.known;
    const room = await liveWorld();
    if (!room) throw new Error("the world is not running");
    this.known = knowledgeOf(room.world);
    return this.known;
  }

  driver(agentId: string): AgentDriver | undefined {
    return this.drivers.get(agentId);
  }

  get running(): number {
    return this.drivers.size;
  }

  /** Bring the agent into the world (no-op when it already runs here). */
  start(m: AgentMapping): Promise<AgentDriver> {
    const existing = this.drivers.get(m.agentId);
    if (existing) return Promise.resolve(existing);
    const pending = this.starting.get(m.agentId);
    if (pending) return pending;
    const p = this.join(m).finally(() => this.starting.delete(m.agentId));
    this.starting.set(m.agentId, p);
    return p;
  }

  private async join(m: AgentMapping): Promise<AgentDriver> {
    const knowledge = await this.knowledge();
    const token = signToken({ sub: m.ownerAccountId, role: "agent", characterId: m.characterId }, this.ctx.config.jwtSecret, DEFAULT_TOKEN_TTL_SECONDS);
    const { client } = await joinInMemory((sid) => new AgentDriver(sid, m.agentId, knowledge), token, { characterId: m.characterId, worldUpdates: true, clientType: "runtime" }, "world", "agent-runtime");
    client.mind.paused = m.goalsPaused;
    const row = await activeGoal(this.ctx.db.prisma, m.agentId);
    if (row && !m.goalsPaused) {
      const goal: Goal = goalFrom({ type: row.type as GoalType, target: row.target }, client.sight, "owner");
      client.mind.goal = { ...goal, id: row.id };
    }
    client.onGoalChange = (goal, previous) => this.saveGoal(m.agentId, goal, previous);
    client.onGone = () => {
      if (this.drivers.get(m.agentId) === client) this.drivers.delete(m.agentId);
    };
    this.drivers.set(m.agentId, client);
    return client;
  }

  /** Record goal changes in order, per agent. */
  saveGoal(agentId: string, goal: Goal | null, previous: Goal | null) {
    const ended = previous && (previous.type === "bank" || previous.type === "pickup") && goal?.source !== "owner" ? "completed" : "cancelled";
    const next = (this.goalWrites.get(agentId) ?? Promise.resolve())
      .then(() => recordGoal(this.ctx.db.prisma, agentId, goal, ended))
      .catch((err) => this.ctx.logger.warn({ err: (err as Error).message, agentId }, "could not record an agent's goal"));
    this.goalWrites.set(agentId, next);
    return next;
  }

  /** Take the agent out of the world (the room saves its character). */
  stop(agentId: string): void {
    const d = this.drivers.get(agentId);
    if (!d) return;
    this.drivers.delete(agentId);
    d.onGone = undefined;
    d.leave(1000);
  }

  async shutdown(): Promise<void> {
    for (const id of [...this.drivers.keys()]) this.stop(id);
    await Promise.allSettled([...this.goalWrites.values()]);
  }
}
