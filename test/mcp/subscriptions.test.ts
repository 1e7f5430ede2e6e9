import assert from "node:assert/strict";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { loadGameData } from "../../src/manifests/index.js";
import { silentLogger } from "../../src/logger.js";
import { DEFAULT_WORLD_DIR } from "../../src/paths.js";
import { RESOURCES } from "../../src/mcp/resources.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";
import { theWorld } from "../helpers/worldRoom.js";
import { mcpConnect, type McpTestClient } from "./helpers.js";

/** What the server told the client without being asked, in order, and a way to wait for one. */
function notices(c: McpTestClient) {
  const got: Array<{ method: string; uri?: string }> = [];
  const waiting = new Set<() => void>();
  const push = (n: { method: string; uri?: string }) => {
    got.push(n);
    for (const w of [...waiting]) w();
  };
  c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => push({ method: n.method, uri: n.params.uri }));
  c.client.setNotificationHandler(ResourceListChangedNotificationSchema, (n) => push({ method: n.method }));
  const next = (match: (n: { method: string; uri?: string }) => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!got.some(match)) return;
        waiting.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting.delete(check);
        reject(new Error(`never told ${what}; got ${JSON.stringify(got)}`));
      }, 15_000);
      waiting.add(check);
      check();
    });
  return { got, next };
}

describe("/mcp: resource subscriptions and a content reload", function () {
  this.timeout(60_000);
  let server: TestServer;
  let worldDir: string;
  let c: McpTestClient;

  before(async () => {
    worldDir = await mkdtemp(path.join(tmpdir(), "arena-mcp-reload-"));
    await cp(DEFAULT_WORLD_DIR, worldDir, { recursive: true });
    server = await startTestServer({ env: { WORLD: worldDir }, gameData: await loadGameData(path.join(worldDir, "manifests"), silentLogger) });
    c = await mcpConnect(server, (await guestToken(server)).token);
  });
  after(async () => {
    await c?.close();
    await server?.close();
    if (worldDir) await rm(worldDir, { recursive: true, force: true });
  });

  it("the server offers subscriptions; an unknown resource is refused", async () => {
    assert.equal(c.client.getServerCapabilities()?.resources?.subscribe, true);
    assert.equal(c.client.getServerCapabilities()?.resources?.listChanged, true);
    await assert.rejects(c.client.subscribeResource({ uri: "arena://nowhere" }), /There is no resource arena:\/\/nowhere/);
  });

  it("the journal is told updated when the character's quests change, and no longer once unsubscribed", async () => {
    const told = notices(c);
    await c.client.subscribeResource({ uri: RESOURCES.quests });
    const me = (await c.call("observe")).body.you;
    const room = await theWorld();
    const p = room.world.players.get(me.id)!;
    p.quests.set("the_wardens_letter", { questId: "the_wardens_letter", stage: 1, count: 0, completions: 0 });
    room.world.touchPlayer(p);
    await told.next((n) => n.uri === RESOURCES.quests, "the journal updated");
    const read = JSON.parse(((await c.client.readResource({ uri: RESOURCES.quests })).contents[0] as { text: string }).text);
    assert.equal(read.quests.find((q: { questId: string }) => q.questId === "the_wardens_letter")?.stage, 1);
    await c.client.unsubscribeResource({ uri: RESOURCES.quests });
    const before = told.got.length;
    p.quests.set("the_wardens_letter", { questId: "the_wardens_letter", stage: 2, count: 0, completions: 0 });
    room.world.touchPlayer(p);
    // The sync that carries the change reaches the session a tick later (the journal reads it); no notice came with it.
    const stage = async () => {
      const read = JSON.parse(((await c.client.readResource({ uri: RESOURCES.quests })).contents[0] as { text: string }).text);
      return read.quests.find((q: { questId: string }) => q.questId === "the_wardens_letter")?.stage;
    };
    for (let tick = 0; tick < 20 && (await stage()) !== 2; tick++) await c.call("wait", { ticks: 1 });
    assert.equal(await stage(), 2);
    assert.equal(told.got.length, before, JSON.stringify(told.got.slice(before)));
  });

  it("a content reload tells every session the list changed and a subscribed catalogue updated; reading it gives the new item", async () => {
    const told = notices(c);
    await c.client.subscribeResource({ uri: RESOURCES.catalogue });
    const admin = await guestToken(server);
    await server.ctx.db.prisma.user.update({ where: { id: admin.accountId }, data: { roles: ["admin"] } });
    const file = path.join(worldDir, "manifests", "items", "misc.json");
    const items = JSON.parse(await readFile(file, "utf8"));
    const list = Array.isArray(items) ? items : items.items;
    list.push({ ...list[0], id: "reload_token", name: "Reload Token", description: "Made for a content reload." });
    await writeFile(file, JSON.stringify(items, null, 2));
    const reload = await rest(server, "POST", "/api/admin/content/reload", admin.token, { reason: "a new item" });
    assert.equal(reload.status, 200, JSON.stringify(reload.body));
    assert.equal(reload.body.unchanged, false);
    await told.next((n) => n.method === "notifications/resources/list_changed", "the list changed");
    await told.next((n) => n.uri === RESOURCES.catalogue, "the catalogue updated");
    assert.ok(!told.got.some((n) => n.uri === RESOURCES.map), "the map is not subscribed: not told");
    const catalogue = ((await c.client.readResource({ uri: RESOURCES.catalogue })).contents[0] as { text: string }).text;
    assert.match(catalogue, /reload_token/);
  });
});
