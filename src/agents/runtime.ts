import { randomUUID } from "node:crypto";
import type { AgentMapping } from "@prisma/client";
import { DEFAULT_TOKEN_TTL_SECONDS, signToken } from "../auth/tokens.js";
import type { ServerContext } from "../context.js";
import { activeGoal, agentById, recordGoal, runnableAgents, setAgentFlags } from "../db/agentRepo.js";
import { matchMaker } from "@colyseus/core";
import { joinWorldInMemory } from "../../rooms/worldJoin.js";
import { chooseWorld } from "../worldSpecs.js";
import { goalFrom, withResume } from "./brain.js";
import { AgentDriver } from "./driver.js";
import { describeGoal } from "./doing.js";
import { goalView, parseCommand, type Command, type Goal, type GoalType, type GoalView } from "./goals.js";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import type { ServerMessage, ServerMessageType } from "../protocol/index.js";
import { replyTo } from "./replies.js";
import { AgentPlacement } from "./placement.js";
import { liveProcesses } from "../../rooms/cluster/worldHosting.js";

/** How often the agents' leases are refreshed, and agents whose process died are taken over. */
export const AGENT_ROUND_MS = 5000;

/** Goals run as errands (their own progress counts toward the goal they interrupted). */
const ERRAND_TYPES: ReadonlySet<string> = new Set(["bank", "buy", "sell"]);

/** How an agent is run, as its owner's list shows it. */
export interface AgentStatus {
  /** "builtin" (driven here), "external" (another runtime holds its character), else the recorded runtime. */
  runtime: string;
  running: boolean;
  online: boolean;
  goalsPaused: boolean;
}

/** What became of words sent to an agent: a command queued, or an in-character reply (said by the built-in driver). */
export interface Told {
  /** False when the agent is in no runtime to hear it (not driven here, not in the world). */
  delivered: boolean;
  command: Command | null;
  /** The reply the built-in driver says in world chat (null when an external runtime was told). */
  reply: string | null;
}

/**
 * The built-in agent runtime: every running agent is a player in the world room, joined through
 * the matchmaker with its own agent token like any client, bound by the same rules and limits.
 * An external runtime may drive an agent's character instead (over /ws with the agent's token):
 * its login takes the character over and the built-in driver steps aside. The owner's controls
 * (goal, pause, resume, words) change the driver's state here, or are recorded and passed on to an
 * external runtime (`goalOverride`, `agentMessage`).
 */
export class AgentRuntime {
  /** Which process drives each agent (its lease), and the controls passed between processes. */
  readonly placement = new AgentPlacement();
  private readonly drivers = new Map<string, AgentDriver>();
  private timer?: NodeJS.Timeout;
  private stopListening?: () => void;
  /** Lease holders found gone in the last round, by agent id. */
  private absent = new Map<string, string>();
  private readonly starting = new Map<string, Promise<AgentDriver>>();
  private known: WorldKnowledge | undefined;
  private goalWrites = new Map<string, Promise<void>>();
  /** Errands the driver set on its own, by goal id: not recorded apart from the goal they serve. */
  private readonly inner = new Set<string>();

  constructor(private readonly ctx: ServerContext) {}

  /** Start every agent marked running that no other process drives (at server start). */
  async startAll(): Promise<void> {
    for (const m of await runnableAgents(this.ctx.db.prisma)) {
      if ((await this.placement.leases.holder(m.agentId)) !== undefined || (await this.playedElsewhere(m))) continue;
      await this.start(m).catch((err) => this.ctx.logger.warn({ err: (err as Error).message, agentId: m.agentId }, "agent could not start"));
    }
  }

  /**
   * Answer the owner's controls other processes pass here, and every AGENT_ROUND_MS keep the
   * leases of the agents driven here; with `takeOver`, also start here the running agents whose
   * process is gone (its lease expired, or its holder gone two rounds running).
   */
  async begin(options: { takeOver: boolean }): Promise<void> {
    this.stopListening = await this.placement.listen((op, agentId, args) => this.answer(op, agentId, args));
    // Rounds run while this server's matchmaker is the one set up (not after it stopped).
    const presence = matchMaker.presence;
    this.timer = setInterval(() => {
      if (matchMaker.presence !== presence) return clearInterval(this.timer);
      void this.round(options.takeOver).catch((err) => this.ctx.logger.warn({ err }, "agent round failed"));
    }, AGENT_ROUND_MS);
    this.timer.unref();
  }

