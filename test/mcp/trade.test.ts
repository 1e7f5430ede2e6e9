import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";
import { theWorld } from "../helpers/worldRoom.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";
import { mcpConnect, type McpTestClient } from "./helpers.js";

/** A trade between an MCP agent and a /ws player: both screens, items conserved. */
describe("/mcp: trading with a /ws player", function () {
  this.timeout(60_000);
  let server: TestServer;
  let mcp: McpTestClient | undefined;
  let ws: WsPlayer | undefined;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    ws?.close();
    await mcp?.close();
    await server?.close();
  });

  const totals = (inventories: Array<Array<{ itemId: string; quantity: number } | null>>, itemId: string) =>
    inventories.flat().reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);

  it("the agent asks, the /ws player accepts; coins for a shrimp on both screens; nothing made or lost", async () => {
    const a = await guestToken(server);
    const b = await guestToken(server);
    mcp = await mcpConnect(server, a.token);
    ws = await wsConnect(server.port, `?token=${encodeURIComponent(b.token)}`);
    const wsId = (await ws.next("authenticated")).data.playerId;
    const wsSync = await ws.next("player:sync");
    const me = (await mcp.call("observe")).body;
    const room = await theWorld();
    const before = [room.world.players.get(me.you.id)!.inventory, room.world.players.get(wsId)!.inventory];
    const shrimpBefore = totals(before, "shrimp");
    const coinsBefore = totals(before, "coins");

    // The request waits for the other side's answer.
    const incoming = ws.next("tradeIncoming");
    const asked = mcp.call("trade", { op: "request", playerId: wsId });
    const tradeId = (await incoming).data.tradeId;
    ws.send("tradeRequestRespond", { tradeId, accept: true });
    const answer = await asked;
    assert.equal(answer.isError, false, answer.text);
    assert.equal(answer.body.answer, "accepted");
    assert.equal(answer.body.trade.screen, "offer");

    // Offers: ten coins from the agent, a shrimp from the /ws player.
    const coinSlot = me.pack.find((s: { itemId: string }) => s.itemId === "coins").slot;
    const offered = await mcp.call("trade", { op: "offer", slot: coinSlot, quantity: 10 });
    assert.equal(offered.isError, false, offered.text);
    assert.deepEqual(
      offered.body.trade.myOffer.items.map((i: { itemId: string; quantity: number }) => [i.itemId, i.quantity]),
      [["coins", 10]],
    );
    const shrimpSlot = wsSync.data.inventory.find((s: { itemId: string }) => s.itemId === "shrimp").slot;
    let since = ws.mark();
    ws.send("tradeAddItem", { tradeId, inventorySlot: shrimpSlot, quantity: 1 });
    await ws.next("tradeUpdated", (f) => f.data.myOffer.items.length === 1, { since });

    // The agent's accept answers once both accepted and the confirm screen came.
    since = ws.mark();
    const accepting = mcp.call("trade", { op: "accept" });
    await ws.next("tradeUpdated", (f) => f.data.theirOffer.accepted, { since });
    ws.send("tradeAccept", { tradeId });
    const confirmed = await accepting;
    assert.equal(confirmed.isError, false, confirmed.text);
    assert.equal(confirmed.body.trade.screen, "confirm");
    assert.equal(confirmed.body.trade.values.theirOfferValue > 0, true);

    // The second screen: the /ws player accepts first this time; the agent's accept completes it.
    ws.send("tradeAccept", { tradeId });
    const done = await mcp.call("trade", { op: "accept" });
    assert.equal(done.isError, false, done.text);
    assert.deepEqual(done.body.completed.receivedItems, [{ itemId: "shrimp", quantity: 1 }]);
    assert.equal(done.body.gained.coins, -10);
    assert.equal(done.body.gained.shrimp, 1);
    assert.equal(done.body.trade, null);
    const wsDone = await ws.next("tradeCompleted");
    assert.deepEqual(wsDone.data.receivedItems, [{ itemId: "coins", quantity: 10 }]);

    // Conserved in the world, and in the database once both are saved.
    const after = [room.world.players.get(me.you.id)!.inventory, room.world.players.get(wsId)!.inventory];
    assert.equal(totals(after, "shrimp"), shrimpBefore);
    assert.equal(totals(after, "coins"), coinsBefore);
    const rows = await server.ctx.db.prisma.inventoryItem.findMany({ where: { characterId: { in: [me.you.id, wsId] } } });
    assert.equal(
      rows.filter((r) => r.itemId === "shrimp").reduce((n, r) => n + r.quantity, 0),
      shrimpBefore,
    );
    assert.equal(
      rows.filter((r) => r.itemId === "coins").reduce((n, r) => n + r.quantity, 0),
      coinsBefore,
    );
    const history = await server.ctx.db.prisma.trade.findUnique({ where: { id: tradeId } });
    assert.ok(history, "the trade's history row");
  });
});
