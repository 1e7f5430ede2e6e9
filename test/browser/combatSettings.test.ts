import assert from "node:assert/strict";
import { theWorld } from "../helpers/worldRoom.js";
import { browserSuite, playAsGuest, screenshot } from "./browser.js";

/**
 * The combat tab in Debian's Chromium: auto-retaliate turned off and on (the server's setting, kept
 * with the character), and the home teleport cast from its button, which then shows the cooldown.
 */
describe("web client in Chromium: auto-retaliate and the home teleport", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("the Combat tab turns auto-retaliate off and on, and casts the home teleport", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Homebound Hal");
    const { page } = a;
    const world = (await theWorld()).world;
    const p = world.players.get(a.id)!;
    await page.click('#tabs button:has-text("Combat")');
    await page.click('#panel button:has-text("Auto retaliate: on")');
    await page.locator('#panel button:has-text("Auto retaliate: off")').waitFor();
    assert.equal(p.vars.autoRetaliate, false, "the server's setting");
    await page.click('#panel button:has-text("Auto retaliate: off")');
    await page.locator('#panel button:has-text("Auto retaliate: on")').waitFor();
    assert.equal(p.vars.autoRetaliate, true);

    // Away from the spawn, cast the home teleport; the button shows the cast, then the cooldown.
    p.tile = { x: world.spawnTile.x + 5, z: world.spawnTile.z - 4 };
    world.place("player", p.id, p.tile);
    world.touchPlayer(p, true);
    await page.click('#panel button:has-text("Home teleport")');
    await page.locator('#panel button:has-text("casting")').waitFor();
    await page.locator('#panel button:has-text("ready at")').waitFor({ timeout: 20_000 });
    assert.deepEqual(p.tile, world.spawnTile);
    assert.equal(await page.locator('#panel button:has-text("ready at")').isDisabled(), true);
    await screenshot(page, "combat-settings");
    await page.close();
  });
});
