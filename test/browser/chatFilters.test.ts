import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { grantXp } from "../../src/game/world/xp.js";
import { theWorld } from "../helpers/worldRoom.js";
import { browserSuite, playAsGuest } from "./browser.js";

/** The chat lines the page shows now (hidden ones left out). */
const visibleLines = (page: Page) =>
  page.$$eval(".chat .log > div", (lines) => lines.filter((l) => (l as HTMLElement).offsetParent !== null).map((l) => l.textContent ?? ""));

/**
 * The chat box's filters in Debian's Chromium: Game hides what is said and the xp lines, Public
 * shows only what is said, a filter with lines hidden from the chosen one gets an unread mark, and
 * the choice is kept over a reload.
 */
describe("web client in Chromium: the chat box's filters", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("Game, Public, Private and All show their lines, mark the unread, and are kept", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Filter Fay");
    const b = await playAsGuest(suite.browser, suite.server.url, "Filter Gus");
    const { page } = a;
    const world = (await theWorld()).world;
    await page.locator('.chat-filters button.active[data-filter="all"]').waitFor();

    // Game: the game's lines, neither what is said nor the xp.
    await page.click('.chat-filters button[data-filter="game"]');
    await page.fill("#chat form input >> nth=0", "Fine weather for fishing");
    await page.press("#chat form input >> nth=0", "Enter");
    await page.locator('.chat-filters button.unread[data-filter="public"]').waitFor();
    grantXp(world, world.players.get(a.id)!, "fishing", 100);
    await page.locator(".chat .log div", { hasText: "your fishing level is now 2" }).waitFor();
    let lines = await visibleLines(page);
    assert.ok(
      lines.some((l) => l.startsWith("Welcome to the world")),
      "the game's welcome shows under Game",
    );
    assert.ok(
      lines.some((l) => l.includes("fishing level is now 2")),
      "the level-up shows under Game",
    );
    assert.ok(!lines.some((l) => l.includes("Fine weather")), "what is said is hidden under Game");
    assert.ok(!lines.some((l) => /\+\d+ fishing xp/.test(l)), "the xp lines are hidden under Game");

    // A private message marks Private (and Public stays marked) while Game is chosen.
    await b.page.selectOption("#chat form select", "private");
    await b.page.fill("#chat form input.to", a.name);
    await b.page.fill("#chat form input >> nth=0", "psst, want some logs?");
    await b.page.press("#chat form input >> nth=0", "Enter");
    await page.locator('.chat-filters button.unread[data-filter="private"]').waitFor();
    assert.equal(await page.locator('.chat-filters button[data-filter="game"]').getAttribute("aria-pressed"), "true");

    // Public: only what is said in public; its mark goes once chosen.
    await page.click('.chat-filters button[data-filter="public"]');
    lines = await visibleLines(page);
    assert.deepEqual(lines, ["Filter Fay: Fine weather for fishing"]);
    assert.equal(await page.locator('.chat-filters button.unread[data-filter="public"]').count(), 0, "the mark goes when chosen");

    await page.click('.chat-filters button[data-filter="private"]');
    assert.deepEqual(await visibleLines(page), ["From Filter Gus: psst, want some logs?"]);

    // Kept over a reload.
    await page.reload();
    await page.waitForSelector("#game:not([hidden])", { timeout: 20_000 });
    await page.locator('.chat-filters button.active[data-filter="private"]').waitFor();
    assert.deepEqual(await visibleLines(page), ["From Filter Gus: psst, want some logs?"], "the kept lines come back, filtered");

    // All: every line again, the xp ones too.
    await page.click('.chat-filters button[data-filter="all"]');
    lines = await visibleLines(page);
    assert.ok(lines.some((l) => /\+\d+ fishing xp/.test(l)) && lines.some((l) => l.includes("Fine weather")) && lines.some((l) => l.includes("psst")));
    await b.page.close();
    await page.close();
  });
});