  /**
   * One round (run every AGENT_ROUND_MS): keep the leases; with `takeOver`, start the running
   * agents nobody drives. An agent whose character an external runtime plays (its own login took
   * the character over) is left to it until that session ends.
   */
  async round(takeOver: boolean) {
    const leases = this.placement.leases;
    await leases.refresh([...this.drivers.keys(), ...this.starting.keys()]);
    if (!takeOver) return;
    const live = await liveProcesses(matchMaker.presence);
    const absent = new Map<string, string>();
    for (const m of await runnableAgents(this.ctx.db.prisma)) {
      if (this.drivers.has(m.agentId) || this.starting.has(m.agentId)) continue;
      const holder = await leases.holder(m.agentId);
      if (holder && (holder === matchMaker.processId || live.has(holder))) continue;
      if (holder) {
        if (this.absent.get(m.agentId) !== holder) {
          absent.set(m.agentId, holder);
          continue;
        }
        await leases.free(m.agentId, holder);
      }
      if (await this.playedElsewhere(m)) continue;
      this.ctx.logger.info({ agentId: m.agentId }, "taking over an agent whose process is gone");
      await this.start(m).catch((err) => this.ctx.logger.warn({ err: (err as Error).message, agentId: m.agentId }, "agent could not be taken over"));
    }
    this.absent = absent;
  }

  /** An owner's control passed from another process: run here (never passed on again). */
  private async answer(op: string, agentId: string, args: unknown[]): Promise<unknown> {
    const m = await agentById(this.ctx.db.prisma, agentId);
    if (!m) throw new Error(`no agent ${agentId}`);
    switch (op) {
      case "setRunning":
        return this.setRunning(m, args[0] === true);
      case "status":
        return this.status(m);
      case "goalStatus":
        return this.goalStatus(m);
      case "setGoal":
        return this.setGoal(m, args[0] as Goal);
      case "pause":
        return this.pause(m);
      case "resume":
        return this.resume(m);
      case "tell":
        return this.tell(m, String(args[0]));
    }
    throw new Error(`unknown agent control ${op}`);
  }

  /** The character is in a session no built-in driver holds: an external runtime (over /ws or /mcp) plays it. */
  private async playedElsewhere(m: AgentMapping): Promise<boolean> {
    return !this.drivers.has(m.agentId) && (await this.ctx.world.hasSession(m.characterId));
  }

  /** The process driving the agent when it is another live one. */
  private elsewhere(agentId: string) {
    return this.placement.elsewhere(agentId, this.drivers.has(agentId) || this.starting.has(agentId));
  }

  /** The map as the world data gives it: made the first time the world is running, and again after a content reload. */
  async knowledge(): Promise<WorldKnowledge> {
    if (this.known && this.known.data === this.ctx.gameData) return this.known;
    const known = await this.ctx.world.mapKnowledge();
    if (!known) throw new Error("the world is not running");
    this.known = known;
    return known;
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
    // A built-in agent plays in a world of this process (the least full of them), driven by the process holding its lease.
    const world = chooseWorld((await this.ctx.world.worlds()).filter((w) => w.processId === matchMaker.processId));
    if (!(await this.placement.leases.claim(m.agentId))) throw new Error("the agent is driven by another process");
    let client: AgentDriver;
    try {
      ({ client } = await joinWorldInMemory(
        (sid) => {
          // It may act on its first world:update, before the join resolves: paused or not from the
          // start, and its activity written from its first step; its goal changes are recorded once
          // its recorded goal is in place.
          const d = new AgentDriver(sid, m.agentId, knowledge);
          d.mind.paused = m.goalsPaused;
          d.onDoing = (doing) => this.ctx.activity.record(m.characterId, "doing", doing);
          d.onGoalChange = (goal) => this.goalLine(m, goal, d.mind.paused);
          return d;
        },
        token,
        world,
        { characterId: m.characterId, worldUpdates: true, clientType: "runtime" },
        "agent-runtime",
      ));
    } catch (err) {
      await this.placement.leases.release(m.agentId);
      throw err;
    }
    const row = await activeGoal(this.ctx.db.prisma, m.agentId);
    if (row && !m.goalsPaused) {
      const count = (row.params as { count?: unknown } | null)?.count;
      const goal: Goal = goalFrom({ type: row.type as GoalType, target: row.target }, client.sight, "owner", typeof count === "number" ? count : null);
      client.mind.goal = { ...goal, id: row.id };
      this.goalLine(m, client.mind.goal, client.mind.paused);
    }
    client.onGoalChange = (goal, previous) => {
      this.goalLine(m, goal, client.mind.paused);
      return this.goalChanged(m.agentId, goal, previous);
    };
    client.onGone = () => {
      if (this.drivers.get(m.agentId) !== client) return;
      this.drivers.delete(m.agentId);
      void this.placement.leases.release(m.agentId).catch(() => {});
    };
    this.drivers.set(m.agentId, client);
    return client;
  }

