import assert from "node:assert/strict";
import type { OpenApiDocument, JsonSchema, Operation } from "../../src/http/openapi.js";
import { VERSION } from "../../src/version.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";
import { rest } from "../helpers/rest.js";

/** The value at a local JSON pointer (`#/components/schemas/Error`) of the document, or undefined. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (at === null || typeof at !== "object" || !(key in at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/**
 * The subset of JSON Schema 2020-12 the document uses (type, const, enum, properties, required,
 * additionalProperties, items, anyOf, allOf, string and number bounds, pattern, $ref): what it
 * refuses in `value`, as "path: why" lines. No dependency; enough to hold the document to what the
 * server does.
 */
function refusals(schema: JsonSchema, value: unknown, root: unknown, at = "$"): string[] {
  if (typeof schema.$ref === "string") return refusals(resolvePointer(root, schema.$ref) as JsonSchema, value, root, at);
  const out: string[] = [];
  for (const sub of (schema.allOf ?? []) as JsonSchema[]) out.push(...refusals(sub, value, root, at));
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (anyOf && !anyOf.some((sub) => refusals(sub, value, root, at).length === 0)) out.push(`${at}: matches none of anyOf`);
  if ("const" in schema && schema.const !== value) out.push(`${at}: not ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) out.push(`${at}: not one of ${JSON.stringify(schema.enum)}`);
  if (schema.type !== undefined) {
    const types = ([] as unknown[]).concat(schema.type);
    const t = typeOf(value);
    if (!types.some((x) => x === t || (x === "integer" && Number.isInteger(value)))) return [...out, `${at}: ${t}, not ${types.join("|")}`];
  }
  if (typeof value === "string") {
    if (typeof schema.minLength === "number" && value.length < schema.minLength) out.push(`${at}: shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === "number" && value.length > schema.maxLength) out.push(`${at}: longer than ${schema.maxLength}`);
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern).test(value)) out.push(`${at}: does not match ${schema.pattern}`);
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) out.push(`${at}: below ${schema.minimum}`);
    if (typeof schema.maximum === "number" && value > schema.maximum) out.push(`${at}: above ${schema.maximum}`);
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => out.push(...refusals(schema.items as JsonSchema, v, root, `${at}[${i}]`)));
  if (typeOf(value) === "object") {
    const obj = value as Record<string, unknown>;
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const key of (schema.required ?? []) as string[]) if (!(key in obj)) out.push(`${at}.${key}: missing`);
    for (const [key, v] of Object.entries(obj)) {
      if (props[key]) out.push(...refusals(props[key], v, root, `${at}.${key}`));
      else if (schema.additionalProperties === false) out.push(`${at}.${key}: not allowed`);
      else if (typeOf(schema.additionalProperties) === "object") out.push(...refusals(schema.additionalProperties as JsonSchema, v, root, `${at}.${key}`));
    }
  }
  return out;
}

interface RouterLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
  rawPath?: unknown;
  slash?: boolean;
}

/** Every (METHOD path) an Express router stack serves, nested routers included. */
function mountedRoutes(stack: RouterLayer[], prefix = ""): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const methods = Object.keys(layer.route.methods).filter((m) => layer.route!.methods[m] && m !== "_all");
      assert.ok(methods.length, `a route serving every method: ${String(layer.route.path)}`);
      return ([] as string[]).concat(layer.route.path).flatMap((p) => methods.map((m) => `${m.toUpperCase()} ${prefix}${p}`));
    }
    if (!Array.isArray(layer.handle?.stack)) return [];
    assert.ok(layer.slash || typeof layer.rawPath === "string", "a router mounted at a path this walk can read");
    return mountedRoutes(layer.handle.stack, layer.slash || layer.rawPath === "/" ? prefix : prefix + String(layer.rawPath));
  });
}

const operationsOf = (doc: OpenApiDocument) =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op: op as Operation })));

