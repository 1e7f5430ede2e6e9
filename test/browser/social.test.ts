import assert from "node:assert/strict";
import { browserSuite, playAsGuest, screenshot } from "./browser.js";

/**
 * The Friends tab and the options in Debian's Chromium: one page asks another by name, the other
 * accepts, each sees the other online and in which world, a private message goes from the list;
 * the ignore list takes a name; the run toggle and the zoom are kept in the browser over a reload.
 */
describe("web client in Chromium: friends, private messages, settings", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("a friend request by name, accepted; both online with their world; a private message from the list; the ignore list", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Friendly Fay");
    const b = await playAsGuest(suite.browser, suite.server.url, "Friendly Gus");
    await a.page.click('#tabs button:has-text("Friends")');
    await a.page.fill("#panel .friend-name", b.name);
    await a.page.click('#panel button:has-text("Add friend")');
    await a.page.locator("#panel .status-line", { hasText: `Friend request sent to ${b.name}` }).waitFor();

    await b.page.click('#tabs button:has-text("Friends")');
    await b.page.locator("#panel .request", { hasText: `${a.name} asks to be your friend` }).waitFor();
    await b.page.click('#panel .request button:has-text("Accept")');
    const row = b.page.locator(`#panel [data-friend="${a.name}"]`);
    await row.waitFor();
    assert.match((await row.textContent()) ?? "", /World \d+/);

    // Fay's list shows Gus online in his world once it is read again (the tab reads it when opened).
    await a.page.click('#tabs button:has-text("Pack")');
    await a.page.click('#tabs button:has-text("Friends")');
    await a.page.locator(`#panel [data-friend="${b.name}"] .dot.online`).waitFor();
    await a.page.click(`#panel [data-friend="${b.name}"] button:has-text("Message")`);
    await a.page.fill(".chat form input >> nth=0", "hello from the list");
    await a.page.press(".chat form input >> nth=0", "Enter");
    await b.page.locator(".chat .log .private", { hasText: `From ${a.name}: hello from the list` }).waitFor();
    await screenshot(a.page, "friends");

    await b.page.fill("#panel .friend-name", a.name);
    await b.page.click('#panel button:has-text("Ignore")');
    await b.page.locator(`#panel [data-ignored="${a.name}"]`).waitFor();
    await b.page.click(`#panel [data-ignored="${a.name}"] button:has-text("Unignore")`);
    await b.page.locator(`#panel [data-ignored="${a.name}"]`).waitFor({ state: "detached" });
    await Promise.all([a.page.close(), b.page.close()]);
  });

  it("the run toggle and the zoom are kept in the browser", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Runner Ray");
    const { page } = a;
    await page.click("#run");
    await page.locator("#run.on").waitFor();
    await page.click("#zoom-in");
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem("arena.settings") ?? "{}"));
    assert.equal(saved.run, true);
    assert.equal(saved.zoom, 32);
    // A reload goes straight back into the world (the tab kept its login), settings and all.
    await page.reload();
    await page.waitForSelector("#game:not([hidden])");
    await page.locator("#run.on").waitFor();
    await page.click('#tabs button:has-text("Options")');
    assert.equal(await page.locator("#panel select").inputValue(), "32");
    await page.close();
  });
});
