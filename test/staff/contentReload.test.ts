import assert from "node:assert/strict";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { giveItem } from "../../src/game/world/commands.js";
import { loadGameData } from "../../src/manifests/index.js";
import { silentLogger } from "../../src/logger.js";
import { DEFAULT_WORLD_DIR } from "../../src/paths.js";
import { DATABASE_KINDS, openTestDb, type TestDb } from "../helpers/database.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";
import { theWorld } from "../helpers/worldRoom.js";
import { wsConnect, type WsPlayer } from "../helpers/wsClient.js";

const RELOAD = "/api/admin/content/reload";

/** A manifest of the test's own world copy, read and written as JSON. */
async function edit(worldDir: string, rel: string, change: (json: any) => void) {
  const file = path.join(worldDir, "manifests", rel);
  const json = JSON.parse(await readFile(file, "utf8"));
  change(json);
  await writeFile(file, JSON.stringify(json, null, 2));
}

const KINDLING_ITEM = {
  id: "kindling",
  name: "Kindling",
  type: "misc",
  stackable: true,
  value: 2,
  weight: 0.1,
  description: "Thin sticks whittled from a log.",
  examine: "Catches at the first spark.",
  tradeable: true,
  rarity: "common",
  modelPath: null,
  iconPath: null,
  inventoryActions: ["Use", "Drop", "Examine"],
  maxStackSize: 1000,
};
const KINDLING_RECIPE = {
  output: "kindling",
  outputQuantity: 5,
  category: "kindling",
  inputs: [{ item: "logs", amount: 1 }],
  tools: ["knife"],
  level: 1,
  xp: 3,
  ticks: 2,
  skill: "fletching",
};

