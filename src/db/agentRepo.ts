import { inForce } from "./staffRepo.js";
import type { AgentMapping, Prisma, PrismaClient } from "@prisma/client";

/** Agents: the mapping to their character and owner, their running state, and their goal history. */

export function agentById(prisma: PrismaClient, agentId: string): Promise<AgentMapping | null> {
  return prisma.agentMapping.findUnique({ where: { agentId } });
}

export function agentsOf(prisma: PrismaClient, ownerAccountId: string): Promise<AgentMapping[]> {
  return prisma.agentMapping.findMany({ where: { ownerAccountId }, orderBy: { createdAt: "asc" } });
}

/** Agents the built-in runtime runs at start-up (and takes over), but for those of banned accounts. */
export async function runnableAgents(prisma: PrismaClient): Promise<AgentMapping[]> {
  const agents = await prisma.agentMapping.findMany({ where: { running: true, runtime: "builtin" }, orderBy: { createdAt: "asc" } });
  if (agents.length === 0) return agents;
  // The agents of a banned account wait for the ban's end (their joins would be refused BANNED).
  const banned = await prisma.sanction.findMany({
    where: { kind: "ban", accountId: { in: [...new Set(agents.map((a) => a.ownerAccountId))] }, ...inForce(new Date()) },
    select: { accountId: true },
  });
  const out = new Set(banned.map((b) => b.accountId));
  return agents.filter((a) => !out.has(a.ownerAccountId));
}

export function setAgentFlags(prisma: PrismaClient, agentId: string, data: { running?: boolean; goalsPaused?: boolean; runtime?: string }) {
  return prisma.agentMapping.update({ where: { agentId }, data });
}

/** The agent's active goal row, if any. */
export function activeGoal(prisma: PrismaClient, agentId: string) {
  return prisma.agentGoal.findFirst({ where: { agentId, status: "active" } });
}

/** What a goal row holds of an agent's goal (src/agents/goals.ts's Goal is one). */
export interface GoalRecord {
  id: string;
  type: string;
  target: string | null;
  source: string;
  amount?: number;
  progress: object;
}

/**
 * Record the agent's current goal: the previous active one ends (completed or cancelled, with its
 * last progress when `previous` is that goal) and the new one (if any) becomes the active row, with
 * its count; progress is kept on the rows.
 */
export async function recordGoal(
  prisma: PrismaClient,
  agentId: string,
  goal: GoalRecord | null,
  ended: "completed" | "cancelled" = "cancelled",
  previous: GoalRecord | null = null,
): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const current = await tx.agentGoal.findFirst({ where: { agentId, status: "active" } });
    if (current && current.id === goal?.id) {
      await tx.agentGoal.update({ where: { id: current.id }, data: { progress: goal.progress as unknown as Prisma.InputJsonValue } });
      return;
    }
    if (current) {
      const last = previous?.id === current.id ? { progress: previous.progress as unknown as Prisma.InputJsonValue } : {};
      await tx.agentGoal.update({ where: { id: current.id }, data: { status: ended, ...last } });
    }
    if (goal) {
      await tx.agentGoal.create({
        data: {
          id: goal.id,
          agentId,
          type: goal.type,
          target: goal.target,
          params: { source: goal.source, ...(goal.amount ? { count: goal.amount } : {}) },
          progress: goal.progress as unknown as Prisma.InputJsonValue,
        },
      });
    }
  });
}
