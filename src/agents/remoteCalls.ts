import { randomUUID } from "node:crypto";
import type { Presence } from "@colyseus/core";

/**
 * The owner's controls of an agent driven by another process of the cluster: a request published
 * on that process's channel (`agents:<processId>`) and its answer on a channel of the request's
 * own, through Colyseus's presence (Redis in a cluster). JSON in and out.
 */
export const agentsChannel = (processId: string) => `agents:${processId}`;

/** How long a call waits for the other process before it counts as gone. */
export const AGENT_CALL_TIMEOUT_MS = 5000;

export class AgentUnreachableError extends Error {}

interface Request {
  op: string;
  agentId: string;
  args: unknown[];
  reply: string;
}
type Answer = { ok: true; result: unknown } | { ok: false; message: string };

export class AgentCalls {
  constructor(
    private readonly presence: Presence,
    private readonly timeoutMs = AGENT_CALL_TIMEOUT_MS,
  ) {}

  /** Answer the calls made to `processId` with `handler`; resolves with the way to stop. */
  async listen(processId: string, handler: (op: string, agentId: string, args: unknown[]) => Promise<unknown>): Promise<() => void> {
    const onRequest = (r: Request) => {
      if (typeof r?.op !== "string" || typeof r.agentId !== "string" || !Array.isArray(r.args) || typeof r.reply !== "string") return;
      handler(r.op, r.agentId, r.args).then(
        (result) => this.presence.publish(r.reply, { ok: true, result: result ?? null } satisfies Answer),
        (err: unknown) => this.presence.publish(r.reply, { ok: false, message: err instanceof Error ? err.message : String(err) } satisfies Answer),
      );
    };
    await this.presence.subscribe(agentsChannel(processId), onRequest);
    return () => this.presence.unsubscribe(agentsChannel(processId), onRequest);
  }

  /** Run `op` on the process driving the agent; rejects with AgentUnreachableError when it does not answer in time. */
  async call(processId: string, op: string, agentId: string, args: unknown[]): Promise<unknown> {
    const reply = `agents:reply:${randomUUID()}`;
    let onAnswer: (a: Answer) => void = () => {};
    const answered = new Promise<Answer>((resolve) => (onAnswer = resolve));
    await this.presence.subscribe(reply, onAnswer);
    let timer: NodeJS.Timeout | undefined;
    try {
      await this.presence.publish(agentsChannel(processId), { op, agentId, args, reply } satisfies Request);
      const answer = await Promise.race([
        answered,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new AgentUnreachableError(`the process driving agent ${agentId} did not answer`)), this.timeoutMs);
        }),
      ]);
      if (!answer.ok) throw new Error(answer.message);
      return answer.result;
    } finally {
      clearTimeout(timer);
      this.presence.unsubscribe(reply, onAnswer);
    }
  }
}
