import type { Presence } from "@colyseus/core";
import type { Goal } from "../agents/goals.js";
import type { Heard } from "./player.js";

/** What the client's `initialize` asked: replayed to the session's new server when it is taken up elsewhere. */
export interface InitializeAsked {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string } & Record<string, unknown>;
}

/**
 * One MCP session as the cluster knows it (Colyseus's presence: Redis in a cluster), so that any
 * process answers its requests: the process holding it passes them there (src/mcp/relay.ts), and
 * once it is free (its world moved to another process, or its process died) the process running
 * its world takes it up with the same `Mcp-Session-Id` (src/mcp/follow.ts).
 */
export interface McpSessionRecord {
  accountId: string;
  characterId: string;
  worldId: number;
  /** The process whose session it is; null while it is free (its world moved: the world's new host takes it up). */
  processId: string | null;
  init: InitializeAsked;
  /** Set while it is free: what it carries to the process that takes it up. */
  carried?: {
    /** The process it left. */
    from: string;
    /** The events its client had not been told yet (oldest first), and how many were let go before them. */
    events: Heard[];
    dropped: number;
    /** The resources its client subscribed to. */
    subscribed: string[];
    /** The goal it played (`set_goal`), if any. */
    goal: Goal | null;
  };
}

const key = (sessionId: string) => `mcp:session:${sessionId}`;

/**
 * The cluster's records of MCP sessions, each kept for `ttlS` (the sessions' idle time and a
 * margin) and written again while the session is used: a session idle that long ends anyway, and
 * a dead process's records go by themselves.
 */
export class McpSessionRecords {
  /** When each session's record was last written here (ms). */
  private readonly written = new Map<string, number>();

  constructor(
    private readonly presence: Presence,
    private readonly ttlS: number,
  ) {}

  async write(sessionId: string, record: McpSessionRecord): Promise<void> {
    this.written.set(sessionId, Date.now());
    await this.presence.setex(key(sessionId), JSON.stringify(record), this.ttlS);
  }

  /** The record, written again if its last write is a third of its life old (a session in use stays known). */
  async refresh(sessionId: string, record: () => McpSessionRecord): Promise<void> {
    if (Date.now() - (this.written.get(sessionId) ?? 0) < (this.ttlS * 1000) / 3) return;
    await this.write(sessionId, record());
  }

  async read(sessionId: string): Promise<McpSessionRecord | undefined> {
    if (!/^[A-Za-z0-9-]{1,64}$/.test(sessionId)) return undefined;
    const text = (await this.presence.get(key(sessionId))) as string | null;
    const record = text ? (JSON.parse(text) as McpSessionRecord) : undefined;
    // A session is taken up as its character: a record that names none is of no use.
    return record?.characterId ? record : undefined;
  }

  async forget(sessionId: string): Promise<void> {
    this.written.delete(sessionId);
    await this.presence.del(key(sessionId));
  }

  /** This process lets the session go (it moved): no refresh from here any more. */
  let(sessionId: string): void {
    this.written.delete(sessionId);
  }
}
