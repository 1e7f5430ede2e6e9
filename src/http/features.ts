import type { RequestHandler } from "express";
import type { ServerContext } from "../context.js";
import type { RouteDoc } from "./openapi.js";
import type { AgentRuntime } from "../agents/runtime.js";

/** What the server hands a feature's routes besides its context. */
export interface FeatureParts {
  /** The built-in agent runtime (absent where the server runs none). */
  agents?: AgentRuntime;
}

/**
 * What a feature folder (`src/features/<feature>/`) adds to the HTTP server: its routes, mounted
 * with the others under the same rate limits and error handling, and their OpenAPI entries, served
 * in /api/openapi.json and /api/docs beside the others. The assembly hands the features to
 * mountHttp (HttpOptions.features).
 */
export interface HttpFeature {
  /** The feature's name (its folder's). */
  name: string;
  routes(ctx: ServerContext, parts: FeatureParts): RequestHandler;
  docs: readonly RouteDoc[];
}
