import assert from "node:assert/strict";
import { theWorld } from "../helpers/worldRoom.js";
import { until } from "../helpers/tradeSuite.js";
import { chooseOnPlayer, browserSuite, playAsGuest, screenshot, tileOnPage } from "./browser.js";

/** A staked duel between two pages: the challenge, the three screens, the arena, a forfeit, the stake paid. */
describe("web client in Chromium: a duel", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("two pages agree on rules and stakes, fight in the arena, and the forfeit pays the winner", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Duel Ada");
    const b = await playAsGuest(suite.browser, suite.server.url, "Duel Ben");
    const world = await theWorld();
    await chooseOnPlayer(a, b, `Challenge ${b.name}`);
    await b.page.locator("#dialog", { hasText: `${a.name} challenges you to a duel` }).waitFor();
    await b.page.click('#dialog button:has-text("Accept")');

    // Rules: both accept as they are.
    for (const p of [a.page, b.page]) await p.locator("#dialog h3", { hasText: "— rules" }).waitFor();
    await a.page.click('#dialog button:has-text("Accept")');
    await b.page.locator("#dialog .accepted").first().waitFor();
    await b.page.click('#dialog button:has-text("Accept")');

    // Stakes: Ben stakes his 25 coins.
    for (const p of [a.page, b.page]) await p.locator("#dialog h3", { hasText: "— stakes" }).waitFor();
    // A click on the coins stakes them: how many is asked in the amount box.
    await b.page.click('.slot[data-item="coins"]');
    await b.page.locator("#amount:not([hidden]) input").fill("25");
    await b.page.keyboard.press("Enter");
    await a.page.locator('#dialog [data-staked="coins"]', { hasText: "×25" }).waitFor();
    await screenshot(a.page, "duel-stakes");
    await a.page.click('#dialog button:has-text("Accept")');
    await b.page.locator("#dialog .accepted").first().waitFor();
    await b.page.click('#dialog button:has-text("Accept")');

    // Confirm, then the arena.
    for (const p of [a.page, b.page]) await p.locator("#dialog h3", { hasText: "— confirm" }).waitFor();
    await a.page.click('#dialog button:has-text("Accept")');
    await b.page.locator("#dialog .accepted").first().waitFor();
    await b.page.click('#dialog button:has-text("Accept")');
    await b.page.locator(".chat .log div", { hasText: "Fight!" }).waitFor({ timeout: 30_000 });
    // A click on the opponent attacks (their first option once the fight is on).
    await a.page.locator(".chat .log div", { hasText: "Fight!" }).waitFor();
    const at = world.world.players.get(b.id)!.tile;
    const onBen = await tileOnPage(a.page, at.x, at.z);
    await a.page.mouse.click(onBen.x, onBen.y);
    await until(() => {
      const action = world.world.players.get(a.id)!.action;
      return action?.type === "attack" && action.targetId === b.id;
    });
    await screenshot(b.page, "duel-arena");
    await b.page.click('#dialog button:has-text("Forfeit")');

    await a.page.locator("#dialog").waitFor({ state: "hidden" });
    const coins = (id: string) => world.world.players.get(id)!.inventory.reduce((n, s) => n + (s?.itemId === "coins" ? s.quantity : 0), 0);
    await a.page.waitForFunction(() => (window as any).arena.game.me.inventory.some((s: any) => s.itemId === "coins" && s.quantity === 50));
    assert.equal(coins(a.id), 50);
    assert.equal(coins(b.id), 0);
    await screenshot(a.page, "duel-won");
  });
});
