/**
 * What an agent has been doing, as the people watching it read it (GET /api/agents/:agentId/activity
 * and its stream, the web client's watch panel): short lines, newest last. The built-in runtime
 * writes its goals and what it does about them, an MCP agent the plans it posts with the `note`
 * tool, and the world room the notable events the agent was told of. The implementation is the
 * spectate feature's (src/features/spectate/activityLog.ts), handed in as `ctx.activity`.
 */

/** "goal": a goal taken, and why; "doing": what the agent does about it now; "note": a plan an MCP agent posted; "event": something that happened to it. */
export const ACTIVITY_KINDS = ["goal", "doing", "note", "event"] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export interface ActivityEntry {
  /** Increases by one per line of this character, across every process. */
  seq: number;
  /** When it was written (ISO 8601). */
  at: string;
  kind: ActivityKind;
  text: string;
}

export interface AgentActivity {
  /** Hear the lines other processes write (at start; the first record or read does it too). */
  listen(): Promise<void>;
  /** Write a line of the character's activity (the longest lines are cut short). */
  record(characterId: string, kind: ActivityKind, text: string): void;
  /** The lines kept of the character, oldest first, those after `since` (a seq) only when given. */
  recent(characterId: string, since?: number): ActivityEntry[];
  /** Call `fn` with each new line of the character until the returned function is called. */
  follow(characterId: string, fn: (entry: ActivityEntry) => void): Promise<() => void>;
}
