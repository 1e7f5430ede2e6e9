import assert from "node:assert/strict";
import { theWorld } from "../helpers/worldRoom.js";
import { browserSuite, playAsGuest, screenshot } from "./browser.js";

/**
 * The bank panel in Debian's Chromium: placeholders turned on, the last logs withdrawn leaving a
 * placeholder, the coins moved to a tab of their own and found there and by the search.
 */
describe("web client in Chromium: the bank's tabs, placeholders and search", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("a placeholder after the last withdrawal, a stack moved to tab 2, the search across tabs", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Banker Bo");
    const { page } = a;
    const world = (await theWorld()).world;
    const p = world.players.get(a.id)!;
    const booth = world.bankTiles[0]!;
    p.bank = [
      { itemId: "logs", quantity: 2 },
      { itemId: "coins", quantity: 40 },
    ];
    p.tile = { x: booth.x, z: booth.z + 1 };
    world.place("player", p.id, p.tile);
    world.touchPlayer(p, true);
    await page.click('#tabs button:has-text("Bank")');
    await page.locator('#panel [data-bank="logs"]').waitFor();
    await page.click('#panel button:has-text("Placeholders: off")');
    await page.locator('#panel button:has-text("Placeholders: on")').waitFor();
    await page.click('#panel [data-bank="logs"] button:has-text("All")');
    await page.locator('#panel [data-bank="logs"].placeholder', { hasText: "(placeholder)" }).waitFor();
    assert.deepEqual(p.bank[0], { itemId: "logs", quantity: 0 });
    await page.selectOption('#panel [data-bank="coins"] select', "2");
    await page.locator('#panel .bank-tabs button[data-tab="2"]').waitFor();
    assert.equal(p.bank.find((s) => s.itemId === "coins")?.tab, 2);
    assert.equal(await page.locator('#panel [data-bank="coins"]').count(), 0, "not in the main tab any more");
    await page.click('#panel .bank-tabs button[data-tab="2"]');
    await page.locator('#panel [data-bank="coins"]').waitFor();
    await page.click('#panel .bank-tabs button[data-tab="0"]');
    await page.fill("#panel .bank-search", "coi");
    await page.locator('#panel [data-bank="coins"]').waitFor();
    await screenshot(page, "bank-tabs");
    await page.close();
  });
});
