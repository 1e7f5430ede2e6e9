import { matchMaker } from "@colyseus/core";
import { Router, type Request, type Response } from "express";
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { clusterAddressOf } from "../../rooms/cluster/worldDirectory.js";
import { joinWorldInMemory } from "../../rooms/worldJoin.js";
import { bearerToken, TokenError, tokenErrorStatus, verifyToken, type TokenClaims } from "../auth/tokens.js";
import type { ServerContext } from "../context.js";
import { standingOf } from "../db/staffRepo.js";
import type { WorldKnowledge } from "../game/world/knowledge.js";
import { bannedMessage } from "../game/staff.js";
import { sendError } from "../http/errors.js";
import { clientAddressOf, createLimiter, type RateLimitRule } from "../http/rateLimit.js";
import { joinRefusal } from "../ws/worldEntry.js";
import { CLOSE_CODES } from "../protocol/index.js";
import { chooseWorld, WorldChoiceError, worldIdOption, type WorldEntry } from "../worldSpecs.js";
import { oauthRoutes, resourceMetadataUrl } from "./oauth.js";
import { giveBack, lost, sessionFollow } from "./follow.js";
import { Refusal } from "./refusal.js";
import { McpPlayer } from "./player.js";
import { contentOf } from "../staff/contentReload.js";
import { prototypeKeyRefusal } from "./prototypeKeys.js";
import { relay, relayedHere, relayMarkOf, type RelayOutcome, type RelayTarget } from "./relay.js";
import { drainOf } from "../staff/drain.js";
import { McpSession } from "./session.js";
import { McpSessionRecords, type InitializeAsked, type McpSessionRecord } from "./sessionRecords.js";
import { connectSession, loadSdk, replayInitialize, serveRequest, type Sdk } from "./sessionServer.js";
import { checkFeatureTools, type FeatureTool } from "./featureTools.js";

export const MCP_PATH = "/mcp";

