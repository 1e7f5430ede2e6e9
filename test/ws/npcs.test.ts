import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import type { PlayerEntity } from "../../src/game/world/entities.js";
import { besideOf, place, theWorld } from "../helpers/worldRoom.js";
import type { Frame, WsPlayer } from "../helpers/wsClient.js";
import { syncCount, wsWorldSuite } from "../helpers/wsWorld.js";

/** Dialogue, stores and quests over the plain JSON protocol: the same rules as for SDK clients. */

/** The index just after a frame already received. */
const indexAfter = (a: WsPlayer, f: Frame) => a.frames.indexOf(f) + 1;

describe("/ws: dialogue, stores and quests", function () {
  this.timeout(20_000);
  const suite = wsWorldSuite();
  const player = () => suite.player();

  /** Stand next to an npc and talk to it: resolves with the first node. */
  async function talkTo(ws: WsPlayer, room: WorldRoom, p: PlayerEntity, defId: string) {
    const npc = [...room.world.npcs.values()].find((n) => n.defId === defId)!;
    place(room, p.id, besideOf(room, npc.position));
    const since = ws.mark();
    ws.send("player:action", { action: "talk", targetId: npc.id }, "talk");
    return ws.next("dialogue:node", (f) => f.data.npcId === npc.id, { since });
  }

  it("talk to the shopkeeper, respond, then store:open, store:buy, store:sell and store:close with their replies", async () => {
    const { ws, room, p } = await player();
    p.inventory[p.inventory.findIndex((s) => s?.itemId === "coins")] = { itemId: "coins", quantity: 200 };
    const logsSlot = p.inventory.findIndex((s) => !s);
    p.inventory[logsSlot] = { itemId: "logs", quantity: 1 };
    room.world.touchPlayer(p);
    const greeting = await talkTo(ws, room, p, "shopkeeper");
    assert.equal(greeting.data.nodeId, "greeting");
    assert.ok(greeting.data.responses.length > 0);

    // The answer's replies echo the frame's id.
    let since = ws.mark();
    ws.send("dialogue:respond", { index: 0 }, "r1");
    const view = await ws.next("store:open", () => true, { since });
    assert.equal(view.id, "r1");
    assert.equal(view.data.storeId, "general_store");
    assert.equal(view.data.npcId, p.store?.npcInstanceId);
    const end = await ws.next("dialogue:end", () => true, { since });
    assert.deepEqual([end.id, end.data.reason], ["r1", "finished"]);

    const price = view.data.items.find((i: { itemId: string }) => i.itemId === "bronze_hatchet").price;
    since = ws.mark();
    ws.send("store:buy", { itemId: "bronze_hatchet", quantity: 1 }, "b1");
    const bought = await ws.next("store:bought", () => true, { since });
    assert.deepEqual(
      { ...bought.data, dealId: typeof bought.data.dealId },
      { dealId: "string", storeId: "general_store", itemId: "bronze_hatchet", quantity: 1, coins: price },
    );
    let sync = await ws.next("player:sync", () => true, { since: indexAfter(ws, bought) });
    assert.equal(syncCount(sync, "coins"), 200 - price);
    assert.equal(syncCount(sync, "bronze_hatchet"), 2);

    const pays = Math.floor(room.world.data.items.get("logs")!.value * view.data.buybackRate);
    since = ws.mark();
    ws.send("store:sell", { slot: logsSlot, quantity: 1 }, "s1");
    const sold = await ws.next("store:sold", () => true, { since });
    assert.deepEqual([sold.data.itemId, sold.data.quantity, sold.data.coins], ["logs", 1, pays]);
    sync = await ws.next("player:sync", () => true, { since: indexAfter(ws, sold) });
    assert.equal(syncCount(sync, "coins"), 200 - price + pays);
    assert.equal(syncCount(sync, "logs"), 0);
    const row = await suite.server.ctx.db.prisma.storeDeal.findUniqueOrThrow({ where: { id: sold.data.dealId } });
    assert.deepEqual([row.kind, row.characterId, row.coins], ["sell", p.id, pays]);

    // A refusal echoes the id too; then the store closes on request.
    since = ws.mark();
    ws.send("store:buy", { itemId: "iron_hatchet", quantity: 99 }, "b2");
    const err = await ws.next("error", () => true, { since });
    assert.deepEqual([err.id, err.data.code], ["b2", "OUT_OF_STOCK"]);
    ws.send("store:close", {}, "c1");
    const closed = await ws.next("store:close", () => true, { since });
    assert.deepEqual([closed.id, closed.data], ["c1", { storeId: "general_store", reason: "closed" }]);
    assert.equal(p.store, null);
  });

  it("store:open with player:action store; a quest started by talking shows in player:sync's journal", async () => {
    const { ws, room, p } = await player();
    const keeper = [...room.world.npcs.values()].find((n) => n.storeId)!;
    place(room, p.id, besideOf(room, keeper.position));
    let since = ws.mark();
    ws.send("player:action", { action: "store", targetId: keeper.id });
    assert.equal((await ws.next("store:open", () => true, { since })).data.npcId, keeper.id);

    assert.equal((await talkTo(ws, room, p, "warden_holt")).data.nodeId, "greeting");
    ws.send("dialogue:respond", { index: 0 }, "a1");
    assert.equal((await ws.next("dialogue:node", (f) => f.id === "a1")).data.nodeId, "letter_offer");
    since = ws.mark();
    ws.send("dialogue:respond", { index: 0 }, "a2");
    const started = await ws.next("quest:started", () => true, { since });
    const quest = room.world.data.quests.get("the_wardens_letter")!;
    assert.deepEqual(started.data, { questId: quest.id, name: quest.name, stage: 1, stageDescription: quest.stages[1].description });
    assert.equal((await ws.next("dialogue:end", () => true, { since })).data.reason, "finished");
    const sync = await ws.next("player:sync", (f) => f.data.quests.quests.length > 0, { since });
    assert.equal(syncCount(sync, "sealed_letter"), 1);
    assert.deepEqual(sync.data.quests, {
      questPoints: 0,
      quests: [
        {
          questId: quest.id,
          name: quest.name,
          status: "in_progress",
          stage: 1,
          stageDescription: quest.stages[1].description,
          count: 0,
          needed: 0,
          completions: 0,
          // Where the stage points a client's marker: the npc to hand the letter to.
          target: { type: "talk", id: "bank_clerk" },
        },
      ],
    });
  });

  it("bad frames get INVALID_PAYLOAD (or the rule's code) with their id, and the socket stays open", async () => {
    const { ws, room, p } = await player();
    await talkTo(ws, room, p, "bank_clerk");
    const bad: Array<[string, unknown, string]> = [
      ["dialogue:respond", { index: "x" }, "INVALID_PAYLOAD"],
      ["dialogue:respond", { index: -1 }, "INVALID_PAYLOAD"],
      ["dialogue:respond", { index: 1.5 }, "INVALID_PAYLOAD"],
      ["dialogue:respond", { index: 7 }, "INVALID_RESPONSE"],
      ["store:buy", { itemId: "tinderbox", quantity: "5" }, "INVALID_PAYLOAD"],
      ["store:buy", { itemId: "tinderbox", quantity: 1 }, "STORE_NOT_OPEN"],
      ["store:sell", { slot: 0, quantity: 0 }, "INVALID_PAYLOAD"],
      ["player:action", { action: "talk", targetId: "npc:nowhere" }, "UNKNOWN_TARGET"],
    ];
    for (const [i, [type, data, code]] of bad.entries()) {
      const since = ws.mark();
      ws.send(type, data, `bad-${i}`);
      const err = await ws.next("error", () => true, { since });
      assert.deepEqual([err.id, err.data.code], [`bad-${i}`, code], `${type} ${JSON.stringify(data)}`);
    }
    // Still talking, still on the greeting, and the socket still answers.
    assert.equal(p.dialogue?.nodeId, "greeting");
    const since = ws.mark();
    ws.send("ping", {}, "alive");
    assert.equal((await ws.next("pong", () => true, { since })).id, "alive");
    ws.send("dialogue:close", {}, "bye");
    assert.deepEqual((await ws.next("dialogue:end", () => true, { since })).data.reason, "closed");
    assert.equal(ws.ws.readyState, ws.ws.OPEN);
  });
});
