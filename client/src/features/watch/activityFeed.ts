import type { AgentGoalView, InventorySlotView, SkillName } from "../../../../src/protocol/index.js";
import { ApiError, callAs, serverUrl } from "../../api.js";

/** A line of an agent's activity: "goal" (a goal taken, and why), "doing" (what it does about it), "note" (an MCP agent's plan), "event" (what happened to it). */
export interface ActivityLine {
  seq: number;
  /** ISO 8601. */
  at: string;
  kind: "goal" | "doing" | "note" | "event";
  text: string;
}

/** GET /api/agents/:agentId/activity (src/features/spectate/spectateRoutes.ts). */
export interface ActivityBody {
  agent: {
    agentId: string;
    characterId: string;
    name: string;
    runtime: string;
    running: boolean;
    /** In a world now, and which. */
    online: boolean;
    world: number | null;
    goal: AgentGoalView | null;
    goalsPaused: boolean;
  };
  /** As last saved (the world's own figures come with `player:sync` while watching). */
  character: {
    combatLevel: number;
    health: number;
    maxHealth: number;
    position: { x: number; z: number };
    skills: Partial<Record<SkillName, { level: number; xp: number }>>;
    inventory: Array<Pick<InventorySlotView, "slot" | "itemId" | "quantity">>;
    equipment: Record<string, unknown>;
  } | null;
  /** The lines kept (after `since` when given), oldest first. */
  activity: ActivityLine[];
  /** The seq to pass as `since` next time. */
  next: number;
}

const agentPath = (agentId: string) => `/api/agents/${encodeURIComponent(agentId)}`;

/** What the agent is and does, with the watch token as the Bearer: the lines after `since` only, when given. */
export function readActivity(token: string, agentId: string, since?: number): Promise<ActivityBody> {
  return callAs<ActivityBody>(token, "GET", `${agentPath(agentId)}/activity${since !== undefined ? `?since=${since}` : ""}`);
}

/**
 * Follow the agent's activity stream (GET …/activity/stream, server-sent events) from the line after
 * `since`: each line to `onLine` as it comes. Read with fetch, since an EventSource cannot send the
 * Bearer header. Resolves when the server ends the stream, rejects on a refusal (an ApiError) or a
 * lost connection; `signal` stops it.
 */
export async function followActivity(token: string, agentId: string, since: number, onLine: (line: ActivityLine) => void, signal: AbortSignal): Promise<void> {
  const res = await fetch(`${serverUrl()}${agentPath(agentId)}/activity/stream?since=${since}`, {
    headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    cache: "no-store",
    signal,
  });
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
    throw new ApiError(res.status, body.error?.code ?? String(res.status), body.error?.message ?? `The server answered ${res.status}`);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += value;
    // An event ends at a blank line; the rest waits for the next chunk.
    let end: number;
    while ((end = buffered.indexOf("\n\n")) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const line = activityOf(block);
      if (line) onLine(line);
    }
  }
}

/** An `activity` event's line, or null for anything else (a `: keep-alive` comment, `retry:`). */
function activityOf(block: string): ActivityLine | null {
  let event = "message";
  const data: string[] = [];
  for (const field of block.split("\n")) {
    if (field === "" || field.startsWith(":")) continue;
    const colon = field.indexOf(":");
    const name = colon < 0 ? field : field.slice(0, colon);
    const value = colon < 0 ? "" : field.slice(colon + 1).replace(/^ /, "");
    if (name === "event") event = value;
    else if (name === "data") data.push(value);
  }
  if (event !== "activity" || data.length === 0) return null;
  try {
    const line = JSON.parse(data.join("\n")) as ActivityLine;
    return typeof line.seq === "number" && typeof line.text === "string" ? line : null;
  } catch {
    return null;
  }
}