/** How long a stopping process lets the requests it passes on to other processes finish. */
const RELAYS_FINISH_MS = 10_000;

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
 * `/mcp`: the Model Context Protocol over the official SDK's Streamable HTTP transport, with a
 * Bearer token (a player's, or an agent's from the agent routes) on every request. An `initialize`
 * request opens a session: the account's standing is read (a banned account is refused 403 BANNED),
 * its open sessions counted (MCP_MAX_SESSIONS_PER_ACCOUNT), the character chosen (`?character=` its
 * name or id, else the account's only one, or an agent token's own) and joined to a world of this
 * process (`?world=`, else the least full) through the matchmaker as /ws joins, so the session's
 * player is in the world before `initialize` is answered. Later requests carry `Mcp-Session-Id`
 * and the token of the same account. DELETE ends the session; so does MCP_IDLE_S without a request.
 * In a cluster every process answers every session (src/mcp/follow.ts): a world another process
 * runs opens its session there, a session held elsewhere has its requests passed on there
 * (src/mcp/relay.ts), and a session whose world moved is taken up where the world runs now.
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
  // The cluster's records of the sessions (src/mcp/sessionRecords.ts), on the matchmaker's presence (a new one for each server this process starts).
  let recs: { presence: unknown; records: McpSessionRecords } | undefined;
  const records = () => {
    if (recs?.presence !== matchMaker.presence)
      recs = { presence: matchMaker.presence, records: new McpSessionRecords(matchMaker.presence, ctx.config.mcp.idleS + 60) };
    return recs.records;
  };

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

  async function start(req: Request, res: Response, claims: TokenClaims, mine: Set<McpSession | symbol>, parts: Sdk) {
    const query = req.query as Record<string, unknown>;
    const asked = typeof query.character === "string" ? query.character : undefined;
    const characterId = await characterFor(claims, asked);
    const worlds = await ctx.world.worlds();
    let w: WorldEntry;
    try {
      const wanted = worldIdOption(typeof query.world === "string" ? query.world : undefined);
      const local = worlds.filter((x) => x.processId === matchMaker.processId);
      w = chooseWorld(wanted === undefined && local.length ? local : worlds, wanted);
    } catch (err) {
      throw refusalOf(err);
    }
    // A world another process runs: the session opens there, and this process passes its requests on.
    if (w.processId !== matchMaker.processId) {
      if (w.processId && !relayedHere(req, ctx.config.jwtSecret, matchMaker.processId)) {
        const address = await clusterAddressOf(w.processId);
        const outcome = address ? await passOn(req, res, { processId: w.processId, address }) : "unreachable";
        if (outcome === "answered") return;
        if (outcome === "lost") throw lost(res, w.processId);
      }
      throw new Refusal(503, "WORLD_UNAVAILABLE", `World ${w.id} runs on another server process that does not answer right now; try again shortly`);
    }
    const k = await knowledge();
    const player = await join(req, w, characterId, k);
    const params = (req.body as { params?: Partial<InitializeAsked> }).params ?? {};
    const s = await session(claims.sub, player, w.id, k, mine, parts, {
      protocolVersion: String(params.protocolVersion ?? ""),
      capabilities: params.capabilities ?? {},
      clientInfo: params.clientInfo ?? { name: "", version: "" },
    });
    s.begin();
    try {
      await serveRequest(s, parts, req, res);
    } finally {
      s.end();
    }
    if (!s.id || closing) await s.close("refused");
  }

  /** The join refusals (src/ws/worldEntry.ts's codes) and a world not to be chosen, as HTTP refusals. */
  function refusalOf(err: unknown): unknown {
    if (err instanceof Refusal) return err;
    const refusal = joinRefusal(err);
    if (refusal) return new Refusal(err instanceof WorldChoiceError ? err.status : (STATUS[refusal.code] ?? 400), refusal.code, refusal.message);
    return err;
  }

  /**
   * Calls being passed on to other processes now: a stop lets them finish first (RELAYS_FINISH_MS
   * at most), since a call whose stream is cut is never answered (the SDK's client waits out its
   * timeout). A standing stream (GET) is not waited for: its client opens it again by itself.
   */
  let relaying = 0;
  let relaysDone: (() => void) | undefined;
  async function passOn(req: Request, res: Response, target: RelayTarget): Promise<RelayOutcome> {
    const counts = req.method !== "GET";
    if (counts) relaying++;
    try {
      return await relay(req, res, target, clientAddress(req), ctx.config.jwtSecret);
    } finally {
      if (counts && --relaying === 0) relaysDone?.();
    }
  }
  /** On its way out: a drain has begun, or the shutdown. */
  const stopping = () => closing || drainOf(ctx).current !== undefined;

  /** The request's client: the address a relayed request carries, else the one it came from. */
  const clientAddress = (req: Request) => relayedHere(req, ctx.config.jwtSecret, matchMaker.processId)?.address ?? addressOf(req);

  /** The session's player joins world `w` (of this process) through the matchmaker, as /ws joins. */
  async function join(req: Request, w: WorldEntry, characterId: string | undefined, k: WorldKnowledge): Promise<McpPlayer> {
    const token = bearerToken(req.get("authorization"))!;
    try {
      const options = { characterId, worldUpdates: true, clientType: "mcp" };
      return (await joinWorldInMemory((sid) => new McpPlayer(sid, k), token, w, options, clientAddress(req))).client;
    } catch (err) {
      throw refusalOf(err);
    }
  }

  /** A session for a joined player: its server and transport (`id`: the one it keeps), counted for its account, known to the cluster. */
  async function session(
    accountId: string,
    player: McpPlayer,
    worldId: number,
    k: WorldKnowledge,
    mine: Set<McpSession | symbol>,
    parts: Sdk,
    init: InitializeAsked,
    id?: string,
  ) {
    const s = new McpSession(ctx, accountId, player, worldId, k, ctx.config.mcp.idleS * 1000);
    s.init = init;
    mine.add(s);
    s.onClosed = () => {
      // A session taken up again by this very process (its world came back here) is another object under the same id.
      if (sessions.get(s.id) === s) sessions.delete(s.id);
      const set = byAccount.get(accountId);
      set?.delete(s);
      if (set?.size === 0) byAccount.delete(accountId);
      // A session that moved goes on elsewhere: its record stays for the world's new host.
      if (s.moved) records().let(s.id);
      else if (s.id)
        void records()
          .forget(s.id)
          .catch(() => {});
    };
    s.onMoved = () => records().write(s.id, { ...recordOf(s), processId: null, carried: carriedOf(s) });
    await connectSession(
      s,
      parts,
      featureTools,
      (sid) => {
        sessions.set(sid, s);
        void records()
          .write(sid, recordOf(s))
          .catch((err) => ctx.logger.warn({ err: (err as Error).message }, "MCP session record not written"));
      },
      id,
    );
    return s;
  }

  const recordOf = (s: McpSession): McpSessionRecord => ({
    accountId: s.accountId,
    characterId: s.characterId,
    worldId: s.worldId,
    processId: matchMaker.processId,
    init: s.init!,
  });

  /** What a moving session takes with it: the events its client was not told yet (not the move's own), its subscriptions and its goal. */
  function carriedOf(s: McpSession): McpSessionRecord["carried"] {
    const { events, dropped } = s.player.takeEvents();
    return {
      from: matchMaker.processId,
      events: events.filter((e) => e.type !== "world:moving"),
      dropped,
      subscribed: s.subscriptions?.uris() ?? [],
      goal: s.player.mind.goal,
    };
  }

  /** Take up a free session here: its player joins again, its server hears its `initialize` again, it gets back what it carried. */
  async function takeUp(req: Request, sid: string, record: McpSessionRecord, parts: Sdk): Promise<McpSession> {
    if (closing) throw new Refusal(503, "WORLD_UNAVAILABLE", "The server is shutting down");
    const w = (await ctx.world.worlds()).find((x) => x.id === record.worldId)!;
    const k = await knowledge();
    const player = await join(req, w, record.characterId, k);
    const mine = byAccount.get(record.accountId) ?? new Set();
    byAccount.set(record.accountId, mine);
    const s = await session(record.accountId, player, w.id, k, mine, parts, record.init, sid).catch((err) => {
      player.leave(CLOSE_CODES.NORMAL);
      throw err;
    });
    try {
      await replayInitialize(s, record.init);
    } catch (err) {
      await s.close("refused");
      throw err;
    }
    giveBack(s, record);
    ctx.logger.info({ session: sid, world: w.id, from: record.carried?.from ?? record.processId }, "MCP session taken up from another process");
    return s;
  }

  const follow = sessionFollow({
    records: () => records(),
    held: (sid) => {
      const s = sessions.get(sid);
      return s && !s.moved ? s : undefined;
    },
    takeUp,
    serve,
    passOn,
    stopping,
    secret: ctx.config.jwtSecret,
    worlds: () => ctx.world.worlds(),
  });

  /** One request of a session held here. */
  async function serve(s: McpSession, req: Request, res: Response, parts: Sdk, claims: TokenClaims) {
    if (s.accountId !== claims.sub) throw new Refusal(403, "FORBIDDEN", "That MCP session belongs to another account");
    const refused = req.method === "POST" ? prototypeKeyRefusal(req.body) : undefined;
    if (refused) return void res.json(refused);
    void records()
      .refresh(s.id, () => recordOf(s))
      .catch(() => {});
    // A standing SSE stream (GET) keeps no session from idling out; requests (POST, DELETE) do while they run.
    const counts = req.method !== "GET";
    if (counts) s.begin();
    try {
      await serveRequest(s, parts, req, res);
    } finally {
      if (counts) s.end();
    }
  }

  const handle = async (req: Request, res: Response) => {
    try {
      const claims = claimsOf(req);
      // Passed on by a process of the cluster to another one: the address it was sent to is not that process's.
      const mark = relayMarkOf(req, ctx.config.jwtSecret);
      if (mark && mark.to !== matchMaker.processId) {
        ctx.logger.error({ meantFor: mark.to }, "an MCP request passed on for another process reached this one: a CLUSTER_ADDRESS is wrong");
        throw new Refusal(
          502,
          "CLUSTER_MISADDRESSED",
          `A request passed on for server process ${mark.to} reached process ${matchMaker.processId}: that process's CLUSTER_ADDRESS is not where it is reached`,
        );
      }
      const parts = await (sdk ??= loadSdk());
      if (req.method === "POST" && req.body === undefined)
        throw new Refusal(415, "INVALID_PAYLOAD", "An MCP request is a JSON body (Content-Type: application/json)");
      const sid = req.get("mcp-session-id");
      if (!sid) {
        if (req.method !== "POST" || !parts.isInitializeRequest(req.body))
          return void res
            .status(400)
            .json({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: no Mcp-Session-Id: send initialize first" }, id: null });
        if (stopping())
          throw new Refusal(503, "WORLD_UNAVAILABLE", "This server process is stopping; open the session on another one (or here again in a moment)");
        return await open(req, res, claims, parts);
      }
      const s = sessions.get(sid);
      // Not here, or its world just moved off this process: where it is now.
      if (!s || s.moved) return await follow(req, res, claims, sid, parts);
      await serve(s, req, res, parts, claims);
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
      // What is being passed on finishes first (cut, its client would wait for an answer that never comes).
      if (relaying > 0)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, RELAYS_FINISH_MS);
          relaysDone = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      // In a cluster the worlds go on elsewhere, and so do the sessions (each kept for its world's next host); alone, they end.
      const each = (s: McpSession) => (ctx.config.cluster && !s.ended ? s.followWorld() : s.close("shutdown"));
      await Promise.allSettled([...sessions.values()].map(each));
    },
  };
}
