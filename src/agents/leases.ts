import type { Presence } from "@colyseus/core";
import { PresenceClaims } from "../../rooms/cluster/presenceClaims.js";

/**
 * Each running agent is driven by exactly one process of the cluster (one process: by it): the
 * process holding its lease, a presence claim (rooms/cluster/presenceClaims.ts) under `agent:<id>:lease`
 * held by the process id, refreshed by its holder and expiring `ttlS` after it stops (a dead
 * process).
 */
export const AGENT_LEASE_TTL_S = 15;

export const agentLeaseKey = (agentId: string) => `agent:${agentId}:lease`;

export class AgentLeases {
  private readonly claims: PresenceClaims<string>;

  constructor(
    presence: Presence,
    /** This process's id (Colyseus's, known once the matchmaker is ready). */
    private readonly self: () => string,
    ttlS = AGENT_LEASE_TTL_S,
  ) {
    this.claims = new PresenceClaims(presence, agentLeaseKey, ttlS);
  }

  /** The process driving the agent now, if any. */
  holder(agentId: string): Promise<string | undefined> {
    return this.claims.holderOf(agentId);
  }

  /** True when this process holds the agent's lease now (newly or already). */
  claim(agentId: string): Promise<boolean> {
    return this.claims.claim(agentId, this.self());
  }

  /** Keep the leases of the agents driven here from expiring. */
  refresh(agentIds: Iterable<string>): Promise<void> {
    return this.claims.refresh(agentIds);
  }

  /** Let the agent go (only if this process holds it). */
  release(agentId: string): Promise<void> {
    return this.claims.release(agentId, this.self());
  }

  /** Free the lease of a holder found gone (only while that holder still has it). */
  free(agentId: string, holder: string): Promise<void> {
    return this.claims.release(agentId, holder);
  }
}
