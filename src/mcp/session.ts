import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { ServerContext } from "../context.js";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import { CLOSE_CODES } from "../protocol/index.js";
import { FrameBudget } from "../ws/frameBudget.js";
import { WS_LIMITS } from "../ws/protocol.js";
import type { McpPlayer } from "./player.js";
import { ToolError } from "./results.js";
import type { InitializeAsked } from "./sessionRecords.js";

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

/** What a call under way when the session's world moves answers (the session goes on on the world's new host). */
const MOVING = {
  code: "WORLD_MOVED",
  message:
    "The world moved to another server process (an upgrade, or this one stopping) while this call ran: the session follows it, with the character as it was; call again (the same session, in a moment)",
};
/** How long a moving session waits for its calls under way to answer before it lets go here. */
const HAND_OVER_WAIT_MS = 3000;

/** What a session's resource subscriptions (src/mcp/subscriptions.ts) are told of from outside it. */
export interface Subscriptions {
  /** The game data was replaced (a content reload): the resources' list may read differently, the map and catalogue have changed. */
  contentReloaded(): void;
  /** The resources subscribed to (what a session taken up elsewhere subscribes to again). */
  uris(): string[];
  /** Subscribe to these again (a session taken up from another process). */
  restore(uris: string[]): void;
  stop(): void;
}

/**
 * One MCP session: one character of one account in the world, played through the tools. It is a
 * peer of a /ws socket: its player joined through the same matchmaker path, its orders go to the
 * room's handlers as any client's (the room's own per-client message count included), and it may
 * send no more than a /ws socket's frame budget (60 a second). It ends when its client closes it
 * (DELETE), when it has had no request for MCP_IDLE_S, or when the server ends its player (a
 * take-over, a kick, a ban, a restart: the tools then answer with why). When its world moves to
 * another process (a drain) it does not end: `onMoved` keeps it for the world's new host
 * (src/mcp/follow.ts), the calls under way answer WORLD_MOVED, and it lets go here.
 */
export class McpSession {
  /** The transport's session id (set once `initialize` is answered). */
  id = "";
  transport!: WebStandardStreamableHTTPServerTransport;
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
  /** Called once when the session is over here (the endpoint forgets it). */
  onClosed: (() => void) | undefined;
  /** What the client's `initialize` asked (kept in the session's record, src/mcp/sessionRecords.ts). */
  init: InitializeAsked | undefined;
  /** Set once its world moved to another process: the session goes on there (it is not over). */
  moved = false;
  /** Called once its world moved: keep the session for the process that takes it up. */
  onMoved: (() => Promise<void>) | undefined;
  private handOver: Promise<void> | undefined;
  private idleWaiters: Array<() => void> = [];

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
      if (code === CLOSE_CODES.WORLD_MOVED && this.onMoved && !this.ended) return void this.followWorld();
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
    if (this.inFlight > 0) return;
    this.touch();
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /**
   * The world moves to another process (a drain, or this process stopping in a cluster): the
   * session is kept for the world's next host first (`onMoved`: the calls under way answer
   * WORLD_MOVED within a tick, their events go with it), then, once those calls have answered
   * (HAND_OVER_WAIT_MS at most), it lets go here (its player leaves, saved, if it has not yet).
   */
  followWorld(): Promise<void> {
    return (this.handOver ??= (async () => {
      this.moved = true;
      this.ended = MOVING;
      try {
        await this.onMoved!();
      } catch (err) {
        this.ctx.logger.warn({ session: this.id, err: (err as Error).message }, "MCP session could not be kept for its world's new host");
        this.moved = false;
        this.ended = ENDINGS[CLOSE_CODES.WORLD_MOVED];
      }
      if (this.inFlight > 0)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, HAND_OVER_WAIT_MS);
          this.idleWaiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      await this.close("moved");
    })());
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
  async close(why: "closed" | "idle" | "shutdown" | "refused" | "moved", closeTransport = true) {
    if (this.closed) return;
    // A moving session is kept for its world's new host before it lets go (a shutdown right after a drain waits for that).
    if (this.handOver && why !== "moved") return this.handOver;
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
