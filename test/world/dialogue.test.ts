import assert from "node:assert/strict";
import type { WorldRoom } from "../../rooms/WorldRoom.js";
import type { NpcEntity } from "../../src/game/world/entities.js";
import { worldSuite, type WorldPlayer } from "../helpers/worldClient.js";
import { besideOf, place, ticks, tileAway, worldRoomOf } from "../helpers/worldRoom.js";

const npcOf = (room: WorldRoom, defId: string): NpcEntity => {
  const npc = [...room.world.npcs.values()].find((n) => n.defId === defId && n.deadUntilTick == null);
  if (!npc) throw new Error(`no ${defId} in the world`);
  return npc;
};
const chebyshev = (a: { x: number; z: number }, b: { x: number; z: number }) => Math.max(Math.abs(a.x - b.x), Math.abs(a.z - b.z));

/** Send a message and resolve with the code of the `error` it is answered with. */
async function refused(a: WorldPlayer, type: string, data: unknown): Promise<string> {
  const since = a.mark();
  a.send(type, data);
  return (await a.next("error", () => true, { since })).code;
}

/** Stand next to the npc and talk to it: resolves with the first node shown. */
async function talkBeside(a: WorldPlayer, room: WorldRoom, npc: NpcEntity) {
  place(room, a.id, besideOf(room, npc.position));
  const since = a.mark();
  a.send("player:action", { action: "talk", targetId: npc.id });
  return a.next("dialogue:node", (n) => n.npcId === npc.id, { since });
}

