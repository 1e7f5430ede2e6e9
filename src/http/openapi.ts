import { z } from "zod";
import { VERSION } from "../version.js";
import { CatalogueBody, WorldMapBody } from "../protocol/restAnswers.js";

/**
 * The OpenAPI 3.1 document of the REST API (GET /api/openapi.json, and the page at /api/docs),
 * built from a route table (openapiRoutes.ts): request parameters and bodies are zod 4's JSON
 * Schema (draft 2020-12, the dialect of OpenAPI 3.1) of the very schemas the handlers validate
 * with; the answers every route shares (bad input, tokens, rate limits, faults, the database) are
 * added here, once. The answer bodies the table describes are at the end of this file.
 */

export type JsonSchema = { [key: string]: unknown };

export type Tag = "auth" | "player" | "world" | "characters" | "templates" | "social" | "agents" | "voice" | "data" | "admin" | "docs";

/** One answer: a success body (zod, described as JSON Schema), or an error with the codes it may carry. */
export interface Answer {
  description: string;
  body?: z.ZodType;
  /** Error codes (`{success: false, error: {code}}`) of a 4xx/5xx answer. */
  codes?: string[];
  /** Content type other than application/json. */
  contentType?: string;
}

/** One route of the table (openapiRoutes.ts). */
/** A success answer, and an error answer with the codes it may carry. */
export const answer = (description: string, body?: z.ZodType): Answer => ({ description, body });
export const err = (description: string, ...codes: string[]): Answer => ({ description, codes });
/** Routes of one tag. */
export const tagged = (tag: Tag, routes: Array<Omit<RouteDoc, "tag">>): RouteDoc[] => routes.map((r) => ({ ...r, tag }));
export const worldDown = { 503: err("the world is not running", "WORLD_UNAVAILABLE") };

export interface RouteDoc {
  /** The method and the OpenAPI path: `GET /api/characters/{characterId}/skills`. */
  route: `${"GET" | "POST" | "DELETE"} /api${string}`;
  summary: string;
  tag: Tag;
  /** No token needed; every other route needs `Authorization: Bearer <token>`. */
  open?: boolean;
  /** Reads the database (so 503 DATABASE_UNAVAILABLE while it is down). Default true. */
  db?: boolean;
  /** Counted by the /api rate limiter. Default true. */
  limited?: boolean;
  /** The zod schemas the handler validates its path parameters, query and body with. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** What the body schema cannot say. */
  bodyNote?: string;
  responses: Record<number, Answer>;
}

export interface Parameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  schema: JsonSchema;
}

export interface ResponseObject {
  description: string;
  content?: Record<string, { schema?: JsonSchema }>;
}

export interface Operation {
  operationId: string;
  summary: string;
  tags: Tag[];
  security: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { required: boolean; description?: string; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, ResponseObject>;
}

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  jsonSchemaDialect: string;
  servers: Array<{ url: string }>;
  tags: Array<{ name: Tag; description: string }>;
  components: { securitySchemes: Record<string, JsonSchema>; schemas: Record<string, JsonSchema> };
  paths: Record<string, Record<string, Operation>>;
}

const TAGS: Record<Tag, string> = {
  auth: "Guest accounts, identity-provider login, the token's account",
  data: "Public game data",
  player: "The caller's current character",
  world: "The live world and its areas",
  characters: "The account's characters",
  templates: "Character templates (starter builds)",
  social: "Friends, the ignore list, lookup, trade history",
  voice: "Voice chat tokens",
  agents: "Agents in the built-in runtime (owner or admin)",
  admin: "The staff's API: moderators and admins (roles from the database), every act in the audit log",
  docs: "This document",
};

const ErrorBody = z.object({ success: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) });

/** An integer's bounds that say nothing (zod writes JavaScript's safe-integer range). */
const dropSafeIntegerBounds = ({ jsonSchema: s }: { jsonSchema: JsonSchema }) => {
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
};

/**
 * zod → JSON Schema (draft 2020-12). A definition zod hoists into `$defs` (a recursive schema)
 * moves to components.schemas, so every `$ref` resolves within the document.
 */
function jsonSchemaOf(schema: z.ZodType, io: "input" | "output", defs: Record<string, JsonSchema>): JsonSchema {
  const options = { target: "draft-2020-12", io, override: dropSafeIntegerBounds } as const;
  const { $schema: _dialect, $defs, ...rest } = z.toJSONSchema(schema, options) as JsonSchema;
  if (!$defs) return rest;
  const prefix = `Def${Object.keys(defs).length}_`;
  const moved = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', `"#/components/schemas/${prefix}`)) as JsonSchema;
  for (const [name, def] of Object.entries($defs as Record<string, unknown>)) defs[prefix + name] = moved(def);
  return moved(rest);
}

/** One parameter per property of the params or query object schema. */
function parametersOf(schema: z.ZodObject | undefined, where: "path" | "query", defs: Record<string, JsonSchema>): Parameter[] {
  if (!schema) return [];
  const js = jsonSchemaOf(schema, "input", defs);
  const required = new Set((js.required as string[] | undefined) ?? []);
  return Object.entries((js.properties ?? {}) as Record<string, JsonSchema>).map(([name, s]) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    schema: s,
  }));
}

