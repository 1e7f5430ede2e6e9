import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { givePack, place, setRng, theWorld } from "../helpers/worldRoom.js";
import { browserSuite, playAsGuest, settledOn, tileOnPage } from "./browser.js";

interface DrawnFigure {
  kind: string;
  id: string;
  pose: string;
  x: number;
  y: number;
}

/** Wait until the last frame drew `id` in `pose`, and return where. */
async function drawnIn(page: Page, id: string, pose: string): Promise<DrawnFigure> {
  const f = await page.waitForFunction(
    ([id, pose]) => ((window as any).arenaDrawn.figures() as DrawnFigure[]).find((f) => f.id === id && f.pose === pose) ?? null,
    [id, pose] as const,
  );
  return (await f.jsonValue()) as DrawnFigure;
}

/** The pixels of a figure's sprite around where it stands on the page. */
async function pixelsAt(page: Page, f: DrawnFigure): Promise<Buffer> {
  return page.screenshot({ clip: { x: f.x - 30, y: f.y - 50, width: 60, height: 70 } });
}

/**
 * Animations in Debian's Chromium: a player chopping a tree is drawn with its arms raised to chop
 * (not as it stands), a blow is drawn swung, and an npc killed falls where it stood and fades.
 */
describe("web client in Chromium: animations for actions and deaths", function () {
  this.timeout(120_000);
  const suite = browserSuite();

  it("a player chopping a tree is drawn chopping, in other pixels than standing", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Axe Swinger");
    const { page } = a;
    const room = await theWorld();
    const world = room.world;
    setRng(room, 0.999); // every chop misses: the player goes on chopping
    try {
      await page.click('#hint button:has-text("Got it")');
      const tree = [...world.resources.values()].find((r) => r.skill === "woodcutting" && !r.depleted)!;
      givePack(room, a.id, [["bronze_hatchet", 1]]);
      place(room, a.id, { x: tree.tile.x - 1, z: tree.tile.z });
      await settledOn(page, { x: tree.tile.x - 1, z: tree.tile.z });
      const before = await drawnIn(page, a.id, "stand");

      await page.evaluate((targetId) => (window as any).arena.game.net.send("player:action", { action: "gather", targetId }), tree.id);
      const chopping = await drawnIn(page, a.id, "chop");
      assert.equal(world.players.get(a.id)!.action?.type, "gather");
      assert.deepEqual([Math.round(chopping.x), Math.round(chopping.y)], [Math.round(before.x), Math.round(before.y)], "it chops where it stood");
      const choppingPixels = await pixelsAt(page, chopping);
      // It stops (facing the tree as it did): drawn standing again, in other pixels.
      place(room, a.id, { x: tree.tile.x - 1, z: tree.tile.z });
      const standing = await drawnIn(page, a.id, "stand");
      assert.notDeepEqual(await pixelsAt(page, standing), choppingPixels, "the chopping figure is drawn otherwise than the standing one");
    } finally {
      (world as unknown as { rng: () => number }).rng = Math.random;
      await page.close();
    }
  });

  it("a blow is drawn swung, and an npc killed falls and fades where it stood", async () => {
    const a = await playAsGuest(suite.browser, suite.server.url, "Chicken Chaser");
    const { page } = a;
    const room = await theWorld();
    const world = room.world;
    // Every blow that lands deals its most; a blow that misses is followed by one that lands.
    setRng(room, [0, 0.99]);
    try {
      await page.click('#hint button:has-text("Got it")');
      const chicken = [...world.npcs.values()].find((n) => n.defId === "chicken" && n.deadUntilTick == null)!;
      chicken.wanderTo = null;
      chicken.health = 1;
      const beside = { x: chicken.position.x - 1, z: chicken.position.z };
      place(room, a.id, beside);
      await page.waitForFunction((id) => (window as any).arena.game.net.state.npcs.get(id) !== undefined, chicken.id);
      await settledOn(page, beside);
      // Watched from before the attack: the blow's pose lasts less than half a second.
      const swung = drawnIn(page, a.id, "swing");
      const fell = drawnIn(page, chicken.id, "die");
      await page.evaluate((targetId) => (window as any).arena.game.net.send("player:action", { action: "attack", targetId }), chicken.id);
      await swung;
      const lying = await fell;
      assert.ok(chicken.deadUntilTick != null, "the chicken is dead on the server");
      // It is no longer drawn standing while it lies there, and nothing of it stays once it faded.
      const drawn = (await page.evaluate(() => (window as any).arenaDrawn.figures())) as DrawnFigure[];
      assert.ok(!drawn.some((f) => f.id === chicken.id && f.pose !== "die"), "not drawn alive while it falls");
      const spot = await tileOnPage(page, chicken.position.x, chicken.position.z);
      // Where it was drawn when it died: on its tile, or on the way to the next.
      const tilePx = (await tileOnPage(page, chicken.position.x + 1, chicken.position.z)).x - spot.x;
      assert.ok(Math.hypot(lying.x - spot.x, lying.y - spot.y) < 1.5 * tilePx, `it falls on its tile (${JSON.stringify(lying)} by ${JSON.stringify(spot)})`);
      await page.waitForFunction((id) => !((window as any).arenaDrawn.figures() as DrawnFigure[]).some((f) => f.id === id), chicken.id);
    } finally {
      (world as unknown as { rng: () => number }).rng = Math.random;
      await page.close();
    }
  });
});
