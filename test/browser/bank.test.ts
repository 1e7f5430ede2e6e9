import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { theWorld } from "../helpers/worldRoom.js";
import { browserSuite, chooseOnTile, playAsGuest, screenshot } from "./browser.js";

/** The boxes of two elements of the page do not overlap, and both are on the screen. */
async function apart(page: Page, a: string, b: string) {
  const [ra, rb] = await Promise.all([page.locator(a).boundingBox(), page.locator(b).boundingBox()]);
  assert.ok(ra && rb, `${a} and ${b} are both drawn`);
  const overlap = ra.x < rb.x + rb.width && rb.x < ra.x + ra.width && ra.y < rb.y + rb.height && rb.y < ra.y + ra.height;
  assert.equal(overlap, false, `${a} ${JSON.stringify(ra)} and ${b} ${JSON.stringify(rb)} do not overlap`);
  const view = page.viewportSize()!;
  for (const r of [ra, rb]) assert.ok(r.x >= 0 && r.y >= 0 && r.x + r.width <= view.width, "on the screen");
}

/**
 * The bank window in Debian's Chromium: opened at a booth beside the pack (the side panel shows
 * the Pack), a click on a pack slot deposits, a click on a bank slot withdraws the amount chosen,
 * X asked in the amount box (no browser prompt), Deposit pack; placeholders, a stack moved to a tab
 * from its menu and found there and by the search; Escape and walking away close it.
 */
