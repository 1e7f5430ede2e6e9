import assert from "node:assert/strict";
import { restartsOf } from "../../src/staff/restart.js";
import { captureLogs, LEVEL } from "../helpers/logCapture.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { INITIALIZE, mcpConnect, mcpPost, type McpTestClient } from "./helpers.js";

/** /mcp's refusals: prototype keys in a tool's arguments, and the documented refusals logged without a stack. */
describe("MCP: refusals", function () {
  this.timeout(60_000);
  let server: TestServer;
  let logs: ReturnType<typeof captureLogs>;
  let mcp: McpTestClient;
  const guest = async () => (await (await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).json()) as { token: string };

  before(async () => {
    logs = captureLogs();
    server = await startTestServer({ logger: logs.logger });
    mcp = await mcpConnect(server, (await guest()).token);
  });
  after(async () => {
    await mcp?.close();
    await server?.close();
  });

  // JSON.parse makes "__proto__" an own key, as a client's JSON body does.
  for (const [tool, json] of [
    ["eat", '{"slot": 0, "__proto__": {"slot": 1}}'],
    ["eat", '{"slot": 0, "constructor": {"name": "x"}}'],
    ["equip", '{"slot": 0, "prototype": 1}'],
    ["chat", '{"message": "hi", "to": {"__proto__": {"admin": true}}}'],
  ] as const) {
    it(`a prototype key is INVALID_PAYLOAD naming it, like any unknown key: ${tool} ${json}`, async () => {
      const answer = await mcp.call(tool, JSON.parse(json));
      assert.equal(answer.isError, true, answer.text);
      assert.match(answer.text, /^INVALID_PAYLOAD: /);
      assert.match(answer.text, /__proto__|constructor|prototype/);
      assert.equal(answer.body.error.code, "INVALID_PAYLOAD");
    });
  }

  it("the session still plays after those refusals", async () => {
    const seen = await mcp.call("observe", {});
    assert.equal(seen.isError, false, seen.text);
  });

  it("a join refused RESTARTING (the last 30 s before a restart) is 503 RESTARTING, logged below error and without a stack", async () => {
    const restarts = restartsOf(server.ctx);
    restarts.exit = () => {};
    restarts.schedule(10, "refusal test", "test");
    try {
      const from = logs.lines.length;
      const refused = await mcpPost(server, (await guest()).token, INITIALIZE);
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.body.error.code, "RESTARTING");
      const lines = logs.lines.slice(from);
      assert.deepEqual(
        lines.filter((l) => l.level >= LEVEL.error),
        [],
        "nothing at error",
      );
      assert.ok(!JSON.stringify(lines).includes('"stack"'), "no stack");
      assert.ok(
        lines.some((l) => l.level >= LEVEL.info && l.level < LEVEL.error && JSON.stringify(l).includes("RESTARTING")),
        JSON.stringify(lines),
      );
    } finally {
      restarts.cancel();
    }
  });
});
