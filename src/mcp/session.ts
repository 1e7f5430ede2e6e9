import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { ServerContext } from "../context.js";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import { CLOSE_CODES } from "../protocol/index.js";
import { FrameBudget } from "../ws/frameBudget.js";
import { WS_LIMITS } from "../ws/protocol.js";
import type { McpPlayer } from "./player.js";
import { ToolError } from "./results.js";

/** Why a session's player left the world when the server ended it, by the close code the room gave. */
const ENDINGS: Record<number, { code: string; message: string }> = {
  [CLOSE_CODES.REPLACED]: { code: "SESSION_ENDED", message: "You logged in somewhere else: this character is played by another session now" },
  [CLOSE_CODES.KICKED]: { code: "SESSION_ENDED", message: "You were removed from the world by the staff" },
  [CLOSE_CODES.BANNED]: { code: "BANNED", message: "The account is banned" },
  [CLOSE_CODES.RESTART]: { code: "SESSION_ENDED", message: "The server is restarting: open a new session in a minute" },
  [CLOSE_CODES.WORLD_MOVED]: {
    code: "SESSION_ENDED",
    message:
      "The world moved to another server process (an upgrade); the character is saved: open a new MCP session (GET /api/v1/worlds names the process that runs the world now)",
  },
};

/** What a session's resource subscriptions (src/mcp/subscriptions.ts) are told of from outside it. */
export interface Subscriptions {
  /** The game data was replaced (a content reload): the resources' list may read differently, the map and catalogue have changed. */
  contentReloaded(): void;
  stop(): void;
}

/**
 * One MCP session: one character of one account in the world, played through the tools. It is a
 * peer of a /ws socket: its player joined through the same matchmaker path, its orders go to the
 * room's handlers as any client's (the room's own per-client message count included), and it may
 * send no more than a /ws socket's frame budget (60 a second). It ends when its client closes it
 * (DELETE), when it has had no request for MCP_IDLE_S, or when the server ends its player (a
 * take-over, a kick, a ban, a restart: the tools then answer with why).
 */
export class McpSession {
  /** The transport's session id (set once `initialize` is answered). */
  id = "";
  transport!: StreamableHTTPServerTransport;
  server!: McpServer;
  /** Its resource subscriptions (src/mcp/subscriptions.ts). */
  subscriptions: Subscriptions | undefined;
  /** Set once the player is out of the world: what the tools answer from then on. */
  ended: { code: string; message: string } | undefined;
  /** Requests being answered now (a session is never idle while one waits). */
  inFlight = 0;
  private readonly budget = new FrameBudget(WS_LIMITS.messagesPerSecond);
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Called once when the session is over (the endpoint forgets it). */
  onClosed: (() => void) | undefined;

  constructor(
    readonly ctx: ServerContext,
    readonly accountId: string,
    readonly player: McpPlayer,
    /** The world it plays in (its id). */
    readonly worldId: number,
    /** What it knows of the world's map: replaced after a content reload (src/mcp/endpoint.ts). */
    public knowledge: WorldKnowledge,
    private readonly idleMs: number,
  ) {
    player.onGone = (code) => {
      // The room let the player go; a leave the session itself asked for is no news.
      this.ended ??= ENDINGS[code ?? 0] ?? { code: "SESSION_ENDED", message: "The player left the world" };
    };
    this.touch();
  }

  get characterId(): string {
    return this.player.sight.self?.id ?? "";
  }

  /** A request arrived: the idle clock starts again once it is answered. */
  begin() {
    this.inFlight++;
    clearTimeout(this.idleTimer);
  }

  end() {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.inFlight === 0) this.touch();
  }

  private touch() {
    if (this.closed) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.inFlight === 0) void this.close("idle");
    }, this.idleMs);
    this.idleTimer.unref();
  }

  /** A tool may act: the player is in the world and the session within its budget; else a ToolError. */
  check() {
    if (this.ended) throw new ToolError(this.ended.code, this.ended.message);
    if (!this.budget.take()) throw new ToolError("RATE_LIMITED", `At most ${WS_LIMITS.messagesPerSecond} tool calls per second: this one was not run`);
  }

  /**
   * End the session: its player leaves the world now (the room saves it), and the transport is
   * closed (unless the transport is what is closing it). `why` is for the log.
   */
  async close(why: "closed" | "idle" | "shutdown" | "refused", closeTransport = true) {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.idleTimer);
    this.ended ??= { code: "SESSION_ENDED", message: `The session ended (${why})` };
    this.player.mind.goal = null;
    this.player.leave(CLOSE_CODES.NORMAL);
    this.ctx.logger.debug({ session: this.id, why }, "MCP session ended");
    this.subscriptions?.stop();
    this.onClosed?.();
    if (closeTransport) await this.transport?.close().catch(() => {});
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