describe("web client in Chromium: the bank window beside the pack", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("opens at a booth beside the pack, deposits and withdraws by clicks and amounts, Deposit pack, closes on Escape", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Banker Ada");
    const { page } = a;
    const prompts: string[] = [];
    page.on("dialog", (d) => {
      prompts.push(d.message());
      void d.dismiss();
    });
    const world = (await theWorld()).world;
    const p = world.players.get(a.id)!;
    const booth = [...world.stations.values()].find((s) => s.type === "bank_booth" || s.type === "bank")!;
    p.bank = [{ itemId: "coins", quantity: 500 }];
    p.inventory = [
      { itemId: "logs", quantity: 1 },
      { itemId: "logs", quantity: 1 },
      { itemId: "logs", quantity: 1 },
      { itemId: "feathers", quantity: 40 },
    ];
    p.tile = { x: booth.tile.x, z: booth.tile.z + 2 };
    world.place("player", p.id, p.tile);
    world.touchPlayer(p, true);
    await page.click('#tabs button:has-text("Skills")');
    await chooseOnTile(page, booth.tile.x, booth.tile.z, `Use ${booth.name}`);
    await page.locator("#bank:not([hidden])").waitFor();
    await page.locator('#tabs button.active:has-text("Pack")').waitFor();
    await page.locator('#bank [data-bank="coins"]').waitFor();
    await apart(page, "#bank", "#panel .grid");

    // A click on a pack slot deposits one (the amount chosen: 1), of an item that does not stack.
    await page.click('#panel .slot[data-item="logs"] >> nth=0');
    await page.waitForFunction(() => document.querySelectorAll('#panel .slot[data-item="logs"]').length === 2);
    assert.equal(p.bank.find((s) => s.itemId === "logs")?.quantity, 1);
    await page.locator('#bank [data-bank="logs"]').waitFor();

    // X: asked in the amount box, kept for the next click; a word that is not a number is said wrong.
    await page.click('#bank .bank-amounts button[data-amount="x"]');
    await page.locator("#amount:not([hidden]) input").fill("lots");
    await page.keyboard.press("Enter");
    await page.locator("#amount .amount-error", { hasText: "A whole number" }).waitFor();
    await page.locator("#amount input").fill("25");
    await page.keyboard.press("Enter");
    await page.locator("#amount").waitFor({ state: "hidden" });
    await page.locator('#bank .bank-amounts button.on[data-amount="x"]', { hasText: "25" }).waitFor();
    await page.click('#bank [data-bank="coins"]');
    await page.locator('#panel .slot[data-item="coins"] .qty', { hasText: /^25$/ }).waitFor();
    assert.equal(p.bank.find((s) => s.itemId === "coins")?.quantity, 475);

    // A bank slot's menu: every amount; Withdraw-All of the logs.
    await page.click('#bank [data-bank="logs"]', { button: "right" });
    await page.click('#menu button:has-text("Withdraw-All Logs")');
    await page.waitForFunction(() => document.querySelectorAll('#panel .slot[data-item="logs"]').length === 3);

    // Deposit pack: the logs, the feathers and the coins go in; the pack is empty.
    await page.click('#bank button:has-text("Deposit pack")');
    await page.waitForFunction(() => document.querySelectorAll("#panel .slot[data-item]:not([data-item=''])").length === 0);
    assert.deepEqual(Object.fromEntries(p.bank.map((s) => [s.itemId, s.quantity])), { coins: 500, logs: 3, feathers: 40 });
    assert.equal(p.inventory.filter(Boolean).length, 0, "the pack is empty");
    await screenshot(page, "bank-window");

    // Escape closes the window; the pack stays.
    await page.locator("#world").focus();
    await page.keyboard.press("Escape");
    await page.locator("#bank").waitFor({ state: "hidden" });
    await page.locator('#tabs button.active:has-text("Pack")').waitFor();
    assert.deepEqual(prompts, [], "no browser prompt was used");
    await page.close();
  });

  it("placeholders after the last withdrawal, a stack moved to tab 2 from its menu, the search across tabs; walking away closes it", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Banker Bo");
    const { page } = a;
    const world = (await theWorld()).world;
    const p = world.players.get(a.id)!;
    const booth = [...world.stations.values()].find((s) => s.type === "bank_booth" || s.type === "bank")!;
    p.bank = [
      { itemId: "logs", quantity: 2 },
      { itemId: "coins", quantity: 40 },
    ];
    p.tile = { x: booth.tile.x, z: booth.tile.z + 1 };
    world.place("player", p.id, p.tile);
    world.touchPlayer(p, true);
    await chooseOnTile(page, booth.tile.x, booth.tile.z, `Use ${booth.name}`);
    await page.locator('#bank [data-bank="logs"]').waitFor();
    await page.click('#bank button:has-text("Placeholders: off")');
    await page.locator('#bank button:has-text("Placeholders: on")').waitFor();
    await page.click('#bank .bank-amounts button[data-amount="all"]');
    await page.click('#bank [data-bank="logs"]');
    await page.locator('#bank [data-bank="logs"].placeholder').waitFor();
    assert.deepEqual(p.bank[0], { itemId: "logs", quantity: 0 });
    // A placeholder's click opens its menu: Release.
    await page.click('#bank [data-bank="logs"]');
    await page.locator("#menu button", { hasText: "Release the Logs placeholder" }).waitFor();
    await page.keyboard.press("Escape");
    await page.click('#bank [data-bank="coins"]', { button: "right" });
    await page.click('#menu button:has-text("Move to tab 2")');
    await page.locator('#bank .bank-tabs button[data-tab="2"]').waitFor();
    assert.equal(p.bank.find((s) => s.itemId === "coins")?.tab, 2);
    assert.equal(await page.locator('#bank [data-bank="coins"]').count(), 0, "not in the main tab any more");
    await page.click('#bank .bank-tabs button[data-tab="2"]');
    await page.locator('#bank [data-bank="coins"]').waitFor();
    await page.click('#bank .bank-tabs button[data-tab="0"]');
    await page.fill("#bank .bank-search", "coi");
    await page.locator('#bank [data-bank="coins"]').waitFor();
    await screenshot(page, "bank-tabs");

    // Out of reach of the bank, the window closes by itself.
    p.tile = { x: booth.tile.x, z: booth.tile.z + 12 };
    world.place("player", p.id, p.tile);
    world.touchPlayer(p, true);
    await page.locator("#bank").waitFor({ state: "hidden" });
    await page.close();
  });
});
