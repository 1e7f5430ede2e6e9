import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { place, theWorld } from "../helpers/worldRoom.js";
import { browserSuite, playAsGuest, screenshot, settledOn, tileOnPage } from "./browser.js";

/** The colour drawn at a page point (r, g, b). */
async function colourAt(page: Page, p: { x: number; y: number }): Promise<[number, number, number]> {
  return page.evaluate(({ x, y }) => {
    const canvas = document.getElementById("world") as HTMLCanvasElement;
    const r = canvas.getBoundingClientRect();
    const px = canvas
      .getContext("2d")!
      .getImageData(((x - r.left - window.scrollX) * canvas.width) / r.width, ((y - r.top - window.scrollY) * canvas.height) / r.height, 1, 1).data;
    return [px[0]!, px[1]!, px[2]!] as [number, number, number];
  }, p);
}

const roofs = (page: Page) => page.evaluate(() => (window as any).arenaDrawn.roofs() as string[]);

/**
 * Roofs in Debian's Chromium: the buildings in view are drawn roofed (the bank in slate, the
 * store in red tiles), not as their plank floors; none over the building the player stands in;
 * Options' Roofs takes them all away.
 */
describe("web client in Chromium: roofs over the buildings", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("the bank and the store are roofed from outside, the one the player is in is not, and Options turns them off", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Roof Watcher");
    const { page } = a;
    const room = await theWorld();
    await page.click('#hint button:has-text("Got it")');
    // South of the bank and the store, both in view (the bank spans 90..97 × 108..111).
    place(room, a.id, { x: 100, z: 104 });
    await settledOn(page, { x: 100, z: 104 });
    await page.waitForFunction(() => ["brindlemere_bank", "pells_provisions"].every((id) => (window as any).arenaDrawn.roofs().includes(id)));
    const bankMiddle = await tileOnPage(page, 93, 109);
    const storeMiddle = await tileOnPage(page, 105, 109);
    const bankRoof = await colourAt(page, bankMiddle);
    const storeRoof = await colourAt(page, storeMiddle);
    await screenshot(page, "roofs-outside");
    // Slate is grey-blue, tiles are red: two roofs of their own kinds, neither the floor's brown planks.
    assert.ok(bankRoof[2] > bankRoof[0], `the bank's roof is slate (${bankRoof})`);
    assert.ok(storeRoof[0] > storeRoof[2] + 40, `the store's roof is red tiles (${storeRoof})`);

    // Put inside the bank (as a staff teleport could): its roof is lifted, the store's stays.
    place(room, a.id, { x: 93, z: 109 });
    await settledOn(page, { x: 93, z: 109 });
    await page.waitForFunction(() => !(window as any).arenaDrawn.roofs().includes("brindlemere_bank"));
    assert.ok((await roofs(page)).includes("pells_provisions"), "the store's roof stays");
    const floor = await colourAt(page, await tileOnPage(page, 92, 110));
    assert.ok(floor[0] > floor[2] + 30 && floor[1] > floor[2], `the bank's planks show (${floor})`);
    assert.notDeepEqual(floor, bankRoof);

    // Roofs off in Options: none drawn, the store's floor shows.
    place(room, a.id, { x: 100, z: 104 });
    await settledOn(page, { x: 100, z: 104 });
    await page.click('#tabs button:has-text("Options")');
    await page.locator("label.option", { hasText: "Roofs" }).locator("input").uncheck();
    await page.waitForFunction(() => (window as any).arenaDrawn.roofs().length === 0);
    assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem("arena.settings") ?? "{}").roofs), false, "kept with the settings");
    const storeFloor = await colourAt(page, await tileOnPage(page, 105, 109));
    assert.notDeepEqual(storeFloor, storeRoof, "the store drawn without its roof");
    await page.close();
  });
});
