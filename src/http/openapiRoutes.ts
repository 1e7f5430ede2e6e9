import { z } from "zod";
import {
  Area,
  Asked,
  CharacterSummary,
  FriendRequests,
  Listed,
  Player,
  Position,
  PublicPlayer,
  Quest,
  RequestClosed,
  SkillUnlocks,
  Skills,
  Template,
  TokenAnswer,
  Trade,
  WorldSummary,
  Worlds,
  WorldMap,
  Catalogue,
  bool,
  int,
  ok,
  str,
  when,
  answer,
  err,
  tagged,
  worldDown,
  type RouteDoc,
} from "./openapi.js";
import { IdpLoginBody } from "./authRoutes.js";
import { CharacterQuery } from "./api/access.js";
import { WorldQuery } from "./api/world.js";
import { AGENT_ROUTES } from "./openapiAgentRoutes.js";
import { ADMIN_ROUTES } from "./openapiAdminRoutes.js";
import { CreateBody, Params as CharacterIdParams } from "./api/characters.js";
import { Params as StatsParams } from "./api/characterStats.js";
import { PlayerBody } from "./api/player.js";
import { CharacterParams, LookupQuery, ReportBody, RequestBody, RequestParams, Target, TradesQuery } from "./api/social.js";
import { Body as TemplateBody, Params as TemplateParams } from "./api/templates.js";
import { Body as VoiceBody } from "./api/voice.js";

/**
 * Every REST route under /api the server mounts, as the OpenAPI document (openapi.ts) describes
 * it: params, query and body are the very zod schemas the handlers validate with (exported from
 * the route files); the answers are the ones docs/API.md documents (the ones every route of a kind
 * shares, such as 401 or 429, are added by openapi.ts). test/http/openapi.test.ts holds this table
 * to the routes the running server has mounted, both ways, and to what the handlers answer.
 */

// ---- answers several routes share --------------------------------------------------------

const forbidden = err("someone else's character", "FORBIDDEN");
/** A route acting as the caller's current character (`?characterId=` or the account's first). */
const current = { 403: forbidden, 404: err("no such character, or the account has none", "CHARACTER_NOT_FOUND", "NO_CHARACTER") };
/** A route on a character named by id (ownedCharacter). */
const owned = { 403: forbidden, 404: err("no such character", "CHARACTER_NOT_FOUND") };
const creating = {
  400: err("a taken name, or the account's character limit", "NAME_TAKEN", "CHARACTER_LIMIT"),
  403: err("an agent token cannot make characters", "FORBIDDEN"),
  404: err("no such template", "TEMPLATE_NOT_FOUND"),
};
const requestErrors = {
  400: err("the request was already answered", "REQUEST_NOT_PENDING"),
  403: err("the request is not yours to answer", "NOT_YOUR_REQUEST"),
  404: err("no such request", "REQUEST_NOT_FOUND"),
};
const targetNote = "Exactly one of characterId and name.";

