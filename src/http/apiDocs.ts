import { Router, type NextFunction } from "express";
import type { JsonSchema, OpenApiDocument, Operation, ResponseObject, RouteDoc } from "./openapi.js";

/**
 * GET /api/openapi.json (the OpenAPI document) and GET /api/docs (the same document as a plain
 * HTML page, made here on the server: no script, no style or font from anywhere else), of every
 * route in openapiRoutes.ts. Both are public and mounted ahead of the /api rate limiter. They are
 * rendered once, on the first request for either: the route descriptions and their conversion to
 * JSON Schema are ~0.1 s of a start that no other request needs. `serverUrl`: the public REST base
 * URL (PUBLIC_API_URL); `featureRoutes`: the feature folders' routes (src/http/features.ts).
 */
export function apiDocsRoutes(serverUrl: string, featureRoutes: readonly RouteDoc[] = []) {
  const router = Router();
  let rendered: Promise<{ json: string; html: string }> | undefined;
  const render = (next: NextFunction, send: (page: { json: string; html: string }) => void) => {
    rendered ??= Promise.all([import("./openapi.js"), import("./openapiRoutes.js")]).then(([{ buildOpenApiDocument }, { ROUTES }]) => {
      const doc = buildOpenApiDocument([...ROUTES, ...featureRoutes], { serverUrl });
      return { json: JSON.stringify(doc), html: renderApiDocs(doc) };
    });
    rendered.then(send).catch(next);
  };
  router.get("/api/openapi.json", (_req, res, next) => {
    render(next, ({ json }) => res.type("application/json").set("Cache-Control", "public, max-age=300").send(json));
  });
  router.get("/api/docs", (_req, res, next) => {
    render(next, ({ html }) =>
      res
        .type("text/html")
        .set("Cache-Control", "public, max-age=300")
        // The page loads nothing: its only style is inline.
        .set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
        .send(html),
    );
  });
  return router;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Text for HTML (element content and attribute values alike). */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const pretty = (schema: JsonSchema) => `<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`;

/** The error codes an error answer names (its schema narrows Error's `error.code` to them). */
function errorCodes(r: ResponseObject): string[] {
  const parts = (r.content?.["application/json"]?.schema?.allOf ?? []) as Array<{ properties?: { error?: { properties?: { code?: { enum?: string[] } } } } }>;
  return parts.flatMap((p) => p.properties?.error?.properties?.code?.enum ?? []);
}

function parametersHtml(op: Operation): string {
  if (!op.parameters?.length) return "";
  const rows = op.parameters
    .map((p) => `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${p.required ? "yes" : "no"}</td><td>${pretty(p.schema)}</td></tr>`)
    .join("");
  return `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr>${rows}</table>`;
}

function bodyHtml(op: Operation): string {
  const body = op.requestBody;
  if (!body) return "";
  const [type, media] = Object.entries(body.content)[0];
  const note = body.description ? `<p>${escapeHtml(body.description)}</p>` : "";
  return `<h4>Body <small>${escapeHtml(type)}, ${body.required ? "required" : "optional"}</small></h4>${note}${pretty(media.schema)}`;
}

function responsesHtml(op: Operation): string {
  const rows = Object.entries(op.responses).map(([status, r]) => {
    const codes = errorCodes(r);
    const [type, media] = Object.entries(r.content ?? {})[0] ?? [];
    const what =
      Number(status) >= 400
        ? `${codes.map((c) => `<code>${escapeHtml(c)}</code>`).join(", ")}: ${escapeHtml(r.description.replace(/^[^:]*: /, ""))}`
        : escapeHtml(r.description) +
          (type ? ` <small>(${escapeHtml(type)})</small>` : "") +
          (media?.schema ? `<details><summary>body schema</summary>${pretty(media.schema)}</details>` : "");
    return `<tr><td class="status s${status[0]}">${escapeHtml(status)}</td><td>${what}</td></tr>`;
  });
  return `<h4>Responses</h4><table>${rows.join("")}</table>`;
}

const anchorOf = (op: Operation) => escapeHtml(op.operationId);

function operationHtml(path: string, method: string, op: Operation): string {
  const auth = op.security.length ? "Bearer token" : "none";
  return (
    `<section id="${anchorOf(op)}"><h3><span class="method ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h3>` +
    `<p>${escapeHtml(op.summary)}</p><p class="auth">Auth: ${auth}</p>${parametersHtml(op)}${bodyHtml(op)}${responsesHtml(op)}</section>`
  );
}

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222}
h2{border-bottom:2px solid #ccc;margin-top:2.5rem}section{border:1px solid #ddd;border-radius:6px;padding:.2rem 1rem .8rem;margin:1rem 0}
h3{font-size:1.05rem}h4{margin:.8rem 0 .3rem}.method{display:inline-block;min-width:4.2rem;text-align:center;border-radius:4px;color:#fff;padding:0 .3rem}
.get{background:#2b7bb9}.post{background:#2e8b57}.delete{background:#c0392b}.put,.patch{background:#b8860b}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #e3e3e3;padding:.25rem .5rem;vertical-align:top;text-align:left}
pre{background:#f6f8fa;padding:.5rem;overflow:auto;margin:.2rem 0;font-size:.85rem}.status{font-weight:bold;width:3.5rem}.s2{color:#2e8b57}.s4,.s5{color:#c0392b}
.auth{color:#555}nav ul{columns:2}code{font-size:.92em}`;

/** The document as one self-contained page: every operation, grouped by tag. */
export function renderApiDocs(doc: OpenApiDocument): string {
  const byTag = new Map(doc.tags.map((t) => [t.name as string, [] as Array<[string, string, Operation]>]));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = op.tags[0] ?? "other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push([path, method, op]);
    }
  }
  const describe = new Map(doc.tags.map((t) => [t.name as string, t.description]));
  const groups = [...byTag].filter(([, ops]) => ops.length);
  const nav = groups
    .flatMap(([, ops]) => ops)
    .map(([path, method, op]) => `<li><a href="#${anchorOf(op)}">${escapeHtml(method.toUpperCase())} ${escapeHtml(path)}</a></li>`)
    .join("");
  const body = groups
    .map(
      ([tag, ops]) =>
        `<h2>${escapeHtml(tag)}</h2><p>${escapeHtml(describe.get(tag) ?? "")}</p>` + ops.map(([path, method, op]) => operationHtml(path, method, op)).join(""),
    )
    .join("");
  const title = `${doc.info.title} ${doc.info.version}`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1>` +
    `<p>${escapeHtml(doc.info.description)}</p><p>OpenAPI ${escapeHtml(doc.openapi)} document: <a href="openapi.json">openapi.json</a>. ` +
    `Server: <code>${escapeHtml(doc.servers[0]?.url ?? "")}</code>. Bearer routes take <code>Authorization: Bearer &lt;token&gt;</code>.</p>` +
    `<nav><ul>${nav}</ul></nav>${body}</body></html>`
  );
}
