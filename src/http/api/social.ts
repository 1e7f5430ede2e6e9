import type { Character, Trade } from "@prisma/client";
import { Router } from "express";
import { z } from "zod";
import type { TokenClaims } from "../../auth/tokens.js";
import { requireAuth } from "../requireAuth.js";
import type { ServerContext } from "../../context.js";
import { isUniqueViolation } from "../../db/characterRepo.js";
import {
  acceptFriendRequest,
  addIgnore,
  areFriends,
  characterByName,
  closeFriendRequest,
  countIgnored,
  createFriendRequest,
  friendsOf,
  ignoreListOf,
  ignoredIds,
  MAX_IGNORED,
  pendingRequest,
  pendingRequestsOf,
  removeFriendship,
  removeIgnore,
  type PublicCharacter,
} from "../../db/socialRepo.js";
import { tradeHistory } from "../../db/tradeRepo.js";
import { HttpError } from "../errors.js";
import { authOf, CharacterQuery, isAdmin, ownedCharacter, parse, requireCharacter } from "./access.js";
import { PlayerName } from "./player.js";
import { listedCharacter } from "./playerView.js";
import { moderationOf } from "../../staff/moderation.js";
import { staffAct } from "./staffActs.js";

const Id = z.string().min(1).max(128);
/** Another player, by character id or by name (case-insensitive): exactly one of them. */
export const Target = z
  .object({ characterId: Id.optional(), name: PlayerName.optional() })
  .strict()
  .refine((t) => (t.characterId === undefined) !== (t.name === undefined), { message: "give either characterId or name", path: ["characterId"] });
export const RequestBody = z.object({ requestId: Id }).strict();
export const CharacterParams = z.object({ characterId: Id });
export const RequestParams = z.object({ requestId: Id });
export const LookupQuery = z.object({ name: PlayerName }).passthrough();
export const TradesQuery = CharacterQuery.extend({ limit: z.coerce.number().int().min(1).max(100).default(20) });

type Online = Map<string, { name: string; combatLevel: number; world: number }>;

/** Who is online in any world, by character id (names may have changed there). */
async function onlineNow(ctx: ServerContext): Promise<Online> {
  return new Map((await ctx.world.onlineCharacters()).map((p) => [p.id, p]));
}

/** Another player as anyone may see them: nothing private (no position, items or account); the world they are in while online. */
function publicView(c: PublicCharacter, online: Online) {
  const live = online.get(c.id);
  return { ...listedCharacter(c, live), world: live?.world ?? null };
}

/** A trade history row from one trader's side. */
function tradeView(t: Trade, me: string) {
  const mine = t.initiatorId === me ? "initiator" : "recipient";
  const items = (offer: unknown) =>
    (Array.isArray(offer) ? offer : []).map((o: { itemId: string; quantity: number }) => ({ itemId: o.itemId, quantity: o.quantity }));
  const [gave, received] = mine === "initiator" ? [t.initiatorOffer, t.recipientOffer] : [t.recipientOffer, t.initiatorOffer];
  return {
    id: t.id,
    completedAt: t.completedAt.toISOString(),
    role: mine,
    partner: mine === "initiator" ? { id: t.recipientId, name: t.recipientName } : { id: t.initiatorId, name: t.initiatorName },
    gave: items(gave),
    received: items(received),
    valueGiven: Number(mine === "initiator" ? t.initiatorValue : t.recipientValue),
    valueReceived: Number(mine === "initiator" ? t.recipientValue : t.initiatorValue),
  };
}

/** May this caller act as that character (its own; an agent token only its one; an admin any)? */
const actsAs = (auth: TokenClaims, c: Pick<Character, "id" | "accountId">) =>
  isAdmin(auth) || (c.accountId === auth.sub && (!auth.characterId || auth.characterId === c.id));

/**
 * /api/player/friends, /ignore, /lookup, /trades: the social side of the caller's current
 * character (`?characterId=` for one of theirs; else the account's first). Friends and friend
 * requests belong to characters; the ignore list belongs to the account.
 */
export const ReportBody = z
  .object({ name: z.string().trim().min(1).max(12), reason: z.string().trim().min(1).max(500), characterId: z.string().min(1).max(128).optional() })
  .strict();

