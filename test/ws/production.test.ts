import assert from "node:assert/strict";
import { matchMaker } from "@colyseus/core";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import { emptyInventory } from "../../src/game/inventory.js";
import type { PlayerEntity } from "../../src/game/world/entities.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";
import { wsConnect, type Frame, type WsPlayer } from "../helpers/wsClient.js";

/** production:make over the plain JSON protocol: the same rules as for SDK clients. */

async function worldRoom(): Promise<WorldRoom> {
  const [listing] = await matchMaker.query({ name: "world" });
  return matchMaker.getLocalRoomById(listing.roomId) as unknown as WorldRoom;
}

const syncCount = (sync: Frame, itemId: string) =>
  sync.data.inventory.filter((s: { itemId: string }) => s.itemId === itemId).reduce((n: number, s: { quantity: number }) => n + s.quantity, 0);

describe("/ws: production", function () {
  this.timeout(20_000);
  let server: TestServer;
  const open: WsPlayer[] = [];

  before(async () => {
    server = await startTestServer();
  });
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });
  after(async () => {
    await server?.close();
  });

  /** A /ws player in the world: its socket, its character in the room. */
  async function player(): Promise<{ ws: WsPlayer; room: WorldRoom; p: PlayerEntity }> {
    const who = await guestToken(server);
    const ws = await wsConnect(server.port, `?token=${encodeURIComponent(who.token)}`);
    open.push(ws);
    const auth = await ws.next("authenticated");
    await ws.next("player:sync");
    const room = await worldRoom();
    return { ws, room, p: room.world.players.get(auth.data.playerId)! };
  }

  /** Scene: a pack of exactly these stacks. */
  function givePack(room: WorldRoom, p: PlayerEntity, stacks: Array<[string, number]>) {
    const inv = emptyInventory();
    stacks.forEach(([itemId, quantity], i) => (inv[i] = { itemId, quantity }));
    p.inventory = inv;
    room.world.touchPlayer(p);
  }

  it("crafting leather gloves: production:made, skill:xp and a player:sync with the gloves", async () => {
    const { ws, room, p } = await player();
    const gloves = room.world.data.recipes.crafting!.find((r) => r.id === "leather_gloves")!;
    givePack(room, p, [["needle", 1], ...gloves.inputs.map((i) => [i.itemId, i.quantity] as [string, number])]);
    const since = ws.mark();
    ws.send("production:make", { kind: "crafting", recipeId: "leather_gloves" }, "gloves");
    const madeFrame = await ws.next("production:made", () => true, { since });
    assert.deepEqual(madeFrame.data, { kind: "crafting", recipeId: "leather_gloves", success: true, made: gloves.outputs, remaining: 0 });
    const xp = await ws.next("skill:xp", (f) => f.data.skill === gloves.skill, { since });
    assert.equal(xp.data.gained, Math.round(gloves.xp));
    const sync = await ws.next("player:sync", (f) => syncCount(f, "leather_gloves") === 1 && f.data.action === null, { since });
    assert.equal(syncCount(sync, "needle"), 1, "the needle is kept");
    for (const i of gloves.inputs) assert.equal(syncCount(sync, i.itemId), 0, `${i.itemId} used`);
    assert.equal(ws.frames.slice(since).filter((f) => f.type === "error").length, 0);
  });

  it("a bad production:make gets INVALID_PAYLOAD with the frame's id; nothing changes and the socket stays open", async () => {
    const { ws, room, p } = await player();
    givePack(room, p, [
      ["needle", 1],
      ["leather", 1],
      ["thread", 1],
    ]);
    const before = JSON.stringify(p.inventory);
    let since = ws.mark();
    ws.send("production:make", { kind: "cooking" }, "bad-kind");
    const err = await ws.next("error", () => true, { since });
    assert.deepEqual([err.id, err.data.code], ["bad-kind", "INVALID_PAYLOAD"]);
    assert.equal(JSON.stringify(p.inventory), before);
    assert.equal(p.action, null);

    since = ws.mark();
    ws.send("ping", {}, "alive");
    assert.equal((await ws.next("pong", () => true, { since })).id, "alive");
    ws.send("production:make", { kind: "crafting", recipeId: "leather_gloves", count: 1 }, "good");
    await ws.next("production:made", (f) => f.data.recipeId === "leather_gloves", { since });
    assert.equal(ws.ws.readyState, ws.ws.OPEN);
  });
});
