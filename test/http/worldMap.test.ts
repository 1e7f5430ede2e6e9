import assert from "node:assert/strict";
import { buildTileMap } from "../../src/game/tileMap.js";
import { CatalogueBody, WorldMapBody } from "../../src/protocol/index.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/** The REST a game client draws the world from: the ground plan and the catalogue. */
describe("REST: /api/v1/world/map and /api/v1/catalogue", function () {
  this.timeout(30_000);
  let server: TestServer;
  before(async () => (server = await startTestServer()));
  after(() => server.close());

  it("the map is the world's own walkability grid, bit for bit", async () => {
    const res = await fetch(`${server.url}/api/v1/world/map`);
    assert.equal(res.status, 200);
    const body = WorldMapBody.parse(await res.json());
    const map = buildTileMap(server.ctx.gameData);
    assert.deepEqual(body.bounds, map.bounds);
    const bits = Buffer.from(body.blocked, "base64");
    const blockedAt = (x: number, z: number) => {
      const i = (z - body.bounds.minZ) * body.width + (x - body.bounds.minX);
      return (bits[i >> 3]! & (1 << (i & 7))) !== 0;
    };
    let blocked = 0;
    for (let z = map.bounds.minZ; z <= map.bounds.maxZ; z++) {
      for (let x = map.bounds.minX; x <= map.bounds.maxX; x++) {
        assert.equal(blockedAt(x, z), map.isBlocked(x, z), `tile ${x}, ${z}`);
        if (map.isBlocked(x, z)) blocked++;
      }
    }
    assert.ok(blocked > 0, "the default world has obstacles");
    assert.equal(body.buildings.length, server.ctx.gameData.buildings.length);
    // Each building's kind, for a client to draw its roof by.
    assert.equal(body.buildings.find((b) => b.id === "brindlemere_bank")?.type, "bank");
    assert.deepEqual(body.spawn, { x: 100, z: 100 });
    // Where the data places npcs and resources, for a client's map and quest markers.
    assert.deepEqual(
      body.npcs.find((n) => n.npcId === "warden_holt"),
      { npcId: "warden_holt", x: 100, z: 113, radius: 0 },
    );
    assert.ok(
      body.npcs.some((n) => n.npcId === "goblin" && n.radius > 0),
      "the goblins' spawns",
    );
    const trees = body.resources.filter((r) => r.resourceId === "tree_normal");
    assert.ok(trees.length > 0 && trees.every((t) => t.skill === "woodcutting" && map.isBlocked(t.x, t.z)));
  });

  it("the catalogue names every item, npc, spell and prayer of the loaded data", async () => {
    const res = await fetch(`${server.url}/api/v1/catalogue`);
    assert.equal(res.status, 200);
    const body = CatalogueBody.parse(await res.json());
    const data = server.ctx.gameData;
    assert.deepEqual(body.items.map((i) => i.id).sort(), [...data.items.keys()].sort());
    const hatchet = body.items.find((i) => i.id === "bronze_hatchet")!;
    assert.equal(hatchet.name, data.items.get("bronze_hatchet")!.name);
    assert.equal(body.npcs.length, data.npcs.size);
    assert.equal(body.spells.length, data.spells.size);
    assert.equal(body.prayers.length, data.prayers.size);
    assert.ok(
      body.items.some((i) => i.prayerXp !== null),
      "bones say what burying them gives",
    );
    assert.ok((body.recipes.smelting ?? []).length > 0);
    // What a raw food and a log are for (the web client's click cooks and lights with them).
    assert.ok(body.recipes.firemaking?.some((r) => r.inputs.some((i) => i.itemId === "logs")));
    assert.ok(body.recipes.cooking?.some((r) => r.inputs.some((i) => i.itemId === "raw_shrimp")));
    // The music the web client makes its tunes from.
    assert.deepEqual(
      body.music.find((m) => m.id === "combat_1"),
      { id: "combat_1", name: "Mudfoot Skirmish", category: "combat", mood: "tense", seconds: 120 },
    );
    // Examine texts and what each resource gives: a client's hover and its quest markers for a gather stage.
    assert.equal(body.npcs.find((n) => n.id === "warden_holt")!.examine, data.npcs.get("warden_holt")!.description);
    const tree = body.resources.find((r) => r.id === "tree_normal")!;
    assert.deepEqual([tree.skill, tree.yields], ["woodcutting", ["logs"]]);
    assert.match(tree.examine ?? "", /tree/i);
    assert.match(body.stations.find((s) => s.type === "furnace")?.examine ?? "", /bars/);
  });
});