  /**
   * The driver changed its goal. An errand it set on its own over a goal (buying a tool, banking a
   * full pack) is part of that goal: the goal stays the one recorded, with its progress. Coming
   * back from an errand the owner set, the goal it interrupted (recorded then as cancelled) is
   * recorded anew under a new id.
   */
  private goalChanged(agentId: string, goal: Goal | null, previous: Goal | null) {
    if (goal && previous && goal.resume === previous && goal.source === previous.source && !ERRAND_TYPES.has(previous.type)) {
      this.inner.add(goal.id);
      return this.saveGoal(agentId, previous, null);
    }
    if (previous && this.inner.delete(previous.id)) {
      const under = previous.resume ?? null;
      return this.saveGoal(agentId, goal, goal === under ? null : under);
    }
    if (goal && previous?.resume === goal) goal.id = `g_${randomUUID()}`;
    return this.saveGoal(agentId, goal, previous);
  }

  /** The goal in the agent's activity (src/agents/doing.ts). */
  private goalLine(m: AgentMapping, goal: Goal | null, paused: boolean) {
    this.ctx.activity.record(m.characterId, "goal", describeGoal(goal, paused));
  }

  /** Record goal changes in order, per agent. */
  saveGoal(agentId: string, goal: Goal | null, previous: Goal | null) {
    // An errand that reached its end (banked, bought, sold, picked up) or a quest completed: completed; anything else set aside: cancelled.
    const ended =
      previous && (previous.completed || ((previous.type === "bank" || previous.type === "pickup") && goal?.source !== "owner")) ? "completed" : "cancelled";
    const next = (this.goalWrites.get(agentId) ?? Promise.resolve())
      .then(() => recordGoal(this.ctx.db.prisma, agentId, goal, ended, previous))
      .catch((err) => this.ctx.logger.warn({ err: (err as Error).message, agentId }, "could not record an agent's goal"));
    this.goalWrites.set(agentId, next);
    return next;
  }

  /** Set running (recorded, and started here) or not (taken out of the world, and recorded). */
  async setRunning(m: AgentMapping, running: boolean): Promise<void> {
    const at = await this.elsewhere(m.agentId);
    if (at) return void (await this.placement.call(at, "setRunning", m.agentId, [running]));
    if (running) {
      await setAgentFlags(this.ctx.db.prisma, m.agentId, { running: true, runtime: "builtin" });
      // A process that runs no world hands the agent to the one running the least full world.
      const worlds = await this.ctx.world.worlds();
      if (!worlds.some((w) => w.processId === matchMaker.processId) && !this.placement.passedOnHere()) {
        const host = chooseWorld(worlds).processId;
        if (host) return void (await this.placement.call(host, "setRunning", m.agentId, [true]));
      }
      await this.start({ ...m, running: true });
    } else {
      this.stop(m.agentId);
      await setAgentFlags(this.ctx.db.prisma, m.agentId, { running: false });
    }
  }

  /** How the agent is run now. */
  async status(m: AgentMapping): Promise<AgentStatus> {
    const at = await this.elsewhere(m.agentId);
    if (at) return (await this.placement.call(at, "status", m.agentId, [])) as AgentStatus;
    const d = this.drivers.get(m.agentId);
    return {
      runtime: d ? "builtin" : (await this.ctx.world.hasSession(m.characterId)) ? "external" : m.runtime,
      running: d !== undefined,
      online: await this.ctx.world.isOnline(m.characterId),
      goalsPaused: d?.mind.paused ?? m.goalsPaused,
    };
  }

  /** The agent's goal and whether its autonomous goals are paused: its driver's, else the recorded ones. */
  async goalStatus(m: AgentMapping): Promise<{ goal: GoalView | null; goalsPaused: boolean }> {
    const at = await this.elsewhere(m.agentId);
    if (at) return (await this.placement.call(at, "goalStatus", m.agentId, [])) as { goal: GoalView | null; goalsPaused: boolean };
    const d = this.drivers.get(m.agentId);
    if (d) return { goal: goalView(d.mind.goal), goalsPaused: d.mind.paused };
    const prisma = this.ctx.db.prisma;
    const fresh = await agentById(prisma, m.agentId);
    const row = await activeGoal(prisma, m.agentId);
    const goal: GoalView | null = row
      ? {
          id: row.id,
          type: row.type as GoalType,
          target: row.target,
          source: "owner",
          progress: row.progress as unknown as Goal["progress"],
          count: null,
          resume: null,
        }
      : null;
    return { goal, goalsPaused: fresh?.goalsPaused ?? m.goalsPaused };
  }

