import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { matchMaker } from "@colyseus/core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Router, type Request, type Response } from "express";
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { joinWorldInMemory } from "../../rooms/worldJoin.js";
import { bearerToken, TokenError, tokenErrorStatus, verifyToken, type TokenClaims } from "../auth/tokens.js";
import type { ServerContext } from "../context.js";
import { standingOf } from "../db/staffRepo.js";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import { bannedMessage } from "../game/staff.js";
import { sendError } from "../http/errors.js";
import { clientAddressOf, createLimiter, type RateLimitRule } from "../http/rateLimit.js";
import { joinRefusal } from "../ws/worldEntry.js";
import { chooseWorld, WorldChoiceError, worldIdOption } from "../worldSpecs.js";
import { oauthRoutes, resourceMetadataUrl } from "./oauth.js";
import { McpPlayer } from "./player.js";
import { registerResources, RULES_TEXT } from "./resources.js";
import { serveSubscriptions } from "./subscriptions.js";
import { contentOf } from "../staff/contentReload.js";
import { prototypeKeyRefusal } from "./prototypeKeys.js";
import { argumentsRefused } from "./results.js";
import { McpSession } from "./session.js";
import { registerTools } from "./tools.js";
import { checkFeatureTools, type FeatureTool } from "./featureTools.js";

export const MCP_PATH = "/mcp";

/** New MCP sessions one account may open a minute (on top of MCP_MAX_SESSIONS_PER_ACCOUNT open at once). */
export const MCP_LIMITS: { opens: RateLimitRule } = { opens: { points: 20, durationS: 60 } };

/** HTTP statuses of the join refusals (src/ws/worldEntry.ts's codes). */
const STATUS: Record<string, number> = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  BANNED: 403,
  NOT_FOUND: 404,
  WORLD_NOT_FOUND: 404,
  INVALID_PAYLOAD: 400,
  WORLD_FULL: 409,
  WORLD_UNAVAILABLE: 503,
  RESTARTING: 503,
};

/**
 * What the endpoint uses of the MCP SDK, loaded with the first /mcp request: the SDK (its server,
 * its transport, its message schemas and their validator) is ~0.3 s of a start that no other
 * request needs.
 */
