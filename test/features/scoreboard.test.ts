import assert from "node:assert/strict";
import { worldSuite } from "../helpers/worldClient.js";
import { besideOf, place, worldRoomOf } from "../helpers/worldRoom.js";

describe("feature: the duelling yard's scoreboard", function () {
  this.timeout(30_000);
  const suite = worldSuite();

  it("talking to the board shows its words and points at the duel rankings (notice SCOREBOARD)", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const board = [...room.world.npcs.values()].find((n) => n.services.includes("scoreboard"))!;
    assert.equal(board.name, "Duelling Board");
    place(room, a.id, besideOf(room, board.position));
    const since = a.mark();
    a.send("player:action", { action: "talk", targetId: board.id });
    assert.match((await a.next("dialogue:node", (n) => n.npcId === board.id, { since })).text, /by wins/);
    assert.match((await a.next("notice", (n) => n.code === "SCOREBOARD", { since })).message, /\/api\/v1\/hiscores\/duels/);
  });
});
