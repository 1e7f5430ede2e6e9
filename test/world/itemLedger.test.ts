import assert from "node:assert/strict";
import { conservation, ledgerPage } from "../../src/db/ledgerRepo.js";
import { worldSuite } from "../helpers/worldClient.js";
import { besideOf, place, setRng, worldRoomOf } from "../helpers/worldRoom.js";

/** The item ledger as the world writes it: each change of a character's holdings by its cause, summing to what it holds. */
describe("the item ledger as the world writes it", function () {
  this.timeout(60_000);
  const suite = worldSuite();

  it("a log gathered, dropped and picked up again: one row each, by node and by ground item; nothing unattributed; the audit finds nothing", async () => {
    const a = await suite.join();
    const room = worldRoomOf(a);
    const tree = [...room.world.resources.values()].find((r) => r.resourceId === "tree_normal" && !r.depleted)!;
    place(room, a.id, besideOf(room, tree.tile));
    setRng(room, 0);
    let since = a.mark();
    a.send("player:action", { action: "gather", targetId: tree.id });
    await a.next("skill:xp", (m) => m.skill === "woodcutting", { since });
    const p = room.world.players.get(a.id)!;
    const slot = p.inventory.findIndex((s) => s?.itemId === "logs");
    assert.ok(slot >= 0, "a log in the pack");
    since = a.mark();
    a.send("inventory:use", { slot, action: "drop" });
    await a.next("player:sync", (s) => !s.inventory.some((x: { itemId: string } | null) => x?.itemId === "logs"), { since });
    const ground = [...room.world.groundItems.values()].find((g) => g.itemId === "logs" && g.ownerId === a.id)!;
    since = a.mark();
    a.send("player:action", { action: "pickup", targetId: ground.id });
    await a.next("player:sync", (s) => s.inventory.some((x: { itemId: string } | null) => x?.itemId === "logs"), { since });
    await room.saveAll();

    const sql = suite.server.ctx.db.sql;
    const rows = (await ledgerPage(sql, a.id, { limit: 50, itemId: "logs" })).reverse();
    assert.deepEqual(
      rows.map((r) => [r.cause, r.delta, r.ref]),
      [
        ["gathered", 1, tree.id],
        ["dropped", -1, ground.id],
        ["picked_up", 1, ground.id],
      ],
    );
    const unattributed = await sql.query(`SELECT * FROM "item_ledger" WHERE "characterId" = $1 AND "cause" = 'unattributed'`, [a.id]);
    assert.deepEqual(unattributed, []);
    assert.deepEqual((await conservation(sql, a.id)).holdings, []);
  });
});