describe("world room: talking to npcs (dialogue)", function () {
  this.timeout(20_000);
  const suite = worldSuite();

  it("the bank clerk greets; answering 0 opens the bank and the conversation ends (finished)", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const clerk = npcOf(room, "bank_clerk");
    const def = room.world.data.npcs.get("bank_clerk")!.dialogue!;
    const greeting = def.nodes.get(def.entryNodeId)!;
    const p = room.world.players.get(a.id)!;
    p.bank = [{ itemId: "coins", quantity: 77 }];
    const node = await talkBeside(a, room, clerk);
    assert.deepEqual(node, {
      npcId: clerk.id,
      npcName: "Odessa the Banker",
      nodeId: greeting.id,
      text: greeting.text,
      responses: greeting.responses.map((r, index) => ({ index, text: r.text })),
    });
    assert.equal(p.dialogue?.nodeId, greeting.id);

    const since = a.mark();
    a.send("dialogue:respond", { index: 0 });
    const bank = await a.next("bank:open", () => true, { since });
    assert.deepEqual(bank, { npcId: clerk.id, items: [{ itemId: "coins", quantity: 77, tab: 0 }] });
    const shown = await a.next("dialogue:node", () => true, { since });
    assert.equal(shown.nodeId, greeting.responses[0].nextNodeId);
    assert.deepEqual(shown.responses, []);
    assert.deepEqual(await a.next("dialogue:end", () => true, { since }), { npcId: clerk.id, reason: "finished" });
    const order = a.received.slice(since).map((m) => m.type);
    assert.ok(order.indexOf("bank:open") < order.indexOf("dialogue:end"), order.join());
    assert.equal(p.dialogue, null);
    // The conversation is over: answering again is refused.
    assert.equal(await refused(a, "dialogue:respond", { index: 0 }), "NOT_IN_DIALOGUE");
  });

  it("walking more than 3 tiles away ends the conversation (walked_away)", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const clerk = npcOf(room, "bank_clerk");
    await talkBeside(a, room, clerk);
    const since = a.mark();
    const away = tileAway(room, clerk.position, 5);
    assert.ok(chebyshev(away, clerk.position) > 3);
    place(room, a.id, away);
    assert.deepEqual(await a.next("dialogue:end", () => true, { since }), { npcId: clerk.id, reason: "walked_away" });
    assert.equal(room.world.players.get(a.id)!.dialogue, null);
    assert.equal(await refused(a, "dialogue:respond", { index: 0 }), "NOT_IN_DIALOGUE");
    assert.equal(a.received.slice(since).filter((m) => m.type === "bank:open").length, 0);
  });

  it("staying within 3 tiles keeps the conversation; dialogue:close ends it (closed)", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const clerk = npcOf(room, "bank_clerk");
    await talkBeside(a, room, clerk);
    const near = tileAway(room, clerk.position, 3);
    place(room, a.id, near);
    const since = a.mark();
    await ticks(room, 2);
    assert.equal(a.received.slice(since).filter((m) => m.type === "dialogue:end").length, 0, "3 tiles is still in reach");
    assert.ok(room.world.players.get(a.id)!.dialogue);
    a.send("dialogue:close", {});
    assert.deepEqual(await a.next("dialogue:end", () => true, { since }), { npcId: clerk.id, reason: "closed" });
    assert.equal(room.world.players.get(a.id)!.dialogue, null);
    assert.equal(await refused(a, "dialogue:close", {}), "NOT_IN_DIALOGUE");
  });

  it("a payload that is not an object is INVALID_PAYLOAD, an absent one counts as {} (SDK)", async () => {
    const a = await suite.join();
    for (const [type, data] of [
      ["dialogue:close", null],
      ["store:close", null],
      ["dialogue:close", [1]],
      ["store:close", "x"],
    ] as const) {
      assert.equal(await refused(a, type, data), "INVALID_PAYLOAD", `${type} ${JSON.stringify(data)}`);
    }
    assert.equal(await refused(a, "dialogue:close", undefined), "NOT_IN_DIALOGUE");
    assert.equal(await refused(a, "store:close", undefined), "STORE_NOT_OPEN");
  });

  it("player:action talk from afar walks next to the npc first, then opens the conversation", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const clerk = npcOf(room, "bank_clerk");
    const start = tileAway(room, clerk.position, 4);
    place(room, a.id, start);
    const p = room.world.players.get(a.id)!;
    const since = a.mark();
    a.send("player:action", { action: "talk", targetId: clerk.id });
    const node = await a.next("dialogue:node", () => true, { since });
    assert.equal(node.nodeId, "greeting");
    assert.ok(chebyshev(p.tile, clerk.position) <= 1, `next to the clerk when it opens: ${JSON.stringify(p.tile)}`);
    assert.notDeepEqual(p.tile, start, "walked there");
    assert.equal(p.action, null);
    // Walking took ticks: the player's position was synced on the way.
    assert.ok(a.received.slice(since).some((m) => m.type === "player:sync"));
  });

  it("bad answers change nothing: wrong index, not talking, bad payloads", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    assert.equal(await refused(a, "dialogue:respond", { index: 0 }), "NOT_IN_DIALOGUE");
    const clerk = npcOf(room, "bank_clerk");
    const node = await talkBeside(a, room, clerk);
    const since = a.mark();
    assert.equal(await refused(a, "dialogue:respond", { index: node.responses.length }), "INVALID_RESPONSE");
    for (const index of [-1, 0.5, 64, 2 ** 31, 1e9, "0", "x", null]) {
      assert.equal(await refused(a, "dialogue:respond", { index }), "INVALID_PAYLOAD", `index ${JSON.stringify(index)}`);
    }
    assert.equal(await refused(a, "dialogue:respond", {}), "INVALID_PAYLOAD");
    assert.equal(await refused(a, "dialogue:close", { now: true }), "INVALID_PAYLOAD");
    // Still on the same node, nothing else happened, and the player can still answer.
    assert.deepEqual(p.dialogue, { npcInstanceId: clerk.id, npcId: "bank_clerk", nodeId: node.nodeId });
    assert.deepEqual(
      [...new Set(a.received.slice(since).map((m) => m.type))].filter((t) => t !== "world:update" && t !== "player:sync"),
      ["error"],
    );
    const s2 = a.mark();
    a.send("dialogue:respond", { index: 1 });
    assert.equal((await a.next("dialogue:node", () => true, { since: s2 })).nodeId, "farewell");
    assert.equal((await a.next("dialogue:end", () => true, { since: s2 })).reason, "finished");
    assert.equal(a.received.slice(s2).filter((m) => m.type === "bank:open").length, 0);
  });

  it("talking to no one or to a mob is refused: UNKNOWN_TARGET, NO_DIALOGUE", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    assert.equal(await refused(a, "player:action", { action: "talk", targetId: "npc:nowhere:t9" }), "UNKNOWN_TARGET");
    assert.equal(await refused(a, "player:action", { action: "talk" }), "INVALID_PAYLOAD");
    const goblin = npcOf(room, "goblin");
    assert.equal(await refused(a, "player:action", { action: "talk", targetId: goblin.id }), "NO_DIALOGUE");
    assert.equal(p.action, null);
    assert.equal(p.dialogue, null);
    // A dead npc is no one to talk to.
    const clerk = npcOf(room, "bank_clerk");
    clerk.deadUntilTick = room.world.tick + 1_000;
    try {
      assert.equal(await refused(a, "player:action", { action: "talk", targetId: clerk.id }), "UNKNOWN_TARGET");
    } finally {
      clerk.deadUntilTick = null;
    }
  });

  it("a client cannot jump to a node it was not offered", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const p = room.world.players.get(a.id)!;
    // The letter quest under way: the warden opens on a node with one answer only.
    p.quests.set("the_wardens_letter", { questId: "the_wardens_letter", stage: 1, count: 0, completions: 0 });
    const warden = npcOf(room, "warden_holt");
    const node = await talkBeside(a, room, warden);
    assert.equal(node.nodeId, "letter_waiting");
    assert.equal(node.responses.length, 1);
    const dialogue = room.world.data.npcs.get("warden_holt")!.dialogue!;
    // Index 1 is an answer of the greeting and of the letter offer, not of this node.
    assert.ok(dialogue.nodes.get("greeting")!.responses.length > 1);
    const since = a.mark();
    assert.equal(await refused(a, "dialogue:respond", { index: 1 }), "INVALID_RESPONSE");
    // Naming the node wanted is no way in either.
    assert.equal(await refused(a, "dialogue:respond", { index: 0, nodeId: "letter_offer" }), "INVALID_PAYLOAD");
    assert.equal(p.dialogue?.nodeId, "letter_waiting");
    assert.deepEqual(p.quests.get("the_wardens_letter"), { questId: "the_wardens_letter", stage: 1, count: 0, completions: 0 });
    assert.equal(a.received.slice(since).filter((m) => m.type.startsWith("quest:") || m.type === "dialogue:node").length, 0);
    const s2 = a.mark();
    a.send("dialogue:respond", { index: 0 });
    assert.equal((await a.next("dialogue:node", () => true, { since: s2 })).nodeId, "farewell");
    assert.equal((await a.next("dialogue:end", () => true, { since: s2 })).reason, "finished");
  });
});
