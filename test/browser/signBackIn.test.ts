import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { freePort } from "../../src/db/localPostgres.js";
import { killServerProcesses, startServerProcess, type ServerProcess } from "../helpers/serverProcess.js";
import { launchChromium, screenshot } from "./browser.js";

/**
 * `npm start`'s default setup (no JWT_SECRET, the embedded database) in Chromium: a guest's page
 * comes back by itself, as the same character with its chat, when the server restarts and when the
 * page is reloaded; a login the server refuses is said so, with the way back; Log out leaves the
 * page at its start, where Play goes back as the same character.
 */
describe("web client: signing back in", function () {
  this.timeout(180_000);
  let browser: Browser;
  let dataDir: string;
  let port: number;
  let server: ServerProcess | undefined;
  const env = () => ({ DATA_DIR: dataDir, NODE_ENV: "development", LOG_LEVEL: "warn" });

  before(async () => {
    browser = await launchChromium();
    dataDir = await mkdtemp(path.join(os.tmpdir(), "arena-signback-"));
    port = await freePort();
    server = await startServerProcess(env(), { port, timeoutMs: 60_000 });
  });
  after(async () => {
    await browser?.close();
    await killServerProcesses();
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
  });

  const url = () => `http://127.0.0.1:${port}/`;
  const playerId = (page: Page) => page.evaluate(() => (window as any).arena.game.net.playerId as string);
  const inWorld = (page: Page) => page.waitForSelector("#game:not([hidden])", { timeout: 60_000 });
  const chatHas = (page: Page, text: string) =>
    page.waitForFunction((t) => document.querySelector("#chat .log")?.textContent?.includes(t), text, { timeout: 60_000 });

  it("after a restart and after a reload the page is back in the world as the same character, its chat kept", async () => {
    const page = await browser.newPage({ viewport: { width: 1060, height: 760 } });
    await page.goto(url());
    await page.fill("#name", "Stayer");
    await page.click("#play");
    await inWorld(page);
    const id = await playerId(page);
    await page.fill("#chat input:not(.to)", "remember this line");
    await page.press("#chat input:not(.to)", "Enter");
    await chatHas(page, "Stayer: remember this line");

    // The server stops (SIGTERM, as a supervisor or Ctrl-C does) and comes back on its port.
    server!.child.kill("SIGTERM");
    assert.equal((await server!.exited).code, 0);
    await page.waitForSelector("#banner:not([hidden])", { timeout: 30_000 });
    server = await startServerProcess(env(), { port, timeoutMs: 60_000 });
    await chatHas(page, "Reconnected: you are back in the world.");
    assert.equal(await playerId(page), id, "the same character after the restart");

    // A reload in the middle of play: no form, straight back in, the chat as it was.
    await page.reload();
    await inWorld(page);
    assert.equal(await page.locator("#login").isHidden(), true);
    assert.equal(await playerId(page), id, "the same character after a reload");
    await chatHas(page, "Stayer: remember this line");
    await screenshot(page, "sign-back-in-after-reload");

    // Log out: the page stays at its start, and Play goes back as the same character.
    await page.click("#logout");
    // The page reloads: its start says so once its script has run.
    await page.locator("#login-mode", { hasText: /back into the world as your character/ }).waitFor();
    await page.click("#play");
    await inWorld(page);
    assert.equal(await playerId(page), id, "the same character after Log out and Play");
    await page.close();
  });

  it("a kept login the server refuses says why and offers a new start, which works", async () => {
    const page = await browser.newPage({ viewport: { width: 1060, height: 760 } });
    // A login signed with another secret (another server's, or a deleted jwt-secret file).
    const foreign = "eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoicGxheWVyIiwic3ViIjoiZ3Vlc3RfeCIsImV4cCI6NDEwMjQ0NDgwMH0.c2lnbmVkLWVsc2V3aGVyZQ";
    await page.goto(url());
    await page.evaluate((token) => {
      sessionStorage.setItem("arena.token", JSON.stringify({ token, accountId: "guest_x", characterId: "char_x" }));
      sessionStorage.setItem("arena.signedIn", "true");
    }, foreign);
    await page.reload();
    await page.waitForSelector("#login:not([hidden])");
    const said = await page.waitForFunction(() => document.querySelector("#login-error")?.textContent || undefined, undefined, { timeout: 30_000 });
    const text = String(await said.jsonValue());
    assert.match(text, /can no longer be used \(.*token.*\)/i);
    assert.match(text, /Play again to start as a new guest/);
    await screenshot(page, "sign-back-in-refused");
    await page.fill("#name", "Newstart");
    await page.click("#play");
    await inWorld(page);
    assert.match(String(await page.textContent("#status")), /^Newstart/);
    await page.close();
  });
});
