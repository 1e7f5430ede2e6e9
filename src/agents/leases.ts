import type { Presence } from "@colyseus/core";

/**
 * Each running agent is driven by exactly one process of the cluster (one process: by it): the
 * process holding its lease, a presence hash `agent:<id>:lease` with a counter `n` and the
 * `holder` process id, taken by an atomic increment (the one whose increment gives 1 holds it),
 * refreshed by its holder and expiring `ttlS` after it stops (a dead process). The same shape as
 * the character locks (rooms/characterLocks.ts) and the world claims (rooms/worldHosting.ts).
 */
export const AGENT_LEASE_TTL_S = 15;

export const agentLeaseKey = (agentId: string) => `agent:${agentId}:lease`;

export class AgentLeases {
  constructor(
    private readonly presence: Presence,
    /** This process's id (Colyseus's, known once the matchmaker is ready). */
    private readonly self: () => string,
    private readonly ttlS = AGENT_LEASE_TTL_S,
  ) {}

  /** The process driving the agent now, if any. */
  async holder(agentId: string): Promise<string | undefined> {
    return (await this.presence.hget(agentLeaseKey(agentId), "holder")) ?? undefined;
  }

  /** True when this process holds the agent's lease now (newly or already). */
  async claim(agentId: string): Promise<boolean> {
    const key = agentLeaseKey(agentId);
    // A key without a counter (a refresh that raced a release) is free.
    if (((await this.presence.hget(key, "n")) ?? null) !== null) return (await this.holder(agentId)) === this.self();
    const n = await this.presence.hincrbyex(key, "n", 1, this.ttlS);
    if (n !== 1) return false;
    await this.presence.hset(key, "holder", this.self());
    return true;
  }

  /** Keep the leases of the agents driven here from expiring. */
  async refresh(agentIds: Iterable<string>): Promise<void> {
    await Promise.all([...agentIds].map((id) => this.presence.hincrbyex(agentLeaseKey(id), "refreshed", 1, this.ttlS)));
  }

  /** Let the agent go (only if this process holds it). */
  async release(agentId: string): Promise<void> {
    if ((await this.holder(agentId)) === this.self()) await this.presence.del(agentLeaseKey(agentId));
  }

  /** Free the lease of a holder found gone (only while that holder still has it). */
  async free(agentId: string, holder: string): Promise<void> {
    if ((await this.holder(agentId)) === holder) await this.presence.del(agentLeaseKey(agentId));
  }
}
