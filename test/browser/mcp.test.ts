import assert from "node:assert/strict";
import { guestToken } from "../helpers/worldClient.js";
import { mcpConnect } from "../mcp/helpers.js";
import { browserSuite, playAsGuest, screenshot } from "./browser.js";

/**
 * An MCP agent and a player in the web client, in Debian's Chromium, headless, against a real
 * server: each sees the other (the page draws the agent as one, the agent's observe lists the
 * player near it), and what each says reaches the other.
 */
describe("web client in Chromium: an MCP agent beside a browser player", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("the page shows the MCP agent as an agent and its chat; the agent observes the page's player and hears it", async () => {
    const player = await playAsGuest(suite.browser, suite.server.url, "Browser Bea");
    const agent = await mcpConnect(suite.server, (await guestToken(suite.server)).token);
    try {
      const me = (await agent.call("observe")).body.you;
      // The page knows it, marked as an agent.
      await player.page.waitForFunction((id) => (window as any).arena.game.net.state.players.get(id)?.isAgent === true, me.id);

      // The agent sees the page's player near it (its next observe, once a tick has passed).
      await agent.call("wait", { maxTicks: 2 });
      const near = (await agent.call("observe")).body.near.players;
      assert.ok(
        near.some((p: { id: string }) => p.id === player.id),
        JSON.stringify(near),
      );

      // What the agent says shows in the page's chat box; what the page's player says, the agent hears.
      const said = await agent.call("chat", { channel: "local", message: "hello from an MCP agent" });
      assert.equal(said.isError, false, said.text);
      await player.page.locator(".chat .log div", { hasText: "hello from an MCP agent" }).first().waitFor();
      await player.page.fill(".chat form input", "hello agent");
      await player.page.press(".chat form input", "Enter");
      const heard = await agent.call("wait", { for: ["chat:message"], maxTicks: 20 });
      assert.equal(heard.isError, false, heard.text);
      const events = (await agent.call("observe")).body.events as Array<{ type?: string; kind?: string; message?: string; text?: string }>;
      assert.ok(
        JSON.stringify(heard.body).includes("hello agent") || JSON.stringify(events).includes("hello agent"),
        JSON.stringify({ heard: heard.body, events }),
      );
      await screenshot(player.page, "mcp-agent-beside-a-player");
    } finally {
      await agent.close();
    }
  });
});
