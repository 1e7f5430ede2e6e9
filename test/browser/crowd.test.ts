import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { theWorld } from "../helpers/worldRoom.js";
import { browserSuite, playAsGuest, screenshot } from "./browser.js";

interface Label {
  kind: "name" | "said";
  id: string;
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const overlap = (a: Label, b: Label) => a.x0 < b.x1 && a.x1 > b.x0 && a.y0 < b.y1 && a.y1 > b.y0;

/** What A's page drew in a frame in which both players' figures are there (and, with `said`, that many lines of speech). */
async function drawn(page: Page, ids: string[], said = 0) {
  const handle = await page.waitForFunction(
    ({ ids, said }) => {
      const d = (window as any).arenaDrawn;
      if (!d.settled()) return null;
      const figures = d.figures().filter((f: any) => ids.includes(f.id));
      const labels = d.labels().filter((l: any) => ids.includes(l.id));
      if (figures.length < ids.length || labels.filter((l: any) => l.kind === "said").length < said) return null;
      return { figures, labels };
    },
    { ids, said },
  );
  return (await handle.jsonValue()) as { figures: Array<{ id: string; x: number; y: number }>; labels: Label[] };
}

/**
 * Two players on one tile in Debian's Chromium: their figures stand apart, their names one above
 * the other, and what each says is drawn clear of the other's line and of the names.
 */
describe("web client in Chromium: a readable crowd", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("two players on one tile: figures apart, names stacked, speech not on top of each other", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Crowd Ada");
    const b = await playAsGuest(suite.browser, suite.server.url, "Crowd Bea");
    const world = (await theWorld()).world;
    const pa = world.players.get(a.id)!;
    const pb = world.players.get(b.id)!;
    pb.tile = { ...pa.tile };
    pb.path = [];
    world.place("player", pb.id, pb.tile);
    world.touchPlayer(pb, true);
    await a.page.click('#hint button:has-text("Got it")');

    const first = await drawn(a.page, [a.id, b.id]);
    const [fa, fb] = [a.id, b.id].map((id) => first.figures.find((f) => f.id === id)!);
    assert.ok(Math.abs(fa!.x - fb!.x) >= 8, `the two figures stand apart (${fa!.x} and ${fb!.x})`);
    const names = first.labels.filter((l) => l.kind === "name");
    assert.equal(names.length, 2, "both names are drawn");
    assert.ok(!overlap(names[0]!, names[1]!), `the names do not cover each other: ${JSON.stringify(names)}`);

    // Both say something at once: two lines, clear of each other and of the names.
    for (const [p, text] of [
      [a.page, "Anyone for a trade?"],
      [b.page, "Selling logs here!"],
    ] as const) {
      await p.fill("#chat form input >> nth=0", text);
      await p.press("#chat form input >> nth=0", "Enter");
    }
    const both = await drawn(a.page, [a.id, b.id], 2);
    const said = both.labels.filter((l) => l.kind === "said");
    assert.deepEqual(said.map((l) => l.text).sort(), ["Anyone for a trade?", "Selling logs here!"]);
    assert.ok(!overlap(said[0]!, said[1]!), `the lines of speech do not cover each other: ${JSON.stringify(said)}`);
    for (const line of said)
      for (const name of both.labels.filter((l) => l.kind === "name")) assert.ok(!overlap(line, name), `"${line.text}" does not cover ${name.text}`);
    await screenshot(a.page, "crowd-one-tile");

    // A right click on one of them offers that one, not the other.
    const onB = both.figures.find((f) => f.id === b.id)!;
    await a.page.mouse.click(onB.x, onB.y, { button: "right" });
    const menu = await a.page.locator("#menu:not([hidden])").innerText();
    assert.match(menu, /Trade with Crowd Bea/);
    await a.page.keyboard.press("Escape");
    await b.page.close();
    await a.page.close();
  });
});
