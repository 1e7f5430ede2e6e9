import assert from "node:assert/strict";
import { theWorld } from "../helpers/worldRoom.js";
import { browserSuite, chooseOnTile, playAsGuest, screenshot } from "./browser.js";

/**
 * The hiscores window in Debian's Chromium: opened from the Skills tab, the overall ranking with the
 * player's own row marked, a skill's board, the duel arena's board, and the pages turned.
 */
describe("web client in Chromium: the hiscores", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("opens from the Skills tab: the overall ranking with my row marked, a skill's and the duel arena's boards", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Ranked Rae");
    const { page } = a;
    await page.click('#tabs button:has-text("Skills")');
    await page.click("#panel button.open-hiscores");
    await page.locator("#dialog[data-owner=hiscores]").waitFor();
    const mine = page.locator(`#dialog table.hiscores tr.me[data-name="${a.name}"]`);
    await mine.waitFor();
    // Rank, name, total level (18 skills, constitution at 10: 27), xp.
    const cells = await mine.locator("td").allTextContents();
    assert.match(cells[0]!, /^\d+$/);
    assert.equal(cells[1], a.name);
    assert.equal(cells[2], "27");
    assert.match((await page.locator("#dialog .hiscores-page").textContent()) ?? "", /^page 1 of \d+$/);
    assert.equal(await page.locator("#dialog button:has-text('Previous')").isDisabled(), true);

    await page.selectOption("#dialog select.hiscores-board", "woodcutting");
    await page.locator("#dialog table.hiscores th", { hasText: /^Level$/ }).waitFor();
    await page.locator(`#dialog table.hiscores tr[data-name="${a.name}"]`).waitFor();
    await screenshot(page, "hiscores");

    await page.selectOption("#dialog select.hiscores-board", "duels");
    await page.locator("#dialog table.hiscores th", { hasText: "Wins" }).waitFor();
    await page.locator("#dialog .answer", { hasText: "Nobody has won a staked duel yet." }).waitFor();
    await page.click("#dialog button:has-text('Close')");
    await page.locator("#dialog").waitFor({ state: "hidden" });
    await page.close();
  });

  it("talking to the duelling yard's board opens the hiscores on the duel arena's board", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Curious Cora");
    const { page } = a;
    const world = (await theWorld()).world;
    const board = [...world.npcs.values()].find((n) => n.services.includes("scoreboard"))!;
    const p = world.players.get(a.id)!;
    p.tile = { x: board.position.x, z: board.position.z - 1 };
    world.place("player", p.id, p.tile);
    world.touchPlayer(p, true);
    await page.waitForFunction((id) => (window as any).arena.game.net.state.npcs.get(id) !== undefined, board.id);
    await chooseOnTile(page, board.position.x, board.position.z, "Talk-to Duelling Board");
    await page.locator("#dialog[data-owner=hiscores]").waitFor();
    assert.equal(await page.locator("#dialog select.hiscores-board").inputValue(), "duels");
    await page.locator("#dialog table.hiscores th", { hasText: "Wins" }).waitFor();
    await page.close();
  });
});
