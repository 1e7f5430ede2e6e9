/**
 * The MCP sessions of `npm run bench:mcp`, in a child process of their own (so their HTTP and JSON
 * work is not the server's): each is the SDK's own Client over real HTTP at /mcp, and once told to
 * act, calls one tool every tick (600 ms), alternating `move_to` a tile a few steps away (answered
 * after the tick that moves it: `maxTicks` 1) and `observe`. The parent marks the measured window;
 * the latencies of the calls that started within it are reported per tool.
 *
 * Messages: parent → child `start {url, tokens, concurrency}`, `act`, `mark`, `stop`;
 * child → parent `ready {opened, failed}`, `marked {calls, errors}`, `report {byTool, calls, errors}`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TICK_MS } from "../src/protocol/vocabulary.js";

interface Session {
  client: Client;
  transport: StreamableHTTPClientTransport;
  x: number;
  z: number;
  n: number;
}

const sessions: Session[] = [];
let acting = false;
let measuring = false;
let calls = 0;
let errors = 0;
const latencies = new Map<string, number[]>();
const errorCodes = new Map<string, number>();

const reply = (m: unknown) => process.send?.(m);

async function open(url: string, token: string): Promise<Session> {
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: "bench-mcp", version: "1.0.0" });
  await client.connect(transport);
  const seen = (await client.callTool({ name: "observe", arguments: {} })) as { structuredContent?: any };
  const you = seen.structuredContent?.you ?? { x: 100, z: 100 };
  return { client, transport, x: you.x, z: you.z, n: 0 };
}

async function act(s: Session, offset: number) {
  await new Promise((r) => setTimeout(r, offset));
  while (acting) {
    const started = performance.now();
    const name = s.n++ % 2 === 0 ? "move_to" : "observe";
    const args = name === "move_to" ? { x: s.x + Math.round(Math.random() * 10 - 5), z: s.z + Math.round(Math.random() * 10 - 5), maxTicks: 1 } : {};
    const inWindow = measuring;
    try {
      const r = (await s.client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text?: string }> };
      calls++;
      if (r.isError) {
        errors++;
        const code = /^([A-Z_]+):/.exec(r.content[0]?.text ?? "")?.[1] ?? "?";
        errorCodes.set(code, (errorCodes.get(code) ?? 0) + 1);
      }
    } catch (err) {
      errors++;
      errorCodes.set("THROWN", (errorCodes.get("THROWN") ?? 0) + 1);
      if (errors < 3) console.error(`bench:mcp client: ${(err as Error).message}`);
    }
    const took = performance.now() - started;
    if (inWindow) {
      const list = latencies.get(name) ?? [];
      list.push(took);
      latencies.set(name, list);
    }
    // One call a tick: the next one starts a tick after this one started (or at once if it took longer).
    await new Promise((r) => setTimeout(r, Math.max(0, TICK_MS - took)));
  }
}

process.on("message", async (m: any) => {
  try {
    if (m.type === "start") {
      let next = 0;
      let failed = 0;
      const worker = async () => {
        while (next < m.tokens.length) {
          const token = m.tokens[next++];
          try {
            sessions.push(await open(m.url, token));
          } catch (err) {
            failed++;
            if (failed <= 3) console.error(`bench:mcp client: a session failed to open: ${(err as Error).message}`);
          }
        }
      };
      await Promise.all(Array.from({ length: m.concurrency }, worker));
      reply({ type: "ready", opened: sessions.length, failed });
    } else if (m.type === "act") {
      acting = true;
      // Spread over a tick, as players' clicks are.
      sessions.forEach((s, i) => void act(s, (i / sessions.length) * TICK_MS));
    } else if (m.type === "mark") {
      measuring = !measuring;
      reply({ type: "marked", calls, errors });
    } else if (m.type === "stop") {
      acting = false;
      reply({ type: "report", byTool: Object.fromEntries(latencies), calls, errors, errorCodes: Object.fromEntries(errorCodes) });
      await Promise.allSettled(sessions.map((s) => s.transport.terminateSession().then(() => s.client.close())));
      process.exit(0);
    }
  } catch (err) {
    reply({ type: "error", message: (err as Error).message });
  }
});