const loadSdk = () =>
  Promise.all([
    import("@modelcontextprotocol/sdk/server/mcp.js"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]).then(([{ McpServer }, { StreamableHTTPServerTransport }, { isInitializeRequest }]) => ({ McpServer, StreamableHTTPServerTransport, isInitializeRequest }));
type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/** The request as the transport takes it (Express's own `req.auth` is the token's claims, not the SDK's AuthInfo). */
const asIncoming = (req: Request) => req as unknown as IncomingMessage;

/** A refusal before any session exists: the REST error body with its status. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * `/mcp`: the Model Context Protocol over the official SDK's Streamable HTTP transport, with a
 * Bearer token (a player's, or an agent's from the agent routes) on every request. An `initialize`
 * request opens a session: the account's standing is read (a banned account is refused 403 BANNED),
 * its open sessions counted (MCP_MAX_SESSIONS_PER_ACCOUNT), the character chosen (`?character=` its
 * name or id, else the account's only one, or an agent token's own) and joined to a world of this
 * process (`?world=`, else the least full) through the matchmaker as /ws joins, so the session's
 * player is in the world before `initialize` is answered. Later requests carry `Mcp-Session-Id`
 * and the token of the same account. DELETE ends the session; so does MCP_IDLE_S without a request.
 */
export function mcpEndpoint(
  ctx: ServerContext,
  options: {
    opens?: RateLimitRule;
    guestLimiter?: RateLimiterAbstract;
    /** The feature folders' tools (src/features/index.ts). */ tools?: readonly FeatureTool[];
  } = {},
) {
  const featureTools = options.tools ?? [];
  checkFeatureTools(featureTools);
  const router = Router();
  // Sign-in by URL (oauth.ts): its metadata, registration, authorization and token routes, the SDK's auth handlers loaded with the first.
  let oauth: Promise<Router> | undefined;
  router.use((req, res, next) => {
    if (!req.path.startsWith("/.well-known/oauth-") && !req.path.startsWith("/oauth/")) return next();
    (oauth ??= oauthRoutes(ctx, MCP_PATH, options.guestLimiter)).then((r) => r(req, res, next), next);
  });
  const sessions = new Map<string, McpSession>();
  /** Each account's sessions (being opened included). */
  const byAccount = new Map<string, Set<McpSession | symbol>>();
  const opens = createLimiter("mcp-open", options.opens ?? MCP_LIMITS.opens);
  const addressOf = clientAddressOf(ctx.config);
  let known: WorldKnowledge | undefined;
  let closing = false;
  let sdk: Promise<Sdk> | undefined;

  const knowledge = async () => {
    // Made again after a content reload replaced the game data (sessions opened before keep theirs).
    if (known?.data !== ctx.gameData) known = await ctx.world.mapKnowledge();
    if (!known) throw new Refusal(503, "WORLD_UNAVAILABLE", "The world is not running right now; try again shortly");
    return known;
  };

  function claimsOf(req: Request): TokenClaims {
    try {
      return verifyToken(bearerToken(req.get("authorization")), ctx.config.jwtSecret);
    } catch (err) {
      if (err instanceof TokenError) throw new Refusal(tokenErrorStatus(err), err.code === "TOKEN_MISSING" ? "UNAUTHORIZED" : err.code, err.message);
      throw err;
    }
  }

  /** The character the session plays: the agent token's, the one named, or the account's only one (none: the join makes one). */
  async function characterFor(claims: TokenClaims, asked: string | undefined): Promise<string | undefined> {
    if (claims.characterId) return claims.characterId;
    const own = await ctx.db.prisma.character.findMany({ where: { accountId: claims.sub }, select: { id: true, name: true }, orderBy: { createdAt: "asc" } });
    if (asked !== undefined) {
      const c = own.find((x) => x.id === asked || x.name.toLowerCase() === asked.toLowerCase());
      if (!c) throw new Refusal(404, "CHARACTER_NOT_FOUND", `The account has no character ${JSON.stringify(asked)}`);
      return c.id;
    }
    if (own.length > 1)
      throw new Refusal(
        400,
        "CHARACTER_REQUIRED",
        `The account has ${own.length} characters: name one with ?character= (${own.map((c) => c.name).join(", ")})`,
      );
    return own[0]?.id;
  }

  /** Open a session for an `initialize` request: refusals throw before anything is made. */
  async function open(req: Request, res: Response, claims: TokenClaims, parts: Sdk) {
    const standing = await standingOf(ctx.db.prisma, claims.sub);
    if (!standing.exists) throw new Refusal(401, "ACCOUNT_NOT_FOUND", "The token's account does not exist");
    if (standing.ban) throw new Refusal(403, "BANNED", bannedMessage(standing.ban.reason, standing.ban.endsAt));
    try {
      await opens.consume(`account:${claims.sub}`);
    } catch (r) {
      if (!(r instanceof RateLimiterRes)) throw r;
      const retry = Math.max(1, Math.ceil(r.msBeforeNext / 1000));
      res.set("Retry-After", String(retry));
      throw new Refusal(429, "RATE_LIMITED", `At most ${opens.points} new MCP sessions a minute per account; try again in ${retry} s`);
    }
    const mine = byAccount.get(claims.sub) ?? new Set();
    const live = [...mine].filter((x) => typeof x === "symbol" || !x.ended).length;
    const cap = ctx.config.mcp.maxSessionsPerAccount;
    if (live >= cap) throw new Refusal(429, "TOO_MANY_SESSIONS", `At most ${cap} open MCP sessions per account: end one first (DELETE /mcp)`);
    const slot = Symbol("opening");
    mine.add(slot);
    byAccount.set(claims.sub, mine);
    try {
      await start(req, res, claims, mine, parts);
    } finally {
      mine.delete(slot);
      if (mine.size === 0) byAccount.delete(claims.sub);
    }
  }

  async function start(req: Request, res: Response, claims: TokenClaims, mine: Set<McpSession | symbol>, { McpServer, StreamableHTTPServerTransport }: Sdk) {
    const query = req.query as Record<string, unknown>;
    const asked = typeof query.character === "string" ? query.character : undefined;
    const characterId = await characterFor(claims, asked);
    const k = await knowledge();
    const token = bearerToken(req.get("authorization"))!;
    let joined: { client: McpPlayer };
    let worldId: number;
    try {
      const worlds = await ctx.world.worlds();
      const wanted = worldIdOption(typeof query.world === "string" ? query.world : undefined);
      const local = worlds.filter((w) => w.processId === matchMaker.processId);
      const w = chooseWorld(wanted === undefined && local.length ? local : worlds, wanted);
      if (w.processId !== matchMaker.processId)
        throw new Refusal(
          503,
          "WORLD_UNAVAILABLE",
          `World ${w.id} runs on another server process: connect to http://${w.publicAddress}${MCP_PATH}?world=${w.id}`,
        );
      worldId = w.id;
      joined = await joinWorldInMemory((sid) => new McpPlayer(sid, k), token, w, { characterId, worldUpdates: true, clientType: "mcp" }, addressOf(req));
    } catch (err) {
      if (err instanceof Refusal) throw err;
      const refusal = joinRefusal(err);
      if (refusal) throw new Refusal(err instanceof WorldChoiceError ? err.status : (STATUS[refusal.code] ?? 400), refusal.code, refusal.message);
      throw err;
    }
    const s = new McpSession(ctx, claims.sub, joined.client, worldId, k, ctx.config.mcp.idleS * 1000);
    mine.add(s);
    s.onClosed = () => {
      sessions.delete(s.id);
      const set = byAccount.get(claims.sub);
      set?.delete(s);
      if (set?.size === 0) byAccount.delete(claims.sub);
    };
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        s.id = id;
        sessions.set(id, s);
      },
      onsessionclosed: () => void s.close("closed", false),
    });
    transport.onclose = () => void s.close("closed", false);
    const server = new McpServer(
      { name: "arena-world", version: ctx.config.version },
      { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: RULES_TEXT },
    );
    // Arguments the SDK refuses (and unknown tools) are answered with the project's INVALID_PAYLOAD.
    (server as unknown as { createToolError: (text: string) => CallToolResult }).createToolError = argumentsRefused;
    s.transport = transport;
    s.server = server;
    registerTools(server, s, featureTools);
    registerResources(server, s);
    s.subscriptions = serveSubscriptions(server, s);
    await server.connect(transport);
    s.begin();
    try {
      await transport.handleRequest(asIncoming(req), res, req.body);
    } finally {
      s.end();
    }
    if (!transport.sessionId || closing) await s.close("refused");
  }

  const handle = async (req: Request, res: Response) => {
    try {
      const claims = claimsOf(req);
      const parts = await (sdk ??= loadSdk());
      if (req.method === "POST" && req.body === undefined)
        throw new Refusal(415, "INVALID_PAYLOAD", "An MCP request is a JSON body (Content-Type: application/json)");
      const sid = req.get("mcp-session-id");
      if (!sid) {
        if (req.method !== "POST" || !parts.isInitializeRequest(req.body))
          return void res
            .status(400)
            .json({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: no Mcp-Session-Id: send initialize first" }, id: null });
        if (closing) throw new Refusal(503, "WORLD_UNAVAILABLE", "The server is shutting down");
        return await open(req, res, claims, parts);
      }
      const s = sessions.get(sid);
      if (!s)
        return void res
          .status(404)
          .json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found: it ended (or never was); initialize a new one" }, id: null });
      if (s.accountId !== claims.sub) throw new Refusal(403, "FORBIDDEN", "That MCP session belongs to another account");
      const refused = req.method === "POST" ? prototypeKeyRefusal(req.body) : undefined;
      if (refused) return void res.json(refused);
      // A standing SSE stream (GET) keeps no session from idling out; requests (POST, DELETE) do while they run.
      const counts = req.method !== "GET";
      if (counts) s.begin();
      try {
        await s.transport.handleRequest(asIncoming(req), res, req.body);
      } finally {
        if (counts) s.end();
      }
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      // RFC 9728: where the client finds how to sign in; an invalid token is named so (RFC 6750).
      if (err.status === 401) {
        const invalid = err.code !== "UNAUTHORIZED" ? ', error="invalid_token"' : "";
        res.set("WWW-Authenticate", `Bearer realm="mcp"${invalid}, resource_metadata="${resourceMetadataUrl(req, MCP_PATH)}"`);
      }
      if (!res.headersSent) sendError(res, err.status, err.code, err.message);
    }
  };
  // A content reload: every session reads the new map from now on, and its client is told.
  const stopFollowing = contentOf(ctx).onReloaded(() => {
    void knowledge()
      .then((k) => {
        for (const s of sessions.values()) {
          s.knowledge = k;
          s.subscriptions?.contentReloaded();
        }
      })
      .catch((err) => ctx.logger.warn({ err: (err as Error).message }, "MCP sessions could not take the reloaded map"));
  });
  // The transport's three methods: messages (POST), the server's stream (GET), the end of a session (DELETE).
  router.post(MCP_PATH, handle);
  router.get(MCP_PATH, handle);
  router.delete(MCP_PATH, handle);

  return {
    router,
    sessions,
    /** Every session ends (its player leaves the world and is saved); no new one opens. */
    close: async () => {
      closing = true;
      stopFollowing();
      await Promise.allSettled([...sessions.values()].map((s) => s.close("shutdown")));
    },
  };
}
