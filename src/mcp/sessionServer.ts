import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Request, Response } from "express";
import type { FeatureTool } from "./featureTools.js";
import { registerResources, RULES_TEXT } from "./resources.js";
import { argumentsRefused } from "./results.js";
import type { McpSession } from "./session.js";
import type { InitializeAsked } from "./sessionRecords.js";
import { serveSubscriptions } from "./subscriptions.js";
import { registerTools } from "./tools.js";

/**
 * What a session uses of the MCP SDK (its server, its web-standard Streamable HTTP transport, its
 * message schemas) and the Node adapter the SDK itself serves Node requests with, loaded with the
 * first /mcp request: ~0.3 s of a start that no other request needs.
 */
export const loadSdk = () =>
  Promise.all([
    import("@modelcontextprotocol/sdk/server/mcp.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("@hono/node-server"),
  ]).then(([{ McpServer }, { WebStandardStreamableHTTPServerTransport }, { isInitializeRequest }, { getRequestListener }]) => ({
    McpServer,
    WebStandardStreamableHTTPServerTransport,
    isInitializeRequest,
    getRequestListener,
  }));
export type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/**
 * Give a session its MCP server (the tools, the resources, their subscriptions) and transport,
 * and connect them. `id`: the session id it keeps (a session taken up from another process), else
 * a new one, made when its `initialize` is answered; `onInitialized` is told it either way.
 */
export async function connectSession(
  s: McpSession,
  sdk: Sdk,
  featureTools: readonly FeatureTool[],
  onInitialized: (id: string) => void,
  id?: string,
): Promise<void> {
  const transport = new sdk.WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => id ?? randomUUID(),
    onsessioninitialized: (sid) => {
      s.id = sid;
      onInitialized(sid);
    },
    onsessionclosed: () => void s.close("closed", false),
  });
  transport.onclose = () => void s.close("closed", false);
  const server = new sdk.McpServer(
    { name: "arena-world", version: s.ctx.config.version },
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
}

/** Answer one HTTP request of the session through its transport (the body as Express parsed it). */
export async function serveRequest(s: McpSession, sdk: Sdk, req: Request, res: Response): Promise<void> {
  const parsedBody: unknown = req.body;
  const listener = sdk.getRequestListener((web) => s.transport.handleRequest(web, { parsedBody }), { overrideGlobalObjects: false });
  await listener(req as unknown as IncomingMessage, res as unknown as ServerResponse);
}

/**
 * A session taken up from another process hears its client's `initialize` again, as it was asked
 * (the same protocol version, capabilities and client), and the `initialized` that followed: its
 * server stands as the first one did, under the same session id.
 */
export async function replayInitialize(s: McpSession, init: InitializeAsked): Promise<void> {
  const url = "http://arena.local/mcp";
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const asked = await s.transport.handleRequest(
    new globalThis.Request(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: init }) }),
  );
  const answer = await asked.text();
  if (!asked.ok || !answer.includes('"result"')) throw new Error(`the replayed initialize was refused (${asked.status}): ${answer.slice(0, 200)}`);
  const told = await s.transport.handleRequest(
    new globalThis.Request(url, {
      method: "POST",
      headers: { ...headers, "mcp-session-id": s.id },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    }),
  );
  await told.text();
}