  /** The owner's goal: the driver takes it now; else it is recorded and an external runtime is told. */
  async setGoal(m: AgentMapping, goal: Goal): Promise<void> {
    const at = await this.elsewhere(m.agentId);
    if (at) return void (await this.placement.call(at, "setGoal", m.agentId, [goal]));
    const d = this.drivers.get(m.agentId);
    if (d) {
      const previous = d.mind.goal;
      // An errand (bank, buy, sell) goes back to what the agent was doing.
      d.mind.goal = withResume(goal, previous);
      this.goalLine(m, d.mind.goal, d.mind.paused);
      await this.saveGoal(m.agentId, d.mind.goal, previous);
    } else {
      await recordGoal(this.ctx.db.prisma, m.agentId, goal);
      await this.toExternal(m, "goalOverride", { goal: goalView(goal) });
    }
  }

  /** Stop: the current path is cleared now, the agent idles, and picks no goal by itself until resumed. */
  async pause(m: AgentMapping): Promise<void> {
    const at = await this.elsewhere(m.agentId);
    if (at) return void (await this.placement.call(at, "pause", m.agentId, []));
    await setAgentFlags(this.ctx.db.prisma, m.agentId, { goalsPaused: true });
    const d = this.drivers.get(m.agentId);
    if (d) {
      const previous = d.mind.goal;
      d.mind.paused = true;
      d.mind.goal = null;
      d.sendToRoom("player:action", { action: "stop" });
      this.goalLine(m, null, true);
      await this.saveGoal(m.agentId, null, previous);
    } else {
      await recordGoal(this.ctx.db.prisma, m.agentId, null);
      await this.toExternal(m, "goalOverride", { goal: null, goalsPaused: true });
    }
  }

  /** Autonomous goals again. */
  async resume(m: AgentMapping): Promise<void> {
    const at = await this.elsewhere(m.agentId);
    if (at) return void (await this.placement.call(at, "resume", m.agentId, []));
    await setAgentFlags(this.ctx.db.prisma, m.agentId, { goalsPaused: false });
    const d = this.drivers.get(m.agentId);
    if (d) d.mind.paused = false;
    else await this.toExternal(m, "goalOverride", { goalsPaused: false });
  }

  /** Words from the owner: a command is queued, anything else gets an in-character reply (or goes to an external runtime). */
  async tell(m: AgentMapping, content: string): Promise<Told> {
    const at = await this.elsewhere(m.agentId);
    if (at) return (await this.placement.call(at, "tell", m.agentId, [content])) as Told;
    const command = parseCommand(content);
    const d = this.drivers.get(m.agentId);
    if (command) {
      if (d) d.mind.queue.push(command);
      else if (!(await this.toExternal(m, "agentMessage", { content, command }))) return { delivered: false, command, reply: null };
      return { delivered: true, command, reply: null };
    }
    const reply = replyTo(content, m.name, d?.mind.goal ?? null);
    if (d) {
      d.mind.say.push(reply);
      return { delivered: true, command: null, reply };
    }
    return { delivered: await this.toExternal(m, "agentMessage", { content, command: null }), command: null, reply: null };
  }

  /** An external runtime driving the character (online, but not from here) hears about it on its socket. */
  private async toExternal<K extends ServerMessageType>(m: AgentMapping, type: K, data: ServerMessage<K>): Promise<boolean> {
    if (this.drivers.has(m.agentId)) return false;
    return this.ctx.world.sendTo(m.characterId, type, data);
  }

  /** Take the agent out of the world (the room saves its character). */
  stop(agentId: string): void {
    const d = this.drivers.get(agentId);
    if (!d) return;
    this.drivers.delete(agentId);
    d.onGone = undefined;
    d.leave(1000);
    void this.placement.leases.release(agentId).catch(() => {});
  }

  async shutdown(): Promise<void> {
    clearInterval(this.timer);
    this.stopListening?.();
    for (const id of [...this.drivers.keys()]) this.stop(id);
    await Promise.allSettled([...this.goalWrites.values()]);
  }
}