/** The OpenAPI document and its page, held to the routes the running server has mounted and to what its handlers do. */
describe("REST: the OpenAPI document and /api/docs", function () {
  this.timeout(60_000);
  let server: TestServer;
  let doc: OpenApiDocument;
  const call = (method: string, path: string, token?: string, body?: unknown) => rest(server, method, path, token, body);
  const operation = (method: string, path: string) => {
    const op = doc.paths[path]?.[method];
    assert.ok(op, `${method} ${path} is documented`);
    return op;
  };
  /** The document's schema of an answer. */
  const answerSchema = (method: string, path: string, status: number) => {
    const schema = operation(method, path).responses[String(status)]?.content?.["application/json"]?.schema;
    assert.ok(schema, `${method} ${path} documents a ${status} body`);
    return schema;
  };
  /** A real answer fits the document. */
  const fits = (method: string, path: string, answer: { status: number; body: unknown }) =>
    assert.deepEqual(refusals(answerSchema(method, path, answer.status), answer.body, doc), [], `${method} ${path} ${answer.status}`);

  before(async () => {
    // createArena always hands mountHttp the agent runtime, so the agent routes are mounted too.
    server = await startTestServer();
    const res = await fetch(`${server.url}/api/openapi.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    doc = await res.json();
  });
  after(async () => {
    await server.close();
  });

  it("is an OpenAPI 3.1 document: responses everywhere, path parameters declared both ways, every $ref resolves", () => {
    assert.equal(doc.openapi, "3.1.0");
    assert.equal(doc.info.version, VERSION);
    assert.ok(doc.info.title);
    assert.deepEqual(doc.components.securitySchemes.bearer, { type: "http", scheme: "bearer", bearerFormat: "JWT" });
    const ops = operationsOf(doc);
    assert.equal(new Set(ops.map((o) => o.op.operationId)).size, ops.length, "operationIds are unique");
    const tags = new Set(doc.tags.map((t) => t.name));
    for (const { path, method, op } of ops) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.ok(["get", "post", "put", "delete", "patch"].includes(method), where);
      assert.ok(Object.keys(op.responses).length > 0, `${where}: responses`);
      for (const [status, r] of Object.entries(op.responses)) {
        assert.match(status, /^[1-5]\d\d$/, where);
        assert.ok(r.description, `${where} ${status}: description`);
      }
      assert.ok(
        op.tags.every((t) => tags.has(t)),
        `${where}: a declared tag`,
      );
      for (const s of op.security) for (const name of Object.keys(s)) assert.ok(doc.components.securitySchemes[name], `${where}: scheme ${name}`);
      const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? []).filter((p) => p.in === "path");
      assert.deepEqual(declared.map((p) => p.name).sort(), inTemplate, `${where}: path parameters`);
      assert.ok(
        declared.every((p) => p.required),
        `${where}: path parameters are required`,
      );
    }
    const refs: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(walk);
      if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) k === "$ref" && typeof x === "string" ? refs.push(x) : walk(x);
    };
    walk(doc);
    assert.ok(refs.includes("#/components/schemas/Error"), "error answers use the Error schema");
    for (const ref of refs) assert.notEqual(resolvePointer(doc, ref), undefined, `${ref} resolves`);
    assert.deepEqual(refusals({ $ref: "#/components/schemas/Error" }, { success: false, error: { code: "X", message: "y" } }, doc), []);
  });

  it("documents exactly the routes under /api the running server has mounted", async () => {
    const app = (await server.arena.gameServer.transport.getExpressApp!()) as unknown as { router: { stack: RouterLayer[] } };
    const mounted = mountedRoutes(app.router.stack)
      .filter((r) => /^[A-Z]+ \/api(\/|$)/.test(r))
      .map((r) => r.replace(/:(\w+)/g, "{$1}"));
    assert.equal(new Set(mounted).size, mounted.length, "no route is mounted twice");
    const documented = operationsOf(doc).map((o) => `${o.method.toUpperCase()} ${o.path}`);
    const missing = mounted.filter((r) => !documented.includes(r));
    const stale = documented.filter((r) => !mounted.includes(r));
    assert.deepEqual({ undocumented: missing, notMounted: stale }, { undocumented: [], notMounted: [] });
    // The agent routes and this document's own are among them.
    assert.ok(mounted.includes("POST /api/agents/{agentId}/goal") && mounted.includes("GET /api/docs"));
    assert.equal(documented.length, 87);
  });

  it("a body or query the document refuses is 400 INVALID_PAYLOAD from the handler; one it accepts is not", async () => {
    const who = await guestToken(server);
    const templates = await call("GET", "/api/template");
    const templateId = templates.body.templates[0]?.id as string;
    assert.ok(templateId, "the default world has a template");
    const verdict = async (method: string, path: string, schema: JsonSchema, value: unknown, send: () => ReturnType<typeof call>) => {
      const refused = refusals(schema, value, doc);
      const answer = await send();
      const invalid = answer.status === 400 && answer.body.error?.code === "INVALID_PAYLOAD";
      assert.equal(
        invalid,
        refused.length > 0,
        `${method} ${path} ${JSON.stringify(value)}: document ${refused.join("; ") || "accepts"}, server ${answer.status}`,
      );
      return answer;
    };
    const bodySchema = (method: string, path: string) => operation(method, path).requestBody!.content["application/json"].schema;
    const character = bodySchema("post", "/api/character");
    for (const body of [{ name: 123 }, {}, { name: "Fine Name", level: 99 }, { name: "two  spaces" }, { name: "Fine Name", templateId: 7 }]) {
      await verdict("POST", "/api/character", character, body, () => call("POST", "/api/character", who.token, body));
    }
    const made = await verdict("POST", "/api/character", character, { name: "Doc Probe" }, () =>
      call("POST", "/api/character", who.token, { name: "Doc Probe" }),
    );
    assert.equal(made.status, 201);
    fits("post", "/api/character", made);
    const withTemplate = { name: "Doc Probe 2", templateId };
    assert.equal((await verdict("POST", "/api/character", character, withTemplate, () => call("POST", "/api/character", who.token, withTemplate))).status, 201);

    const accept = bodySchema("post", "/api/player/friends/accept");
    await verdict("POST", "/api/player/friends/accept", accept, { requestId: 5 }, () =>
      call("POST", "/api/player/friends/accept", who.token, { requestId: 5 }),
    );
    const unknown = await verdict("POST", "/api/player/friends/accept", accept, { requestId: "r_none" }, () =>
      call("POST", "/api/player/friends/accept", who.token, { requestId: "r_none" }),
    );
    assert.equal(unknown.body.error.code, "REQUEST_NOT_FOUND");
    fits("post", "/api/player/friends/accept", unknown);

    const limit = operation("get", "/api/player/trades").parameters!.find((p) => p.name === "limit")!;
    assert.equal(limit.in, "query");
    assert.equal(limit.required, false);
    for (const n of [0, 101, 5]) {
      const answer = await verdict("GET", "/api/player/trades", limit.schema, n, () => call("GET", `/api/player/trades?limit=${n}`, who.token));
      if (answer.status === 200) fits("get", "/api/player/trades", answer);
    }
  });

  it("the answers of the server fit the document's schemas", async () => {
    const guest = await call("POST", "/api/auth/guest");
    fits("post", "/api/auth/guest", guest);
    const token = guest.body.token as string;
    fits("get", "/api/auth/me", await call("GET", "/api/auth/me", token));
    const created = await call("POST", "/api/v1/player", token, { name: "Doc Player", appearance: { body: "b", hairColour: "#a0522d" } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    fits("post", "/api/v1/player", created);
    fits("get", "/api/v1/player", await call("GET", "/api/v1/player", token));
    const id = created.body.player.id as string;
    for (const what of ["skills", "position", "quests"])
      fits("get", `/api/characters/{characterId}/${what}`, await call("GET", `/api/characters/${id}/${what}`, token));
    fits("get", "/api/character", await call("GET", "/api/character", token));
    for (const path of ["/api/v1/world", "/api/v1/world/areas", "/api/template", "/api/data/skill-unlocks"]) fits("get", path, await call("GET", path));
    const templates = await call("GET", "/api/template");
    fits("get", "/api/template/{templateId}", await call("GET", `/api/template/${templates.body.templates[0].id}`));
    fits("get", "/api/player/friends", await call("GET", "/api/player/friends", token));
    const agent = await call("POST", "/api/agent/register", token, { name: "Doc Agent" });
    assert.equal(agent.status, 201, JSON.stringify(agent.body));
    fits("post", "/api/agent/register", agent);
    fits("get", "/api/agent", await call("GET", "/api/agent", token));
    fits("get", "/api/agents/mapping/{agentId}", await call("GET", `/api/agents/mapping/${agent.body.agentId}`, token));
    fits("get", "/api/agents/{agentId}/goal", await call("GET", `/api/agents/${agent.body.agentId}/goal`, token));
    // Errors: the Error body with one of the documented codes.
    fits("get", "/api/template/{templateId}", await call("GET", "/api/template/no_such_template"));
    fits("get", "/api/auth/me", await call("GET", "/api/auth/me", "not-a-token"));
    const notMine = await call("GET", `/api/characters/${id}/skills`, (await guestToken(server)).token);
    assert.equal(notMine.status, 403);
    fits("get", "/api/characters/{characterId}/skills", notMine);
    // The staff's answers: an admin of the database.
    await server.ctx.db.prisma.user.update({ where: { id: guest.body.accountId }, data: { roles: ["admin"] } });
    const other = await guestToken(server);
    const target = await call("POST", "/api/character", other.token, { name: "Doc Target" });
    fits("post", "/api/player/report", await call("POST", "/api/player/report", other.token, { name: "Doc Player", reason: "testing the document" }));
    fits("post", "/api/player/report", await call("POST", "/api/player/report", other.token, { name: "Nobody Here", reason: "x" }));
    const sanction = await call("POST", "/api/admin/sanctions", token, { name: "Doc Target", kind: "mute", duration: "1h", reason: "document" });
    assert.equal(sanction.status, 201, JSON.stringify(sanction.body));
    fits("post", "/api/admin/sanctions", sanction);
    fits("get", "/api/admin/sanctions", await call("GET", "/api/admin/sanctions?active=true", token));
    fits("get", "/api/admin/reports", await call("GET", "/api/admin/reports", token));
    fits("get", "/api/admin/audit", await call("GET", "/api/admin/audit?limit=5", token));
    fits("get", "/api/admin/players", await call("GET", "/api/admin/players", token));
    fits("get", "/api/admin/characters/{nameOrId}", await call("GET", `/api/admin/characters/${target.body.character.id}`, token));
    fits("get", "/api/admin/restart", await call("GET", "/api/admin/restart", token));
    fits("get", "/api/admin/audit/conservation", await call("GET", "/api/admin/audit/conservation", token));
    fits("get", "/api/admin/characters/{nameOrId}/ledger", await call("GET", `/api/admin/characters/${target.body.character.id}/ledger`, token));
    fits("get", "/api/admin/audit", await call("GET", "/api/admin/audit", other.token));
  });

  it("/api/docs is a self-contained HTML page of every route; both are public and not rate limited", async () => {
    const res = await fetch(`${server.url}/api/docs`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(res.headers.get("content-security-policy") ?? "", /default-src 'none'/);
    const html = await res.text();
    for (const { path, method } of operationsOf(doc)) {
      assert.ok(html.includes(`${method.toUpperCase()}</span> <code>${path}</code>`), `${method} ${path} on the page`);
    }
    assert.ok(html.includes("Bearer token") && html.includes("INVALID_PAYLOAD") && html.includes("&quot;additionalProperties&quot;"));
    assert.doesNotMatch(html, /<script|<link|<iframe|<img|@import|url\(/i);
    assert.doesNotMatch(html, /\s(src|href|action)\s*=\s*["']?(https?:|\/\/)/i, "no external URL is loaded or linked");
    assert.doesNotMatch(html.replace(/<[^>]*>/g, ""), /[<>]/, "text is escaped");
    // Ahead of the rate limiter (its headers are on every counted answer), and no token needed.
    const counted = await fetch(`${server.url}/api/v1/world/areas`);
    assert.ok(counted.headers.get("ratelimit-limit"), "the /api limiter is on in this server");
    assert.equal(res.headers.get("ratelimit-limit"), null);
    assert.equal((await fetch(`${server.url}/api/openapi.json`)).headers.get("ratelimit-limit"), null);
  });
});
