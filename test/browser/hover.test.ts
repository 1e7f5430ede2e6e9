import assert from "node:assert/strict";
import { theWorld } from "../helpers/worldRoom.js";
import { browserSuite, playAsGuest } from "./browser.js";

/**
 * The hover box in Debian's Chromium follows what is under a still pointer: an npc pointed at
 * names itself; once it moves away (the pointer not moving) the box no longer names it.
 */
describe("web client in Chromium: the hover follows things that move under a still pointer", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("an npc that moves from under the pointer is no longer named", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Pointer Pi");
    const { page } = a;
    const world = (await theWorld()).world;
    // The newcomer's hint lies over the map's corner: put it away.
    await page.click('#hint button:has-text("Got it")');
    await page.waitForFunction(() => (window as any).arenaDrawn.settled());
    // An npc drawn well inside the map (the figures listed include some past its edge, which no pointer reaches).
    const figure = await page.waitForFunction(() => {
      const r = document.getElementById("world")!.getBoundingClientRect();
      const [left, top] = [r.left + window.scrollX, r.top + window.scrollY];
      return (
        (window as any).arenaDrawn
          .figures()
          .find((f: any) => f.kind === "npc" && f.x > left + 40 && f.x < left + r.width - 40 && f.y > top + 40 && f.y < top + r.height - 40) ?? null
      );
    });
    const { id, name, x, y } = (await figure.jsonValue()) as { id: string; name: string; x: number; y: number };
    const npc = world.npcs.get(id)!;
    // It stays where it is while pointed at: no wandering.
    const stay = { ...npc.position };
    await page.mouse.move(x, y);
    await page.locator("#hover:not([hidden]) b", { hasText: name }).waitFor();

    npc.position = { x: stay.x + 6, z: stay.z + 6 };
    world.place("npc", npc.id, npc.position);
    await page.waitForFunction((n) => {
      const box = document.getElementById("hover")!;
      return box.hidden || box.querySelector("b")?.textContent !== n;
    }, name);
    const box = await page.locator("#hover").evaluate((b) => ({ hidden: (b as HTMLElement).hidden, name: b.querySelector("b")?.textContent ?? "" }));
    assert.ok(box.hidden || box.name !== name, `the hover no longer names ${name}`);
    await page.close();
  });
});
