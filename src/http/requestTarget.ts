import type { RequestHandler } from "express";
import { sendError } from "./errors.js";

/**
 * What the server accepts in a request's target (path and query) and in the text of a JSON body:
 * valid percent-encoding, no NUL character, no unpaired UTF-16 surrogate. Anything else is a 400
 * with the documented body, before any route, database or log line sees it.
 */

/** A lone high surrogate (not followed by a low one) or a lone low surrogate (not preceded by a high one). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why this text cannot be stored or compared as it is (NUL, an unpaired surrogate), if it cannot. */
export function textProblem(text: string): string | undefined {
  if (text.includes("\u0000")) return "contains a NUL character";
  if (LONE_SURROGATE.test(text)) return "contains an unpaired UTF-16 surrogate";
  return undefined;
}

function decoded(part: string, what: string): { text?: string; problem?: string } {
  try {
    return { text: decodeURIComponent(part) };
  } catch {
    return { problem: `${what} has malformed percent-encoding` };
  }
}

/**
 * The problem with a request target (`/path?query` as it came on the request line), if any:
 * a path segment or query component that does not percent-decode to UTF-8, or decodes to text
 * with a NUL character or an unpaired surrogate. Pure: the Express app and the matchmaking gate
 * both call it.
 */
export function requestTargetProblem(url: string): string | undefined {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? "" : url.slice(q + 1);
  for (const segment of path.split("/")) {
    if (segment === "") continue;
    const { text, problem } = decoded(segment, "the path");
    if (problem) return problem;
    const bad = textProblem(text!);
    if (bad) return `the path ${bad}`;
  }
  if (query === "") return undefined;
  for (const pair of query.split("&")) {
    for (const part of pair.split("=")) {
      if (part === "") continue;
      const { text, problem } = decoded(part.replace(/\+/g, " "), "the query");
      if (problem) return problem;
      const bad = textProblem(text!);
      if (bad) return `the query ${bad}`;
    }
  }
  return undefined;
}

/** The first Express middleware: a bad request target answers 400 BAD_REQUEST. */
export const checkRequestTarget: RequestHandler = (req, res, next) => {
  const problem = requestTargetProblem(req.originalUrl ?? req.url);
  if (!problem) return next();
  sendError(res, 400, "BAD_REQUEST", `Bad request target: ${problem}`);
};

/** The most nested a JSON request body may be. */
export const MAX_BODY_DEPTH = 32;

/**
 * The problem with a parsed JSON body, if any: a key or string value with a NUL character or an
 * unpaired surrogate (named by its path, `body.characterId`), or nesting deeper than MAX_BODY_DEPTH.
 * Walked without recursion.
 */
export function bodyTextProblem(body: unknown): string | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: "body", depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === "string") {
      const bad = textProblem(value);
      if (bad) return `${path}: ${bad}`;
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (depth >= MAX_BODY_DEPTH) return `${path}: nested more than ${MAX_BODY_DEPTH} levels deep`;
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, path: `${path}.${i}`, depth: depth + 1 }));
      continue;
    }
    for (const [k, v] of Object.entries(value)) {
      const bad = textProblem(k);
      if (bad) return `${path}: a key ${bad}`;
      stack.push({ value: v, path: `${path}.${k}`, depth: depth + 1 });
    }
  }
  return undefined;
}