export function socialRoutes(ctx: ServerContext) {
  const router = Router();
  const auth = requireAuth(ctx.config.jwtSecret, ctx.db.prisma);
  const prisma = ctx.db.prisma;

  async function targetOf(body: unknown): Promise<Character> {
    const t = parse(Target, body);
    const c = t.characterId !== undefined ? await prisma.character.findUnique({ where: { id: t.characterId } }) : await characterByName(prisma, t.name!);
    if (!c) throw new HttpError(404, "PLAYER_NOT_FOUND", t.name !== undefined ? `No player called ${t.name}` : "No such player");
    return c;
  }

  /** A friend request the caller's character may answer (it is addressed to it), pending. */
  async function requestFor(auth: TokenClaims, requestId: string, side: "to" | "from") {
    const r = await prisma.friendRequest.findUnique({ where: { id: requestId }, include: { from: true, to: true } });
    if (!r) throw new HttpError(404, "REQUEST_NOT_FOUND", "No such friend request");
    if (!actsAs(auth, r[side]))
      throw new HttpError(403, "NOT_YOUR_REQUEST", side === "to" ? "That friend request is not addressed to you" : "That friend request is not yours");
    if (r.status !== "pending") throw new HttpError(400, "REQUEST_NOT_PENDING", `That friend request was already ${r.status}`);
    return r;
  }

  // ---- friends ---------------------------------------------------------------------------

  router.get("/api/player/friends", auth, async (req, res) => {
    const me = await requireCharacter(prisma, authOf(req), parse(CharacterQuery, req.query).characterId);
    const online = await onlineNow(ctx);
    const friends = await friendsOf(prisma, me.id);
    res.json({ success: true, characterId: me.id, friends: friends.map((f) => ({ ...publicView(f.friend, online), since: f.since.toISOString() })) });
  });

  router.get("/api/player/friends/requests", auth, async (req, res) => {
    const who = authOf(req);
    const me = await requireCharacter(prisma, who, parse(CharacterQuery, req.query).characterId);
    const online = await onlineNow(ctx);
    const { incoming, outgoing } = await pendingRequestsOf(prisma, me.id);
    // Requests from characters the account ignores are not shown (their senders see them pending).
    const ignored = new Set(await ignoredIds(ctx.db.sql, who.sub));
    res.json({
      success: true,
      characterId: me.id,
      incoming: incoming
        .filter((r) => !ignored.has(r.fromCharacterId))
        .map((r) => ({ id: r.id, from: publicView(r.from, online), createdAt: r.createdAt.toISOString() })),
      outgoing: outgoing.map((r) => ({ id: r.id, to: publicView(r.to, online), createdAt: r.createdAt.toISOString() })),
    });
  });

  // Ask another player to be friends; if they already asked, this accepts their request.
  router.post("/api/player/friends/request", auth, async (req, res) => {
    const me = await requireCharacter(prisma, authOf(req), parse(CharacterQuery, req.query).characterId);
    const them = await targetOf(req.body);
    if (them.id === me.id) throw new HttpError(400, "CANNOT_FRIEND_SELF", "You can't be friends with yourself");
    if (await areFriends(prisma, me.id, them.id)) throw new HttpError(400, "ALREADY_FRIENDS", `You are already friends with ${them.name}`);
    const online = await onlineNow(ctx);
    const theirs = await pendingRequest(prisma, them.id, me.id);
    if (theirs && (await acceptFriendRequest(prisma, theirs))) {
      return res.json({ success: true, accepted: true, requestId: theirs.id, friend: publicView(them, online) });
    }
    if (await pendingRequest(prisma, me.id, them.id)) throw new HttpError(400, "ALREADY_REQUESTED", `You already asked ${them.name}`);
    try {
      const r = await createFriendRequest(prisma, me.id, them.id);
      res
        .status(201)
        .json({ success: true, accepted: false, request: { id: r.id, to: publicView(r.to, online), status: r.status, createdAt: r.createdAt.toISOString() } });
    } catch (err) {
      if (isUniqueViolation(err)) throw new HttpError(400, "ALREADY_REQUESTED", `You already asked ${them.name}`);
      throw err;
    }
  });

  router.post("/api/player/friends/accept", auth, async (req, res) => {
    const { requestId } = parse(RequestBody, req.body);
    const r = await requestFor(authOf(req), requestId, "to");
    if (!(await acceptFriendRequest(prisma, r))) throw new HttpError(400, "REQUEST_NOT_PENDING", "That friend request was already answered");
    res.json({ success: true, friend: publicView(r.from, await onlineNow(ctx)) });
  });

  router.post("/api/player/friends/decline", auth, async (req, res) => {
    const { requestId } = parse(RequestBody, req.body);
    const r = await requestFor(authOf(req), requestId, "to");
    if (!(await closeFriendRequest(prisma, r.id, "declined"))) throw new HttpError(400, "REQUEST_NOT_PENDING", "That friend request was already answered");
    res.json({ success: true, requestId: r.id, status: "declined" });
  });

  // The sender withdraws a request still pending.
  router.delete("/api/player/friends/requests/:requestId", auth, async (req, res) => {
    const { requestId } = parse(RequestParams, req.params);
    const r = await requestFor(authOf(req), requestId, "from");
    if (!(await closeFriendRequest(prisma, r.id, "cancelled"))) throw new HttpError(400, "REQUEST_NOT_PENDING", "That friend request was already answered");
    res.json({ success: true, requestId: r.id, status: "cancelled" });
  });

  router.delete("/api/player/friends/:characterId", auth, async (req, res) => {
    const { characterId } = parse(CharacterParams, req.params);
    const me = await requireCharacter(prisma, authOf(req), parse(CharacterQuery, req.query).characterId);
    if (!(await removeFriendship(prisma, me.id, characterId))) throw new HttpError(404, "NOT_FRIENDS", "That player is not on your friends list");
    res.json({ success: true, removed: characterId });
  });

  // ---- ignore list (per account) ---------------------------------------------------------

  /** Players of this account already in the world hear the change at once. */
  const refreshWorld = (accountId: string) => ctx.world.reloadIgnores(accountId);

  /**
   * The ignore list is the account's, but a `?characterId=` still names who is asking: it must be
   * one of the caller's characters (403 someone else's, 404 unknown), as on every social route.
   */
  async function ignoreCaller(req: Parameters<typeof authOf>[0]): Promise<TokenClaims> {
    const who = authOf(req);
    const { characterId } = parse(CharacterQuery, req.query);
    if (characterId !== undefined) await ownedCharacter(prisma, who, characterId);
    return who;
  }

  router.get("/api/player/ignore", auth, async (req, res) => {
    const entries = await ignoreListOf(prisma, (await ignoreCaller(req)).sub);
    const online = await onlineNow(ctx);
    res.json({ success: true, ignored: entries.map((e) => ({ ...publicView(e.ignored, online), since: e.createdAt.toISOString() })) });
  });

  router.post("/api/player/ignore", auth, async (req, res) => {
    const who = await ignoreCaller(req);
    const them = await targetOf(req.body);
    if (them.accountId === who.sub) throw new HttpError(400, "CANNOT_IGNORE_SELF", "You can't ignore your own characters");
    if ((await countIgnored(prisma, who.sub)) >= MAX_IGNORED)
      throw new HttpError(400, "IGNORE_LIST_FULL", `An ignore list holds at most ${MAX_IGNORED} players`);
    if (!(await addIgnore(prisma, who.sub, them.id))) throw new HttpError(400, "ALREADY_IGNORED", `${them.name} is already on your ignore list`);
    await refreshWorld(who.sub);
    res.status(201).json({ success: true, ignored: publicView(them, await onlineNow(ctx)) });
  });

  router.delete("/api/player/ignore/:characterId", auth, async (req, res) => {
    const who = await ignoreCaller(req);
    const { characterId } = parse(CharacterParams, req.params);
    if (!(await removeIgnore(prisma, who.sub, characterId))) throw new HttpError(404, "NOT_IGNORED", "That player is not on your ignore list");
    await refreshWorld(who.sub);
    res.json({ success: true, removed: characterId });
  });

  // ---- reports to the staff ------------------------------------------------------------

  router.post("/api/player/report", auth, async (req, res) => {
    const body = parse(ReportBody, req.body);
    const who = authOf(req);
    const reporter = await requireCharacter(prisma, who, body.characterId);
    const target = await characterByName(prisma, body.name);
    // The chat between them the reporter's world saw (none when the reporter plays nowhere now).
    const chat = target ? await ctx.world.chatBetween(reporter.id, target.id) : [];
    const { report, message } = await staffAct(() =>
      moderationOf(ctx).report({ accountId: who.sub, characterId: reporter.id, name: reporter.name }, body.name, body.reason, chat),
    );
    res.status(201).json({ success: true, reportId: report.id, chatLines: chat.length, message });
  });

  // ---- lookup and trade history ----------------------------------------------------------

  router.get("/api/player/lookup", auth, async (req, res) => {
    const { name } = parse(LookupQuery, req.query);
    const c = await characterByName(prisma, name);
    if (!c) throw new HttpError(404, "PLAYER_NOT_FOUND", `No player called ${name}`);
    const { id, name: shown, combatLevel, online, world } = publicView(c, await onlineNow(ctx));
    res.json({ success: true, player: { id, name: shown, combatLevel, online, world } });
  });

  router.get("/api/player/trades", auth, async (req, res) => {
    const q = parse(TradesQuery, req.query);
    const me = await requireCharacter(prisma, authOf(req), q.characterId);
    const trades = await tradeHistory(prisma, me.id, q.limit);
    res.json({ success: true, characterId: me.id, trades: trades.map((t) => tradeView(t, me.id)) });
  });
  return router;
}