export const ROUTES: RouteDoc[] = [
  ...tagged("auth", [
    {
      route: "POST /api/auth/guest",
      summary: "A temporary guest account and its token (anonymous mode)",
      open: true,
      responses: { 201: answer("the guest's token", TokenAnswer), 403: err("an identity provider is configured", "GUESTS_DISABLED") },
    },
    {
      route: "POST /api/auth/login",
      summary: "Log in with the identity provider's access token",
      open: true,
      body: IdpLoginBody,
      responses: {
        200: answer("a 7-day server token (the first login creates the account)", TokenAnswer),
        401: err("the message says which check failed", "INVALID_IDP_TOKEN"),
        403: err("anonymous mode", "IDP_DISABLED"),
        503: err("no usable key, or the provider's key host cannot be reached", "IDP_NOT_CONFIGURED", "IDP_UNAVAILABLE"),
      },
    },
    {
      route: "POST /api/auth/refresh",
      summary: "A new token for a valid one: the same account and claims, a full lifetime (24 h for a guest, 7 days otherwise)",
      responses: { 200: answer("the new token; the old one stays valid until it expires", TokenAnswer) },
    },
    {
      route: "GET /api/auth/me",
      summary: "The token's account",
      responses: {
        200: answer(
          "who the token belongs to; staffRole from the database (role: admin only for an admin of the database, agent for an agent token)",
          ok({ accountId: str, role: z.enum(["player", "admin", "agent"]), staffRole: z.enum(["player", "moderator", "admin"]), guest: bool, expiresAt: when }),
        ),
      },
    },
  ]),
  ...tagged("data", [
    {
      route: "GET /api/data/skill-unlocks",
      summary: "What each skill level unlocks",
      open: true,
      db: false,
      limited: false,
      responses: { 200: answer("by skill, sorted by level", SkillUnlocks) },
    },
  ]),
  ...tagged("player", [
    {
      route: "GET /api/v1/player",
      summary: "The current character",
      query: CharacterQuery,
      responses: { 200: answer("the live copy while online, else the saved one", ok({ player: Player })), ...current },
    },
    {
      route: "POST /api/v1/player",
      summary: "Create the account's first character, or rename it / change its looks",
      query: CharacterQuery,
      body: PlayerBody,
      responses: {
        200: answer("changed", ok({ created: z.literal(false), player: Player })),
        201: answer("created with the starter kit at the spawn", ok({ created: z.literal(true), player: Player })),
        400: err("a taken name", "NAME_TAKEN"),
        ...owned,
      },
    },
  ]),
  ...tagged("world", [
    {
      route: "GET /api/v1/worlds",
      summary: "The worlds: players, capacity, status (from any process of a cluster)",
      open: true,
      db: false,
      responses: { 200: answer("every world of WORLDS", Worlds) },
    },
    {
      route: "GET /api/v1/world",
      summary: "A snapshot of one live world (the first unless ?world= names one)",
      open: true,
      db: false,
      query: WorldQuery,
      responses: {
        200: answer("who is in it, each area", WorldSummary),
        400: err("a malformed world id", "INVALID_WORLD"),
        404: err("no such world", "WORLD_NOT_FOUND"),
        ...worldDown,
      },
    },
    {
      route: "GET /api/v1/world/areas",
      summary: "The world's areas",
      open: true,
      db: false,
      responses: { 200: answer("from the manifests", ok({ areas: z.array(Area) })) },
    },
    {
      route: "GET /api/v1/world/map",
      summary: "The ground plan: bounds, blocked tiles, buildings",
      open: true,
      db: false,
      responses: { 200: answer("as the world builds it", WorldMap) },
    },
    {
      route: "GET /api/v1/catalogue",
      summary: "Items, spells, prayers and recipes",
      open: true,
      db: false,
      responses: { 200: answer("from the loaded game data", Catalogue) },
    },
  ]),
  ...tagged("characters", [
    {
      route: "GET /api/characters/{characterId}/skills",
      summary: "A character's skills (owner or admin)",
      params: StatsParams,
      responses: { 200: answer("level and xp of every skill", ok({ skills: Skills })), ...owned },
    },
    {
      route: "GET /api/characters/{characterId}/position",
      summary: "Where a character stands (offline: where it will appear)",
      params: StatsParams,
      responses: { 200: answer("its tile", ok({ position: Position, online: bool })), ...owned },
    },
    {
      route: "GET /api/characters/{characterId}/quests",
      summary: "A character's quest journal: every quest of the world",
      params: StatsParams,
      responses: { 200: answer("live while online, else as saved", ok({ online: bool, questPoints: int, quests: z.array(Quest) })), ...owned },
    },
    {
      route: "GET /api/character",
      summary: "The account's characters, oldest first",
      responses: { 200: answer("an agent token sees only its own", ok({ characters: z.array(CharacterSummary), maxCharacters: int })) },
    },
    {
      route: "POST /api/character",
      summary: "Create a character (optionally from a template)",
      body: CreateBody,
      responses: { 201: answer("the new character, with the starter kit", ok({ character: CharacterSummary })), ...creating },
    },
    {
      route: "DELETE /api/character/{characterId}",
      summary: "Delete one of the account's characters",
      params: CharacterIdParams,
      responses: {
        200: answer("deleted, with its items, friends and agent mapping", ok({ deleted: str })),
        400: err("it is in the world, or its agent runs", "CHARACTER_ONLINE", "AGENT_RUNNING"),
        403: err("someone else's character, or an agent token", "FORBIDDEN"),
        404: err("no such character", "CHARACTER_NOT_FOUND"),
      },
    },
  ]),
  ...tagged("templates", [
    {
      route: "GET /api/template",
      summary: "The world's character templates",
      open: true,
      db: false,
      responses: { 200: answer("every template", ok({ templates: z.array(Template) })) },
    },
    {
      route: "GET /api/template/{templateId}",
      summary: "One character template",
      open: true,
      db: false,
      params: TemplateParams,
      responses: { 200: answer("the template", ok({ template: Template })), 404: err("no such template", "TEMPLATE_NOT_FOUND") },
    },
    {
      route: "POST /api/template/{templateId}/character",
      summary: "Create a character from a template",
      params: TemplateParams,
      body: TemplateBody,
      responses: { 201: answer("the new character", ok({ character: CharacterSummary })), ...creating },
    },
  ]),
  ...tagged("social", [
    {
      route: "GET /api/player/friends",
      summary: "The current character's friends",
      query: CharacterQuery,
      responses: { 200: answer("friends", ok({ characterId: str, friends: z.array(Listed) })), ...current },
    },
    {
      route: "GET /api/player/friends/requests",
      summary: "Pending friend requests, both ways",
      query: CharacterQuery,
      responses: { 200: answer("incoming (not from ignored players) and outgoing", FriendRequests), ...current },
    },
    {
      route: "POST /api/player/friends/request",
      summary: "Ask a player to be friends (accepts theirs if they asked first)",
      query: CharacterQuery,
      body: Target,
      bodyNote: targetNote,
      responses: {
        200: answer("they had asked: now friends", ok({ accepted: z.literal(true), requestId: str, friend: PublicPlayer })),
        201: answer("asked", Asked),
        400: err("yourself, already friends, already asked", "CANNOT_FRIEND_SELF", "ALREADY_FRIENDS", "ALREADY_REQUESTED"),
        403: forbidden,
        404: err("no such player, or the caller's character", "PLAYER_NOT_FOUND", "CHARACTER_NOT_FOUND", "NO_CHARACTER"),
      },
    },
    {
      route: "POST /api/player/friends/accept",
      summary: "Accept a friend request addressed to you",
      body: RequestBody,
      responses: { 200: answer("now friends", ok({ friend: PublicPlayer })), ...requestErrors },
    },
    {
      route: "POST /api/player/friends/decline",
      summary: "Decline a friend request addressed to you",
      body: RequestBody,
      responses: { 200: answer("declined", RequestClosed("declined")), ...requestErrors },
    },
    {
      route: "DELETE /api/player/friends/requests/{requestId}",
      summary: "Withdraw a pending request you sent",
      params: RequestParams,
      responses: { 200: answer("withdrawn", RequestClosed("cancelled")), ...requestErrors },
    },
    {
      route: "DELETE /api/player/friends/{characterId}",
      summary: "End a friendship, for both",
      params: CharacterParams,
      query: CharacterQuery,
      responses: {
        200: answer("ended", ok({ removed: str })),
        403: forbidden,
        404: err("not friends, or the caller's character", "NOT_FRIENDS", "CHARACTER_NOT_FOUND", "NO_CHARACTER"),
      },
    },
    {
      route: "GET /api/player/ignore",
      summary: "The account's ignore list",
      query: CharacterQuery,
      responses: { 200: answer("ignored players", ok({ ignored: z.array(Listed) })), ...owned },
    },
    {
      route: "POST /api/player/report",
      summary: "Report a player to the staff (the chat between you the server saw goes with it)",
      body: ReportBody,
      bodyNote: "characterId: which of your characters reports (default: your first).",
      responses: {
        201: answer("saved for the staff; chatLines: how many lines of chat were attached", ok({ reportId: str, chatLines: int, message: str })),
        400: err("yourself, or no reason", "SELF_REPORT", "REASON_REQUIRED", "REASON_TOO_LONG"),
        403: forbidden,
        404: err("no such player, or you have no character", "UNKNOWN_PLAYER", "NO_CHARACTER", "CHARACTER_NOT_FOUND"),
        429: err("more than 5 reports in 10 minutes", "RATE_LIMITED"),
      },
    },
    {
      route: "POST /api/player/ignore",
      summary: "Ignore a player (their chat and trade requests)",
      query: CharacterQuery,
      body: Target,
      bodyNote: targetNote,
      responses: {
        201: answer("ignored, at once", ok({ ignored: PublicPlayer })),
        400: err("one of your own characters, already ignored, the list is full (200)", "CANNOT_IGNORE_SELF", "ALREADY_IGNORED", "IGNORE_LIST_FULL"),
        403: forbidden,
        404: err("no such player, or no such caller's character", "PLAYER_NOT_FOUND", "CHARACTER_NOT_FOUND"),
      },
    },
    {
      route: "DELETE /api/player/ignore/{characterId}",
      summary: "Stop ignoring a player",
      params: CharacterParams,
      query: CharacterQuery,
      responses: {
        200: answer("removed, at once", ok({ removed: str })),
        403: forbidden,
        404: err("not on the list, or no such caller's character", "NOT_IGNORED", "CHARACTER_NOT_FOUND"),
      },
    },
    {
      route: "GET /api/player/lookup",
      summary: "Find a player by name (any case)",
      query: LookupQuery,
      responses: { 200: answer("the player", ok({ player: PublicPlayer.omit({ isAgent: true }) })), 404: err("no such player", "PLAYER_NOT_FOUND") },
    },
    {
      route: "GET /api/player/trades",
      summary: "The current character's trade history, newest first",
      query: TradesQuery,
      responses: { 200: answer("completed trades", ok({ characterId: str, trades: z.array(Trade) })), ...current },
    },
  ]),
  ...tagged("voice", [
    {
      route: "POST /api/voice/token",
      summary: "A LiveKit token for the character's world voice room",
      body: VoiceBody,
      responses: {
        200: answer("join, speak and listen as the character", ok({ token: str, url: str, room: str, identity: str, expiresIn: int })),
        ...owned,
        503: err("voice is not set up (VOICE_API_KEY, VOICE_API_SECRET, VOICE_URL)", "VOICE_NOT_CONFIGURED"),
      },
    },
  ]),
  ...AGENT_ROUTES,
  ...ADMIN_ROUTES,
  ...tagged("docs", [
    { route: "GET /api/openapi.json", summary: "This OpenAPI 3.1 document", open: true, db: false, limited: false, responses: { 200: answer("the document") } },
    {
      route: "GET /api/docs",
      summary: "This document as a readable page",
      open: true,
      db: false,
      limited: false,
      responses: { 200: { description: "an HTML page", contentType: "text/html" } },
    },
  ]),
];
