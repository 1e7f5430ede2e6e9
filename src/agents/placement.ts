import { AsyncLocalStorage } from "node:async_hooks";
import { matchMaker } from "@colyseus/core";
import { liveProcesses } from "../../rooms/cluster/worldHosting.js";
import { AgentLeases } from "./leases.js";
import { AgentCalls } from "./remoteCalls.js";

/**
 * Where each agent is driven, in a cluster of processes (one process: always here): the agent's
 * lease names the process (src/agents/leases.ts); an owner's control that reaches another process
 * is passed to the one driving the agent (src/agents/remoteCalls.ts) and run there as if asked
 * there. A lease whose holder is gone (not listening on its Colyseus process channel) counts as
 * free.
 */
export class AgentPlacement {
  private leasesOf?: AgentLeases;
  private callsOf?: AgentCalls;
  /** Set while a call passed from another process runs: it is answered here, never passed on again. */
  private readonly passedOn = new AsyncLocalStorage<true>();

  /** Colyseus's presence and process id exist once its matchmaker is set up: made at first use. */
  get leases(): AgentLeases {
    return (this.leasesOf ??= new AgentLeases(matchMaker.presence, () => matchMaker.processId));
  }

  private get calls(): AgentCalls {
    return (this.callsOf ??= new AgentCalls(matchMaker.presence));
  }

  /** The live process (not this one) that drives the agent, if another does. */
  async elsewhere(agentId: string, drivenHere: boolean): Promise<string | undefined> {
    if (drivenHere || this.passedOn.getStore()) return undefined;
    const holder = await this.leases.holder(agentId);
    if (!holder || holder === matchMaker.processId) return undefined;
    return (await liveProcesses(matchMaker.presence)).has(holder) ? holder : undefined;
  }

  /** Is the control being run one another process passed here? */
  passedOnHere(): boolean {
    return this.passedOn.getStore() === true;
  }

  /** Run `op` on the process driving the agent. */
  call(processId: string, op: string, agentId: string, args: unknown[]): Promise<unknown> {
    return this.calls.call(processId, op, agentId, args);
  }

  /** Answer the calls other processes pass to this one with `run` (which must not pass them on). */
  listen(run: (op: string, agentId: string, args: unknown[]) => Promise<unknown>): Promise<() => void> {
    return this.calls.listen(matchMaker.processId, (op, agentId, args) => this.passedOn.run(true, () => run(op, agentId, args)));
  }
}
