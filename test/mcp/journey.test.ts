import assert from "node:assert/strict";
import { runJourney } from "../../examples/mcp-agent.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";
import { theWorld } from "../helpers/worldRoom.js";

/** The example's scripted MCP client, run against a real server: quest, gather, make, sell. */
describe("/mcp: the example's journey (examples/mcp-agent.ts)", function () {
  this.timeout(120_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  it("starts the first quest, chops logs, buys a knife, makes arrow shafts and sells them, all through the tools", async () => {
    const who = await guestToken(server);
    const journey = await runJourney(server.url, who.token);
    assert.equal(journey.questStarted, "The Warden's Letter", journey.steps.join("\n"));
    assert.ok(journey.logs >= 2, journey.steps.join("\n"));
    assert.equal(journey.shafts, 15);
    assert.ok(journey.coinsFromSale > 0, journey.steps.join("\n"));
    // The character was saved when the session ended: its quest and the coins are in the database.
    const room = await theWorld();
    const c = await server.ctx.db.prisma.character.findFirst({ where: { accountId: who.accountId } });
    while (room.sessions.has(c!.id)) await new Promise((r) => setTimeout(r, 10));
    await room.settled();
    const quest = await server.ctx.db.prisma.characterQuest.findFirst({ where: { characterId: c!.id, questId: "the_wardens_letter" } });
    assert.ok(quest);
  });
});