/** The route's own answers and those every route of its kind shares, merged by status. */
function answersOf(r: RouteDoc): Map<number, Answer> {
  const answers = new Map<number, Answer>(Object.entries(r.responses).map(([status, a]) => [Number(status), { ...a, codes: a.codes && [...a.codes] }]));
  const add = (status: number, description: string, ...codes: string[]) => {
    const had = answers.get(status);
    if (!had) return answers.set(status, { description, codes });
    had.description = `${had.description}; ${description}`;
    had.codes = [...new Set([...(had.codes ?? []), ...codes])];
  };
  add(400, "a path or query that does not percent-decode or holds a NUL or an unpaired surrogate", "BAD_REQUEST");
  if (r.params || r.query || r.body) add(400, "invalid input: the message names the field", "INVALID_PAYLOAD");
  if (r.body) {
    add(400, "malformed JSON, a body that is not what its Content-Encoding says, an unsupported encoding", "BAD_JSON", "BAD_ENCODING", "UNSUPPORTED_ENCODING");
    add(413, "a body over 64 KiB", "PAYLOAD_TOO_LARGE");
  }
  const tokenCodes = ["UNAUTHORIZED", "TOKEN_INVALID", "TOKEN_EXPIRED", "ACCOUNT_NOT_FOUND"];
  if (!r.open) add(401, "no token; a malformed, expired or foreign one; its account does not exist", ...tokenCodes);
  if (r.limited !== false) add(429, "over a rate limit (Retry-After)", "RATE_LIMITED");
  add(500, "a server fault", "INTERNAL");
  if (r.db !== false) add(503, "the database is unreachable (Retry-After)", "DATABASE_UNAVAILABLE");
  return new Map([...answers].sort(([a], [b]) => a - b));
}

