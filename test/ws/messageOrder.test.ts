import assert from "node:assert/strict";
import { besideOf, place, theWorld } from "../helpers/worldRoom.js";
import { guestToken } from "../helpers/worldClient.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";

/**
 * A client's messages take effect in the order it sent them, chat commands included: a staff
 * member's `/tp` (answered once its audit row is written) and a `store:buy` sent right after it on
 * the same socket: the purchase is judged from where the teleport put the player.
 */
describe("/ws: messages take effect in the order sent", function () {
  this.timeout(30_000);
  let server: TestServer;
  const open: WsPlayer[] = [];
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    for (const s of open) s.close();
    await server?.close();
  });

  it("/tp far away then store:buy at once: the purchase is refused (out of reach), nothing bought, the answers in the order sent", async () => {
    const who = await guestToken(server);
    await server.ctx.db.prisma.user.update({ where: { id: who.accountId }, data: { roles: ["admin"] } });
    const ws = await wsConnect(server.port, `?token=${encodeURIComponent(who.token)}`);
    open.push(ws);
    const auth = await ws.next("authenticated");
    await ws.next("player:sync");
    const room = await theWorld();
    const p = room.world.players.get(auth.data.playerId)!;
    p.inventory[p.inventory.findIndex((s) => s?.itemId === "coins")] = { itemId: "coins", quantity: 500 };
    room.world.touchPlayer(p);
    const keeper = [...room.world.npcs.values()].find((n) => n.defId === "shopkeeper")!;
    place(room, p.id, besideOf(room, keeper.position));
    let since = ws.mark();
    ws.send("player:action", { action: "talk", targetId: keeper.id });
    await ws.next("dialogue:node", () => true, { since });
    ws.send("dialogue:respond", { index: 0 });
    await ws.next("store:open", () => true, { since });
    const coins = () => p.inventory.reduce((n, s) => n + (s?.itemId === "coins" ? s.quantity : 0), 0);
    const hatchets = () => p.inventory.filter((s) => s?.itemId === "bronze_hatchet").length;
    const before = { coins: coins(), hatchets: hatchets() };

    // Far from the store: the quest giver's tile, or anywhere 20+ tiles off.
    const far = [...room.world.npcs.values()]
      .map((n) => besideOf(room, n.position))
      .find((t) => Math.hypot(t.x - keeper.position.x, t.z - keeper.position.z) > 20)!;
    assert.ok(far, "a tile far from the store");
    since = ws.mark();
    ws.send("player:chat", { message: `/tp ${far.x} ${far.z}` }, "tp");
    ws.send("store:buy", { itemId: "bronze_hatchet", quantity: 1 }, "buy");
    const teleported = await ws.next("notice", (f) => f.id === "tp", { since });
    assert.equal(teleported.data.code, "TELEPORTED");
    const refused = await ws.next("error", (f) => f.id === "buy", { since });
    assert.ok(["TOO_FAR", "STORE_NOT_OPEN"].includes(refused.data.code), refused.data.code);
    assert.ok(ws.frames.indexOf(refused) > ws.frames.indexOf(teleported), "the purchase is answered after the teleport");
    assert.equal(ws.frames.slice(since).filter((f) => f.type === "store:bought").length, 0);
    assert.deepEqual({ coins: coins(), hatchets: hatchets() }, before);
    assert.deepEqual(p.tile, far);
  });
});
