import assert from "node:assert/strict";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { silentLogger } from "../../src/logger.js";
import { loadGameData } from "../../src/manifests/index.js";
import { DEFAULT_WORLD_DIR } from "../../src/paths.js";
import { rest } from "../helpers/rest.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { guestToken } from "../helpers/worldClient.js";
import { launchChromium, playAsGuest } from "./browser.js";

/**
 * A content reload reaches an open page: the server says so (`system:broadcast` kind `content`),
 * the page reads the catalogue and the map again, and names things by the new data (the quest
 * journal's giver renamed) with no error.
 */
describe("web client in Chromium: a content reload", function () {
  this.timeout(120_000);
  let worldDir: string;
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    worldDir = await mkdtemp(path.join(tmpdir(), "arena-client-reload-"));
    await cp(DEFAULT_WORLD_DIR, worldDir, { recursive: true });
    server = await startTestServer({ env: { WORLD: worldDir }, gameData: await loadGameData(path.join(worldDir, "manifests"), silentLogger) });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    if (worldDir) await rm(worldDir, { recursive: true, force: true });
  });

  it("the page takes the new data: the journal names the renamed quest giver", async () => {
    const a = await playAsGuest(browser, server.url, "Reader Rae");
    const { page } = a;
    const problems: string[] = [];
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    await page.click('#tabs button:has-text("Quests")');
    await page.locator("#panel .target", { hasText: "talk to Warden Holt" }).first().waitFor();

    const file = path.join(worldDir, "manifests", "npcs.json");
    await writeFile(file, (await readFile(file, "utf8")).replace('"name": "Warden Holt"', '"name": "Warden Hale"'));
    const admin = await guestToken(server);
    await server.ctx.db.prisma.user.update({ where: { id: admin.accountId }, data: { roles: ["admin"] } });
    const reload = await rest(server, "POST", "/api/admin/content/reload", admin.token, { reason: "a new name" });
    assert.equal(reload.status, 200, JSON.stringify(reload.body));
    assert.equal(reload.body.unchanged, false);

    await page.locator("#panel .target", { hasText: "talk to Warden Hale" }).first().waitFor();
    await page.locator(".chat .log div", { hasText: "The world's content was updated" }).waitFor();
    assert.deepEqual(problems, []);
    await page.close();
  });
});