for (const kind of DATABASE_KINDS) {
  describe(`content reload on ${kind}`, function () {
    this.timeout(90_000);
    let t: TestDb;
    let server: TestServer;
    let worldDir: string;
    let admin: { token: string; accountId: string };
    let player: { token: string; accountId: string };
    let ws: WsPlayer;
    let playerId: string;
    const versionNow = () => server.ctx.gameData.version;

    before(async () => {
      worldDir = await mkdtemp(path.join(tmpdir(), "arena-reload-"));
      await cp(DEFAULT_WORLD_DIR, worldDir, { recursive: true });
      t = await openTestDb(kind);
      server = await startTestServer({ db: t.db, env: { WORLD: worldDir }, gameData: await loadGameData(path.join(worldDir, "manifests"), silentLogger) });
      admin = await guestToken(server);
      await t.db.prisma.user.update({ where: { id: admin.accountId }, data: { roles: ["admin"] } });
      player = await guestToken(server);
      ws = await wsConnect(server.port, `?token=${encodeURIComponent(player.token)}`);
      playerId = (await ws.next("authenticated")).data.playerId;
    });
    after(async () => {
      ws?.close();
      await server?.close();
      await t?.cleanup();
      if (worldDir) await rm(worldDir, { recursive: true, force: true });
    });

    it("is for admins, takes only an optional reason, and reads the same files as unchanged", async () => {
      assert.equal((await rest(server, "POST", RELOAD, player.token, {})).body.error.code, "FORBIDDEN");
      assert.equal((await rest(server, "POST", RELOAD, undefined, {})).status, 401);
      assert.equal((await rest(server, "POST", RELOAD, admin.token, { reason: 5 })).status, 400);
      assert.equal((await rest(server, "POST", RELOAD, admin.token, { force: true })).status, 400);
      const before = versionNow();
      const same = await rest(server, "POST", RELOAD, admin.token, { reason: "a look" });
      assert.equal(same.status, 200, JSON.stringify(same.body));
      assert.deepEqual([same.body.unchanged, same.body.version, same.body.previousVersion], [true, before, before]);
      assert.deepEqual(same.body.changes.items, { added: [], removed: [], changed: [] });
    });

    it("refuses manifests with problems, listing every one, and changes nothing", async () => {
      const before = { version: versionNow(), data: (await theWorld()).world.data };
      const stores = await readFile(path.join(worldDir, "manifests", "stores.json"), "utf8");
      const npcs = await readFile(path.join(worldDir, "manifests", "npcs.json"), "utf8");
      await writeFile(path.join(worldDir, "manifests", "stores.json"), "[{ not json");
      await writeFile(path.join(worldDir, "manifests", "npcs.json"), "{");
      const broken = await rest(server, "POST", RELOAD, admin.token, {});
      assert.equal(broken.status, 422);
      assert.equal(broken.body.error.code, "CONTENT_INVALID");
      assert.equal(broken.body.error.problems.length, 2, JSON.stringify(broken.body.error.problems));
      assert.ok(broken.body.error.problems.some((p: string) => p.includes("stores.json")));
      assert.ok(broken.body.error.problems.some((p: string) => p.includes("npcs.json")));
      await writeFile(path.join(worldDir, "manifests", "npcs.json"), npcs);
      await writeFile(path.join(worldDir, "manifests", "stores.json"), stores);

      // Records a load would skip: a price that is not a number, a recipe making an item nobody defines.
      await edit(worldDir, "stores.json", (list) => (list[0].items[0].price = "cheap"));
      await edit(worldDir, "recipes/fletching.json", (f) => f.recipes.push({ ...KINDLING_RECIPE, output: "no_such_item" }));
      const skipped = await rest(server, "POST", RELOAD, admin.token, {});
      assert.equal(skipped.status, 422);
      assert.ok(skipped.body.error.problems.length >= 2, JSON.stringify(skipped.body.error.problems));
      assert.ok(skipped.body.error.problems.some((p: string) => p.startsWith("stores.json")));
      assert.ok(skipped.body.error.problems.some((p: string) => p.includes("no_such_item")));
      await writeFile(path.join(worldDir, "manifests", "stores.json"), stores);
      await edit(worldDir, "recipes/fletching.json", (f) => f.recipes.pop());

      // A feature folder's own file is checked too: a carter's route to nowhere.
      const travel = await readFile(path.join(worldDir, "manifests", "travel.json"), "utf8");
      await edit(worldDir, "travel.json", (f) => (f.routes[0].to = { x: 99999, z: 0 }));
      const featured = await rest(server, "POST", RELOAD, admin.token, {});
      assert.equal(featured.status, 422, JSON.stringify(featured.body));
      assert.deepEqual(featured.body.error.problems, [
        "travel.json: route town_to_yard: its destination is outside the map or blocked; skipped",
        "travel.json: npc carter_odo names the travel service but has no route; skipped",
      ]);
      await writeFile(path.join(worldDir, "manifests", "travel.json"), travel);

      // The ground (the buildings, the areas' extent) is the one thing a reload cannot move.
      const buildings = await readFile(path.join(worldDir, "manifests", "buildings.json"), "utf8");
      await edit(worldDir, "buildings.json", (list) => (list[0].footprint.width += 2));
      const ground = await rest(server, "POST", RELOAD, admin.token, {});
      assert.deepEqual([ground.status, ground.body.error.code], [409, "CONTENT_NEEDS_RESTART"]);
      await writeFile(path.join(worldDir, "manifests", "buildings.json"), buildings);

      assert.equal(versionNow(), before.version);
      assert.equal((await theWorld()).world.data, before.data, "the world plays the same data");
    });

    it("applies new prices, a new item, recipe and npc while a player is online; the open store closes with content_changed", async () => {
      // The player stands at the general store with it open, and has coins, logs and a knife.
      const keeper = await ws.next("world:update", (f) => f.data.npcs?.some((n: { npcId: string }) => n.npcId === "shopkeeper"));
      const keeperId = keeper.data.npcs.find((n: { npcId: string }) => n.npcId === "shopkeeper").id;
      let since = ws.mark();
      ws.send("player:action", { action: "store", targetId: keeperId });
      const opened = await ws.next("store:open", () => true, { since });
      const hatchet = (store: any) => store.items.find((i: { itemId: string }) => i.itemId === "bronze_hatchet");
      assert.equal(hatchet(opened.data).price, 32);
      const room = await theWorld();
      giveItem(room.world, playerId, "coins", 500);
      giveItem(room.world, playerId, "logs", 2);
      giveItem(room.world, playerId, "knife", 1);
      since = ws.mark();
      ws.send("production:make", { kind: "fletching", recipeId: "kindling" });
      assert.equal((await ws.next("error", () => true, { since })).data.code, "UNKNOWN_RECIPE");

      await edit(worldDir, "stores.json", (list) => (list.find((s: { id: string }) => s.id === "general_store").items[0].price = 50));
      await edit(worldDir, "items/misc.json", (items) => items.push(KINDLING_ITEM));
      await edit(worldDir, "recipes/fletching.json", (f) => f.recipes.push(KINDLING_RECIPE));
      await edit(worldDir, "world-areas.json", (w) => {
        w.starterTowns.brindlemere.npcs.push({ id: "town_guard", type: "guard", position: { x: 101, y: 0, z: 101 } });
        w.starterTowns.brindlemere.resources.push({ type: "tree", position: { x: 86, y: 0, z: 86 }, resourceId: "tree_normal" });
      });
      const npcsBefore = room.world.npcs.size;
      assert.equal(room.world.map.isBlocked(86, 86), false);

      since = ws.mark();
      const reload = await rest(server, "POST", RELOAD, admin.token, { reason: "new prices and kindling" });
      assert.equal(reload.status, 200, JSON.stringify(reload.body));
      assert.equal(reload.body.unchanged, false);
      assert.deepEqual(reload.body.changes.items.added, ["kindling"]);
      assert.deepEqual(reload.body.changes.recipes.added, ["fletching:kindling"]);
      assert.deepEqual(reload.body.changes.stores.changed, ["general_store"]);
      assert.equal(reload.body.worlds.length, 1);
      assert.deepEqual(reload.body.worlds[0].stores.changed, ["general_store"]);
      assert.equal(reload.body.worlds[0].npcs.added, 1);
      assert.equal(reload.body.worlds[0].resources.added, 1);
      assert.equal(room.world.map.isBlocked(86, 86), true, "the new tree stands on its tile");
      assert.equal(reload.body.worlds[0].ended.stores, 1);
      assert.equal(room.world.npcs.size, npcsBefore + 1);

      const closed = await ws.next("store:close", () => true, { since });
      assert.deepEqual(closed.data, { storeId: "general_store", reason: "content_changed" });
      const told = await ws.next("system:broadcast", (f) => f.data.kind === "content", { since });
      assert.equal(told.data.contentVersion, reload.body.version);
      assert.equal(versionNow(), reload.body.version);

      // The store opens again at the new price, and sells at it.
      since = ws.mark();
      ws.send("player:action", { action: "store", targetId: keeperId });
      assert.equal(hatchet((await ws.next("store:open", () => true, { since })).data).price, 50);
      const coins = () => room.world.players.get(playerId)!.inventory.reduce((n, s) => n + (s?.itemId === "coins" ? s.quantity : 0), 0);
      const coinsBefore = coins();
      since = ws.mark();
      ws.send("store:buy", { itemId: "bronze_hatchet", quantity: 1 });
      await ws.next("store:bought", () => true, { since });
      assert.equal(coinsBefore - coins(), 50);

      // The new recipe makes the new item; the catalogue and the items table know it.
      since = ws.mark();
      ws.send("production:make", { kind: "fletching", recipeId: "kindling" });
      const made = await ws.next("production:made", () => true, { since });
      assert.deepEqual(made.data.made, [{ itemId: "kindling", quantity: 5 }]);
      const catalogue = await fetch(`${server.url}/api/v1/catalogue`).then((r) => r.json());
      assert.ok(catalogue.items.some((i: { id: string }) => i.id === "kindling"));
      const [row] = await t.db.sql.query<{ active: boolean }>(`SELECT "active" FROM "items" WHERE "id" = 'kindling'`);
      assert.equal(row?.active, true);
      const audit = await rest(server, "GET", "/api/admin/audit?kind=content.reload", admin.token);
      assert.equal(audit.body.entries[0].args.version, reload.body.version);
      assert.equal(audit.body.entries[0].reason, "new prices and kindling");
    });

    it("keeps a removed item where it is held, and reports who holds it", async () => {
      await edit(worldDir, "items/misc.json", (items) =>
        items.splice(
          items.findIndex((i: { id: string }) => i.id === "kindling"),
          1,
        ),
      );
      await edit(worldDir, "recipes/fletching.json", (f) => f.recipes.pop());
      const room = await theWorld();
      const held = () => room.world.players.get(playerId)!.inventory.find((s) => s?.itemId === "kindling")?.quantity;
      assert.equal(held(), 5);
      await room.saveAll();
      const reload = await rest(server, "POST", RELOAD, admin.token, {});
      assert.equal(reload.status, 200, JSON.stringify(reload.body));
      assert.deepEqual(reload.body.changes.items.removed, ["kindling"]);
      assert.deepEqual(reload.body.heldRemoved.online, [{ characterId: playerId, itemId: "kindling", quantity: 5 }]);
      assert.deepEqual(
        reload.body.heldRemoved.saved.map((h: any) => [h.characterId, h.itemId, h.quantity]),
        [[playerId, "kindling", 5]],
      );
      assert.equal(held(), 5, "still held");
      room.world.players.get(playerId)!.dirty = true;
      await room.saveAll();
      const [kept] = await t.db.sql.query<{ quantity: number }>(`SELECT "quantity" FROM "inventory" WHERE "characterId" = $1 AND "itemId" = 'kindling'`, [
        playerId,
      ]);
      assert.equal(kept?.quantity, 5);
    });
  });
}
