import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { TestServer } from "../helpers/server.js";

/** A tool's answer as a test reads it: refused or not, its JSON body, its text. */
export interface ToolAnswer {
  isError: boolean;
  body: any;
  text: string;
}

/** An MCP client of a test server's /mcp, over real HTTP, with the SDK's own Client (which checks every answer against its tool's outputSchema). */
export interface McpTestClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  call(
    name: string,
    args?: Record<string, unknown>,
    options?: { onprogress?: (p: { progress: number; total?: number; message?: string }) => void },
  ): Promise<ToolAnswer>;
  close(): Promise<void>;
}

/** Connect (initialize) with a Bearer token; `query` goes on the URL (`?character=`, `?world=`). */
export async function mcpConnect(server: Pick<TestServer, "url">, token: string | undefined, query = ""): Promise<McpTestClient> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp${query}`), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
  });
  const client = new Client({ name: "arena-test", version: "1.0.0" });
  await client.connect(transport);
  // The catalogue read once: from now on the SDK's client checks every answer's structuredContent
  // against its tool's outputSchema (a mismatch is an McpError), so every test's calls check them.
  await client.listTools();
  return {
    client,
    transport,
    call: async (name, args = {}, options = {}) => {
      const r = (await client.callTool(
        { name, arguments: args },
        undefined,
        options.onprogress ? { onprogress: options.onprogress, resetTimeoutOnProgress: true } : {},
      )) as {
        isError?: boolean;
        structuredContent?: unknown;
        content: Array<{ type: string; text?: string }>;
      };
      const text = r.content.map((c) => c.text ?? "").join("\n");
      return { isError: r.isError === true, body: r.structuredContent, text };
    },
    close: async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

/** Raw HTTP to /mcp (what a client without the SDK sends): status and JSON body. */
export async function mcpPost(server: Pick<TestServer, "url">, token: string | undefined, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json, text, headers: res.headers };
}

/** The first `initialize` request a client sends. */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