function responseOf(status: number, a: Answer, defs: Record<string, JsonSchema>): ResponseObject {
  if (status >= 400) {
    const codes = a.codes ?? [];
    const narrowed = { properties: { error: { properties: { code: { enum: codes } } } } };
    return {
      description: `${codes.map((c) => `\`${c}\``).join(", ")}: ${a.description}`,
      content: { "application/json": { schema: { allOf: [{ $ref: "#/components/schemas/Error" }, narrowed] } } },
    };
  }
  return { description: a.description, content: { [a.contentType ?? "application/json"]: a.body ? { schema: jsonSchemaOf(a.body, "output", defs) } : {} } };
}

const operationId = (method: string, path: string) =>
  method +
  path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");

function operationOf(r: RouteDoc, method: string, path: string, defs: Record<string, JsonSchema>): Operation {
  const parameters = [...parametersOf(r.params, "path", defs), ...parametersOf(r.query, "query", defs)];
  const security = r.open ? [] : [{ bearer: [] }];
  const op: Operation = { operationId: operationId(method, path), summary: r.summary, tags: [r.tag], security, responses: {} };
  if (parameters.length) op.parameters = parameters;
  if (r.body) {
    op.requestBody = {
      // Required unless the handler takes an empty object (a missing body is read as {}).
      required: !r.body.safeParse({}).success,
      ...(r.bodyNote ? { description: r.bodyNote } : {}),
      content: { "application/json": { schema: jsonSchemaOf(r.body, "input", defs) } },
    };
  }
  for (const [status, a] of answersOf(r)) op.responses[String(status)] = responseOf(status, a, defs);
  return op;
}

/** The document of a route table. `serverUrl`: the public REST base URL (PUBLIC_API_URL). */
export function buildOpenApiDocument(routes: RouteDoc[], options: { serverUrl: string }): OpenApiDocument {
  const defs: Record<string, JsonSchema> = {};
  const paths: OpenApiDocument["paths"] = {};
  for (const r of routes) {
    const [method, path] = [r.route.slice(0, r.route.indexOf(" ")).toLowerCase(), r.route.slice(r.route.indexOf(" ") + 1)];
    const item = (paths[path] ??= {});
    if (item[method]) throw new Error(`openapi: ${r.route} is in the route table twice`);
    item[method] = operationOf(r, method, path, defs);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Arena world server REST API",
      version: VERSION,
      description:
        'Everything under /api speaks JSON. Errors have the body {"success": false, "error": {"code", "message"}}. ' +
        "Generated from the zod schemas the handlers validate with; docs/API.md has the prose.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: options.serverUrl }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name: name as Tag, description })),
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: { Error: jsonSchemaOf(ErrorBody, "output", defs), ...defs },
    },
    paths,
  };
}

// ---- the answer bodies of the route table (zod, made JSON Schema like the request schemas) ----

export const int = z.number().int();
export const str = z.string();
export const bool = z.boolean();
/** An ISO 8601 time (`Date.toISOString()`). */
export const when = z.string().meta({ format: "date-time" });
export const ok = <T extends z.ZodRawShape>(shape: T) => z.object({ success: z.literal(true), ...shape });
export const Position = z.object({ x: int, y: int, z: int });
export const Skills = z.record(str, z.object({ level: int, xp: int }));
const ItemStack = z.object({ itemId: str, quantity: int });
const NamedStack = z.object({ itemId: str, name: str, quantity: int });
export const PublicPlayer = z.object({ id: str, name: str, combatLevel: int, isAgent: bool, online: bool, world: int.nullable() });
export const Listed = PublicPlayer.extend({ since: when });
export const CharacterSummary = z.object({ id: str, name: str, combatLevel: int, isAgent: bool, online: bool, createdAt: when });
export const TokenAnswer = z.object({ token: str, accountId: str, expiresIn: int });
export const Player = CharacterSummary.extend({ accountId: str, appearance: z.record(str, str), health: int, maxHealth: int, skills: Skills }).extend({
  inventory: z.array(z.object({ slot: int, itemId: str, quantity: int })),
  equipment: z.record(str, ItemStack),
  position: Position,
});
export const Template = z.object({ id: str, name: str, description: str.nullable(), skills: z.record(str, int), items: z.array(NamedStack) });
export const Area = z.object({ id: str, name: str, description: str.nullable(), group: str, isStarterTown: bool, difficultyLevel: z.number() }).extend({
  bounds: z.object({ minX: z.number(), maxX: z.number(), minZ: z.number(), maxZ: z.number() }),
  biomeType: str.nullable(),
  safeZone: bool,
  pvpEnabled: bool,
  spawnPoint: z.object({ x: z.number(), y: z.number(), z: z.number() }).nullable(),
});
const QuestStatus = z.enum(["not_started", "in_progress", "ready_to_complete", "completed"]);
export const Quest = z.object({
  questId: str,
  name: str,
  status: QuestStatus,
  stage: int,
  stageDescription: str.nullable(),
  count: int,
  needed: int,
  completions: int,
  target: z
    .object({ type: z.enum(["talk", "kill", "gather", "interact"]), id: str })
    .nullable()
    .describe("where the stage in force is done: the npc to talk to (the start npc while not started), the npc kind to kill, the item to gather or make"),
});
export const Trade = z
  .object({ id: str, completedAt: when, role: z.enum(["initiator", "recipient"]), partner: z.object({ id: str.nullable(), name: str }) })
  .extend({
    gave: z.array(ItemStack),
    received: z.array(ItemStack),
    valueGiven: z.number(),
    valueReceived: z.number(),
  });
export const WorldMap = ok(WorldMapBody.shape);
export const Catalogue = ok(CatalogueBody.shape);
export const WorldSummary = ok({
  world: int,
  tick: int,
  onlinePlayers: z.array(z.object({ id: str, name: str, isAgent: bool, combatLevel: int, position: Position })),
  areas: z.array(z.object({ id: str, name: str, npcs: z.object({ alive: int, dead: int }), resources: z.object({ available: int, depleted: int }) })),
});
export const Worlds = ok({
  worlds: z.array(
    z.object({
      id: int,
      name: str,
      players: int,
      capacity: int,
      status: z.enum(["online", "starting", "offline"]),
      full: bool,
      roomId: str.nullable(),
      processId: str.nullable(),
    }),
  ),
});
export const SkillUnlocks = z.record(str, z.array(z.object({ level: int, description: str, type: z.enum(["item", "ability", "area", "quest", "activity"]) })));
export const FriendRequests = ok({
  characterId: str,
  incoming: z.array(z.object({ id: str, from: PublicPlayer, createdAt: when })),
  outgoing: z.array(z.object({ id: str, to: PublicPlayer, createdAt: when })),
});
export const Asked = ok({ accepted: z.literal(false), request: z.object({ id: str, to: PublicPlayer, status: str, createdAt: when }) });
const GoalOption = z.object({ id: str, type: str, target: str.nullable(), name: str, available: bool, reason: str.optional() });
const Goal = z.record(str, z.unknown()).nullable().describe("{id, type, target, source, progress, count, resume}: docs/API.md, Goals");
export const GoalState = ok({ goal: Goal, goalsPaused: bool, availableGoals: z.array(GoalOption) });
export const Agent = z.object({
  agentId: str,
  characterId: str,
  name: str,
  runtime: z.enum(["builtin", "external"]),
  running: bool,
  online: bool,
  goalsPaused: bool,
});
export const Mapping = z.object({ agentId: str, characterId: str, ownerAccountId: str, name: str, runtime: str, running: bool, createdAt: when });
export const QuickActions = ok({
  agentId: str,
  actions: z.array(z.object({ id: str, command: str, label: str, available: bool, reason: str.optional() })),
  nearbyLocations: z.array(z.object({ id: str, name: str, type: str, distance: z.number() })),
  inventory: z.object({ usedSlots: int, freeSlots: int, items: z.array(NamedStack) }),
});
export const Told = z.union([ok({ queued: z.literal(true), command: str }), ok({ queued: z.literal(false), reply: str })]);
export const RequestClosed = (status: "declined" | "cancelled") => ok({ requestId: str, status: z.literal(status) });
